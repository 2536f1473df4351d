"""EngineHost: all the built-in engine uses of its machine (PC1360 provides it; the
engine tests use tests/helpers/bare_machine.py, one complete fake of it).

The engine keeps the machine's state in `mem` as the firmware does (program, variables,
display RAM and its text buffer, status symbols); through the rest it reads the keys,
drives the pins of the two connectors, the display's power and font and the buzzer, and
learns the time.
"""

from typing import Protocol

from pc1360.facts import FO_SD, KEY_STROBE_ADDR, KEYWAIT_STROBE, SIO_LATCH


class HeldKeys(Protocol):
    pressed: set[str]           # the names of the keys held down (docs/interfaces.md)

    def read_all(self) -> None: ...     # the program has looked at the keys (INKEY$, key wait)


class HostBus(Protocol):
    """The ports: the latch at 0x3800 (SIO lines) and the key strobe at 0x3E00 are
    written through write(); OUTC (control: bit 0 the display, bits 4-6 Xout) and FO
    (bit 1 SD) through outc()/outf(); inb() reads IB (RD, CS, CD)."""
    control: int
    fo: int
    card_sizes: list[int]       # bytes of the card in each slot
    slot: int                   # the slot 0x8000-0xFFFF shows

    def write(self, addr: int, value: int) -> None: ...
    def outc(self, value: int) -> None: ...
    def outf(self, value: int) -> None: ...
    def inb(self) -> int: ...


class TapeDeck(Protocol):
    tape: object                # what is inserted (compared by identity: a new tape)

    def play(self) -> list[tuple[int, int]]: ...   # (cycle, level) of Xin from now on


class Display(Protocol):
    enabled: bool

    def set_font(self, font: dict[int, bytes]) -> None: ...


class Buzzer(Protocol):
    mode: int                   # Xout mode (3: the 4 kHz tone, 0: silent)

    def set_mode(self, now: int, mode: int) -> None: ...


class EngineHost(Protocol):
    mem: bytearray              # 64 KB as the CPU sees it
    keyboard: HeldKeys
    bus: HostBus
    cassette: TapeDeck
    lcd: Display
    buzzer: Buzzer
    card_kb: int                # the size of the card in S1
    off: bool                   # powered off (OFF): the display stays dark
    halted: bool                # a debugger stopped the machine: run() returns at once

    def now(self) -> int: ...                          # the exact cycle count
    def poke(self, addr: int, value: int) -> None: ...  # write as the CPU would
    def power_off(self) -> None: ...                   # the OFF key


class Pins:
    """The port bits the engine drives, on the host's bus (looked up at each access,
    so that whatever wraps the bus sees them)."""

    def __init__(self, host: EngineHost):
        self.host = host

    def latch(self, value):
        self.host.bus.write(SIO_LATCH, value)   # ER/RR/RS, bits 1-3

    def inb(self):
        return self.host.bus.inb()

    def sd(self, space):
        bus = self.host.bus
        bus.outf((bus.fo & ~FO_SD) | (FO_SD if space else 0))

    def xout(self, mode):
        """The cassette's Xout mode (OUTC bits 4-6)."""
        bus = self.host.bus
        bus.outc((bus.control & 0x8F) | mode << 4)

    def strobe(self):
        """What the firmware's key-wait loop writes to the key strobe each round."""
        self.host.bus.write(KEY_STROBE_ADDR, KEYWAIT_STROBE)

    def display_on(self):
        """OUTC bit 0, and the display shows (unless the machine is off)."""
        host = self.host
        host.bus.control |= 1
        if not host.off:
            host.lcd.enabled = True

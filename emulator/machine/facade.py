"""PC1360: the facade that front-ends, tools and tests use (docs/interfaces.md)."""

import struct
from dataclasses import dataclass

from emulator.connectors.cassette import Cassette
from emulator.connectors.sio import SerialPort
from emulator.machine import key_script as keys
from emulator.machine import romset
from emulator.machine.key_matrix import Keyboard
from emulator.machine.lcd import LCD
from emulator.machine.memmap import CARD_SIZES_KB, Bus
from emulator.machine.timers import Buzzer, Timers
from pc1360.facts import BANK_COUNT, CYCLES_PER_SECOND, DIM_PTR, SYSTEM_RAM
from pc1360.ramcard import program_writes

# cycles per engine call (10 ms) when the engine needs slices (the built-in engine, the
# firmware under the debugger) or the SIO has a host link to pump: the granularity of OFF
# and of the link; else one engine call runs all the time asked for
SLICE = 2_560
KEY_HOLD = 0.045  # seconds a typed key is held for the key-wait loop (docs/hardware.md §6.3)
KEY_GAP = 0.010  # seconds after a release before looking for the key-wait loop again
READY_STROBES = 3  # 0x3F strobe writes (~1547 cycles apart) that show the key-wait loop
READY_TIMEOUT = 3.0  # emulated seconds to wait for it; then the key is pressed anyway
# A program polling INKEY$ (docs/hardware.md §6.3): its reads of a matrix line come at
# least POLL_GAP cycles apart (a BASIC statement), the firmware's own scans (at boot,
# while a key goes up) ~1,400 apart. A key is held until such a read has seen it, at least POLL_HOLD,
# and let go within READ_STEP cycles of the read, before the program can read it again.
POLL_GAP = 3_000
POLL_HOLD = 0.010
READ_STEP = 256
READY_STEP = 512  # cycles between looks while waiting for a key to be read
KEYWAIT_RECENT = 3_200  # cycles: a read this soon after a 0x3F strobe is the key-wait loop's
# Power-off state (kept with the card, see emulator/machine/card_file.py): engine tag, ROM bank, strobe,
# IA, IB, FO, control port; then system RAM (pc1360.facts.SYSTEM_RAM); then the engine's
# own state.
_STATE_HEADER = struct.Struct("<8s6B")
_SYSTEM_RAM = slice(*SYSTEM_RAM)


@dataclass
class Snapshot:
    """Everything needed to put a machine back exactly (for tests and front-ends)."""
    mem: bytes
    engine: object
    bus: tuple
    timers: tuple
    buzzer: tuple
    pressed: frozenset
    cycles: int
    off: bool
    lcd_enabled: bool


class PC1360:
    """A PC-1360 with a RAM card in slot S1 (and optionally S2) and an engine.

    engine: "firmware" (the SC61860 running the ROM set from `rom_dir`, or from the user data
    directory; `roms` may pass an already loaded romset.RomSet), "builtin" (emulator/builtin/,
    no ROM needed; the machine is its host, emulator/builtin/host.EngineHost), or a callable
    factory(machine) -> engine with reset() and run(cycles) -> cycles.
    """

    CYCLES_PER_SECOND = CYCLES_PER_SECOND

    def __init__(self, engine="firmware", card_kb=32, card2_kb=None, rom_dir=None, roms=None,
                 card_data=None):
        for size in (card_kb, card2_kb):
            if size is not None and size not in CARD_SIZES_KB:
                raise ValueError(f"card size must be one of {CARD_SIZES_KB} KB, not {size}")
        self.mem = bytearray(0x10000)
        self.keyboard = Keyboard(self.now)
        self.lcd = LCD(self.mem)
        self.timers = Timers()
        self.buzzer = Buzzer()
        self.cycles = 0
        self.off = False
        # A debugger (emulator/debug) stopped the machine inside a slice: run_cycles and the
        # key drivers return at once until it lets the machine go on.
        self.halted = False
        self._debugger = None
        self._card_store = None
        self.card_kb = card_kb
        if engine == "firmware" and roms is None:
            roms = romset.load(romset.resolve_dir(rom_dir))
        self.bus = Bus(self, roms, [card_kb * 1024, (card2_kb or 0) * 1024])
        self.sio = SerialPort(self)  # the 15-pin connector (emulator/connectors/sio.py)
        self.cassette = Cassette(self)  # Xin/Xout of the 11-pin connector (emulator/connectors/cassette.py)
        if card_data is not None:
            self.bus.set_card_data(0, card_data)
        if engine == "firmware":
            from emulator.machine.firmware_engine import FirmwareEngine
            self.engine = FirmwareEngine(self, roms)
        elif engine == "builtin":  # the ROM-less BASIC of emulator/builtin/
            from emulator.builtin.engine import BuiltinEngine
            self.engine = BuiltinEngine(self)
        else:
            self.engine = engine(self)
        self._progress = getattr(self.engine, "progress", None)
        self._runs_whole = getattr(self.engine, "runs_whole", None)
        self._stop_at = getattr(self.engine, "stop_at", None)
        self.reset()

    # -- power and time ----------------------------------------------------------------
    def reset(self):
        """The RESET button: PC 0, ports cleared; RAM (card and LCD) is kept."""
        self.bus.reset()
        self.timers.restart(self.cycles)
        self.lcd.enabled = False
        self.off = False
        self.engine.reset()

    def now(self):
        """The exact cycle count, also in the middle of an engine run."""
        return self.cycles + (self._progress() if self._progress else 0)

    def power_off(self):
        """OUTC bit 3: the display goes blank and the CPU stops until BRK/ON, once the count
        reaches the next multiple of SLICE (the firmware's code after the OUTC runs on to
        its wait for ON), however long the engine's run."""
        self.off = True
        self.lcd.enabled = False
        if self._stop_at:
            self._stop_at((self.now() // SLICE + 1) * SLICE)

    def power_on(self):
        """BRK/ON after OFF: the CPU goes on after its OUTC (the ROM's code there turns the
        display back on and returns to the key-wait loop: the machine shows what it showed)."""
        self.off = False
        self.lcd.enabled = bool(self.bus.control & 1)

    def write_floor_changed(self):
        """The slot switched: a CPU-based engine must route card writes anew."""
        hook = getattr(self.engine, "write_floor_changed", None)
        if hook:
            hook()

    @property
    def emulated_seconds(self):
        return self.cycles / CYCLES_PER_SECOND

    def run_cycles(self, n):
        """Run about `n` cycles (the engine stops at an instruction boundary); returns the
        cycles run. A front-end calls this once per frame."""
        target = self.cycles + n
        while self.cycles < target and not self.halted:
            budget = self._slice(target - self.cycles)
            if self.off:
                self.cycles += budget
            else:
                self.cycles += self.engine.run(budget)
            self.sio.poll()
        if self._card_store:
            self._card_store.autosave(self.card_data, self.power_state)
        return n + (self.cycles - target)

    def _slice(self, budget):
        """The cycles of the next engine call, at most `budget`: all of them for an engine
        that runs whole stretches, unless the SIO has a link to pump; else a slice, which
        for the firmware ends on a multiple of SLICE (where it stops at OFF)."""
        if self._runs_whole and self.sio.link is None and self._runs_whole():
            return budget
        return min(SLICE - self.cycles % SLICE if self._stop_at else SLICE, budget)

    def run_for(self, seconds):
        return self.run_cycles(round(seconds * CYCLES_PER_SECOND))

    # -- keyboard ------------------------------------------------------------------------
    def press(self, key):
        if key == "BRK" and self.off:
            self.power_on()
        self.keyboard.press(key)

    def release(self, key):
        self.keyboard.release(key)

    def key_wait_ready(self, timeout=READY_TIMEOUT):
        """Run until the firmware is in its key-wait loop (a few 0x3F strobe writes since
        now); False if it did not get there within `timeout` emulated seconds (a program
        polling INKEY$ never enters that loop)."""
        return self.ready_for(None, timeout)

    def ready_for(self, key, timeout=READY_TIMEOUT):
        """Run until a press of `key` will be read: the machine waits in its key-wait loop,
        or (key given) a program polls INKEY$: two reads of the key's line in a row, each
        POLL_GAP or more after the one before, and no key-wait strobe. False if neither came
        within `timeout` emulated seconds."""
        bus = self.bus
        start = bus.keywait_count
        lines = self.keyboard.reads(key) if key else None
        seen = lines.count if lines else 0
        polls = 0  # reads in a row that came POLL_GAP or more apart
        deadline = self.cycles + round(timeout * CYCLES_PER_SECOND)
        while True:
            strobes = bus.keywait_count - start
            if strobes >= READY_STROBES:
                return True
            if lines and lines.count != seen:
                # (a sample's step is shorter than POLL_GAP: a closer pair shows as `gap`)
                polls = polls + lines.count - seen if lines.gap >= POLL_GAP else 0
                seen = lines.count
                if polls >= 2 and not strobes:
                    return True
            if self.cycles >= deadline or self.halted:
                return False
            self.run_cycles(READY_STEP)

    def tap(self, key, hold=None, timeout=READY_TIMEOUT, ready=True):
        """Press and release one key the way a person would: wait (up to `timeout`) until it
        will be read (ready=False: the caller has waited), hold, release. `hold` None: as
        long as the program needs (_hold_until_read), else that many seconds. Returns how
        often the program read the key's line while it was down (None for BRK, which the
        CPU reads with TEST at any time, and is neither waited for nor watched)."""
        lines = self.keyboard.reads(key)
        watched = lines is not None and not self.off
        if watched and ready:
            self.ready_for(key, timeout)
        count = lines.count if lines else 0
        self.press(key)
        if hold is None and watched:
            self._hold_until_read(lines, timeout)
        else:
            self.run_for(KEY_HOLD if hold is None else hold)
        self.release(key)
        reads = lines.count - count if lines else None
        self.run_for(KEY_GAP)
        return reads

    def _hold_until_read(self, lines, limit):
        """Keep the key down until the program has read its `lines` (at most `limit`
        seconds), then: KEY_HOLD from the press if the key-wait loop read it (it looks twice
        and acts later), else POLL_HOLD (INKEY$ has it; let go now, it is not read twice)."""
        start, count = self.cycles, lines.count
        deadline = start + round(limit * CYCLES_PER_SECOND)
        while lines.count == count:
            if self.cycles >= deadline or self.halted:
                return
            self.run_cycles(READ_STEP)
        keywait = lines.last - self.bus.keywait_cycle <= KEYWAIT_RECENT
        rest = start + round((KEY_HOLD if keywait else POLL_HOLD) * CYCLES_PER_SECOND) - self.cycles
        if rest > 0:
            self.run_cycles(rest)

    def type_keys(self, script, hold=None, timeout=READY_TIMEOUT):
        """Type a key script (emulator/machine/key_script.py syntax), e.g. '1+1{ENTER}'.
        `hold`: seconds each key is held (None: until the program has read it, see tap);
        `timeout`: how long a key waits to be read before it is pressed anyway.
        KeyScriptError for a {READY} that the program does not answer in time."""
        steps = keys.parse(script)
        waited = False  # a {READY} has just found the program reading the keys
        for index, step in enumerate(steps):
            if self.halted:
                break
            if isinstance(step, keys.Hold):
                hold = step.seconds
            elif isinstance(step, keys.Ready):
                self._ready_step(step, keys.next_key(steps, index))
                waited = True
            elif isinstance(step, keys.Wait):
                self.run_for(step.seconds)
                waited = False
            else:
                self.tap(step.key, hold, timeout, ready=not waited)
                waited = False

    def _ready_step(self, step, key):
        """{READY}: run until the program reads the keyboard (for `key`, the key typed next:
        its line; ENTER's at the end of the script)."""
        if not self.ready_for(key or "ENTER", step.seconds):
            shown = " | ".join(row.strip() for row in self.screen_text() if row.strip())
            raise keys.KeyScriptError(
                f"{step.text} at position {step.position}: the machine did not read the "
                f"keyboard within {step.seconds:g} s (emulated); the screen shows "
                f"{shown or 'nothing'}")

    @property
    def debugger(self):
        """The machine's debugger (emulator/debug/debugger.py), made on first use: a machine
        whose debugger is never asked for runs exactly as without one."""
        if self._debugger is None:
            from emulator.debug.debugger import Debugger
            self._debugger = Debugger(self)
        return self._debugger

    # -- output --------------------------------------------------------------------------
    def screen_text(self):
        return self.lcd.text()

    def pixels(self):
        return self.lcd.pixels()

    def symbols(self):
        return self.lcd.symbols()

    # -- memory --------------------------------------------------------------------------
    def peek(self, addr):
        return self.mem[addr & 0xFFFF]

    def poke(self, addr, value):
        """Write as the CPU would (ROM stays ROM, a small card mirrors)."""
        addr &= 0xFFFF
        if addr >= self.bus.write_floor:
            self.mem[addr] = value & 0xFF
        else:
            self.bus.write(addr, value & 0xFF)

    def peek_word(self, addr):
        return self.mem[addr] | self.mem[(addr + 1) & 0xFFFF] << 8

    def poke_word(self, addr, value):
        self.poke(addr, value & 0xFF)
        self.poke(addr + 1, value >> 8)

    def card_data(self, slot=0):
        return self.bus.card_data(slot)

    @property
    def card_store(self):
        """The card.CardStore that keeps the S1 card (saved every SAVE_INTERVAL while running)."""
        return self._card_store

    @card_store.setter
    def card_store(self, store):
        self._card_store = store
        store.state_source = self.power_state

    def save_card(self):
        """Write the S1 card and the power-off state to `card_store` (if it changed)."""
        self._card_store.save(self.card_data(), self.power_state())

    def load_program(self, image):
        """Put a tokenized program (the line records of a PocketTools .img, with or without
        its 0xFF end mark) on the card as CLOAD would: 0xFF, the lines, 0xFF at card start +
        0x30, with the start, end and merge pointers and the ROM's copies of them set
        (pc1360.ramcard). The card must have been initialised by the firmware (the S1 CLEAR
        question). ValueError if the program does not fit below the DIM variables."""
        writes = program_writes(image, self.card_kb)
        start, block = writes[0]
        end = start + len(block) - 1
        if end >= self.peek_word(DIM_PTR):
            raise ValueError(f"a program of {len(block) - 2} bytes does not fit below the DIM variables")
        for address, data in writes:
            for offset, value in enumerate(data):
                self.poke(address + offset, value)

    # -- power-off state -----------------------------------------------------------------
    def power_state(self):
        """What a real PC-1360 keeps while it is off, apart from the card; None if the
        engine cannot save its state."""
        engine_state = getattr(self.engine, "power_state", None)
        if engine_state is None:
            return None
        bus = self.bus
        header = _STATE_HEADER.pack(self.engine.name.encode(), bus.bank, bus.strobe, bus.ia_out,
                                    bus.ib_out, bus.fo, bus.control)
        return header + bytes(self.mem[_SYSTEM_RAM]) + engine_state()

    def resume(self, state):
        """Continue from a power_state() as the machine does when ON is pressed after OFF.
        ValueError if the state is not one this engine wrote (the machine stays reset)."""
        size = _STATE_HEADER.size + (_SYSTEM_RAM.stop - _SYSTEM_RAM.start)
        if len(state) <= size or not hasattr(self.engine, "resume"):
            raise ValueError("machine state too short or engine without a saved state")
        name, bank, strobe, ia_out, ib_out, fo, control = _STATE_HEADER.unpack_from(state)
        if name.rstrip(b"\0") != self.engine.name.encode():
            raise ValueError(f"machine state of another engine ({name.rstrip(bytes(1)).decode(errors='replace')})")
        # checked before anything changes: the bank register only ever holds 0-7
        if bank >= BANK_COUNT:
            raise ValueError(f"machine state names ROM bank {bank} (there are {BANK_COUNT})")
        self.engine.resume(state[size:])
        self.mem[_SYSTEM_RAM] = state[_STATE_HEADER.size:size]
        bus = self.bus
        bus.bank = -1
        bus.select_bank(bank)
        bus.strobe, bus.ia_out, bus.ib_out, bus.fo, bus.control = strobe, ia_out, ib_out, fo, control
        self.timers.restart(self.cycles)
        self.power_on()

    # -- state ---------------------------------------------------------------------------
    def snapshot(self):
        engine_state = getattr(self.engine, "snapshot_state", None)
        return Snapshot(bytes(self.mem), engine_state() if engine_state else None, self.bus.state(),
                        self.timers.state(), self.buzzer.state(), frozenset(self.keyboard.pressed),
                        self.cycles, self.off, self.lcd.enabled)

    def restore(self, snap):
        self.mem[:] = snap.mem
        if snap.engine is not None:
            self.engine.restore_state(snap.engine)
        self.bus.set_state(snap.bus)
        self.timers.set_state(snap.timers)
        self.buzzer.set_state(snap.buzzer)
        self.keyboard.pressed.clear()
        self.keyboard.pressed.update(snap.pressed)
        self.cycles = snap.cycles
        self.off = snap.off
        self.lcd.enabled = snap.lcd_enabled

"""The PC-1360 memory map as data, and the bus that the SC61860 core calls.

`mem` is one flat 64 KiB bytearray that the CPU reads directly. Writes below the CPU's
`write_floor` come here and are dispatched by a 256-entry page table built from REGIONS,
so plain RAM writes (a 32 KB card) never leave the CPU core.
"""

from emulator.machine.timers import FAST_FLAG, SLOW_FLAG
from pc1360.facts import (
    BANK_COUNT,
    BANK_REGISTER,
    BANK_SIZE,
    BANK_WINDOW,
    CARD_SIZES,
    CARD_WINDOW,
    CPU_ROM_SIZE,
    KEY_STROBE_ADDR,
    KEYWAIT_STROBE,
    LCD_BASE,
    LCD_LAST,
    LCD_MIRROR,
    SIO_LATCH,
)

# (first, last, kind, what). Kinds: "rom" (writes dropped), "none" (nothing answers: writes
# dropped, reads 0), "lcd" (display RAM; each 512-byte block's second half mirrors the first),
# "bank" (ROM bank register), "io" (latches that read back what was written), "strobe"
# (keyboard strobe), "card" (RAM card slot).
REGIONS = (
    (0x0000, CPU_ROM_SIZE - 1, "rom", "internal CPU ROM, cpu-1360.rom"),
    # docs/hardware.md §2.3: the ROM probes 0x2000/0x2001 for RAM and writes 0x26D8-0x26FF; treating the range
    # as absent is what it expects on this model.
    (CPU_ROM_SIZE, LCD_BASE - 1, "none", "nothing fitted"),
    (LCD_BASE, LCD_LAST, "lcd", "LCD RAM and system scratch, mirrored at +0x100 in each block"),
    (BANK_REGISTER, 0x35FF, "bank", "ROM bank register: bank = value & 7"),
    (0x3600, 0x37FF, "io", "unknown, reads back"),
    (SIO_LATCH, 0x39FF, "io", "I/O latch 1 (11-pin BUSY/STROBE, SIO lines)"),
    (0x3A00, 0x3BFF, "io", "I/O latch 2 (11-pin SEL1/SEL2/D_OUT/D_IN)"),
    (0x3C00, 0x3DFF, "io", "latch written at boot, purpose unknown"),
    (KEY_STROBE_ADDR, BANK_WINDOW - 1, "strobe", "keyboard strobe: K-row number"),
    (BANK_WINDOW, CARD_WINDOW - 1, "rom", "window onto ROM bank 0-7"),
    (CARD_WINDOW, 0xFFFF, "card", "RAM card, slot S1 (S2 when FO bit 2 is set)"),
)

CARD_SIZES_KB = tuple(CARD_SIZES)
FO_SLOT_S2 = 0x04  # PockEmul: FO bit 2 selects slot S2
TEST_BRK = 0x08
CONTROL_DISPLAY = 0x01
CONTROL_TIMER_CLEAR = 0x02
CONTROL_OFF = 0x08
NO_CARD = 0xFF  # what an empty slot reads


def region_of(addr):
    for first, last, kind, _what in REGIONS:
        if first <= addr <= last:
            return kind
    raise ValueError(f"address out of range: {addr:#x}")


class Bus:
    """Ports and memory-mapped I/O of the PC-1360, for the SC61860 core.

    `machine` provides mem, keyboard, lcd, timers, buzzer, now() (cycles) and power_off().
    """

    def __init__(self, machine, roms, card_sizes):
        """`roms` is a romset.RomSet, or None for an engine that runs without the ROM."""
        self.machine = machine
        self.mem = machine.mem
        self.banks = roms.banks if roms else (bytes(BANK_SIZE),) * BANK_COUNT
        if roms:
            self.mem[0:len(roms.cpu)] = roms.cpu
        self.card_sizes = tuple(card_sizes)  # bytes per slot, 0 = empty
        self.cards = [bytearray(size) for size in self.card_sizes]
        handlers = {"rom": self._drop, "none": self._drop, "lcd": self._write_lcd,
                    "bank": self._write_bank, "io": self._write_io,
                    "strobe": self._write_strobe, "card": self._write_card}
        self._pages = [None] * 256
        for first, last, kind, _what in REGIONS:
            for page in range(first >> 8, (last >> 8) + 1):
                self._pages[page] = handlers[kind]
        self.bank = -1
        # bank_changed(bank): called after every switch of the window's bank (the firmware
        # engine names the bank to the CPU, whose blocks of the window depend on it)
        self.bank_changed = None
        self.slot = 0
        self._map_card()
        self.reset()
        self.write = self._fast_write()

    # writes there do nothing but store the byte and its mirror (what `write` does first),
    # which the CPU may do itself (SC61860.mirror_writes)
    mirrored = (LCD_BASE, LCD_LAST, LCD_MIRROR)

    def _fast_write(self):
        """`write` as a closure: the firmware's system variables live in the LCD region, so
        its mirrored store is made here without the page table's second call."""
        mem, pages = self.mem, self._pages

        def write(addr, value):
            if LCD_BASE <= addr <= LCD_LAST:
                mem[addr] = value
                mem[addr ^ LCD_MIRROR] = value
            else:
                pages[addr >> 8](addr, value)
        return write

    def reset(self):
        """Latches and ports at their reset values; memory contents are kept (CMOS)."""
        self.select_bank(0)
        self._select_slot(0)
        self.strobe = 0
        self.ia_out = 0
        self.ib_out = 0
        self.fo = 0
        self.control = 0
        # The key-wait loop's 0x3F strobe writes: how many, and the cycle of the last one
        # (-1: none yet); the key drivers' sign that a key pressed now will be seen.
        self.keywait_count = 0
        self.keywait_cycle = -1

    # -- memory ------------------------------------------------------------------
    @property
    def write_floor(self):
        """Writes from here up go straight into mem: only a 32 KB card fills the window
        without mirrors."""
        return CARD_WINDOW if self.card_sizes[self.slot] == CARD_SIZES[32] else 0x10000

    def write(self, addr, value):
        """A CPU write below the write floor (the instance's `write`, set in __init__, does
        the same faster)."""
        self._pages[addr >> 8](addr, value)

    def watch_writes(self, first, last, hook):
        """Call hook(addr, value) for each write to first..last (whole pages), before the
        region's own handling: a connector sees its latch without a call on every write."""
        for page in range(first >> 8, (last >> 8) + 1):
            def watched(addr, value, handler=self._pages[page]):
                hook(addr, value)
                handler(addr, value)
            self._pages[page] = watched

    def _drop(self, addr, value):
        pass

    def _write_lcd(self, addr, value):
        self.mem[addr] = value
        self.mem[addr ^ LCD_MIRROR] = value

    def _write_bank(self, addr, value):
        self.mem[addr] = value
        self.select_bank(value & 7)

    def select_bank(self, bank):
        if bank != self.bank:
            self.bank = bank
            self.mem[BANK_WINDOW:BANK_WINDOW + BANK_SIZE] = self.banks[bank]
            if self.bank_changed is not None:
                self.bank_changed(bank)

    def _write_io(self, addr, value):
        self.mem[addr] = value

    def _write_strobe(self, addr, value):
        self.mem[addr] = value
        self.strobe = value
        if value == KEYWAIT_STROBE:
            self.keywait_count += 1
            self.keywait_cycle = self.machine.now()

    def _write_card(self, addr, value):
        size = self.card_sizes[self.slot]
        if not size:
            return
        mem = self.mem
        offset = addr & (size - 1)
        for base in range(CARD_WINDOW, 0x10000, size):
            mem[base + offset] = value

    def _map_card(self):
        """Fill the window from the selected slot's card, mirrored (an 8K card shows 4 times)."""
        size = self.card_sizes[self.slot]
        if not size:
            self.mem[CARD_WINDOW:] = bytes([NO_CARD]) * CARD_WINDOW
            return
        data = self.cards[self.slot]
        for base in range(CARD_WINDOW, 0x10000, size):
            self.mem[base:base + size] = data

    def card_data(self, slot=0):
        """The current contents of the card in `slot` (the selected card lives in mem)."""
        size = self.card_sizes[slot]
        if slot == self.slot and size:
            return bytes(self.mem[0x10000 - size:])
        return bytes(self.cards[slot])

    def set_card_data(self, slot, data):
        if len(data) != self.card_sizes[slot]:
            raise ValueError(f"card image is {len(data)} bytes, slot {slot + 1} holds {self.card_sizes[slot]}")
        self.cards[slot][:] = data
        if slot == self.slot:
            self._map_card()

    def _select_slot(self, slot):
        if slot == self.slot or not self.card_sizes[slot]:
            return
        self.cards[self.slot][:] = self.card_data(self.slot)
        self.slot = slot
        self._map_card()
        self.machine.write_floor_changed()

    # -- ports -------------------------------------------------------------------
    def ina(self):
        return self.machine.keyboard.ina(self.strobe, self.ia_out)

    def outa(self, value):
        self.ia_out = value

    def inb(self):
        return 0  # nothing on the 11-pin or SIO inputs

    def outb(self, value):
        self.ib_out = value

    def outf(self, value):
        self.fo = value
        self._select_slot(1 if value & FO_SLOT_S2 else 0)

    def outc(self, value):
        now = self.machine.now()
        self.control = value
        if value & CONTROL_TIMER_CLEAR:
            self.machine.timers.restart(now)
        self.machine.buzzer.set_mode(now, (value >> 4) & 7)
        self.machine.lcd.enabled = bool(value & CONTROL_DISPLAY) and not self.machine.off
        # HLT (bit 2) is ignored: the firmware works with the CPU running on (docs/hardware.md §7.1).
        if value & CONTROL_OFF:
            self.machine.power_off()

    def test(self, mask=0xFF):
        """TEST status: timer flags (cleared when tested and set), BRK/ON; the reset input
        (0x40) reads 0 (docs/hardware.md §7.3: the ROM reaches the same prompt as with it held) and Xin (0x80)
        reads 0 with no tape."""
        now = self.machine.now()
        timers = self.machine.timers
        status = timers.status(now)
        if status & mask & (FAST_FLAG | SLOW_FLAG):
            timers.clear(now, status & mask)
        if self.machine.keyboard.brk:
            status |= TEST_BRK
        return status

    def xin(self):
        return 0

    # -- state -------------------------------------------------------------------
    def state(self):
        return (self.bank, self.strobe, self.ia_out, self.ib_out, self.fo, self.control,
                self.slot, self.keywait_count, self.keywait_cycle,
                tuple(bytes(card) for card in self.cards))

    def set_state(self, state):
        (bank, self.strobe, self.ia_out, self.ib_out, self.fo, self.control, self.slot,
         self.keywait_count, self.keywait_cycle, cards) = state
        for card, data in zip(self.cards, cards):
            card[:] = data
        self.bank = bank  # mem (restored by the caller) already holds the bank's bytes
        if self.bank_changed is not None:
            self.bank_changed(bank)

"""The PC-1360 (European) keyboard as data, and the INA read logic (docs/hardware.md §6).

Two kinds of matrix line: seven K-rows selected by writing a row *number* 1-7 to 0x3E00,
and four IA-rows selected by driving one IA output bit (OUTA) while 0x3E00 holds 0. BRK/ON
is not in the matrix: the CPU reads it with TEST 0x08. OFF is in the matrix (IA-row 1,
bit 2): the ROM reads it and powers the machine off itself.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Key:
    name: str  # the key name of docs/interfaces.md
    line: str  # "K" (row number written to 0x3E00), "IA" (IA output bit driven), or "" (not in the matrix)
    row: int  # K: 1-7; IA: driven bit 0-3
    bit: int  # INA bit that reads the key
    legend: str  # keycap text
    shift_legend: str | None  # character typed by SHIFT + key, where known
    # Physical place for a front-end: (block, row, column, width in key units). Blocks are
    # "power" (OFF, top right), "edit" (cursor/editing block), "numeric", "alpha".
    positions: tuple


def _k(name, row, bit, legend=None, shift=None, *positions):
    return Key(name, "K", row, bit, legend or name, shift, positions)


def _ia(name, row, bit, legend=None, shift=None, *positions):
    return Key(name, "IA", row, bit, legend or name, shift, positions)


# Matrix: PockEmul Keyb1360.h, rows 6/7 and CLS/DEL confirmed on the real ROM (radovanh);
# shifted characters confirmed by running the firmware (docs/hardware.md §6.3). Layout: PockEmul's key map.
KEYS = (
    # K-row 1
    _k("SHIFT", 1, 6, "SHIFT", None, ("alpha", 0, 0, 1), ("edit", 1, 5, 1)),
    _k("DEF", 1, 5, "DEF", None, ("alpha", 1, 0, 1)),
    _k("SML", 1, 4, "SML", None, ("alpha", 2, 0, 1)),
    _k(",", 1, 3, ",", None, ("numeric", 3, 4, 1)),
    _k(";", 1, 2, ";", None, ("numeric", 2, 4, 1)),
    _k(":", 1, 1, ":", None, ("numeric", 1, 4, 1)),
    _k(")", 1, 0, ")", ">", ("numeric", 0, 4, 1)),
    # K-row 2
    _k("Q", 2, 6, "Q", "!", ("alpha", 0, 1, 1)),
    _k("A", 2, 5, "A", None, ("alpha", 1, 1, 1)),
    _k("Z", 2, 4, "Z", None, ("alpha", 2, 1, 1)),
    _k("-", 2, 3, "-", "^", ("numeric", 3, 3, 1)),
    _k("*", 2, 2, "*", "\\", ("numeric", 2, 3, 1)),
    _k("/", 2, 1, "/", None, ("numeric", 1, 3, 1)),
    _k("(", 2, 0, "(", "<", ("numeric", 0, 3, 1)),
    # K-row 3
    _k("W", 3, 6, "W", '"', ("alpha", 0, 2, 1)),
    _k("S", 3, 5, "S", None, ("alpha", 1, 2, 1)),
    _k("X", 3, 4, "X", None, ("alpha", 2, 2, 1)),
    _k("+", 3, 3, "+", None, ("numeric", 3, 2, 1)),
    _k("3", 3, 2, "3", None, ("numeric", 2, 2, 1)),
    _k("6", 3, 1, "6", None, ("numeric", 1, 2, 1)),
    _k("9", 3, 0, "9", None, ("numeric", 0, 2, 1)),
    # K-row 4
    _k("E", 4, 6, "E", "#", ("alpha", 0, 3, 1)),
    _k("D", 4, 5, "D", None, ("alpha", 1, 3, 1)),
    _k("C", 4, 4, "C", None, ("alpha", 2, 3, 1)),
    _k(".", 4, 3, ".", None, ("numeric", 3, 1, 1)),
    _k("2", 4, 2, "2", None, ("numeric", 2, 1, 1)),
    _k("5", 4, 1, "5", None, ("numeric", 1, 1, 1)),
    _k("8", 4, 0, "8", None, ("numeric", 0, 1, 1)),
    # K-row 5
    _k("R", 5, 6, "R", "$", ("alpha", 0, 4, 1)),
    _k("F", 5, 5, "F", None, ("alpha", 1, 4, 1)),
    _k("V", 5, 4, "V", None, ("alpha", 2, 4, 1)),
    _k("0", 5, 3, "0", None, ("numeric", 3, 0, 1)),
    _k("1", 5, 2, "1", None, ("numeric", 2, 0, 1)),
    _k("4", 5, 1, "4", None, ("numeric", 1, 0, 1)),
    _k("7", 5, 0, "7", None, ("numeric", 0, 0, 1)),
    # K-row 6 (bit 0: no key known)
    _k("T", 6, 6, "T", "%", ("alpha", 0, 5, 1)),
    _k("G", 6, 5, "G", None, ("alpha", 1, 5, 1)),
    _k("B", 6, 4, "B", None, ("alpha", 2, 5, 1)),
    _k("UP", 6, 3, "\u25b2", None, ("edit", 0, 1, 1)),
    _k("DOWN", 6, 2, "\u25bc", None, ("edit", 0, 0, 1)),
    _k("KANA", 6, 1, "\u30ab\u30ca"),  # on the matrix, no keycap on the European model
    # K-row 7 (bit 0: no key known)
    _k("Y", 7, 6, "Y", "&", ("alpha", 0, 6, 1)),
    _k("H", 7, 5, "H", None, ("alpha", 1, 6, 1)),
    _k("N", 7, 4, "N", None, ("alpha", 2, 6, 1)),
    _k("LEFT", 7, 3, "\u25c4", None, ("edit", 1, 0, 1)),
    _k("RIGHT", 7, 2, "\u25ba", None, ("edit", 1, 1, 1)),
    _k("MODE", 7, 1, "MODE", None, ("edit", 0, 3, 1)),
    # IA-rows: only bits above the driven one carry keys (the matrix is triangular)
    _ia("U", 0, 6, "U", "?", ("alpha", 0, 7, 1)),
    _ia("J", 0, 5, "J", None, ("alpha", 1, 7, 1)),
    _ia("M", 0, 4, "M", None, ("alpha", 2, 7, 1)),
    _ia("DEL", 0, 3, "DEL", None, ("edit", 1, 2, 1)),
    _ia("CLS", 0, 2, "C\u00b7CE", None, ("edit", 0, 4, 1)),
    _ia("I", 1, 6, "I", None, ("alpha", 0, 8, 1)),
    _ia("K", 1, 5, "K", None, ("alpha", 1, 8, 1)),
    _ia("SPACE", 1, 4, "SPACE", None, ("alpha", 2, 8, 1)),
    _ia("INS", 1, 3, "INS", None, ("edit", 1, 3, 1)),
    # OFF: found by sweeping the ROM's scan: this position makes it power off (OUTC 0x08)
    # once the key is released. Not in PockEmul's matrix.
    _ia("OFF", 1, 2, "OFF", None, ("power", 0, 0, 1)),
    _ia("O", 2, 6, "O", None, ("alpha", 0, 9, 1)),
    _ia("L", 2, 5, "L", None, ("alpha", 1, 9, 1)),
    _ia("ENTER", 2, 4, "ENTER", None, ("alpha", 2, 9, 2)),
    _ia("P", 3, 6, "P", "@", ("alpha", 0, 10, 1)),
    _ia("=", 3, 5, "=", None, ("alpha", 1, 10, 1)),
    Key("BRK", "", 0, 0, "BRK/ON", None, (("edit", 1, 4, 1),)),
)

KEY_BY_NAME = {key.name: key for key in KEYS}

# Character -> key name for the characters typed with SHIFT (docs/hardware.md §6.3).
SHIFTED_CHARS = {key.shift_legend: key.name for key in KEYS if key.shift_legend}


def _line_masks(line, rows):
    masks = {row: {} for row in rows}
    for key in KEYS:
        if key.line == line:
            masks[key.row][key.name] = 1 << key.bit
    return masks


_K_ROWS = _line_masks("K", range(1, 8))
_IA_ROWS = _line_masks("IA", range(4))
MATRIX_LINES = tuple(("K", row) for row in _K_ROWS) + tuple(("IA", bit) for bit in _IA_ROWS)


@dataclass
class LineReads:
    """How often a program has read one matrix line, and when (machine cycles): what a key
    driver looks at to know that a key held down has been seen."""
    count: int = 0
    last: int = -1  # the cycle of the latest read
    gap: int = 0  # cycles between the latest two reads


@dataclass
class Keyboard:
    """Which keys are down, what INA reads for a given strobe and IA output, and the reads
    of each matrix line (`clock` gives the cycle of a read)."""

    clock: object = lambda: 0
    pressed: set = field(default_factory=set)
    lines: dict = field(default_factory=lambda: {line: LineReads() for line in MATRIX_LINES})

    def press(self, name):
        if name not in KEY_BY_NAME:
            raise ValueError(f"unknown key {name!r}")
        self.pressed.add(name)

    def release(self, name):
        self.pressed.discard(name)

    @property
    def brk(self):
        return "BRK" in self.pressed

    def reads(self, name):
        """The LineReads of the line that carries key `name` (None for BRK, read by TEST)."""
        key = KEY_BY_NAME[name]
        return self.lines.get((key.line, key.row))

    def _note(self, line, now):
        reads = self.lines[line]
        reads.count += 1
        reads.gap = now - reads.last
        reads.last = now

    def read_all(self):
        """A program looked at every key at once (the built-in engine's INKEY$ and key wait)."""
        now = self.clock()
        for line in self.lines:
            self._note(line, now)

    def ina(self, strobe, ia_out):
        """INA with `strobe` in 0x3E00 and `ia_out` on the IA output latch.

        Only the row numbers 1-7 select a K-row. Row 8, read once at boot (bank 3 0x4599),
        reads 0 as on an export machine (docs/hardware.md §6.2); the key-wait loop's 0x3F selects nothing;
        INA does not echo the driven IA line (docs/hardware.md §1.3, §6.2: not needed by the firmware).
        """
        k_row = _K_ROWS.get(strobe)
        ia_bits = [bit for bit in _IA_ROWS if ia_out & (1 << bit)]
        if k_row is not None or ia_bits:
            now = self.clock()
            if k_row is not None:
                self._note(("K", strobe), now)
            for bit in ia_bits:
                self._note(("IA", bit), now)
        pressed = self.pressed
        if not pressed:
            return 0
        value = 0
        if k_row:
            for name in pressed:
                value |= k_row.get(name, 0)
        for bit in ia_bits:
            row = _IA_ROWS[bit]
            for name in pressed:
                value |= row.get(name, 0)
        return value

"""Drive basic_src/mikazee.bas on the firmware engine (real ROM) like a player would.

Used by test_mikazee_game.py. The program is tokenized with the project's tokenizer, put on
a 32 KB card with PC1360.load_program and started with DEF M. Booting the machine comes
from kniffel_driver (generic).

When the program waits for a key: it polls INKEY$ in lines `F$=INKEY$: IF F$="" IF
PEEK 64800<>254 GOTO <the same line>` (the menu's and editor's key routine at 2021, the
game's loop at 2302; the PEEK ends the wait after a CONT). While the game still works off
a booking (the background steps, BG>0) it polls in another line between the steps; the
driver waits until it is back in an idle loop. The firmware's pointer at 0xFEF2 points at the end of the statement executed
before the current one, so it stays in such a line exactly while the loop runs (and for the
first statement after it, a short one). "Ready" means the pointer is in such a line
at two looks 20 ms apart. A key is pressed then, held until the pointer has left the line
and 30 ms more, and released (the first line of the subroutine waits for the release).
INPUT prompts (player name, a value, a set name) use the firmware's own key-wait loop and
are typed with PC1360.type_keys.

Sheet state for tests that start near the end of a game is set by playing: the rule sets
with few columns make short games; dice are forced by poking the fixed variables A-E
(8 BCD bytes, 00 00 d0 00 00 00 00 00 for a die d) before ENTER books them.
"""

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from pc1360.facts import LINE_POINTER
from pc1360.tokenizer import tokenize

# kd: the generic helpers only (boot, the stored lines)
from tests.helpers import kniffel_driver as kd
from tests.helpers import mikazee_model as mm

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "mikazee.bas"
FIXED_A = 0xFA98
STEP = 0.01  # emulated seconds between looks at the machine


def source_lines():
    rows = (text.split(" ", 1) for text in SOURCE.read_text(encoding="utf-8").splitlines())
    return [(int(number), body) for number, body in rows]


KEY_LINES = frozenset(n for n, body in source_lines()
                      if body.startswith("F$=INKEY$") and body.endswith(f"GOTO {n}"))
# the card records: per rule set four DATA lines (rules) and a REM line (top 10), 2901-2920
RECORD_LINES = [n for n, _ in source_lines() if 2900 < n <= 2900 + 4 * mm.LINES_PER_SET]
SET_LINES = [RECORD_LINES[s * mm.LINES_PER_SET:(s + 1) * mm.LINES_PER_SET] for s in range(4)]
TOKEN_CHARS = 2  # the REM or DATA keyword before a record's text


class DriverError(AssertionError):
    pass


def program_image():
    return tokenize(SOURCE.read_text(encoding="utf-8"))


def boot(rom_dir, engine="firmware"):
    return kd.boot(rom_dir, card_kb=32, engine=engine)


@dataclass
class GameScreen:
    rows: list
    dice: tuple  # None for a die chosen to roll again
    roll: int
    column: int  # cursor column (K)
    score: int
    labels: list  # the three sheet rows shown
    cells: list  # per shown row, the 5 cells of 4 characters (cursor '>' removed)
    marker: tuple  # (screen row 1-3, cell index 0-4) of the '>' or None
    message: str


def _int(text):
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def parse_game(rows, finished=False):
    r0 = rows[0]
    if finished:
        if not r0.startswith("EINDE SPEL"):
            raise DriverError(f"not the end screen: {rows!r}")
        dice, roll = (None,) * 5, None
    else:
        if r0[10:12] != " W" or r0[14:16] != " K":
            raise DriverError(f"not a game screen: {rows!r}")
        dice = tuple(int(r0[c]) if r0[c].isdigit() else None for c in (1, 3, 5, 7, 9))
        roll = int(r0[13])
    labels, cells, marker = [], [], None
    for i, row in enumerate(rows[1:], start=1):
        labels.append(row[:3].strip())
        part = []
        for k in range(5):
            cell = row[3 + 4 * k:7 + 4 * k]
            if cell.startswith(">"):
                marker = (i, k)
                cell = " " + cell[1:]
            part.append(cell)
        cells.append(part)
    return GameScreen(rows=list(rows), dice=dice, roll=roll, column=int(r0[17]),
                      score=_int(r0[18:24]), labels=labels, cells=cells, marker=marker,
                      message=rows[3].strip())


class Mikazee:
    def __init__(self, machine):
        self.m = machine
        self.lines = []
        self.beeped = False
        self.keys = 0
        self.answers = []  # per key (wait=True): emulated seconds to the display's first change
        self._answer = None  # the FirstAnswer of the key being handled
        self._starts = (None, [])  # (self.lines, their start addresses) for current_line
        self._shown = (None, None)  # (display RAM, its text): the LCD is decoded only on a change

    # -- program and memory --------------------------------------------------------------
    def load(self, image=None):
        self.m.load_program(program_image() if image is None else image)
        self.index_lines()

    def index_lines(self):
        self.lines = kd.stored_lines(self.m)

    def text_start(self, number):
        """Where the text of a record line starts (after its REM or DATA keyword)."""
        for start, _, n in self.lines:
            if n == number:
                return start + 3 + TOKEN_CHARS
        raise LookupError(number)

    def line_text(self, number):
        """The text of a record line (after its REM or DATA keyword)."""
        for start, end, n in self.lines:
            if n == number:
                return bytes(self.m.mem[start + 3 + TOKEN_CHARS:end - 1]).decode("latin-1")
        raise LookupError(number)

    def card_sets(self):
        """[(name, rules, top)] of the four rule sets as kept in the program's record lines."""
        out = []
        for lines in SET_LINES:
            name, rules = mm.decode_rule_lines([self.line_text(n) for n in lines[:mm.RULE_LINES]])
            out.append((name, rules, mm.decode_top(self.line_text(lines[mm.RULE_LINES]))))
        return out

    def current_line(self):
        """The number of the line the firmware's pointer is in (looked up by bisection: this
        runs every time slice while waiting)."""
        ptr = self.m.peek_word(LINE_POINTER)
        if self._starts[0] is not self.lines:
            self._starts = (self.lines, [start for start, _, _ in self.lines])
        i = bisect.bisect_right(self._starts[1], ptr) - 1
        if i >= 0 and ptr < self.lines[i][1]:
            return self.lines[i][2]
        return None

    def poke_dice(self, dice):
        for i, value in enumerate(dice):
            addr = FIXED_A - 8 * i
            raw = [0, 0, value << 4, 0, 0, 0, 0, 0]
            for k, byte in enumerate(raw):
                self.m.poke(addr + k, byte)

    def screen(self):
        raw = bytes(self.m.mem[kd.DISPLAY_RAM])
        if raw != self._shown[0]:
            self._shown = (raw, self.m.screen_text())
        return list(self._shown[1])

    def game(self, finished=False):
        return parse_game(self.screen(), finished)

    # -- time and keys -------------------------------------------------------------------
    def run_until(self, predicate, timeout, what):
        answer = self._answer
        if answer is not None:
            predicate = (lambda inner: lambda: answer.look() and inner())(predicate)
        kd.run_until(self, predicate, timeout, what, STEP)

    def _errored(self):
        return any("ERROR" in row for row in self.screen())

    def check_error(self):
        if self._errored():
            raise DriverError(f"BASIC error: {self.screen()}")

    def wait_ready(self, timeout=30.0):
        def ready():
            if self.current_line() not in KEY_LINES:
                return False
            self.m.run_for(0.02)
            return self.current_line() in KEY_LINES
        self.run_until(lambda: ready() or self._errored(), timeout, "the INKEY$ loop")
        self.check_error()

    def key(self, key, wait=True):
        """Press one key when the program waits for it; hold it until it is read; release;
        (wait=True) run until the program waits again, and add to self.answers the time from
        the press to the display's first change (None: it did not change)."""
        self.wait_ready()
        m = self.m
        m.buzzer.take_transitions(m.now())
        self._answer = kd.FirstAnswer(self, m.emulated_seconds)
        m.press(key)
        try:
            self.run_until(lambda: self.current_line() not in KEY_LINES, 1.0,
                           f"key {key} to be read")
            m.run_for(0.03)
            m.release(key)
            self.keys += 1
            if wait:
                self.wait_ready()
                self.answers.append(self._answer.seconds)
        finally:
            self._answer = None
        self.beeped = len(m.buzzer.take_transitions(m.now())) > 2

    def keys_(self, *names):
        for name in names:
            self.key(name)

    def type_input(self, text):
        """Answer an INPUT prompt (the firmware's own key-wait loop)."""
        self.m.key_wait_ready()
        self.m.type_keys(text + "{ENTER}")

    def start(self):
        """DEF M; returns at the menu. (After a BREAK in the key loop the line pointer is still
        in that line until the program runs, so the menu's text is waited for first.)"""
        self.m.type_keys("{DEF}M")
        self.run_until(lambda: self.screen()[0].startswith("MIKAZEE SET") or self._errored(),
                       30, "the menu")
        self.wait_ready()
        if not self.screen()[0].startswith("MIKAZEE SET"):
            raise DriverError(f"no menu: {self.screen()}")

    def free_memory(self):
        return kd.free_memory(self.m)

    # -- playing -------------------------------------------------------------------------
    def move_to(self, column, row, n_columns, screen=None):
        """Move the sheet cursor from where it is (tracked in self.cursor) to (column, row)
        the short way round."""
        c, r = self.cursor
        down = (row - r) % 19
        if down <= 9:
            for _ in range(down):
                self.key("DOWN")
        else:
            for _ in range(19 - down):
                self.key("UP")
        right = (column - c) % n_columns
        if right <= n_columns // 2:
            for _ in range(right):
                self.key("RIGHT")
        else:
            for _ in range(n_columns - right):
                self.key("LEFT")
        self.cursor = (column, row)

    # -- variables (for starting near the end of a game) ---------------------------------
    def variables(self):
        """{(name, kind): (data address, dims, element size)} of the DIM area; kind is
        'num', 'str', 'num[]', 'str[]' (docs/stored_format.md §3.2: 7-byte headers growing down)."""
        m = self.m
        out = {}
        addr = m.peek_word(0xFFDD)
        while addr < 0xF9D0:
            first, kind, hi, lo, d1, d2, size = m.mem[addr:addr + 7]
            length = hi << 8 | lo
            if length == 0:
                break
            if 1 <= kind <= 26:
                key = (chr(first) + chr(64 + kind), "str[]")
            elif 193 <= kind <= 218:
                key = (chr(first) + chr(kind - 128), "num[]")
            elif 129 <= kind <= 154:
                key = (chr(first) + chr(kind - 64), "str")
            elif 65 <= kind <= 90:
                key = (chr(first) + chr(kind), "num")
            elif kind == 128:
                key = (chr(first), "num[]")
            elif kind == 160:
                key = (chr(first), "str[]")
            else:
                raise DriverError(f"unknown variable header {bytes(m.mem[addr:addr + 7]).hex()}")
            out[key] = (addr + 7, (d1, d2), size)
            addr += 4 + length
        return out

    def _write(self, addr, data):
        for i, byte in enumerate(data):
            self.m.poke(addr + i, byte)

    def set_number(self, name, value, index=None):
        """A numeric variable: fixed (one letter), two-letter, or an array element."""
        data = encode_number(value)
        if len(name) == 1 and index is None:
            self._write(FIXED_A - 8 * (ord(name) - 65), data)
            return
        self._write(self._number_address(name, index), data)

    def get_number(self, name, index=None):
        if len(name) == 1 and index is None:
            return decode_number(self.m.mem[FIXED_A - 8 * (ord(name) - 65):][:8])
        addr = self._number_address(name, index)
        return decode_number(self.m.mem[addr:addr + 8])

    def _number_address(self, name, index):
        """Where a two-letter number variable or an element of a number array is."""
        variables = self.variables()
        if index is None:
            return variables[(name, "num")][0]
        addr, (d1, d2), size = variables[(name, "num[]")]
        return addr + size * element(index, d1, d2)

    def set_string(self, name, index, text):
        addr, _, size = self.variables()[(name, "str[]")]
        raw = text.encode("latin-1")[:size]
        self._write(addr + size * index, raw + bytes(size - len(raw)))

    def get_string(self, name, index):
        addr, _, size = self.variables()[(name, "str[]")]
        return bytes(self.m.mem[addr + size * index:addr + size * (index + 1)]).split(b"\0")[0].decode("latin-1")

    def sums(self):
        """{(column, j): CS(column, j)} for the columns 1-9 (one walk of the variables):
        j 0 upper sum, 1 lower sum, 2 bonus, 3 extra-Mikazee bonuses, 4 column total."""
        addr, (d1, d2), size = self.variables()[("CS", "num[]")]
        mem = self.m.mem
        return {(c, j): decode_number(mem[addr + size * element((c, j), d1, d2):][:8])
                for c in range(1, 10) for j in range(5)}

    def set_sheet(self, sheet):
        """Put a model Sheet into the program's variables (SL$, CS, CF, NB, O, S). Call while
        the program waits for a key during a game with the same rules."""
        n = sheet.n
        for row in range(13):  # the cells (GEW and VLG come with the rules)
            text = sheet.row_text(row)
            if n < 5:
                text = text.ljust(20)
            self.set_string("SL", row, text)
        reached = 0
        for c in range(1, n + 1):
            self.set_number("CS", sheet.upper(c), (c, 0))
            self.set_number("CS", sheet.lower(c), (c, 1))
            self.set_number("CS", sheet.bonus(c), (c, 2))
            self.set_number("CS", sheet.extra[c], (c, 3))
            self.set_number("CS", sheet.total(c), (c, 4))
            self.set_number("CF", sum(v is not None for v in sheet.cells[c]), c)
            reached += sheet.has_bonus(c)
        # the open cells the no-dead-end check counts: of the columns a re-roll leaves
        # usable (not "ineens" / "in twee keer") in CS(0,0), of "in twee keer" in CS(0,1)
        open_cells = {c: sum(v is None for v in sheet.cells[c]) for c in range(1, n + 1)}
        orders = {c: mm.order(sheet.rules, c) for c in range(1, n + 1)}
        self.set_number("CS", sum(k for c, k in open_cells.items()
                                  if orders[c] not in (mm.AT_ONCE, mm.IN_TWO)), (0, 0))
        self.set_number("CS", sum(k for c, k in open_cells.items() if orders[c] == mm.IN_TWO),
                        (0, 1))
        self.set_number("NB", reached)
        # RR: a re-roll leaves a cell (the program sets it at each roll and booking)
        roll = self.game().roll
        self.set_number("RR", int(self.get_number("CS", (0, 0))
                                  + self.get_number("CS", (0, 1)) * (roll < 2) > 0))
        self.set_number("O", sheet.turns_done())
        self.set_number("S", sheet.score())


def element(index, d1, d2):
    """Element number of A(i) or A(i,j): the header keeps (last dimension, first dimension)
    for a 2-D array and (dimension, 0) for a 1-D one; rows are stored one after another."""
    i, j = index if isinstance(index, tuple) else (index, 0)
    return i if d2 == 0 else i * (d1 + 1) + j


def encode_number(value):
    """8 BCD bytes of a non-negative integer below 10**10 (byte 1: exponent << 4)."""
    if value == 0:
        return bytes(8)
    if value < 0 or value != int(value):
        raise ValueError(value)
    digits = str(int(value))
    nibbles = digits.ljust(12, "0")
    return bytes([0, (len(digits) - 1) << 4]) + bytes(int(nibbles[i:i + 2], 16) for i in range(0, 12, 2))


def decode_number(raw):
    raw = bytes(raw)
    if not any(raw):
        return 0
    exponent = raw[1] >> 4
    if raw[0] or raw[1] & 0x0F:
        raise DriverError(f"not a small non-negative integer: {raw.hex()}")
    digits = raw[2:].hex()
    return int(digits[:exponent + 1])

"""Drive basic_src/mikazee.bas on the firmware engine (real ROM) like a player would.

Used by test_mikazee_game.py. The program is tokenized with the project's tokenizer, put on
a 32 KB card with PC1360.load_program and started with DEF M. Booting the machine comes
from kniffel_driver (generic).

When the program waits for a key: it reads keys only in its subroutine at 2020-2022,
whose second line polls INKEY$ in a FOR loop (`FOR J=1 TO 2: F$=INKEY$: J=1+(F$<>""):
NEXT J`). The firmware's pointer at 0xFEF2 points at the end of the statement executed
before the current one, so it stays in that line exactly while the loop runs (and for the
first statement after it, K=ASC F$, a short one). "Ready" means the pointer is in that line
at two looks 20 ms apart. A key is pressed then, held until the pointer has left the line
and 30 ms more, and released (the first line of the subroutine waits for the release).
INPUT prompts (player name, a value, a set name) use the firmware's own key-wait loop and
are typed with PC1360.type_keys.

Sheet state for tests that start near the end of a game is set by playing: the rule sets
with few columns make short games; dice are forced by poking the fixed variables A-E
(8 BCD bytes, 00 00 d0 00 00 00 00 00 for a die d) before ENTER books them.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from emulator.machine import PC1360
from pc1360.tokenizer import tokenize

import kniffel_driver as kd  # generic helpers only (boot)
import mikazee_model as mm

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "mikazee.bas"
LINE_POINTER = 0xFEF2
FIXED_A = 0xFA98
STEP = 0.005


def source_lines():
    rows = (text.split(" ", 1) for text in SOURCE.read_text(encoding="utf-8").splitlines())
    return [(int(number), body) for number, body in rows]


KEY_LINE = next(n for n, body in source_lines() if body.startswith("FOR J=1 TO 2: F$=INKEY$"))
DATA_LINES = [n for n, body in source_lines() if n > 2900 and body.startswith("REM ")]


class DriverError(AssertionError):
    pass


def program_image():
    return tokenize(SOURCE.read_text(encoding="utf-8"))


def boot(rom_dir):
    return kd.boot(rom_dir, card_kb=32)


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

    # -- program and memory --------------------------------------------------------------
    def load(self, image=None):
        self.m.load_program(program_image() if image is None else image)
        self.index_lines()

    def index_lines(self):
        m = self.m
        addr = m.peek_word(0xFFD7) + 1
        self.lines = []
        while m.peek(addr) != 0xFF:
            number = m.peek(addr) << 8 | m.peek(addr + 1)
            end = addr + 3 + m.peek(addr + 2)
            self.lines.append((addr, end, number))
            addr = end

    def line_text(self, number):
        """The body of a stored line (after the REM token for the data lines), as text."""
        for start, end, n in self.lines:
            if n == number:
                body = bytes(self.m.mem[start + 3:end - 1])
                return body[2:].decode("latin-1") if body[:2] == b"\xfe\x59" else body
        raise LookupError(number)

    def card_sets(self):
        """[(name, rules, top)] of the four rule sets as kept in the program's REM lines."""
        out = []
        for s in range(4):
            name, rules = mm.decode_rules(self.line_text(DATA_LINES[2 * s]))
            out.append((name, rules, mm.decode_top(self.line_text(DATA_LINES[2 * s + 1]))))
        return out

    def current_line(self):
        ptr = self.m.peek_word(LINE_POINTER)
        for start, end, number in self.lines:
            if start <= ptr < end:
                return number
        return None

    def poke_dice(self, dice):
        for i, value in enumerate(dice):
            addr = FIXED_A - 8 * i
            raw = [0, 0, value << 4, 0, 0, 0, 0, 0]
            for k, byte in enumerate(raw):
                self.m.poke(addr + k, byte)

    def screen(self):
        return self.m.screen_text()

    def game(self, finished=False):
        return parse_game(self.screen(), finished)

    # -- time and keys -------------------------------------------------------------------
    def run_until(self, predicate, timeout, what):
        m = self.m
        deadline = m.emulated_seconds + timeout
        while not predicate():
            if m.emulated_seconds > deadline:
                raise DriverError(f"timeout ({timeout} s) waiting for {what}; line "
                                  f"{self.current_line()}; screen {self.screen()}")
            m.run_for(STEP)

    def _errored(self):
        return any("ERROR" in row for row in self.screen())

    def check_error(self):
        if self._errored():
            raise DriverError(f"BASIC error: {self.screen()}")

    def wait_ready(self, timeout=30.0):
        def ready():
            if self.current_line() != KEY_LINE:
                return False
            self.m.run_for(0.02)
            return self.current_line() == KEY_LINE
        self.run_until(lambda: ready() or self._errored(), timeout, "the INKEY$ loop")
        self.check_error()

    def key(self, key, wait=True):
        """Press one key when the program waits for it; hold it until it is read; release;
        (wait=True) run until the program waits again."""
        self.wait_ready()
        m = self.m
        m.buzzer.take_transitions(m.now())
        m.press(key)
        self.run_until(lambda: self.current_line() != KEY_LINE, 1.0, f"key {key} to be read")
        m.run_for(0.03)
        m.release(key)
        self.keys += 1
        if wait:
            self.wait_ready()
        self.beeped = len(m.buzzer.take_transitions(m.now())) > 2

    def keys_(self, *names):
        for name in names:
            self.key(name)

    def type_input(self, text):
        """Answer an INPUT prompt (the firmware's own key-wait loop)."""
        self.m.key_wait_ready()
        self.m.type_keys(text + "{ENTER}")

    def start(self):
        """DEF M; returns at the menu."""
        self.m.type_keys("{DEF}M")
        self.wait_ready()
        if not self.screen()[0].startswith("MIKAZEE SET"):
            raise DriverError(f"no menu: {self.screen()}")

    def free_memory(self):
        m = self.m
        m.type_keys("{CLS}MEM{ENTER}")
        m.run_for(0.3)
        for row in self.screen():
            value = _int(row.replace(".", ""))
            if value is not None:
                return value
        raise DriverError(f"no MEM result: {self.screen()}")

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

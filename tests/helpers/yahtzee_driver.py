"""Drive basic_src/yahtzee.bas on the firmware engine (real ROM) like a player would.

Used by test_yahtzee_game.py. The program is loaded together with basic_src/kniffel.bas
(one image, line numbers 1-510 and 1000-1999) on a 16 KB card and started with DEF J.

The generic machinery comes from kniffel_driver.py: booting the machine, the firmware's
current-line pointer (0xFEF2), the fixed-variable pokes for the dice (A-E) and the MEM
reading. What is Yahtzee-specific is here: which lines are the INKEY$ waits (found in the
source), the screen layout and the start dialogue.

The high-score list lives in the text of line 1999 (a REM line; basic_src/yahtzee.md):
4 bytes an entry, name (2 characters) and score as two characters 48 + score // 64 and
48 + score % 64. The driver reads it straight from the card.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from pc1360.tokenizer import tokenize
from tests.helpers import kniffel_driver as kd
from tests.helpers.kniffel_driver import DriverError

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "yahtzee.bas"
KNIFFEL = ROOT / "basic_src" / "kniffel.bas"
CARD_KB = 16
HISCORE_LINE = 1999
HISCORE_ENTRIES = 10
ERROR_CHECK = 0.25  # emulated seconds between looks for "ERROR" on the display


def boot(rom_dir, card_kb=CARD_KB, engine="firmware"):
    """A machine after the cold-boot card question (kniffel_driver.boot)."""
    return kd.boot(rom_dir, card_kb=card_kb, engine=engine)


def source_lines():
    rows = (text.split(" ", 1) for text in SOURCE.read_text(encoding="utf-8").splitlines())
    return [(int(number), body) for number, body in rows]


def line_after(fragment, whole=False):
    """The number of the line after the one containing (whole: that is) `fragment`."""
    lines = source_lines()
    for (_, body), (following, _) in zip(lines, lines[1:]):
        if body == fragment if whole else fragment in body:
            return following
    raise LookupError(fragment)


KEY_LINES = frozenset(n for n, body in source_lines() if body.startswith("Y$=INKEY$"))
TIMED_LINES = {
    # a new roll is on the display, also a turn's first (shown after the rest of the turn)
    "reroll": line_after('CURSOR 0: PRINT USING "##";A;B;C;D;E', whole=True),
    "next_turn": line_after('CURSOR 0: PRINT USING "##";A;B;C;D;E', whole=True),
    "prompt": line_after('PRINT "?"'),  # the "?" is shown
}


def program_image(with_kniffel=True):
    text = SOURCE.read_text(encoding="utf-8")
    if with_kniffel:
        text = KNIFFEL.read_text(encoding="utf-8") + text
    return tokenize(text)


def _int(text):
    text = text.strip()
    return int(text) if re.fullmatch(r"[-+]?\d+", text) else None


@dataclass
class Screen:
    """The game display as text (layout: basic_src/yahtzee.md)."""
    rows: list
    dice: tuple  # five faces, None where a die was chosen for the next roll
    game: int  # 1-5 ("S", spel)
    round: int  # 1-13 ("B", beurt)
    roll: int  # 1-3 ("W", worp)
    name: str
    upper_row: str  # row 2 as a whole (cells and the signed sum)
    difference_sum: int
    lower_row: str  # row 3, columns 0-19
    score: int
    prompt: bool  # "?" at the start of row 4
    message: str  # at the "?": +100 / JOKER / BEZET, in row 1 columns 10-21
    keys: str  # row 4 columns 1-18: the keys of DG-JA under their box names ("-": filled)

MESSAGE_WORDS = {"+100", "JOKER", "BEZET"}


def parse_game_screen(rows):
    """At the "?" a message takes row 1 columns 10-21 (game, turn and roll are then None)."""
    r0, r1, r2, r3 = rows
    dice = tuple(int(r0[c]) if r0[c].isdigit() else None for c in (1, 3, 5, 7, 9))
    words = r0[10:22].split()
    prompt = r3[0] == "?"
    keys = r3[1:19] if r3[19:].strip() == "" else r3[1:]
    common = dict(rows=list(rows), dice=dice, name=r0[22:24], upper_row=r1,
                  difference_sum=_int(r1[20:24]), lower_row=r2[:20], score=_int(r2[20:24]),
                  prompt=prompt, keys=keys)
    if prompt and words and set(words) <= MESSAGE_WORDS:
        return Screen(game=None, round=None, roll=None, message=" ".join(words), **common)
    if r0[10:12] != " S" or r0[13:15] != " B" or r0[17:19] != " W" or not r0[20].isdigit():
        raise DriverError(f"not a game screen: {rows!r}")
    return Screen(game=int(r0[12]), round=_int(r0[15:17]), roll=int(r0[20]), message="",
                  **common)


class Yahtzee(kd.Kniffel):
    """The Kniffel driver's machinery (line index, pokes, MEM) with Yahtzee's key lines."""

    def load(self, image=None):
        self.m.load_program(program_image() if image is None else image)
        self._index_lines()
        self.reset_records()

    def reset_records(self):
        self.times = {kind: [] for kind in TIMED_LINES}
        self.times["answer"] = []  # ... of the timed keys to the screen's first change
        # ... and until the program waits for the next key again (all rows drawn)
        self.ready_times = {kind: [] for kind in TIMED_LINES}
        self.beeped = False

    def game_screen(self):
        return parse_game_screen(self.screen())

    def waiting(self):
        return self.current_line() in KEY_LINES

    def run_until(self, predicate, timeout, what):
        """Run in STEP slices until predicate() holds. Reading the LCD as text is slow, so a
        BASIC error is looked for only every ERROR_CHECK emulated seconds (and at the end)."""
        m = self.m
        deadline = m.emulated_seconds + timeout
        next_check = m.emulated_seconds + ERROR_CHECK
        while not predicate():
            if m.emulated_seconds > next_check:
                self.check_error()
                next_check = m.emulated_seconds + ERROR_CHECK
            if m.emulated_seconds > deadline:
                raise DriverError(f"timeout ({timeout} s) waiting for {what}; line "
                                  f"{self.current_line()}; screen {self.screen()}")
            m.run_for(kd.STEP)

    def wait_ready(self, timeout=30.0):
        """Run until the program sits in one of its INKEY$ loops (and stays there 20 ms)."""
        def settled():
            if not self.waiting():
                return False
            self.m.run_for(0.02)
            return self.waiting()
        self.run_until(settled, timeout, "an INKEY$ loop")
        self.check_error()

    def key(self, key, timing=None, wait=True):
        """Press `key` while the program waits, hold it until the program has left the
        INKEY$ line, release it. timing: record the emulated time from the press until
        the line after the display step of TIMED_LINES[timing] is reached."""
        self.wait_ready()
        m = self.m
        m.buzzer.take_transitions(m.now())
        answer = kd.FirstAnswer(self, m.emulated_seconds)
        m.press(key)
        pressed = m.emulated_seconds
        self.run_until(lambda: answer.look() and not self.waiting(), 1.0,
                       f"key {key} to be read")
        m.run_for(0.03)
        m.release(key)
        if timing:
            target = TIMED_LINES[timing]
            self.run_until(lambda: answer.look() and self.current_line() == target, 10.0,
                           f"line {target}")
            self.times[timing].append(m.emulated_seconds - pressed)
            self.times["answer"].append(answer.seconds)
        if wait:
            self.wait_ready()
            if timing:
                self.ready_times[timing].append(m.emulated_seconds - pressed)
        self.beeped = len(m.buzzer.take_transitions(m.now())) > 2

    def start(self, names):
        """DEF J, the number of players, the names; returns at the first roll."""
        m = self.m
        m.type_keys("{DEF}J")
        m.key_wait_ready()
        if not self.screen()[0].startswith("AANTAL SPELERS?"):
            raise DriverError(f"no player-count prompt: {self.screen()}")
        kd.type_players(self, names, "SPELER", "NAAM?")
        self.wait_ready()

    def poke_int(self, letter, value):
        """Set fixed variable `letter` to a non-negative integer below 10**10 (8 BCD bytes:
        0x00, exponent in the high nibble, then the mantissa digits)."""
        if not 0 <= value < 10 ** 10:
            raise ValueError(value)
        digits = str(value)
        mantissa = (digits + "0" * 12)[:12]
        raw = [0, (len(digits) - 1) << 4 if value else 0]
        raw += [int(mantissa[i]) << 4 | int(mantissa[i + 1]) for i in range(0, 12, 2)]
        if not value:
            raw = [0] * 8
        addr = kd.FIXED_A - 8 * (ord(letter) - ord("A"))
        for i, byte in enumerate(raw):
            self.m.poke(addr + i, byte)

    def peek_raw(self, letter):
        addr = kd.FIXED_A - 8 * (ord(letter) - ord("A"))
        return bytes(self.m.peek(addr + i) for i in range(8))

    # -- the high-score line -------------------------------------------------------------
    def hiscore_address(self):
        """Address of the first entry in the text of line 1999."""
        for start, _end, number in self.lines:
            if number == HISCORE_LINE:
                if self.m.peek(start + 3) != 0xFE or self.m.peek(start + 4) != 0x59:
                    raise DriverError("line 1999 is not a REM line")
                return start + 5
        raise DriverError("no line 1999")

    def hiscores(self):
        base = self.hiscore_address()
        out = []
        for i in range(HISCORE_ENTRIES):
            raw = [self.m.peek(base + 4 * i + j) for j in range(4)]
            out.append((chr(raw[0]) + chr(raw[1]), (raw[2] - 48) * 64 + raw[3] - 48))
        return out

    def set_hiscores(self, entries):
        base = self.hiscore_address()
        for i, (name, value) in enumerate(entries):
            for j, byte in enumerate(encode_entry(name, value)):
                self.m.poke(base + 4 * i + j, byte)


def encode_entry(name, value):
    if len(name) != 2 or not 0 <= value < 64 * 64:
        raise ValueError((name, value))
    return bytes([ord(name[0]), ord(name[1]), 48 + value // 64, 48 + value % 64])

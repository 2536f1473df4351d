"""Drive basic_src/mishimash.bas on the firmware engine (real ROM) like a player would.

Used by test_mishimash_game.py. Generic pieces come from kniffel_driver.py (booting an
8 KB machine, the firmware's line pointer, the address of fixed variable A); everything
that depends on the program is here.

When the program waits for a key: it reads keys only in its INKEY$ loops (a line
`Y$=INKEY$: IF Y$="" GOTO <itself>`, after a line that waits until no key is held), so
"ready" means the firmware's line pointer is inside one of those lines. A key is pressed
then, held until the pointer has left the loop (the key was read) and released.

Forcing dice: the program rolls in the lines that assign `RND 6` to the dice A-F and shows
the dice in the line after them, before it counts them. `force(dice)` makes the next roll
come out as `dice`: the driver runs until the pointer is in the rolling lines, then in
small steps until it enters the display line, and pokes the dice into the fixed variables
there. The program then shows and counts the poked dice as if it had rolled them.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from pc1360.tokenizer import tokenize
from tests.helpers import kniffel_driver

# The generic pieces of the Kniffel driver (the firmware's line pointer, fixed variable A,
# an 8 KB machine booted to RUN mode, the error type), re-exported for the tests.
LINE_POINTER = kniffel_driver.LINE_POINTER
FIXED_A = kniffel_driver.FIXED_A
DriverError = kniffel_driver.DriverError
boot = kniffel_driver.boot

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "mishimash.bas"
STEP = 0.005  # emulated seconds between looks at the machine
FINE_STEP = 64  # cycles: the step while waiting for the display line after a roll


def source_lines():
    rows = (text.split(" ", 1) for text in SOURCE.read_text(encoding="utf-8").splitlines())
    return [(int(number), body) for number, body in rows]


def _lines_with(predicate):
    return tuple(number for number, body in source_lines() if predicate(body))


# Found in the source, so renumbering the program does not break the driver.
KEY_LINES = _lines_with(lambda body: body.startswith("Y$=INKEY$"))
ROLL_LINES = _lines_with(lambda body: "=RND 6" in body)


def _line_after(number):
    return next(n for n, body in source_lines() if n > number and not body.startswith("REM"))


POKE_LINE = _line_after(max(ROLL_LINES))  # the dice are rolled, not yet used
# The line after the one that prints the dice: the new roll is on the display.
SHOWN_LINE = _line_after(_lines_with(lambda body: 'PRINT USING "##";A;B;C;D;E;F' in body)[0])


# -- numbers in memory (8 BCD bytes, docs/stored_format.md §4.1) ---------------

def encode_number(value):
    """The 8 bytes of a PC-1360 number (as measured on the firmware): a 3-digit BCD exponent
    in byte 0 and the high nibble of byte 1 (negative exponents as 1000+e), the sign in the
    low nibble of byte 1 (8 = negative), 10 BCD mantissa digits in bytes 2-6, byte 7 zero.
    1 is 00 00 10 00.., -4 is 00 08 40 00.., 12.5 is 00 10 12 50 00.., 0.5 is 99 90 50 00.."""
    if value == 0:
        return bytes(8)
    mantissa, exponent = f"{abs(value):.9e}".split("e")  # d.ddddddddde+XX
    digits = mantissa.replace(".", "")
    exp = int(exponent) % 1000
    head = f"{exp:03d}{8 if value < 0 else 0}"
    out = [int(head[0:2], 16), int(head[2:4], 16)]
    out += [int(digits[i:i + 2], 16) for i in range(0, 10, 2)]
    return bytes(out + [0])


def decode_number(raw):
    """Inverse of encode_number (a float; the program's halves are exact)."""
    raw = bytes(raw)
    head = f"{raw[0]:02x}{raw[1]:02x}"
    digits = "".join(f"{b:02x}" for b in raw[2:7])
    if int(digits) == 0:
        return 0.0
    exp = int(head[:3])
    if exp >= 500:
        exp -= 1000
    value = int(digits) * 10.0 ** (exp - 9)
    value = round(value, 9 - exp) if exp < 9 else value
    return -value if head[3] == "8" else value


def fixed_address(letter):
    return FIXED_A - 8 * (ord(letter) - ord("A"))


# -- the screen (layout: basic_src/mishimash.md) ------------------------------------------

def _number(text):
    text = text.strip()
    return float(text) if re.fullmatch(r"-?\d+(\.\d)?", text) else None


@dataclass
class Screen:
    rows: list
    dice: tuple  # the dice in play, left to right (1 = leftmost)
    chosen: tuple  # 1-based positions marked ^ (chosen to keep)
    roll: int  # x: the roll number of the turn = the multiplier (row 0 " x4")
    name: str
    label: str  # row 1, columns 12-23: "RONDE n", "SLOT> 204.5" (final round: the score
    # to beat), "BESLISSING"; right after the bank that reaches the target "SLOTRONDE"/"EINDE"
    turn: float  # BEURT: the unbanked points of the turn
    total: float  # TOT: the player's banked score
    bonus_message: str  # row 3, columns 0-12 ("MISHIMASH +10")
    status: str  # row 3, columns 14-23 ("PECH!", "ONGELDIG", "BEWAARD")


def parse_turn_screen(rows):
    r0, r1, r2, r3 = rows
    if r0[12:14] != " x" or r2[:5] != "BEURT" or r2[12:16] != " TOT":
        raise DriverError(f"not a turn screen: {rows!r}")
    dice = []
    for col in range(1, 12, 2):
        if not r0[col].isdigit():
            break
        dice.append(int(r0[col]))
    if r0[2 * len(dice) + 1:12].strip():
        raise DriverError(f"dice row: {rows!r}")
    chosen = tuple(i + 1 for i in range(6) if r1[2 * i + 1] == "^")
    return Screen(rows=list(rows), dice=tuple(dice), chosen=chosen, roll=int(r0[14:17].strip()),
                  name=r0[22:24], label=" ".join(r1[12:24].split()), turn=_number(r2[5:12]),
                  total=_number(r2[16:24]), bonus_message=r3[:13].strip(),
                  status=r3[14:24].strip())


class Mishimash:
    def __init__(self, machine):
        self.m = machine
        self.lines = []
        self.pending = None  # dice for the next roll (force)
        self.beeps = 0  # BEEP sounds heard during the last key()
        self.times = {"shown": [], "ready": []}  # ENTER/turn start -> dice shown / ready
        self.answers = []  # per key (wait=True): emulated seconds to the display's first change
        self._answer = None  # the FirstAnswer of the key being handled

    # -- program and memory --------------------------------------------------------------
    def load(self):
        self.m.load_program(tokenize(SOURCE.read_text(encoding="utf-8")))
        self._index_lines()

    def _index_lines(self):
        self.lines = kniffel_driver.stored_lines(self.m)

    def current_line(self):
        return kniffel_driver.line_containing(self.lines, self.m.peek_word(LINE_POINTER))

    def peek_var(self, letter):
        addr = fixed_address(letter)
        return decode_number(self.m.peek(addr + i) for i in range(8))

    def poke_var(self, letter, value):
        addr = fixed_address(letter)
        for i, byte in enumerate(encode_number(value)):
            self.m.poke(addr + i, byte)

    def screen(self):
        return self.m.screen_text()

    def turn_screen(self):
        return parse_turn_screen(self.screen())

    # -- time and keys -------------------------------------------------------------------
    def run_until(self, predicate, timeout, what, step=STEP):
        m = self.m
        deadline = m.emulated_seconds + timeout
        answer = self._answer
        while not ((answer is None or answer.look()) and predicate()):
            if m.emulated_seconds > deadline:
                raise DriverError(f"timeout ({timeout} s) waiting for {what}; line "
                                  f"{self.current_line()}; screen {self.screen()}")
            if step == STEP:
                m.run_for(step)
            else:
                m.run_cycles(step)

    def _errored(self):
        return any("ERROR" in row for row in self.screen())

    def check_error(self):
        if self._errored():
            raise DriverError(f"BASIC error: {self.screen()}")

    def wait_ready(self, timeout=15.0, forcing=True):
        """Run until the program waits in an INKEY$ loop (forcing the pending dice on the
        way if a roll comes first, and then insisting that it did)."""
        start = self.m.emulated_seconds

        def ready():
            if forcing and self.pending is not None and self.current_line() in ROLL_LINES:
                self._poke_pending(start)
            if self.current_line() not in KEY_LINES:
                return False
            self.m.run_for(0.02)
            return self.current_line() in KEY_LINES
        self.run_until(lambda: ready() or self._errored(), timeout, "an INKEY$ loop")
        self.check_error()
        if forcing and self.pending is not None:
            raise DriverError(f"forced dice {self.pending} were not rolled")
        self.times["ready"].append(self.m.emulated_seconds - start)

    def _poke_pending(self, start):
        self.run_until(lambda: self.current_line() == POKE_LINE, 2.0, "the line after the roll",
                       step=FINE_STEP)
        for letter, value in zip("ABCDEF", self.pending):
            self.poke_var(letter, value)
        self.pending = None
        self.run_until(lambda: self.current_line() == SHOWN_LINE, 2.0, "the dice shown")
        self.times["shown"].append(self.m.emulated_seconds - start)

    def force(self, dice):
        """The next roll comes out as `dice` (as many as the program rolls)."""
        self.pending = tuple(dice)

    def key(self, key, wait=True, hold_after_read=0.03):
        """Press `key` when the program waits for it, hold it until it is read, release it,
        then run until the program waits again (unless wait=False) and add to self.answers
        the time from the press to the display's first change (None: it did not change).
        self.beeps: the number of BEEP tones the key caused (1 for an accepted key, 2 for a
        refused action)."""
        m = self.m
        self.wait_ready(forcing=False)
        m.buzzer.take_transitions(m.now())
        self._answer = kniffel_driver.FirstAnswer(self, m.emulated_seconds)
        m.press(key)
        try:
            self.run_until(lambda: self.current_line() not in KEY_LINES, 1.0,
                           f"key {key} to be read")
            m.run_for(hold_after_read)
            m.release(key)
            if wait:
                self.wait_ready()
                self.answers.append(self._answer.seconds)
        finally:
            self._answer = None
        self.beeps = count_beeps(m.buzzer.take_transitions(m.now()))

    def type_input(self, text):
        self.m.type_keys(text + "{ENTER}")

    def start(self, names, target=None, first_dice=None):
        """DEF X, the number of players, the names, the target (None: ENTER alone, the
        default 1000); returns when the first roll is shown and the program waits."""
        m = self.m
        m.type_keys("{DEF}X")
        m.key_wait_ready()
        if not self.screen()[0].startswith("AANTAL SPELERS?"):
            raise DriverError(f"no player-count prompt: {self.screen()}")
        kniffel_driver.type_players(self, names, "SPELER", "NAAM?")
        m.key_wait_ready()
        if not self.screen()[0].startswith("DOEL (1000)?"):
            raise DriverError(f"no target prompt: {self.screen()}")
        if first_dice is not None:
            self.force(first_dice)
        self.type_input("" if target is None else str(target))
        self.wait_ready()

    def free_memory(self):
        return kniffel_driver.free_memory(self.m)


def count_beeps(transitions, gap_cycles=2_000):
    """Group buzzer transitions (cycle stamps) into tones separated by silent gaps."""
    stamps = [t[0] if isinstance(t, tuple) else t for t in transitions]
    if not stamps:
        return 0
    tones = 1
    for before, after in zip(stamps, stamps[1:]):
        if after - before > gap_cycles:
            tones += 1
    return tones

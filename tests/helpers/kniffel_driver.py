"""Drive basic_src/kniffel.bas like a player would, on either engine: the firmware (real
ROM) or the built-in BASIC (emulator/builtin/), which keeps the same RAM bookkeeping.

Used by test_kniffel_game.py. The program is tokenized with the project's tokenizer, put on
an 8 KB card with PC1360.load_program and started with DEF K.

How the driver knows the program is waiting for a key: the program reads keys only in its
INKEY$ loops (Y$=INKEY$: IF Y$="" GOTO <itself>; the line before each waits until no key
is held). The firmware keeps a pointer into the BASIC line it is executing at 0xFEF2
(little-endian; found by experiment: after each statement the address of its last byte),
and the built-in engine stores the same, so "ready" means the pointer is inside one of
those lines. A key is pressed only then, held until the program has left the loop (it has read
the key) and released. The INPUT prompts of the start are typed with the machine's own key driver
(PC1360.type_keys), which waits for the firmware's key-wait loop.

Dice can be set for a test by poking the fixed variables A-E (the program keeps the five
dice there): a PC-1360 numeric variable is 8 BCD bytes, a one-digit integer d is
00 00 d0 00 00 00 00 00. The poked dice are what the program scores; the display keeps
showing the rolled ones.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from emulator.machine.facade import PC1360
from pc1360.facts import INPUT_BUFFER, LINE_POINTER, PREFIX, RANDOM_SEED, START_PTR
from pc1360.tokenizer import tokenize

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "kniffel.bas"
PROGRAM_START = START_PTR  # pointer to the 0xFF before the first program line
FIXED_A = 0xFA98  # fixed variable A; B is 8 bytes lower, ... (docs/stored_format.md §3.1)

def _source_lines():
    rows = (text.split(" ", 1) for text in SOURCE.read_text(encoding="utf-8").splitlines())
    return [(int(number), body) for number, body in rows]


def _line_after(fragment, whole=False):
    """The number of the line that follows the one containing `fragment` (whole: the one
    that is `fragment`): the program has finished that line once the pointer is there."""
    lines = _source_lines()
    for (_, body), (following, _) in zip(lines, lines[1:]):
        if body == fragment if whole else fragment in body:
            return following
    raise LookupError(fragment)


# Found in the source, so renumbering the program does not break the driver.
KEY_LINES = tuple(n for n, body in _source_lines() if body.startswith('Y$=INKEY$'))
TIMED_LINES = {
    # a new roll, also a turn's first (shown last, after the name and rows 2-4)
    "reroll": _line_after('CURSOR 0: PRINT USING "##";A;B;C;D;E', whole=True),
    "next_turn": _line_after('CURSOR 0: PRINT USING "##";A;B;C;D;E', whole=True),
    "prompt": _line_after('PRINT "?"'),  # the "?" is shown
}
STEP = 0.005  # emulated seconds between looks at the machine
# how long BRK is held: the firmware looks at it between statements, and the search of a
# backward GOTO for its line (beyond the other programs on the card) can outlast a short tap
BRK_HOLD = 0.2
DISPLAY_RAM = slice(0x2800, 0x3400)  # where both engines draw (docs/interfaces.md)


def stored_lines(machine):
    """(start, end, number) of every program line in RAM, found from the start pointer."""
    addr = machine.peek_word(PROGRAM_START) + 1
    lines = []
    while machine.peek(addr) != 0xFF:
        end = addr + 3 + machine.peek(addr + 2)
        lines.append((addr, end, machine.peek(addr) << 8 | machine.peek(addr + 1)))
        addr = end
    return lines


def line_containing(lines, address):
    """The number of the stored line that holds `address`, or None."""
    for start, end, number in lines:
        if start <= address < end:
            return number
    return None


def run_until(driver, predicate, timeout, what, step=STEP):
    """Run `driver`'s machine in `step` slices until predicate() holds; DriverError (with the
    line being executed and the screen) after `timeout` emulated seconds."""
    m = driver.m
    deadline = m.emulated_seconds + timeout
    while not predicate():
        if m.emulated_seconds > deadline:
            raise DriverError(f"timeout ({timeout} s) waiting for {what}; line "
                              f"{driver.current_line()}; screen {driver.screen()}")
        m.run_for(step)


class FirstAnswer:
    """When the screen first changes after a key: look() at every step of the waits that
    follow the press; `seconds` is then the time from `pressed_at` (None: no change yet)."""

    def __init__(self, driver, pressed_at):
        self.driver = driver
        self.before = driver.screen()
        self.pressed_at = pressed_at
        self.seconds = None

    def look(self):
        if self.seconds is None and self.driver.screen() != self.before:
            self.seconds = self.driver.m.emulated_seconds - self.pressed_at
        return True


def break_and_continue(driver, after=None):
    """BRK (after `after` emulated seconds of running, else at once), then CONT typed with
    ENTER, as a player would: the program stops with BREAK IN n and goes on where it stopped.
    The games notice CONT by the tokenized line it leaves in the input buffer (0xFE, the
    keyword prefix, at its start) when they wait for a key: they redraw their screen and put
    a CR there. Runs until then and until the program waits for a key again."""
    m = driver.m
    if after:
        m.run_for(after)
    m.tap("BRK", hold=BRK_HOLD)
    if not m.key_wait_ready():
        raise DriverError(f"no command prompt after BRK: {driver.screen()}")
    if not any(row.startswith("BREAK IN") for row in driver.screen()):
        raise DriverError(f"no BREAK IN after BRK: {driver.screen()}")
    m.type_keys("CONT{ENTER}")
    run_until(driver, lambda: m.peek(INPUT_BUFFER) == PREFIX, 1.0, "CONT in the input buffer")
    run_until(driver, lambda: m.peek(INPUT_BUFFER) != PREFIX, 30.0, "the program to notice CONT")
    driver.wait_ready()


def type_players(driver, names, player_word, name_prompt, first_timeout=None):
    """Answer the player-count prompt and then each player's name prompt (`player_word n`
    on row 0, `name_prompt` on row 1), checking every prompt. `first_timeout`: emulated
    seconds to wait for the first name prompt (the arrays of many players take a while)."""
    driver.type_input(str(len(names)))
    for number, name in enumerate(names, start=1):
        if number == 1 and first_timeout:
            driver.m.key_wait_ready(first_timeout)
        driver.m.key_wait_ready()
        rows = driver.screen()
        if rows[0].strip() != f"{player_word} {number}" or not rows[1].startswith(name_prompt):
            raise DriverError(f"no name prompt for player {number}: {rows}")
        driver.type_input(name)


class DriverError(AssertionError):
    pass


@dataclass
class Screen:
    """The game display read as text (layout: basic_src/kniffel.md)."""
    rows: list
    dice: tuple  # five faces, None where a die was chosen for the next roll
    round: int  # 1-13 ("Zug")
    roll: int  # 1-3 ("Wurf")
    name: str
    upper_row: str  # "1 2 3 4 5 6" with used methods as "-"
    distance: int  # the upper number: distance from the bonus
    lower_row: str  # "DP VP FH KS GS KN CH" with used methods as "--"
    score: int
    prompt: bool  # "?" at the start of line 4
    message: str  # line 2 between the methods and the upper number (BELEGT)
    keys: str  # line 4 after the "?", columns 1-18: the keys of the open DP-CH methods


def _int(text):
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def resumed_machine(rom_dir, card, state, engine="firmware"):
    """A new machine from a saved card and power-off state, switched on again."""
    machine = PC1360(engine=engine, rom_dir=rom_dir, card_kb=len(card) // 1024, card_data=card)
    machine.resume(state)
    return machine


def free_memory(m):
    """Type MEM in RUN mode (the program must have ended) and read the number."""
    m.type_keys("{CLS}MEM{ENTER}")
    m.run_for(0.3)
    rows = m.screen_text()
    for row in rows:
        value = _int(row.replace(".", ""))
        if value is not None:
            return value
    raise DriverError(f"no MEM result: {rows}")


def parse_game_screen(rows):
    r0, r1, r2, r3 = rows
    dice = tuple(int(r0[c]) if r0[c].isdigit() else None for c in (1, 3, 5, 7, 9))
    if r0[10:12] != " Z" or r0[14:17] != " W " or not r0[17].isdigit():
        raise DriverError(f"not a game screen: {rows!r}")
    return Screen(rows=list(rows), dice=dice, round=_int(r0[12:14]), roll=int(r0[17]),
                  name=r0[22:24],
                  upper_row=r1[:11], distance=_int(r1[21:24]), lower_row=r2[:20],
                  score=_int(r2[20:24]), prompt=r3[0] == "?", message=r1[11:21].strip(),
                  keys=r3[1:19] if r3[19:].strip() == "" else r3[1:])


def program_image():
    return tokenize(SOURCE.read_text(encoding="utf-8"))


ENGINES = ("firmware", "builtin")


def boot(rom_dir, card_kb=8, engine="firmware"):
    """A machine after the cold-boot card question, answered with Y. `rom_dir` is needed
    for the firmware engine only."""
    m = PC1360(engine=engine, card_kb=card_kb, rom_dir=rom_dir)
    m.run_for(1.5)
    m.type_keys("Y")
    m.run_for(1.0)
    if not any("RUN MODE" in row for row in m.screen_text()):
        raise DriverError(f"boot failed: {m.screen_text()}")
    return m


class Kniffel:
    def __init__(self, machine):
        self.m = machine
        self.lines = []
        self.times = {kind: [] for kind in TIMED_LINES}  # response times, emulated seconds
        self.times["answer"] = []   # ... of the timed keys to the screen's first change
        self.beeped = False  # whether the last key() made the buzzer sound
        self._shown = (None, None)  # (display RAM, its text): the LCD is read only on a change

    # -- program and memory --------------------------------------------------------------
    def load(self, image=None):
        self.m.load_program(program_image() if image is None else image)
        self._index_lines()

    def _index_lines(self):
        self.lines = stored_lines(self.m)

    def current_line(self):
        return line_containing(self.lines, self.m.peek_word(LINE_POINTER))

    def poke_number(self, letter, value):
        """Set fixed variable `letter` to a whole number 1-99."""
        addr = FIXED_A - 8 * (ord(letter) - ord("A"))
        digits = [0] * 8
        digits[1] = (len(str(value)) - 1) << 4
        digits[2] = int(str(value).ljust(2, "0"), 16)
        for i, byte in enumerate(digits):
            self.m.poke(addr + i, byte)

    def peek_digit(self, letter):
        """Fixed variable `letter` if it holds a one-digit integer 1-9, else None."""
        addr = FIXED_A - 8 * (ord(letter) - ord("A"))
        raw = [self.m.peek(addr + i) for i in range(8)]
        if raw[:2] == [0, 0] and raw[2] & 0x0F == 0 and not any(raw[3:]) and raw[2] >> 4:
            return raw[2] >> 4
        return None

    def poke_dice(self, dice):
        for letter, value in zip("ABCDE", dice):
            self.poke_number(letter, value)

    def screen(self):
        raw = bytes(self.m.mem[DISPLAY_RAM])
        if raw != self._shown[0]:
            self._shown = (raw, self.m.screen_text())
        return list(self._shown[1])

    def game_screen(self):
        return parse_game_screen(self.screen())

    # -- time and keys -------------------------------------------------------------------
    def run_until(self, predicate, timeout, what):
        run_until(self, predicate, timeout, what)

    def check_error(self):
        rows = self.screen()
        if any("ERROR" in row for row in rows):
            raise DriverError(f"BASIC error: {rows}")

    def wait_ready(self, timeout=10.0):
        """Run until the program waits in its INKEY$ loop."""
        def ready():
            if self.current_line() not in KEY_LINES:
                return False
            self.m.run_for(0.02)
            return self.current_line() in KEY_LINES
        self.run_until(lambda: ready() or self._errored(), timeout, "the INKEY$ loop")
        self.check_error()

    def _errored(self):
        return any("ERROR" in row for row in self.screen())

    def key(self, key, timing=None, wait=True, hold_after_read=0.03, ready_timeout=10.0):
        """Press one key when the program waits for it; hold it until it is read; release;
        run until the program waits again. `timing` ("reroll", "next_turn", "prompt"): record
        into self.times[timing] the time from the press until the program has shown the new
        roll, the next player's first roll or the "?". wait=False: return
        as soon as the key is released (for the last key, after which the program ends)."""
        self.wait_ready()
        m = self.m
        m.buzzer.take_transitions(m.now())
        answer = FirstAnswer(self, m.emulated_seconds)
        m.press(key)
        pressed_at = m.emulated_seconds
        self.run_until(lambda: answer.look() and self.current_line() not in KEY_LINES, 1.0,
                       f"key {key} to be read")
        m.run_for(hold_after_read)
        m.release(key)
        if timing:
            target = TIMED_LINES[timing]
            seen = []

            def shown():
                answer.look()
                if self.current_line() == target:
                    seen.append(m.emulated_seconds)
                return bool(seen) or self._errored()
            self.run_until(shown, 10.0, f"line {target}")
            self.check_error()
            self.times[timing].append(seen[0] - pressed_at)
            self.times["answer"].append(answer.seconds)
        if wait:
            self.wait_ready(ready_timeout)
        self.beeped = len(m.buzzer.take_transitions(m.now())) > 2

    def type_input(self, text):
        """Answer an INPUT prompt (the firmware's own key-wait loop)."""
        self.m.type_keys(text + "{ENTER}")

    def start(self, names, seed=None):
        """DEF K, the number of players, the names; returns when the first roll is shown
        and the program waits for a key. `seed` (8 bytes): put into RND's seed after the
        program's RANDOM, so the dice are the same on every run and on both engines."""
        m = self.m
        m.type_keys("{DEF}K")
        m.key_wait_ready()
        if not self.screen()[0].startswith("ANZAHL SPIELER?"):
            raise DriverError(f"no player-count prompt: {self.screen()}")
        if seed is not None:
            for offset, value in enumerate(seed):
                m.poke(RANDOM_SEED + offset, value)
        type_players(self, names, "SPIELER", "NAME?")
        self.wait_ready()

    def free_memory(self):
        return free_memory(self.m)

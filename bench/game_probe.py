"""A player with a stopwatch for the BASIC games of basic_src/, on the firmware engine
(bench/bench_games.py uses it).

For every key it measures, in emulated seconds from the press:
- `shown`: the first change of the display's text (the blinking INPUT cursor does not count);
- `done`: the last change of the display's text before the program reads keys again;
- `ready`: when the program reads the keyboard again.

"Reads the keyboard" has two forms. The games poll INKEY$ in lines that assign it
(`Y$=INKEY$`, `F$=INKEY$`); the firmware keeps at 0xFEF2 a pointer into the line it runs
(docs/stored_format.md §2.3), so the program is ready when that pointer is first in such a
line (Mikazee polls between the steps of the work that follows a booking: ready is the
first poll). Before a key is pressed the pointer must stay in such a line 20 ms. INPUT and the command prompt use the firmware's key-wait loop,
seen by its strobe writes (bus.keywait_count, as PC1360.key_wait_ready does).

A key is pressed once the program waits idle (the pointer 20 ms in an INKEY$ line that
calls nothing, or the key-wait loop), held as a person holds it (0.15 s, and until the
program has left that line) and released.
"""

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from emulator.machine.facade import PC1360
from pc1360.facts import (END_MARK, FIXED_Z, LCD_BASE, LCD_LAST, LINE_POINTER, RANDOM_SEED,
                          START_PTR)
from pc1360.tokenizer import tokenize

STEP = 0.005  # emulated seconds between looks
SETTLE = 0.02  # the pointer must stay in a key line this long
HOLD = 0.15  # a key is held at least this long
STROBES = 3  # key-wait strobe writes that show the loop runs
READ = re.compile(r'\b[A-Z]\$=INKEY\$')
# what the firmware's INPUT cursor shows while it blinks (read as text: "_" and a block that
# the character set does not name): not an answer of the program
CURSOR_GLYPHS = str.maketrans({"_": " ", "\ufffd": " "})
SEED = bytes([0x00, 0x00, 0x57, 0x29, 0x57, 0x79, 0x51, 0x31])


class ProbeError(RuntimeError):
    pass


@dataclass
class Timing:
    shown: float | None
    done: float | None
    ready: float


@dataclass
class Record:
    """The timings of one kind of key, in the order they were measured."""
    label: str
    times: list = field(default_factory=list)


def key_lines(sources):
    """The numbers of the lines that read INKEY$ into a variable: all of them, and those
    that call nothing (where the program waits with nothing else to do; Mikazee's other
    poll calls the next step of its work)."""
    lines, idle = set(), set()
    for text in sources:
        for row in text.splitlines():
            number, _, body = row.partition(" ")
            if READ.search(body) and not body.startswith("REM"):
                lines.add(int(number))
                if "GOSUB" not in body:
                    idle.add(int(number))
    return lines, idle


class Probe:
    """One machine with one or more games loaded, started from RUN mode."""

    def __init__(self, rom, card_kb, sources):
        self.m = PC1360(engine="firmware", card_kb=card_kb, rom_dir=rom)
        self.m.run_for(1.5)
        self.m.type_keys("Y")
        self.m.run_for(1.0)
        self.m.load_program(tokenize("".join(sources)))
        self.key_lines, self.idle_lines = key_lines(sources)
        self.starts, self.numbers = self._index()
        self.records = {}
        self._shown = (None, None)

    def _index(self):
        m = self.m
        addr = m.peek_word(START_PTR) + 1
        starts, numbers = [], []
        while m.peek(addr) != END_MARK:
            starts.append(addr)
            numbers.append(m.peek(addr) << 8 | m.peek(addr + 1))
            addr += 3 + m.peek(addr + 2)
        starts.append(addr)
        return starts, numbers

    # -- looking ---------------------------------------------------------------------
    def line(self):
        ptr = self.m.peek_word(LINE_POINTER)
        i = bisect.bisect_right(self.starts, ptr) - 1
        return self.numbers[i] if 0 <= i < len(self.numbers) else None

    def screen(self):
        raw = bytes(self.m.mem[LCD_BASE:LCD_LAST + 1])
        if raw != self._shown[0]:
            self._shown = (raw, [row.translate(CURSOR_GLYPHS) for row in self.m.screen_text()])
        return list(self._shown[1])

    def _idle(self):
        if self.line() not in self.idle_lines:
            return False
        self.m.run_for(SETTLE)
        return self.line() in self.idle_lines

    def wait_ready(self, timeout=120.0):
        """Run until the program reads keys; 'inkey' or 'keywait' (which form)."""
        m = self.m
        strobes = m.bus.keywait_count
        deadline = m.emulated_seconds + timeout
        while True:
            if self._idle():
                return "inkey"
            if m.bus.keywait_count - strobes >= STROBES:
                return "keywait"
            if any("ERROR" in row for row in self.screen()):
                raise ProbeError(f"BASIC error: {self.screen()}")
            if m.emulated_seconds > deadline:
                raise ProbeError(f"not ready after {timeout} s; line {self.line()}: {self.screen()}")
            m.run_for(STEP)

    def seed(self):
        """Put a fixed RND seed in (after the program's RANDOM): the same dice every run."""
        for offset, value in enumerate(SEED):
            self.m.poke(RANDOM_SEED + offset, value)

    def poke_number(self, letter, value):
        """Fixed variable `letter` := a whole number 0-99 (8 BCD bytes, docs/stored_format.md §4)."""
        digits = str(value)
        raw = [0, (len(digits) - 1) << 4, int(digits.ljust(2, "0"), 16), 0, 0, 0, 0, 0]
        if value == 0:
            raw = [0] * 8
        for offset, byte in enumerate(raw):
            self.m.poke(FIXED_Z + 8 * (ord("Z") - ord(letter)) + offset, byte)

    # -- keys ------------------------------------------------------------------------
    def key(self, key, kind=None, timeout=120.0):
        """Press `key` when the program is ready; measure into records[kind] (None: not
        measured). Returns the Timing."""
        m = self.m
        mode = self.wait_ready()
        before = self.screen()
        start = m.emulated_seconds
        m.press(key)
        held = True
        shown = done = None
        last = before
        strobes = m.bus.keywait_count
        deadline = start + timeout
        while True:
            elapsed = m.emulated_seconds - start
            if held and elapsed >= HOLD and (mode != "inkey" or self.line() not in self.idle_lines
                                             or elapsed > 1.0):
                m.release(key)
                held = False
                strobes = m.bus.keywait_count
            now = self.screen()
            if now != last:
                done = elapsed
                shown = done if shown is None else shown
                last = now
            if not held and self.line() in self.key_lines:  # the first poll of the keyboard
                break
            if not held and m.bus.keywait_count - strobes >= STROBES:
                break
            if m.emulated_seconds > deadline:
                raise ProbeError(f"key {key}: not ready after {timeout} s; line {self.line()}")
            m.run_for(STEP)
        timing = Timing(shown, done, m.emulated_seconds - start)
        if kind:
            self.note(kind, timing)
        return timing

    def note(self, kind, timing):
        self.records.setdefault(kind, Record(kind)).times.append(timing)

    def type_text(self, text):
        """Characters into an INPUT (not measured)."""
        for char in text:
            self.key(char)

    def answer(self, text, kind=None):
        """An INPUT answer: the characters, then ENTER measured as `kind`."""
        self.type_text(text)
        return self.key("ENTER", kind)

    def define(self, letter, kind):
        """DEF and a letter from RUN mode: the program starts (measured from the letter)."""
        self.key("DEF")
        return self.key(letter, kind)


def sources(folder, *names):
    return [(Path(folder) / name).read_text(encoding="utf-8") for name in names]

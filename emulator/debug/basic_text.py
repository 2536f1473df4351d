"""Where in the BASIC program an address is: the line and statement, read from the program's
bytes in RAM (docs/stored_format.md §1, §2), the same on both engines.

A statement is a stretch of a line's body between ':'s that stand outside strings and REM
text (pc1360.token_walk); statements are numbered from 1 in each line. An address outside
the program (a typed line in the input buffer) is in no line.
"""

from typing import NamedTuple

from emulator.builtin.stored_program import Program
from pc1360.facts import END_PTR, START_PTR
from pc1360.image import Line
from pc1360.listing import list_line
from pc1360.token_walk import BYTES, walk

COLON = 0x3A
CACHE_LIMIT = 4096


class Place(NamedTuple):
    """A statement of the program: its line's number and address, its number in the line
    (from 1) and how many the line has, and its bytes' offsets in the line's body."""
    line: int
    line_addr: int
    statement: int
    statements: int
    start: int
    end: int

    @property
    def key(self):
        """The same for every address in the statement."""
        return self.line_addr, self.statement


def statement_bounds(body):
    """[(start, end)] of each statement of a line body (offsets; the ':'s left out)."""
    bounds, start = [], 0
    for kind, first, end, _value in walk(body):
        if kind != BYTES:
            continue
        for offset in range(first, end):
            if body[offset] == COLON:
                bounds.append((start, offset))
                start = offset + 1
    bounds.append((start, len(body)))
    return bounds


class ProgramText:
    """The program in `mem`, looked at from outside the engines (it is read anew each time:
    the program may change between two stops)."""

    def __init__(self, mem):
        self.mem = mem
        self.program = Program(mem)
        self._places = {}       # addr -> (Place or None, the bytes it was found from)

    def lines(self):
        """(number, address) of each line, in the order they are stored."""
        return list(self.program.lines())

    def body(self, line_addr):
        mem = self.mem
        return bytes(mem[line_addr + 3:line_addr + 2 + mem[line_addr + 2]])

    def place(self, addr):
        """The Place of the statement holding `addr`, or None outside the program's lines."""
        mem = self.mem
        for number, line_addr in self.program.lines():
            end = line_addr + 3 + mem[line_addr + 2]
            if line_addr <= addr < end:
                offset = max(0, addr - line_addr - 3)
                bounds = statement_bounds(self.body(line_addr))
                for index, (start, stop) in enumerate(bounds, 1):
                    if offset <= stop:
                        return Place(number, line_addr, index, len(bounds), start, stop)
            if line_addr > addr:
                break
        return None

    def cached_place(self, addr):
        """place(addr), remembered while the program's pointers and the line's record stay
        the same (the runners ask at every statement)."""
        entry = self._places.get(addr)
        if entry is not None and entry[1] == self._key(entry[0]):
            return entry[0]
        place = self.place(addr)
        if len(self._places) > CACHE_LIMIT:
            self._places.clear()
        self._places[addr] = (place, self._key(place))
        return place

    def _key(self, place):
        mem = self.mem
        key = bytes(mem[START_PTR:END_PTR + 2])
        if place is not None:
            key += bytes(mem[place.line_addr:place.line_addr + 3 + mem[place.line_addr + 2]])
        return key

    def has_line(self, number):
        return any(n == number for n, _addr in self.program.lines())

    def describe(self, place):
        """`line 20, statement 2 of 3: 20:S=S+I` (the statement as LIST shows it)."""
        body = self.body(place.line_addr)[place.start:place.end]
        text = list_line(Line(place.line, body))
        return f"line {place.line}, statement {place.statement} of {place.statements}: {text}"

"""The BASIC program as bytes on the RAM card (docs/stored_format.md §1, §2).

A program is 0xFF, lines, 0xFF. A line is `hi lo len body... 0x0D` (line number
big-endian, `len` counting the body and the 0x0D). The start pointer (0xFFD7/8) holds
the address of the leading 0xFF, the end pointer (0xFFD9/A) that of the trailing one;
pointers are little-endian. The ROM keeps copies of the end pointer at 0x283E (mirror
0x293E) and at card start + 9; the built-in engine keeps them in step too.
"""

from emulator.builtin.basic_errors import ILLEGAL, LINE, MEMORY, OTHER, BasicError
from pc1360.facts import (
    CARD_BOUNDS_PTR,
    CARD_COPIES_OFFSET,
    CARD_WINDOW,
    CR,
    DIM_EMPTY,
    DIM_PTR,
    END_MARK,
    END_PTR,
    LCD_MIRROR,
    MAX_LINE,
    MERGE_PTR,
    PROGRAM_OFFSET,
    QUOTE,
    RANDOM_SEED,
    START_PTR,
    SYSTEM_END_COPY,
)
from pc1360.keywords import BY_NAME
from pc1360.token_walk import BYTES, KEYWORD, LINE_NUMBER, STRING, walk

CARD_END_COPY = CARD_COPIES_OFFSET + 2      # card start + 9: the end pointer's copy
# after Y the firmware leaves 57.2957795131 in the random seed (RANDOM_SEED) ...
BOOT_SEED = bytes.fromhex("0010572957795131")   # ... (180/pi, read on the firmware engine)


def word(mem, addr):
    return mem[addr] | mem[addr + 1] << 8


def set_word(mem, addr, value):
    mem[addr] = value & 0xFF
    mem[addr + 1] = (value >> 8) & 0xFF


class Program:
    """Lines, line lookup and editing over `mem`."""

    def __init__(self, mem):
        self.mem = mem
        self._lines = None          # {number: address}, rebuilt after any change
        self._lines_key = None
        self._sorted = True         # the line numbers rise along the chain
        self._located = {}          # locate()'s answers by (number, here), for the index
        self.current_line = lambda: None    # address of the line being run (the
                                            # interpreter sets it): find() needs it

    # ------------------------------------------------------------ pointers

    @property
    def start(self):
        return word(self.mem, START_PTR)

    @property
    def end(self):
        return word(self.mem, END_PTR)

    def card_start(self):
        return word(self.mem, CARD_BOUNDS_PTR)

    def is_valid(self):
        """True if the pointers describe a program the engine can run (else the card
        needs the CLEAR question, as on a cold start)."""
        mem = self.mem
        start, end = self.start, self.end
        card = self.card_start()
        return (CARD_WINDOW <= card < start <= end < DIM_EMPTY and card & 0x7FF == 0
                and mem[start] == END_MARK and mem[end] == END_MARK)

    def init_card(self, card_start):
        """What answering Y to `RAM CARD S1 CLEAR O.K. ?` leaves: an empty program,
        no DIM variables, A-Z zero, the random seed the firmware leaves there."""
        mem = self.mem
        start = card_start + PROGRAM_OFFSET
        set_word(mem, CARD_BOUNDS_PTR, card_start)
        mem[start] = mem[start + 1] = END_MARK
        set_word(mem, START_PTR, start)
        set_word(mem, MERGE_PTR, start)
        set_word(mem, DIM_PTR, DIM_EMPTY)
        mem[DIM_EMPTY:DIM_EMPTY + 26 * 8] = bytes(26 * 8)
        mem[RANDOM_SEED:RANDOM_SEED + 8] = BOOT_SEED
        self._set_end(start + 1)

    def _set_end(self, end):
        mem = self.mem
        set_word(mem, END_PTR, end)
        set_word(mem, SYSTEM_END_COPY, end)
        set_word(mem, SYSTEM_END_COPY + LCD_MIRROR, end)
        set_word(mem, self.card_start() + CARD_END_COPY, end)
        self.changed()

    def changed(self):
        """Forget the line index (after an edit or a POKE)."""
        self._lines = None

    # ------------------------------------------------------------ lines

    def lines(self, addr=None):
        """(number, address) of every line in order (from the line at `addr`). A
        damaged program ends the walk where its bytes stop making sense instead of
        raising."""
        mem = self.mem
        if addr is None:
            addr = self.start + 1
        end = min(self.end, 0xFFF0)
        while addr < end and mem[addr] != END_MARK:
            yield (mem[addr] << 8 | mem[addr + 1]), addr
            addr += 3 + mem[addr + 2]

    def _index(self):
        key = self.mem[START_PTR:END_PTR + 2]      # both pointers
        if self._lines is None or key != self._lines_key:
            index = {}
            order = {}
            last = -1
            self._sorted = True
            for number, addr in self.lines():
                index.setdefault(number, addr)
                order.setdefault(number, len(order))
                self._sorted = self._sorted and number > last
                last = number
            self._lines = index
            self._order = order
            self._lines_key = key
            self._located = {}
        return self._lines

    def lines_passed(self, number, here):
        """How many lines the firmware's line search (see _search) steps over to reach
        line `number` when line `here` runs: counted from `here` for a later line,
        else from the first line. Jumps take time for each (costs.LINE_SEARCH)."""
        self._index()
        return self._passed(number, here)

    def _passed(self, number, here):
        order = self._order
        target = order.get(number, 0)
        start = order.get(here, 0) if here < number else 0
        return max(0, target - start)

    def locate(self, number, here):
        """find(number) and lines_passed(number, here) with one look at the index: the
        jump path (GOTO, GOSUB, THEN n) runs this for every jump."""
        lines = self._index()
        if not self._sorted:
            addr = self._search(number)     # (depends on the line being run too)
            if addr is None:
                raise _missing()
            return addr, self._passed(number, here)
        key = (number, here)
        found = self._located.get(key)
        if found is None:
            addr = lines.get(number)
            if addr is None:
                raise _missing()
            found = self._located[key] = (addr, self._passed(number, here))
        return found

    def find(self, number):
        """Address of line `number`; ERROR 4 if there is none."""
        addr = self._index().get(number)
        if not self._sorted:
            addr = self._search(number)
        if addr is None:
            raise _missing()
        return addr

    def _search(self, number):
        """The firmware's search, which only differs from the index when POKEs broke
        the order of the lines: it starts at the line being run if `number` is higher
        than that line's, else at the first line, and stops at the first line numbered
        `number` or more (found on the firmware engine: with line 20 renumbered 99,
        GOTO 40 from line 50 is ERROR 4, and GOSUB 99 from line 50 too)."""
        mem = self.mem
        here = self.current_line()
        start = None
        if here is not None and self.start < here < self.end \
                and (mem[here] << 8 | mem[here + 1]) < number:
            start = here
        for n, addr in self.lines(start):
            if n >= number:
                return addr if n == number else None
        return None

    def first_from(self, number):
        """Address of the first line numbered `number` or more, None past the end."""
        for n, addr in self.lines():
            if n >= number:
                return addr
        return None

    def find_label(self, label):
        """Address of the first line whose body starts with the string `label`."""
        addr, _labelled = self.label_search(label)
        if addr is None:
            raise _missing()
        return addr

    def label_search(self, label):
        """(address of the line labelled `label` or None, how many other labelled lines
        the search compared before it: the firmware takes time for each)."""
        mem = self.mem
        wanted = bytes((QUOTE,)) + label
        labelled = 0
        for _number, addr in self.lines():
            body = addr + 3
            if mem[body:body + len(wanted)] == wanted and mem[body + len(wanted)] in (QUOTE, CR):
                return addr, labelled
            labelled += mem[body] == QUOTE
        return None, labelled

    def body(self, number):
        """The stored body (up to and including 0x0D) of line `number`."""
        addr = self.find(number)
        return bytes(self.mem[addr + 3:addr + 3 + self.mem[addr + 2]])

    # ------------------------------------------------------------ editing

    def store(self, number, body):
        """Insert line `number` (body without the final 0x0D), replacing a line with
        that number; an empty body deletes the line. Lines stay sorted."""
        if not 1 <= number <= MAX_LINE:
            raise BasicError(LINE)
        mem = self.mem
        record = b""
        if body:
            if len(body) + 1 > 255:
                raise BasicError(MEMORY)
            record = bytes([number >> 8, number & 0xFF, len(body) + 1]) + body + bytes([CR])
        end = self.end
        pos, old_len = end, 0
        for n, addr in self.lines():
            if n >= number:
                pos = addr
                if n == number:
                    old_len = 3 + mem[addr + 2]
                break
        delta = len(record) - old_len
        limit = min(word(mem, DIM_PTR), DIM_EMPTY)
        if end + delta >= limit:
            raise BasicError(MEMORY)
        tail = bytes(mem[pos + old_len:end + 1])
        mem[pos:pos + len(record)] = record
        mem[pos + len(record):pos + len(record) + len(tail)] = tail
        if delta < 0:
            mem[end + 1 + delta:end + 1] = bytes(-delta)
        self._set_end(end + delta)

    def delete(self, first, last):
        """DELETE: lines `first` to `last` (both must exist: ERROR 4)."""
        self.find(first)
        self.find(last)
        for number in [n for n, _addr in self.lines() if first <= n <= last]:
            self.store(number, b"")

    def renumber(self, new, old, step):
        """RENUM: the lines from `old` on numbered `new`, `new + step` ..., and every
        compiled line number (0x1F hi lo) naming one of them changed with it. Refused,
        nothing changed: ERROR 4 for a missing `old`, ERROR 9 if the lines would fall out
        of order (the first new number not above the line before `old`), ERROR 3 for a
        step of 0 or past MAX_LINE; then, as an
        error of the line it is found in (BasicError.where: (line address, offset)),
        ERROR 3 for the first line numbered past MAX_LINE and ERROR 4 for the first line
        number that names no line (firmware engine, case PRO_delete_and_renum)."""
        lines = list(self.lines())
        self.find(old)
        before = [n for n, _addr in lines if n < old]
        if not 1 <= new <= MAX_LINE:
            raise BasicError(LINE)
        if before and new <= before[-1]:
            raise BasicError(OTHER)
        if not 1 <= step <= MAX_LINE:
            raise BasicError(ILLEGAL)       # RENUM ,,0
        moved = [(n, addr) for n, addr in lines if n >= old]
        renamed = {n: new + k * step for k, (n, _addr) in enumerate(moved)}
        for number, addr in moved:
            if renamed[number] > MAX_LINE:
                raise _located(ILLEGAL, addr, 0)
        mem = self.mem
        refs = []
        for number, addr in lines:
            body = bytes(mem[addr + 3:addr + 2 + mem[addr + 2]])
            computed = _computed_target(body)
            for element in walk(body):
                if computed is not None and element.start >= computed:
                    raise _located(OTHER, addr, computed)
                if element.kind == LINE_NUMBER:
                    if element.value not in self._index():
                        error = _located(LINE, addr, element.end)
                        error.on_last = True        # the cursor on the number
                        raise error
                    refs.append((addr + 3 + element.start, element.value))
            if computed is not None:
                raise _located(OTHER, addr, computed)
        for number, addr in lines:
            mem[addr], mem[addr + 1] = divmod(renamed.get(number, number), 256)
        for at, target in refs:
            mem[at + 1], mem[at + 2] = divmod(renamed.get(target, target), 256)
        self.changed()

    def new(self):
        """NEW: an empty program."""
        start = self.start
        self.mem[start + 1] = END_MARK
        set_word(self.mem, MERGE_PTR, start)
        self._set_end(start + 1)

    def __repr__(self):
        parts = [f"Program {self.start:#06x}..{self.end:#06x}"]
        for number, addr in self.lines():
            body = self.mem[addr + 3:addr + 3 + self.mem[addr + 2]]
            parts.append(f"  {addr:#06x} {number:5d} {body.hex(' ')}")
        return "\n".join(parts)


def _located(code, addr, offset):
    """ERROR `code` to show as an error of the line at `addr`, `offset` bytes into its
    body (RENUM's, found in a line while the command checks the program)."""
    error = BasicError(code)
    error.where = (addr, offset)
    return error


# the keywords whose target RENUM renumbers (and, after GOTO and GOSUB, the rest of an ON
# list): a target that is no line number, label or statement is ERROR 9 (firmware engine)
_TARGETS = frozenset(BY_NAME[name].code for name in ("GOTO", "GOSUB", "THEN", "RESTORE"))


def _computed_target(body):
    """The offset of the first jump target in `body` that RENUM cannot renumber (`GOTO
    2*5`, `GOTO A`, `THEN B=1`, the 2*5 of `ON A GOTO 10,2*5`), or None."""
    elements = list(walk(body))
    for k, element in enumerate(elements):
        if element.kind != KEYWORD or element.value not in _TARGETS:
            continue
        while k + 1 < len(elements):
            target = elements[k + 1]
            if target.kind == BYTES:
                at = target.start
                while at < target.end and body[at] == 0x20:
                    at += 1
                if at < target.end and body[at] != 0x3A:
                    return at
                break
            if target.kind not in (LINE_NUMBER, STRING):
                break               # a keyword (THEN PRINT ...) or nothing
            # an ON list goes on after a comma
            if k + 2 < len(elements) and elements[k + 2].kind == BYTES \
                    and body[elements[k + 2].start] == 0x2C:
                after = elements[k + 2]
                if after.end - after.start > 1:
                    return after.start + 1
                k += 2
                continue
            break
    return None


def _missing():
    """ERROR 4 for a line or label that is not there: an error about the element read
    last, so the cursor goes on the number or label (GOTO 500 on the 5, RESTORE 99 on the
    first 9; firmware engine, cases CALC_error_on_last_element,
    ERROR_on_last_element_in_pro_mode)."""
    return BasicError(LINE, on_last=True)

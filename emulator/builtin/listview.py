"""LIST and listed lines on the display: the terminal-like wrapping the firmware
engine shows, the keywords as units for editing, and the lines before and after one
for UP/DOWN (terminal.py pages with them)."""

from emulator.builtin.screen import COLS, NUL, ROWS
from emulator.builtin.timing import CYCLES
from emulator.builtin.typed import from_text
from pc1360.facts import LINE_REF, PREFIX, QUOTE
from pc1360.image import Line
from pc1360.keywords import BY_CODE, BY_NAME
from pc1360.listing import list_line
from pc1360.token_walk import KEYWORD, LINE_NUMBER, walk

LIST_LINE_CYCLES = CYCLES["list_line"]
LIST_BYTE_CYCLES = CYCLES["list_byte"]
KEYWORD_NAMES = frozenset(name.encode("ascii") for name in BY_NAME)
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ$")


def has_colon(body):
    """True if a tokenized line has a `:` outside strings (RUN and PRO mode refuse
    such typed lines with ERROR 1)."""
    return first_colon(body) is not None


def first_colon(body):
    """The index of the first `:` outside strings in a tokenized line, or None.

    Not token_walk.walk: REM text is read on here like code (a colon in it counts, a
    quote in it opens a string), and the engine's behaviour for typed lines rests on
    that."""
    in_string = False
    skip = 0
    for index, byte in enumerate(body):
        if skip:
            skip -= 1
        elif byte == QUOTE:
            in_string = not in_string
        elif in_string:
            continue
        elif byte == LINE_REF:
            skip = 2
        elif byte == PREFIX:
            skip = 1
        elif byte == 0x3A:
            return index
    return None


def ends_with_keyword(body):
    """True if a tokenized line's last element is a keyword (0xFE code).

    Not token_walk.walk: here 0xFE with any byte after it, or none, counts as a keyword
    (error_column hands in a body cut where the error stopped), which the walker
    would read as two plain bytes."""
    return bool(body) and body[last_element(body, len(body))] == PREFIX


def last_unit(body):
    """The listed text of a tokenized line's last element if the cursor takes it whole,
    a keyword or a line number (`GOTO 500`: 500), else None (a character)."""
    if not body:
        return None
    at = last_element(body, len(body))
    if body[at] == PREFIX and at + 1 < len(body) and body[at + 1] in BY_CODE:
        return BY_CODE[body[at + 1]].name
    if body[at] == LINE_REF and at + 2 < len(body):
        return str(body[at + 1] << 8 | body[at + 2])
    return None


def wrap_listing(text, indent):
    """A listed line as display rows: 24 characters, then rows indented by `indent`
    (the width of `10:`); a keyword that would be cut, or whose blank after it would
    not fit, moves whole to the next row, dropping the blank before it (the firmware
    shows `20:INPUT A: WAIT 0:` / `   PRINT A*2`). Keyword letters in a string or
    in REM text are plain characters and never move."""
    return [(b" " * indent if index else b"") + text[start:stop]
            for index, (start, stop) in enumerate(wrap_spans(text, indent))]


def wrap_spans(text, indent):
    """wrap_listing's rows as (start, stop) offsets into `text` (a row after the
    first has `indent` blanks before its part)."""
    spans = []
    first = 0
    width = COLS
    while len(text) - first > width:
        cut = first + width
        start = cut
        while start > first and text[start - 1] in _WORD:
            start -= 1
        end = cut
        while end < len(text) and text[end] in _WORD:
            end += 1
        # a keyword moves if it, or the blank after it, would not fit
        moved = first < start < cut <= end and text[start:end] in KEYWORD_NAMES and (
            cut < end or text[end:end + 1] == b" ") and _in_code(text, start)
        if moved:
            cut = start
        spans.append((first, cut))
        # the blank the listing puts before a keyword does not start a row (the firmware
        # shows `30:A=1:B=2:C=3:D=4:E=55:` / `   NEXT I`: case LIST_keyword_blank_at_row_start)
        first = cut + 1 if text[cut:cut + 1] == b" " and _keyword_at(text, cut + 1) else cut
        width = COLS - indent
    spans.append((first, len(text)))
    return spans


def _keyword_at(text, index):
    """True if a keyword (outside strings and REM text) starts at `text[index]`."""
    end = index
    while end < len(text) and text[end] in _WORD:
        end += 1
    return text[index:end] in KEYWORD_NAMES and _in_code(text, index)


def _in_code(text, index):
    """True if `text[index]` of a listed line is outside strings and REM text."""
    in_string = False
    for offset, byte in enumerate(text[:index]):
        if byte == QUOTE:
            in_string = not in_string
        elif not in_string and text[offset:offset + 4] == b"REM ":
            return False
    return not in_string


_DIGITS = frozenset(b"0123456789")


def units_of(body, number=None):
    """A tokenized line as the firmware edits it: a keyword is one unit (its name as
    bytes), anything else one character code; with `number`, its digits come first."""
    units = list(str(number).encode("ascii")) if number is not None else []
    for element in walk(body):
        keyword = BY_CODE.get(element.value) if element.kind == KEYWORD else None
        if keyword is not None and keyword.typed:
            units.append(from_text(keyword.name))
        elif element.kind == LINE_NUMBER:
            units.extend(str(element.value).encode("ascii"))
        else:       # REM text, a string, a keyword never typed: plain characters
            units.extend(body[element.start:element.end])
    return units


_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.$")


def last_element(body, end):
    """Where the last element before offset `end` of a tokenized line starts: a keyword,
    a line reference, a string, a name or number, or any other character.

    Not token_walk.walk: names and numbers run over several bytes, any 0xFE pair and
    0x1F triple counts whole, and REM text is read like code, as the editor's cursor
    has always been placed."""
    start = index = 0
    while index < end:
        start = index
        byte = body[index]
        if byte == PREFIX:
            index += 2
        elif byte == LINE_REF:
            index += 3
        elif byte == QUOTE:
            close = body.find(QUOTE, index + 1)
            index = len(body) if close < 0 else close + 1
        elif byte in _NAME:
            while index < end and body[index] in _NAME:
                index += 1
        else:
            index += 1
    return start


def render_units(units, numbered):
    """The units as the display shows them, and where each unit starts in it."""
    body = 0
    while numbered and body < len(units) and units[body] in _DIGITS:
        body += 1
    out = bytearray()
    starts = []
    for index, unit in enumerate(units):
        if index == body and body and unit != 0x20:
            out.append(0x20)                    # after the line number
        if isinstance(unit, bytes):
            if index > body and not isinstance(units[index - 1], bytes):
                out.append(0x20)
            starts.append(len(out))
            out += unit + b" "
        else:
            starts.append(len(out))
            out.append(unit)
    if body and body == len(units):
        out.append(0x20)                        # `10 _`: the body is empty
    return bytes(out), starts


class Listing:
    """Program lines as LIST shows them, from the program in `mem`."""

    def __init__(self, mem, program):
        self.mem = mem
        self.program = program

    def text(self, addr):
        """The line at `addr` as LIST shows it, in display codes."""
        mem = self.mem
        number = mem[addr] << 8 | mem[addr + 1]
        body = bytes(mem[addr + 3:addr + 2 + mem[addr + 2]])
        return from_text(list_line(Line(number, body)))

    def show(self, screen, addr, row=0):
        """LIST: the screen filled with lines from the one at `addr` on (from display
        row `row` down, the rows above kept); returns the cycles the firmware takes to
        list them (it decodes each line byte by byte)."""
        if row:
            for below in range(row, ROWS):
                screen.clear_row(below, fill=NUL)
        else:
            screen.clear()
        work = 0
        for number, line_addr in self.program.lines():
            if line_addr < addr:
                continue
            if row >= ROWS:
                break
            work += LIST_LINE_CYCLES + LIST_BYTE_CYCLES * (self.mem[line_addr + 2] + 3)
            for chunk in wrap_listing(self.text(line_addr), len(str(number)) + 1):
                if row < ROWS:
                    screen.show_line(row, chunk, fill=NUL)      # (firmware: NUL-padded)
                    row += 1
        screen.row = min(row, ROWS) - 1
        screen.end_line()
        return work

    def neighbour(self, addr, direction):
        """The address of the line before (-1) or after (1) the one at `addr`; None if
        there is none."""
        addrs = [line_addr for _n, line_addr in self.program.lines()]
        if addr in addrs:
            index = addrs.index(addr) + direction
            if 0 <= index < len(addrs):
                return addrs[index]
        return None

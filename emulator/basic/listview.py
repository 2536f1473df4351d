"""LIST and listed lines on the display: the terminal-like wrapping the firmware
engine shows, and the UP/DOWN paging through the program after LIST."""

from pc1360.keywords import BY_NAME
from pc1360.listing import list_line
from pc1360.program import Line

from .screen import COLS, ROWS
from .states import IDLE
from .typed import from_text

KEYWORD_NAMES = frozenset(name.encode("ascii") for name in BY_NAME)
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ$")


def has_colon(body):
    """True if a tokenized line has a `:` outside strings (RUN and PRO mode refuse
    such typed lines with ERROR 1)."""
    return first_colon(body) is not None


def first_colon(body):
    """The index of the first `:` outside strings in a tokenized line, or None."""
    in_string = False
    skip = 0
    for index, byte in enumerate(body):
        if skip:
            skip -= 1
        elif byte == 0x22:
            in_string = not in_string
        elif in_string:
            continue
        elif byte == 0x1F:
            skip = 2
        elif byte == 0xFE:
            skip = 1
        elif byte == 0x3A:
            return index
    return None


def wrap_listing(text, indent):
    """A listed line as display rows: 24 characters, then rows indented by `indent`
    (the width of `10:`); a keyword that would be cut, or whose blank after it would
    not fit, moves whole to the next row, dropping the blank before it (the firmware
    shows `20:INPUT A: WAIT 0:` / `   PRINT A*2`)."""
    rows = []
    width = COLS
    while len(text) > width:
        cut = width
        start = cut
        while start > 0 and text[start - 1] in _WORD:
            start -= 1
        end = cut
        while end < len(text) and text[end] in _WORD:
            end += 1
        # a keyword moves if it, or the blank after it, would not fit
        if 0 < start < cut <= end and text[start:end] in KEYWORD_NAMES and (
                cut < end or text[end:end + 1] == b" "):
            cut = start
        rows.append(text[:cut])
        text = text[cut:]
        if cut != width and text.startswith(b" "):
            text = text[1:]
        text = b" " * indent + text
        width = COLS
    rows.append(text)
    return rows


class ListMixin:
    """The LIST part of BuiltinEngine (needs mem, screen, interp, state, prompt)."""

    def _listing(self, addr):
        mem = self.mem
        number = mem[addr] << 8 | mem[addr + 1]
        body = bytes(mem[addr + 3:addr + 2 + mem[addr + 2]])
        return from_text(list_line(Line(number, body)))

    def _list(self, number):
        addr = self.interp.program.first_from(number)
        self.state = IDLE
        if addr is None:
            self._prompt()
            return
        self._show_listing(addr)

    def _show_listing(self, addr):
        """LIST: the screen filled with lines from the one at `addr` on."""
        screen = self.screen
        screen.clear()
        row = 0
        for number, line_addr in self.interp.program.lines():
            if line_addr < addr:
                continue
            if row >= ROWS:
                break
            for chunk in wrap_listing(self._listing(line_addr), len(str(number)) + 1):
                if row < ROWS:
                    screen.show_line(row, chunk)
                    row += 1
        screen.row = min(row, ROWS) - 1
        screen.end_line()
        self.list_addr = addr
        self.input_row = None

    def _list_step(self, direction):
        addrs = [addr for _n, addr in self.interp.program.lines()]
        if self.list_addr in addrs:
            index = addrs.index(self.list_addr) + direction
            if 0 <= index < len(addrs):
                self._show_listing(addrs[index])

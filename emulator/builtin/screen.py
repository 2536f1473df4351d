"""The 4 x 24 text display, drawn into the machine's display RAM.

Layout (docs/hardware.md §5.1, §5.2): five blocks of 30 dot columns at 0x2800 + 0x200*b,
each byte a column of 8 dots with bit 0 at the top; text line L uses the block
offsets 0x00/0x40/0x1E/0x5E; every block's +0x100 half mirrors the first, so both are
written. Text cell c of a line covers dot columns x = 6 + 6c .. 6 + 6c + 4; columns
0-5 and each cell's sixth column are left to graphics.

The characters themselves are kept in the ROM's character buffer at 0xFD80 (4 rows
of 24, docs/stored_format.md §2.3), so the screen's text lives in RAM like everything
else and a program can PEEK it.
"""

from dataclasses import dataclass

from emulator.builtin import font
from pc1360.facts import (
    CELL_PITCH,
    GLYPH_WIDTH,
    LCD_BASE,
    LCD_BLOCK_COLUMNS,
    LCD_BLOCK_STEP,
    SYMBOL_BYTE,
    TEXT_BUFFER,
    TEXT_X0,
)
from pc1360.facts import LCD_HEIGHT as HEIGHT
from pc1360.facts import LCD_LINE_OFFSETS as LINE_OFFSET
from pc1360.facts import LCD_MIRROR as MIRROR
from pc1360.facts import LCD_WIDTH as WIDTH
from pc1360.facts import SYMBOL_BITS as _SYMBOL_NAMES
from pc1360.facts import TEXT_COLUMNS as COLS
from pc1360.facts import TEXT_ROWS as ROWS

SPACE, NUL = 0x20, 0x00     # the two blanks the text buffer holds
# name -> its bit in SYMBOL_BYTE; bits the ROM was not seen to use are left out
SYMBOL_BITS = {name: 1 << bit for bit, name in _SYMBOL_NAMES.items()
               if name not in ("PRINT", "BIT3")}


def column_address(x, line):
    """Address of the byte holding dot column x of text line `line` (0-3)."""
    block, i = divmod(x, LCD_BLOCK_COLUMNS)
    return LCD_BASE + LCD_BLOCK_STEP * block + LINE_OFFSET[line] + i


# All 150 column addresses of each line, and the 5 glyph columns of each cell.
LINE_COLUMNS = tuple(tuple(column_address(x, line) for x in range(WIDTH))
                     for line in range(ROWS))
CELL_COLUMNS = tuple(tuple(tuple(column_address(TEXT_X0 + CELL_PITCH * c + i, line)
                                   for i in range(GLYPH_WIDTH))
                           for c in range(COLS)) for line in range(ROWS))


# The column after each cell's glyph (x 11, 17, ... 149) of each line.
GAP_COLUMNS = tuple(tuple(column_address(TEXT_X0 + CELL_PITCH * c + GLYPH_WIDTH, line)
                          for c in range(COLS)) for line in range(ROWS))


def wide_starts(data):
    """The offsets in `data` where two-byte characters start: a lead byte
    (font.LEAD_BYTES) takes whatever byte follows it, even another lead byte."""
    if font.LEAD_BYTES.isdisjoint(data):
        return []
    starts = []
    i = 0
    while i < len(data) - 1:
        if data[i] in font.LEAD_BYTES:
            starts.append(i)
            i += 2
        else:
            i += 1
    return starts


def close_text(data):
    """PRINT's text as the firmware stores it: a lead byte with nothing after it
    becomes a space (firmware engine: PRINT "A";CHR$ 129 leaves 41 20)."""
    if data and data[-1] in font.LEAD_BYTES and len(data) - 2 not in wide_starts(data):
        return data[:-1] + b" "
    return data


def split_row(data, room):
    """`data` cut where a row with `room` cells ends: (this row, the rest). A two-byte
    character never straddles rows: if it would, its cell here stays a space and it
    starts the next row (firmware engine)."""
    if room - 1 in wide_starts(data):
        return data[:room - 1] + b" ", data[room - 1:]
    return data[:room], data[room:]


@dataclass
class ScreenState:
    row: int = 0            # the output line (PRINT, prompts, messages)
    col: int = 0            # where PRINT goes on after a trailing `;`
    done: bool = False      # the output line is finished: output goes on below it
    scrolls: int = 0        # how often the display scrolled (PRINT's time depends on it)
    # a PRINT line left open by `;` when INPUT asked below it: (row, col); the next
    # PRINT goes on in that cell even if the questions scrolled the display since
    # (firmware engine, cases INPUT_after_open_print, INPUT_open_line_stays_in_its_row)
    open_line: tuple[int, int] | None = None


def _state_field(name):
    return property(lambda self: getattr(self.state, name),
                    lambda self, value: setattr(self.state, name, value))


class Screen:
    """Text output, scrolling, dots and status symbols over `mem` (64 KiB); where the
    output goes is its `state` (ScreenState), whose fields it shows as attributes."""

    row = _state_field("row")
    col = _state_field("col")
    done = _state_field("done")
    scrolls = _state_field("scrolls")

    def __init__(self, mem):
        self.mem = mem
        self.state = ScreenState()

    # ------------------------------------------------------------ characters

    def put(self, row, col, code, glyph=None):
        """Show character `code` in cell (row, col) (drawn as `glyph` if given) and
        keep it in the buffer."""
        mem = self.mem
        mem[TEXT_BUFFER + row * COLS + col] = code
        dots = font.GLYPHS[code if glyph is None else glyph]
        for addr, bits in zip(CELL_COLUMNS[row][col], dots):
            mem[addr] = bits
            mem[addr + MIRROR] = bits

    def write(self, row, col, data):
        """Write bytes from (row, col), clipped at the end of the line. A two-byte
        character keeps its bytes in the buffer and shows font.WIDE_GLYPH twice."""
        data = data[:max(0, COLS - col)]
        wide = {cell for start in wide_starts(data) for cell in (start, start + 1)}
        for offset, code in enumerate(data):
            self.put(row, col + offset, code, font.WIDE_GLYPH if offset in wide else None)

    def print_at(self, row, col, data, first=0):
        """PRINT's write: the bytes go into the buffer from (row, col) and the line is
        drawn afresh from it from cell `first` to its end, each cell and the column
        after it: dots there go, whatever the text covers (firmware engine,
        GEN_graphics_*; at a CURSOR position from that cell on, CURSOR_print_over_dots)."""
        self.write(row, col, data)
        mem = self.mem
        for addr in GAP_COLUMNS[row][first:]:
            mem[addr] = 0
            mem[addr + MIRROR] = 0
        base = TEXT_BUFFER + row * COLS
        self.write(row, first, bytes(mem[base + first:base + COLS]))

    def show_line(self, row, data, right=False, fill=SPACE):
        """Replace line `row` with `data`, left- or right-aligned; the buffer's other
        cells get `fill`."""
        data = bytes(data[-COLS:] if right else data[:COLS])
        self.clear_row(row, fill=fill)
        self.write(row, COLS - len(data) if right else 0, data)

    def clear_row(self, row, first=TEXT_X0, fill=SPACE):
        """Blank a text line: its cells and gaps, x 6-149 (the firmware leaves the
        dots in columns 0-5, which text never uses). The buffer gets `fill`: spaces
        for CLS and prompts, NUL where the firmware pads typed lines, listings and
        program messages (both show blank)."""
        mem = self.mem
        base = TEXT_BUFFER + row * COLS
        mem[base:base + COLS] = bytes((fill,)) * COLS
        for addr in LINE_COLUMNS[row][first:]:
            mem[addr] = 0
            mem[addr + MIRROR] = 0

    def clear(self):
        """Blank the whole display (CLS) and home the output position."""
        for row in range(ROWS):
            self.clear_row(row, first=0)
        self.row = self.col = 0
        self.done = False
        self.state.open_line = None

    def scroll(self):
        """Move every line (dots included, columns 0-5 too) up one and blank the
        bottom line, columns 0-5 too (firmware engine: a dot there moves up and does
        not stay behind, case SCROLL_moves_left_columns)."""
        mem = self.mem
        self.scrolls += 1
        for row in range(ROWS - 1):
            for src, dst in zip(LINE_COLUMNS[row + 1], LINE_COLUMNS[row]):
                mem[dst] = mem[dst + MIRROR] = mem[src]
        mem[TEXT_BUFFER:TEXT_BUFFER + COLS * (ROWS - 1)] = \
            mem[TEXT_BUFFER + COLS:TEXT_BUFFER + COLS * ROWS]
        self.clear_row(ROWS - 1, first=0)

    def next_line(self):
        """Move the output line down one, scrolling at the bottom."""
        self.col = 0
        self.done = False
        if self.row < ROWS - 1:
            self.row += 1
        else:
            self.scroll()

    def keep_open_line(self):
        """INPUT asks below the output line: if PRINT left it open, keep its place."""
        if self.col and self.state.open_line is None:
            self.state.open_line = (self.row, self.col)

    def move_open_line(self, row):
        """CLS while an INPUT answer is typed: a line left open is now open at the start
        of the question's row, and the next PRINT writes there over the question
        (firmware engine, case INPUT_cls_moves_open_line)."""
        if self.state.open_line is not None:
            self.state.open_line = (row, 0)

    def resume_open_line(self):
        """PRINT after INPUT goes on at the cell where a `;` left the line open: the
        same row and column of the display, whatever has scrolled into it."""
        kept, self.state.open_line = self.state.open_line, None
        if kept is not None:
            self.row, self.col = kept
            self.done = False

    def begin_line(self):
        """Where PRINT starts: the output line, or the next one if it is finished
        (after CLS, PRINT uses the top line)."""
        if self.done:
            self.next_line()

    def end_line(self):
        self.col = 0
        self.done = True

    def char_at(self, row, col):
        return self.mem[TEXT_BUFFER + row * COLS + col]

    def last_text_row(self):
        """The lowest row that shows a character (-1 if none does)."""
        for row in range(ROWS - 1, -1, -1):
            base = TEXT_BUFFER + row * COLS
            if any(code not in (SPACE, NUL) for code in self.mem[base:base + COLS]):
                return row
        return -1

    def text(self):
        """The four lines as strings (special characters as Unicode)."""
        lines = []
        for row in range(ROWS):
            base = TEXT_BUFFER + row * COLS
            lines.append("".join(font.UNICODE.get(c, chr(c) if 0x20 <= c < 0x7F else " ")
                                 for c in self.mem[base:base + COLS]))
        return lines

    # ------------------------------------------------------------ dots

    def set_dot(self, x, y, mode=1):
        """mode 1 sets, 0 clears, 2 inverts the dot; points off the screen are ignored."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            return
        addr = LINE_COLUMNS[y >> 3][x]
        bit = 1 << (y & 7)
        value = self.mem[addr]
        value = value | bit if mode == 1 else (value & ~bit if mode == 0 else value ^ bit)
        self.mem[addr] = self.mem[addr + MIRROR] = value

    def dot(self, x, y):
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            return 0
        return (self.mem[LINE_COLUMNS[y >> 3][x]] >> (y & 7)) & 1

    def column(self, x, y, bits):
        """Draw an 8-dot column (bit 0 at the top, at dot row y), as GPRINT does."""
        for i in range(8):
            self.set_dot(x, y + i, (bits >> i) & 1)

    # ------------------------------------------------------------ symbols

    def set_symbol(self, name, on):
        bit = SYMBOL_BITS[name]
        value = self.mem[SYMBOL_BYTE]
        self.mem[SYMBOL_BYTE] = value | bit if on else value & ~bit

    def symbols(self):
        value = self.mem[SYMBOL_BYTE]
        return {name for name, bit in SYMBOL_BITS.items() if value & bit}

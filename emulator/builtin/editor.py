"""The line editor as the firmware engine shows it (checked key by key against it):

- the cursor is `_` after the text, or a block (■) blinking over a character
  (every ~0.5 s the character shows instead) once LEFT moved it into the text;
- a typed character replaces the one under the block and the cursor moves on;
  INS opens a hole (□) under the block, which ENTER drops, DEL removes the character
  under it (at the end of the line INS, DEL and RIGHT do nothing); LEFT stops at the first character;
- a line holds 79 characters: the cursor then stays on the last one, and further
  characters replace it;
- a line brought back after ENTER, or a listed line edited (terminal.py: `10:A=1`
  becomes `10 A=1` with the block on the first character after the number; a line
  brought back shows on the row it was typed on, the rows below cleared);
- a listed line being edited, and a line LEFT/RIGHT bring back in RUN mode, hold their
  keywords as units (as the firmware keeps them tokenized): the cursor steps over
  `PRINT ` at once, DEL removes it, a typed character replaces it. The display is
  drawn again from the units after every key: a keyword has a blank after it and,
  unless it starts the line's body, one before it; in PRO mode a blank follows the
  line number unless the body starts with one, and the line wraps as LIST shows it.
"""

from bisect import bisect_left
from dataclasses import dataclass, field

from emulator.builtin.listview import render_units, wrap_spans
from emulator.builtin.screen import COLS, NUL, ROWS, TEXT_BUFFER
from emulator.builtin.states import EngineState
from emulator.builtin.timing import CYCLES

MAX_CHARS = 79              # the firmware keeps the cursor on the 79th character
BLOCK = 0xF9                # the block cursor (■)
HOLE = 0xFA                 # what INS opens (□): ENTER drops it
CURSOR = 0x5F               # the end-of-line cursor `_`
BLINK_CYCLES = CYCLES["blink"]


@dataclass
class EditorState:
    line: bytearray = field(default_factory=bytearray)     # the line being typed
    cur: int = 0                        # its cursor
    input_row: int | None = None        # its first display row; None: not started
    block_at: tuple[int, int] | None = None     # (row, col) of the blinking block cursor
    blink_start: int = 0
    edit_addr: int | None = None        # PRO mode: the listed line being edited
    units: list[int | bytes] | None = None  # the line as units (units_of) while edited so
    numbered: bool = False              # the units start with a line number (PRO mode)
    units_text: bytes = b""             # what they showed: a line changed elsewhere drops them


class LineEditor:
    """The line being typed and its cursor on the display (`state`: EditorState)."""

    def __init__(self, screen, core: EngineState):
        self.screen = screen
        self.core = core
        self.state = EditorState()

    # ------------------------------------------------------------ the buffer

    def set_line(self, data, cur=None, units=None, numbered=False):
        """The line to edit: `data`, or `units` (units_of) drawn as render_units does;
        the cursor at display offset `cur` (on the unit there or after it), else at
        the end."""
        st = self.state
        st.units = None
        if units is not None:
            st.units, st.numbered = list(units), numbered
            data, starts = render_units(st.units, numbered)
            st.units_text = data
            if cur is not None:
                index = bisect_left(starts, cur)
                cur = starts[index] if index < len(starts) else len(data)
        st.line[:] = data
        st.cur = len(st.line) if cur is None else cur

    def live_units(self):
        """The units of the line, if it is still the line they showed."""
        st = self.state
        if st.units is not None and st.units_text != st.line:
            st.units = None
        return st.units

    def cursor(self):
        st = self.state
        if self.live_units() is not None:
            return min(st.cur, len(st.line))
        return min(st.cur, len(st.line), MAX_CHARS - 1)

    def edit_units(self, key, code):
        """edit for a line of units: each key acts on a whole unit."""
        st = self.state
        units = st.units
        text, starts = render_units(units, st.numbered)
        index = bisect_left(starts, min(st.cur, len(text)))
        if code is not None:
            if index < len(units):
                units[index] = code
            elif len(text) < MAX_CHARS:
                units.append(code)
            else:
                return False
            index += 1
        elif key in ("DEL", "INS", "RIGHT") and index >= len(units):
            return False
        elif key == "DEL":
            del units[index]
        elif key == "INS":
            units.insert(index, HOLE)
        elif key == "LEFT" and index:
            index -= 1
        elif key == "RIGHT":
            index += 1
        else:
            return False
        text, starts = render_units(units, st.numbered)
        st.line[:] = st.units_text = text
        st.cur = starts[index] if index < len(starts) else len(text)
        st.blink_start = self.core.clock
        return True

    def edit(self, key, code):
        """Shared line editing; True if the line or its cursor changed."""
        st = self.state
        if self.live_units() is not None:
            return self.edit_units(key, code)
        line = st.line
        cur = min(st.cur, len(line))
        if code is not None:
            if cur < len(line):
                line[cur] = code
            else:
                line.append(code)
            cur = min(cur + 1, MAX_CHARS - 1) if len(line) >= MAX_CHARS else cur + 1
        elif key == "DEL":
            if cur >= len(line):
                return False
            del line[cur]
        elif key == "INS":
            if cur >= len(line) or len(line) >= MAX_CHARS:
                return False
            line.insert(cur, HOLE)
        elif key == "LEFT":
            if cur == 0 or not line:
                return False
            cur = min(cur, MAX_CHARS - 1) - 1
        elif key == "RIGHT":
            if cur >= len(line) or cur >= MAX_CHARS - 1:
                return False
            cur += 1
        else:
            return False
        st.cur = cur
        st.blink_start = self.core.clock
        return True

    # ------------------------------------------------------------ showing it

    def entered(self):
        """The line as ENTER takes it: without the holes INS left."""
        st = self.state
        return bytes(st.line).replace(bytes([HOLE]), b"")

    def typing_text(self):
        """The line as the text buffer holds it: a NUL after it, where `_` shows
        when the cursor is at the end (the firmware does not store the cursor)."""
        st = self.state
        return bytes(st.line) + bytes([NUL])

    def end_cursor(self, row, col):
        """`_` over the NUL after the line, in cell (row, col), if the cursor is there."""
        st = self.state
        if self.cursor() >= len(st.line) and 0 <= row < ROWS:
            self.screen.put(row, col, NUL, CURSOR)

    def drop_cursor(self):
        """The typed line stays as it is, without its cursor (DEF + letter); output
        goes on below it."""
        st = self.state
        self.cursor_off()
        row, col = divmod(st.input_row * COLS + len(st.line), COLS)
        if row < ROWS:
            self.screen.put(row, col, NUL)

    def show_typing(self, full=False):
        """The line being typed, from its row, with its cursor. As the firmware engine
        keeps the text buffer: a typed key rewrites the line over what its first row
        holds, and a row the line goes on to is NUL-filled; with `full` (DEL, INS, a
        line brought back) every row from the line's first to the bottom (to its
        last when it is a listed line being edited) gets NULs after the text. A line
        of units is drawn afresh at every key (it can get shorter)."""
        st = self.state
        screen = self.screen
        if st.input_row is None:
            screen.next_line()
            st.input_row = screen.row
        data = self.typing_text()
        chunks, place = self.typing_layout(data)
        full = full or self.live_units() is not None
        row = st.input_row
        while row + len(chunks) > ROWS and row > 0:
            screen.scroll()
            row -= 1
        st.input_row = row
        for index, chunk in enumerate(chunks[-ROWS:]):
            if full or index:
                screen.clear_row(row, fill=NUL)
            screen.write(row, 0, chunk)
            row += 1
        if full and st.edit_addr is None:     # (a listed line keeps the listing below)
            for below in range(row, ROWS):
                screen.clear_row(below, fill=NUL)
        screen.row = row - 1
        screen.end_line()
        self.end_cursor(screen.row, place(len(data) - 1)[1])
        cur = self.cursor()
        if cur < len(st.line):
            row, col = place(cur)
            if st.input_row + row < ROWS:
                self.block_on(st.input_row + row, col)

    def typing_layout(self, data):
        """The rows `data` (the line and its NUL) takes, and a function giving the
        (row, column) of an offset in it: 24 characters a row, or for a listed line
        being edited the rows LIST would show (firmware engine)."""
        st = self.state
        if self.live_units() is None or not st.numbered:
            return ([data[i:i + COLS] for i in range(0, len(data), COLS)],
                    lambda offset: divmod(offset, COLS))
        digits = len(data) - len(data.lstrip(b"0123456789"))
        indent = digits + 1 if digits else 0        # the width of `10:`
        spans = wrap_spans(data, indent)
        rows = [(b" " * indent if index else b"") + data[start:stop]
                for index, (start, stop) in enumerate(spans)]

        def place(offset):
            for index, (start, stop) in enumerate(spans):
                if offset < stop or index == len(spans) - 1:
                    return index, offset - start + (indent if index else 0)
        return rows, place

    def block_on(self, row, col):
        st = self.state
        st.block_at = (row, col)
        st.blink_start = self.core.clock
        self.draw_block(True)

    def draw_block(self, on):
        st = self.state
        row, col = st.block_at
        screen = self.screen
        code = BLOCK if on else screen.char_at(row, col)
        saved = screen.char_at(row, col)
        screen.put(row, col, code)
        screen.mem[TEXT_BUFFER + row * COLS + col] = saved     # the buffer keeps the character

    def cursor_off(self):
        """Take the block off the display (before the display changes); returns where
        it was."""
        st = self.state
        held = st.block_at
        if held is not None:
            self.draw_block(False)
            st.block_at = None
        return held

    def blink(self):
        """While waiting for a key: the block and the character take turns."""
        st = self.state
        if st.block_at is not None:
            self.draw_block((self.core.clock - st.blink_start) // BLINK_CYCLES % 2 == 0)


"""The line editor as the firmware engine shows it (checked key by key against it):

- the cursor is `_` after the text, or a block (■) blinking over a character
  (every ~0.5 s the character shows instead) once LEFT moved it into the text;
- a typed character replaces the one under the block and the cursor moves on;
  INS opens a hole (□) under the block, which ENTER drops, DEL removes the character under it (at the end
  of the line INS, DEL and RIGHT do nothing); LEFT stops at the first character;
- a line holds 79 characters: the cursor then stays on the last one, and further
  characters replace it;
- after ENTER in RUN mode LEFT brings the line back with the cursor at its end,
  RIGHT with the cursor on its first character (on the row the line was typed on;
  the rows below are cleared);
- in PRO mode, after a listing (UP/DOWN), RIGHT or LEFT edits the top line: `10:A=1`
  becomes `10 A=1` with the block on the first character after the number;
- a listed line being edited, and a line LEFT/RIGHT bring back in RUN mode, hold their
  keywords as units (as the firmware keeps them tokenized): the cursor steps over
  `PRINT ` at once, DEL removes it, a typed character replaces it. The display is
  drawn again from the units after every key: a keyword has a blank after it and,
  unless it starts the line's body, one before it; in PRO mode a blank follows the
  line number unless the body starts with one, and the line wraps as LIST shows it.
"""

from bisect import bisect_left

from emulator.builtin import bcd
from emulator.builtin.basic_errors import BasicError
from emulator.builtin.enter import PRO_MODE, RUN_MODE, ends_with_keyword
from emulator.builtin.interp import ANSWER, ANSWER_END, INPUT_BUFFER
from emulator.builtin.listview import last_element, render_units, units_of, wrap_spans
from emulator.builtin.screen import COLS, NUL, ROWS, TEXT_BUFFER
from emulator.builtin.typed import from_text
from pc1360.image import Line
from pc1360.listing import list_line

MAX_CHARS = 79              # the firmware keeps the cursor on the 79th character
BLOCK = 0xF9                # the block cursor (■)
HOLE = 0xFA                 # what INS opens (□): ENTER drops it
CURSOR = 0x5F               # the end-of-line cursor `_`
BLINK_CYCLES = 128_000      # each phase of the blinking block (~0.5 s)
CONTINUING = frozenset(b"+-*/^")    # typed first after a result, they continue from it


class EditorMixin:
    """The editing part of BuiltinEngine (needs line, cur, screen, input_row, clock)."""

    units = None        # the line as units (units_of) while it is edited so
    numbered = False    # the units start with a line number (PRO mode)
    units_text = b""    # what they showed: a line changed elsewhere drops them

    # ------------------------------------------------------------ keys

    def _idle_key(self, key, code):
        cleared, self.cleared = self.cleared, False
        if key == "CLS":
            self.screen.clear()
            self.list_addr = None
            self.last_result = None
            self.recalled = None        # LEFT/RIGHT bring nothing back after CLS (firmware)
            self._prompt(top=True)
            return
        if key == "MODE":
            self.mode = PRO_MODE if self.mode == RUN_MODE else RUN_MODE
            self._show_mode()
            return
        if self.mode == PRO_MODE and key in ("UP", "DOWN") and self.edit_addr is not None:
            # leaving a listed line being edited: the listing from the line before/after,
            # or from the line itself at the program's start/end (firmware engine)
            self.list_addr, self.edit_addr = self.edit_addr, None
            self.line.clear()
            if not self._list_step(-1 if key == "UP" else 1):
                self._show_listing(self.list_addr)
            return
        if self.mode == PRO_MODE and key in ("UP", "DOWN") and self.line:
            # a line being typed is dropped: UP/DOWN list as from an empty line
            self.line.clear()
            self.list_addr = None
        if self.list_addr is not None and key in ("UP", "DOWN"):
            self._list_step(-1 if key == "UP" else 1)
            return
        if self.mode == PRO_MODE and key in ("UP", "DOWN") and not self.line \
                and self._show_error_line():
            return
        if self.mode == PRO_MODE and key in ("UP", "DOWN") and not self.line:
            # in PRO mode DOWN lists the program from its first line, UP from its last
            addrs = [addr for _n, addr in self.interp.program.lines()]
            if addrs:
                self._show_listing(addrs[0] if key == "DOWN" else addrs[-1])
            return
        if key == "ENTER":
            self._enter()
            return
        if self.mode == PRO_MODE and self.list_addr is not None and self._edit_listed(key):
            return
        if self.mode == RUN_MODE and self._recall(key):
            return
        if self.mode == RUN_MODE and key == "DOWN" and self.interp.stopped_at is not None:
            self._step_on()
            return
        if self.mode == RUN_MODE and key == "UP" and not self.line and \
                (self.interp.stopped_at is not None or self.error_at is not None):
            # after a stop, or while a program's error line is remembered (until RUN or
            # a stored line; through CLS, MODE and calculations), UP only clears
            self.screen.clear()
            self._prompt(top=True)
            return
        if self.mode == RUN_MODE and key in ("UP", "DOWN"):
            if cleared:
                # right after the CLEAR question the display clears first (firmware)
                self.screen.clear()
                self.input_row = 0
            # the last answer (interp.ANSWER), typed as if by hand, CLS or not
            answer = bcd.format_number(bcd.from_bytes(self.mem[ANSWER:ANSWER_END]))
            for char in answer.replace(" ", "").encode("ascii"):
                self._edit(None, char)
            self.list_addr = self.last_result = None
            self._show_typing(full=True)
            return
        if code is not None and not self.line and self.input_row is None:
            if self.last_result is not None and code in CONTINUING:
                self._set_line(self.last_result)
                # the firmware engine blanks the result's row in the text buffer
                # (spaces), though the display goes on showing it
                base = TEXT_BUFFER + self.screen.row * COLS
                self.mem[base:base + COLS] = b" " * COLS
        self.list_addr = None
        if self._edit(key, code):
            self.last_result = None
            self._show_typing(full=code is None and key in ("DEL", "INS"))
        elif self._cursor() < len(self.line):
            self._show_typing()         # a key that changes nothing: the block goes on blinking

    # ------------------------------------------------------------ the buffer

    def _set_line(self, data, cur=None, units=None, numbered=False):
        """The line to edit: `data`, or `units` (units_of) drawn as render_units does;
        the cursor at display offset `cur` (on the unit there or after it), else at
        the end."""
        self.units = None
        if units is not None:
            self.units, self.numbered = list(units), numbered
            data, starts = render_units(self.units, numbered)
            self.units_text = data
            if cur is not None:
                index = bisect_left(starts, cur)
                cur = starts[index] if index < len(starts) else len(data)
        self.line[:] = data
        self.cur = len(self.line) if cur is None else cur

    def _live_units(self):
        """The units of the line, if it is still the line they showed."""
        if self.units is not None and self.units_text != self.line:
            self.units = None
        return self.units

    def _cursor(self):
        if self._live_units() is not None:
            return min(self.cur, len(self.line))
        return min(self.cur, len(self.line), MAX_CHARS - 1)

    def _edit_units(self, key, code):
        """_edit for a line of units: each key acts on a whole unit."""
        units = self.units
        text, starts = render_units(units, self.numbered)
        index = bisect_left(starts, min(self.cur, len(text)))
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
        text, starts = render_units(units, self.numbered)
        self.line[:] = self.units_text = text
        self.cur = starts[index] if index < len(starts) else len(text)
        self.blink_start = self.clock
        return True

    def _edit(self, key, code):
        """Shared line editing; True if the line or its cursor changed."""
        if self._live_units() is not None:
            return self._edit_units(key, code)
        line = self.line
        cur = min(self.cur, len(line))
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
        self.cur = cur
        self.blink_start = self.clock
        return True

    # ------------------------------------------------------------ showing it

    def _entered(self):
        """The line as ENTER takes it: without the holes INS left."""
        return bytes(self.line).replace(bytes([HOLE]), b"")

    def _typing_text(self):
        """The line as the text buffer holds it: a NUL after it, where `_` shows
        when the cursor is at the end (the firmware does not store the cursor)."""
        return bytes(self.line) + bytes([NUL])

    def _end_cursor(self, row, col):
        """`_` over the NUL after the line, in cell (row, col), if the cursor is there."""
        if self._cursor() >= len(self.line) and 0 <= row < ROWS:
            self.screen.put(row, col, NUL, CURSOR)

    def _drop_cursor(self):
        """The typed line stays as it is, without its cursor (DEF + letter); output
        goes on below it."""
        self._cursor_off()
        row, col = divmod(self.input_row * COLS + len(self.line), COLS)
        if row < ROWS:
            self.screen.put(row, col, NUL)

    def _show_typing(self, full=False):
        """The line being typed, from its row, with its cursor. As the firmware engine
        keeps the text buffer: a typed key rewrites the line over what its first row
        holds, and a row the line goes on to is NUL-filled; with `full` (DEL, INS, a
        line brought back) every row from the line's first to the bottom (to its
        last when it is a listed line being edited) gets NULs after the text. A line
        of units is drawn afresh at every key (it can get shorter)."""
        screen = self.screen
        if self.input_row is None:
            screen.next_line()
            self.input_row = screen.row
        data = self._typing_text()
        chunks, place = self._typing_layout(data)
        full = full or self._live_units() is not None
        row = self.input_row
        while row + len(chunks) > ROWS and row > 0:
            screen.scroll()
            row -= 1
        self.input_row = row
        for index, chunk in enumerate(chunks[-ROWS:]):
            if full or index:
                screen.clear_row(row, fill=NUL)
            screen.write(row, 0, chunk)
            row += 1
        if full and self.edit_addr is None:     # (a listed line keeps the listing below)
            for below in range(row, ROWS):
                screen.clear_row(below, fill=NUL)
        screen.row = row - 1
        screen.end_line()
        self._end_cursor(screen.row, place(len(data) - 1)[1])
        cur = self._cursor()
        if cur < len(self.line):
            row, col = place(cur)
            if self.input_row + row < ROWS:
                self._block_on(self.input_row + row, col)

    def _typing_layout(self, data):
        """The rows `data` (the line and its NUL) takes, and a function giving the
        (row, column) of an offset in it: 24 characters a row, or for a listed line
        being edited the rows LIST would show (firmware engine)."""
        if self._live_units() is None or not self.numbered:
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

    def _block_on(self, row, col):
        self.block_at = (row, col)
        self.blink_start = self.clock
        self._draw_block(True)

    def _draw_block(self, on):
        row, col = self.block_at
        screen = self.screen
        code = BLOCK if on else screen.char_at(row, col)
        saved = screen.char_at(row, col)
        screen.put(row, col, code)
        screen.mem[TEXT_BUFFER + row * COLS + col] = saved     # the buffer keeps the character

    def _cursor_off(self):
        """Take the block off the display (before the display changes); returns where
        it was."""
        held = self.block_at
        if held is not None:
            self._draw_block(False)
            self.block_at = None
        return held

    def _blink(self):
        """While waiting for a key: the block and the character take turns."""
        if self.block_at is not None:
            self._draw_block((self.clock - self.blink_start) // BLINK_CYCLES % 2 == 0)

    # ------------------------------------------------------------ recalling

    def _recall(self, key, cur=None):
        """LEFT/RIGHT on an empty line after ENTER: the last line again, the cursor at
        its end (LEFT), its start (RIGHT) or `cur`. True if done."""
        if self.recalled is None or self.line or key not in ("LEFT", "RIGHT"):
            return False
        data, row, scrolls, units = self.recalled
        row = max(0, row - (self.screen.scrolls - scrolls))    # where it is now
        if self.input_row is not None:
            row = self.input_row
        for r in range(row, ROWS):
            self.screen.clear_row(r, fill=NUL)
        self.input_row = row
        if cur is None:
            cur = len(data) if key == "LEFT" else 0
        self._set_line(data, min(cur, len(data)), units)
        self._show_typing()
        return True

    def _error_column(self):
        """Where in the typed line an immediate line's error was (as its listing
        counts characters); None if not known."""
        interp = self.interp
        if self.recalled is None or interp.line_addr is not None or interp.pos < INPUT_BUFFER:
            return None
        body = bytes(self.mem[INPUT_BUFFER:interp.pos])
        keyword = ends_with_keyword(body)
        try:
            column = len(from_text(list_line(Line(1, body)))) - 2 + keyword
            # a typed statement's error at the line's end points at its last element
            # (`RUN 500`, `GOTO 5*100`: ERROR 4 at the last digit; `CONT`: ERROR 9 at
            # the keyword; firmware engine)
            if self.typed_end and self.mem[interp.pos] == 0x0D and column:
                column = len(from_text(list_line(Line(1, body[:-2])))) - 2 if keyword \
                    else column - 1
        except Exception:       # noqa: BLE001 - a cut token: no cursor position
            return None
        return column

    def _edit_listed(self, key):
        """PRO mode, a listing shown: RIGHT/LEFT edit its top line. True if done."""
        if key not in ("LEFT", "RIGHT") or self.line:
            return False
        number = self.mem[self.list_addr] << 8 | self.mem[self.list_addr + 1]
        self._edit_line(self.list_addr, len(str(number)) + 1)
        return True

    def _edit_line(self, addr, cur):
        """Line `addr` as it is edited (`10 A=1`) on the top row, the cursor at `cur`;
        the rows below keep the listing."""
        number = self.mem[addr] << 8 | self.mem[addr + 1]
        body = bytes(self.mem[addr + 3:addr + 2 + self.mem[addr + 2]])
        self.input_row = 0
        self._set_line(b"", cur, units_of(body, number), numbered=True)
        self.list_addr = None
        self.edit_addr = addr
        self._show_typing()

    def _show_error_line(self):
        """PRO mode after a program error or stop: UP or DOWN lists from that line, which
        is edited with the cursor where the error was, or after a stop (STOP, BRK, MODE
        at a PRINT wait) on the last element read: STOP itself, PRINT's last item, the
        `1` of C=C+1 (firmware engine). True if done."""
        stop = self.interp.stopped_at       # (a stop comes after any error still noted)
        if stop is not None:
            pos, number, line_addr = stop
            offset = pos - line_addr - 3
        elif self.error_at is not None:
            number, offset = self.error_at
        else:
            return False
        program = self.interp.program
        try:
            addr = program.find(number)
        except BasicError:
            self.error_at = None
            return False
        body = bytes(self.mem[addr + 3:addr + 2 + self.mem[addr + 2]])
        if stop is not None:
            offset = last_element(body, offset)
        head = from_text(list_line(Line(number, body[:max(0, offset)])))
        self._show_listing(addr)
        self._edit_line(addr, len(head))
        return True

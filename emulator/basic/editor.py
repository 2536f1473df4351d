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
  becomes `10 A=1` with the block on the first character after the number.
"""

from pc1360.listing import list_line
from pc1360.program import Line

from .enter import PRO_MODE, RUN_MODE, ends_with_keyword
from .errors import BasicError
from .interp import INPUT_BUFFER
from .screen import COLS, ROWS
from .typed import from_text

MAX_CHARS = 79              # the firmware keeps the cursor on the 79th character
BLOCK = 0xF9                # the block cursor (■)
HOLE = 0xFA                 # what INS opens (□): ENTER drops it
CURSOR = 0x5F               # the end-of-line cursor `_`
BLINK_CYCLES = 128_000      # each phase of the blinking block (~0.5 s)
CONTINUING = frozenset(b"+-*/^")    # typed first after a result, they continue from it


class EditorMixin:
    """The editing part of BuiltinEngine (needs line, cur, screen, input_row, clock)."""

    # ------------------------------------------------------------ keys

    def _idle_key(self, key, code):
        cleared, self.cleared = self.cleared, False
        if key == "CLS":
            self.screen.clear()
            self.list_addr = None
            self.last_result = None
            self._prompt(top=True)
            return
        if key == "MODE":
            self.mode = PRO_MODE if self.mode == RUN_MODE else RUN_MODE
            self._show_mode()
            return
        if self.mode == PRO_MODE and key in ("UP", "DOWN") and self.edit_addr is not None:
            # leaving a listed line being edited: the listing from the line before/after
            self.list_addr, self.edit_addr = self.edit_addr, None
            self.line.clear()
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
        if self.mode == RUN_MODE and key == "UP" and self.interp.stopped_at is not None \
                and not self.line:
            self.screen.clear()                 # after a stop UP clears, as after an error
            self._prompt(top=True)
            return
        if self.mode == RUN_MODE and key in ("UP", "DOWN") and self.answer:
            if cleared:
                # right after the CLEAR question the display clears first (firmware)
                self.screen.clear()
                self.input_row = 0
            for char in self.answer:            # typed as if by hand, CLS or not
                self._edit(None, char)
            self.list_addr = self.last_result = None
            self._show_typing()
            return
        if code is not None and not self.line and self.input_row is None:
            if self.last_result is not None and code in CONTINUING:
                self._set_line(self.last_result)
        self.list_addr = None
        if self._edit(key, code):
            self.last_result = None
            self._show_typing()

    # ------------------------------------------------------------ the buffer

    def _set_line(self, data, cur=None):
        self.line[:] = data
        self.cur = len(self.line) if cur is None else cur

    def _cursor(self):
        return min(self.cur, len(self.line), MAX_CHARS - 1)

    def _edit(self, key, code):
        """Shared line editing; True if the line or its cursor changed."""
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
        """The line as shown: with `_` after it when the cursor is at its end."""
        text = bytes(self.line)
        if self._cursor() >= len(self.line):
            text += bytes([CURSOR])
        return text

    def _show_typing(self):
        """The line being typed, from its row, with its cursor."""
        screen = self.screen
        if self.input_row is None:
            screen.next_line()
            self.input_row = screen.row
        self.input_row = self._show_rows(self.input_row, self._typing_text())
        cur = self._cursor()
        if cur < len(self.line):
            row = self.input_row + cur // COLS
            if row < ROWS:
                self._block_on(row, cur % COLS)

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
        screen.mem[0xFD80 + row * COLS + col] = saved     # the buffer keeps the character

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
        data, row, scrolls = self.recalled
        row = max(0, row - (self.screen.scrolls - scrolls))    # where it is now
        if self.input_row is not None:
            row = self.input_row
        for r in range(row, ROWS):
            self.screen.clear_row(r)
        self.input_row = row
        if cur is None:
            cur = len(data) if key == "LEFT" else 0
        self._set_line(data, min(cur, len(data)))
        self._show_typing()
        return True

    def _error_column(self):
        """Where in the typed line an immediate line's error was (as its listing
        counts characters); None if not known."""
        interp = self.interp
        if self.recalled is None or interp.line_addr is not None or interp.pos < INPUT_BUFFER:
            return None
        body = bytes(self.mem[INPUT_BUFFER:interp.pos])
        try:
            return len(from_text(list_line(Line(1, body)))) - 2 + ends_with_keyword(body)
        except Exception:       # noqa: BLE001 - a cut token: no cursor position
            return None

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
        text = self._listing(addr)
        number = len(str(self.mem[addr] << 8 | self.mem[addr + 1]))
        text = text[:number] + b" " + text[number + 1:]
        self.input_row = 0
        self._set_line(text, cur)
        for r in range(ROWS):
            if r * COLS < len(text) + 1:
                self.screen.clear_row(r)
        self._show_typing()
        self.list_addr = None
        self.edit_addr = addr

    def _show_error_line(self):
        """PRO mode after a program error: UP or DOWN lists from the line in error, which
        is edited with the cursor where the error was. True if done."""
        if self.error_at is None:
            return False
        number, offset = self.error_at
        program = self.interp.program
        try:
            addr = program.find(number)
        except BasicError:
            self.error_at = None
            return False
        body = bytes(self.mem[addr + 3:addr + 2 + self.mem[addr + 2]])
        head = from_text(list_line(Line(number, body[:max(0, offset)])))
        self._show_listing(addr)
        self._edit_line(addr, len(head))
        return True

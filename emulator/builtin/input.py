"""INPUT as the firmware shows it: the prompt on the next line (`?` when the
statement gives none), the typed text after it with the `_` cursor; a `?` prompt, or
one followed by `,`, disappears at the first key; each item is asked on a new line.
Prompt and text go on in the next rows (scrolling at the bottom) as typed lines do:
a 24-character prompt leaves the cursor alone on the row below it. After CURSOR x,y
they start at that cell and write over what the rows hold, and the CURSOR position
moves up when the display scrolls."""

from emulator.builtin.basic_errors import BasicError
from emulator.builtin.screen import COLS, NUL, ROWS
from emulator.builtin.states import INPUT, RUNNING
from emulator.builtin.typed import tokenize_body


class InputMixin:
    """The INPUT part of BuiltinEngine (needs screen, interp, line, state)."""

    def _ask(self):
        """Show the prompt of the next INPUT item and start a fresh line."""
        prompt, keep, _ref = self.input_items[0]
        self.input_prompt = b"?" if prompt is None else prompt
        self.input_keep = keep and prompt is not None
        self.line.clear()
        self.state = INPUT
        screen = self.screen
        # a kept prompt shows the cursor after it (over the NUL that ends the text);
        # a `?` that the first key erases shows alone (as the firmware engine shows both)
        text = self.input_prompt + (bytes([NUL]) if self.input_keep else b"")
        if self.interp.cursor is not None:
            # after CURSOR x,y the question is asked there (and CURSOR stays)
            self.input_col, self.input_top = self.interp.cursor
            self.input_len = 0
            first = self._input_show(text)
            if self.input_keep:
                self._input_end_cursor(text, first)
            return
        self.input_col = 0
        if screen.done or screen.col:
            screen.next_line()      # right after CLS the question is on the top line
        self.input_top = self._show_rows(screen.row, text)
        for row in range(screen.row + 1, ROWS):
            screen.clear_row(row, fill=NUL)     # (firmware engine: NULs to the bottom)
        if self.input_keep:
            self._input_end_cursor(text, max(0, -(-len(text) // COLS) - ROWS) * COLS)

    def _input_key(self, key, code):
        if key == "ENTER":
            self._input_done()
            return
        if self._edit(key, code):
            prompt = self.input_prompt if self.input_keep else b""
            text = prompt + self._typing_text()
            first = self._input_show(text)
            self._input_end_cursor(text, first)
            if self._cursor() < len(self.line):
                cell = self._input_cell(len(prompt) + self._cursor() - first, len(text))
                if cell is not None:
                    self._block_on(*cell)

    def _input_show(self, text):
        """Show the question's line; returns the index in `text` of the first
        character shown (the end of a line too long for the display)."""
        screen = self.screen
        if self.interp.cursor is None:
            shown_to = screen.row
            self.input_top = self._show_rows(self.input_top, text)
            for row in range(screen.row + 1, shown_to + 1):
                screen.clear_row(row, fill=NUL)     # the line got a row shorter (DEL)
            rows = max(1, -(-len(text) // COLS))
            return max(0, rows - ROWS) * COLS
        # at the CURSOR cell, over what the rows hold
        rows = max(1, -(-(self.input_col + len(text)) // COLS))
        while self.input_top + rows > ROWS and self.input_top > 0:
            screen.scroll()
            self.input_top -= 1
        self.interp.cursor = (self.input_col, self.input_top)
        first, top, col = self._input_origin(len(text))
        # the cells a longer line used before go blank, NULs (firmware engine)
        rest = text[first:] + bytes(max(0, self.input_len - len(text)))
        self.input_len = len(text)
        for row in range(top, ROWS):
            screen.write(row, col if row == top else 0, rest)
            rest = rest[COLS - (col if row == top else 0):]
            if not rest:
                break
        screen.row = min(ROWS - 1, top + (col + max(0, len(text) - first - 1)) // COLS)
        return first

    def _input_end_cursor(self, text, first):
        """`_` over the NUL that ends `text`, shown from its character `first` on."""
        cell = self._input_cell(len(text) - 1 - first, len(text))
        if cell is not None:
            self._end_cursor(*cell)

    def _input_origin(self, length):
        """(index of the first character shown, its row, its column) for a line of
        `length` characters."""
        col = self.input_col if self.interp.cursor is not None else 0
        hidden = (max(1, -(-(col + length) // COLS)) - ROWS) * COLS
        if hidden > 0:
            return hidden - col, 0, 0
        return 0, self.input_top, col

    def _input_cell(self, index, length):
        """The (row, col) showing the `index`-th character shown of a line of `length`;
        None if off the display."""
        if index < 0:
            return None
        _first, row, col = self._input_origin(length)
        row, col = divmod(row * COLS + col + index, COLS)
        return (row, col) if row < ROWS else None

    def _input_done(self):
        interp = self.interp
        _prompt, _keep, ref = self.input_items.pop(0)
        screen = self.screen
        prompt = self.input_prompt if self.input_keep or not self.line else b""
        self._input_show(prompt + bytes(self.line) + bytes([NUL]))     # the cursor goes
        screen.end_line()
        data = self._entered()
        self.line.clear()
        if not data:
            # ENTER alone keeps the variable and goes on with the next line; a `?`
            # prompt disappears (as on the firmware engine)
            if not self.input_keep:
                screen.clear_row(screen.row)
            self.input_items = []
            interp.skip_line()
            self.state = RUNNING
            return
        try:
            # a number is typed as an expression (3*4, B), as the firmware takes it
            value = interp.evaluate(tokenize_body(data)) if ref[2] == 0 else data
            interp.vars.store(ref, value)
        except BasicError as err:
            self._show_error(err.code, interp.line)
            return
        if self.input_items:
            self._ask()
        else:
            self.state = RUNNING

"""INPUT as the firmware shows it: the prompt on the next line (`?` when the
statement gives none), the typed text after it with the `_` cursor; a `?` prompt, or
one followed by `,`, disappears at the first key; each item is asked on a new line."""

from .errors import BasicError
from .screen import COLS
from .states import INPUT, RUNNING
from .typed import tokenize_body

CURSOR = 0x5F


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
        # a kept prompt shows the cursor after it; a `?` that the first key erases
        # shows alone (as the firmware engine shows both)
        cursor = bytes([CURSOR]) if self.input_keep else b""
        if self.interp.cursor is not None:
            # after CURSOR x,y the question is asked there (and CURSOR stays)
            self.input_col, screen.row = self.interp.cursor
            screen.write(screen.row, self.input_col, self.input_prompt + cursor)
            return
        self.input_col = 0
        if screen.done or screen.col:
            screen.next_line()      # right after CLS the question is on the top line
        screen.show_line(screen.row, self.input_prompt + cursor)

    def _input_key(self, key, code):
        if key == "ENTER":
            self._input_done()
            return
        if self._edit(key, code):
            prompt = self.input_prompt if self.input_keep else b""
            text = prompt + self._typing_text()
            col = self._input_show(text)
            block = len(prompt) + self._cursor()
            if self._cursor() < len(self.line) and 0 <= block - col < COLS - self.input_col:
                self._block_on(self.screen.row, self.input_col + block - col)

    def _input_show(self, text):
        """Show the question's line; returns the index in `text` of the first
        character shown (a long line shows its end)."""
        screen = self.screen
        width = COLS - self.input_col
        first = max(0, len(text) - width)
        if self.input_col:
            screen.write(screen.row, self.input_col, text[first:])
        else:
            screen.show_line(screen.row, text[first:])
        return first

    def _input_done(self):
        interp = self.interp
        _prompt, _keep, ref = self.input_items.pop(0)
        screen = self.screen
        prompt = self.input_prompt if self.input_keep or not self.line else b""
        self._input_show(prompt + bytes(self.line) + b" ")     # the cursor goes
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

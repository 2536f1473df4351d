"""INPUT as the firmware shows it: the prompt on the next line (`?` when the
statement gives none), the typed text after it with the `_` cursor; a `?` prompt, or
one followed by `,`, disappears at the first key; each item is asked on a new line.
Prompt and text go on in the next rows (scrolling at the bottom) as typed lines do:
a 24-character prompt leaves the cursor alone on the row below it. After CURSOR x,y
they start at that cell and write over what the rows hold, and the CURSOR position
moves up when the display scrolls."""

from dataclasses import dataclass, field

from emulator.builtin.basic_errors import BasicError
from emulator.builtin.run_state import InputItem
from emulator.builtin.screen import COLS, NUL, ROWS
from emulator.builtin.states import State
from emulator.builtin.typed import tokenize_body


@dataclass
class InputState:
    # the items still to ask: (prompt or None for `?`, prompt kept, variable reference)
    items: list[InputItem] = field(default_factory=list)
    prompt: bytes = b""             # the question shown
    keep: bool = True               # it stays while the answer is typed
    typed: bool = False             # a key has edited the answer (a `,` prompt or `?` went)
    col: int = 0                    # INPUT after CURSOR x,y asks at column x
    top: int = 0                    # the row the question starts on
    length: int = 0                 # at CURSOR: the length of the line shown last
    retry: bool = False             # an answer was refused: CLS asks for it again
    refused: bytes = b""            # ... and LEFT/RIGHT bring it back for editing


class InputLine:
    """INPUT's question and answer (`state`: InputState). The engine wires `runtime`
    (runtime.Runtime) in."""

    def __init__(self, screen, interp, core, editor, terminal):
        self.screen = screen
        self.interp = interp
        self.core = core
        self.editor = editor
        self.terminal = terminal
        self.state = InputState()
        self.runtime = None

    def ask(self):
        """Show the prompt of the next INPUT item and start a fresh line."""
        st = self.state
        prompt, keep, _ref = st.items[0]
        st.prompt = b"?" if prompt is None else prompt
        st.keep = keep and prompt is not None
        st.typed = False
        self.editor.state.line.clear()
        self.core.state = State.INPUT
        screen = self.screen
        # a kept prompt shows the cursor after it (over the NUL that ends the text);
        # a `?` that the first key erases shows alone (as the firmware engine shows both)
        text = st.prompt + (bytes([NUL]) if st.keep else b"")
        if self.interp.cursor is not None:
            # after CURSOR x,y the question is asked there (and CURSOR stays)
            st.col, st.top = self.interp.cursor
            st.length = 0
            first = self.show(text)
            if st.keep:
                self._end_cursor(text, first)
            return
        st.col = 0
        screen.keep_open_line()
        if screen.done or screen.col:
            screen.next_line()      # right after CLS the question is on the top line
        st.top = self.terminal.show_rows(screen.row, text)
        for row in range(screen.row + 1, ROWS):
            screen.clear_row(row, fill=NUL)     # (firmware engine: NULs to the bottom)
        if st.keep:
            self._end_cursor(text, max(0, -(-len(text) // COLS) - ROWS) * COLS)

    def key(self, key, code):
        st = self.state
        if st.retry:
            if key == "CLS":
                self._ask_again()
            elif key in ("LEFT", "RIGHT"):
                self._ask_again(recall=True)
            return
        if key == "ENTER":
            self._done()
            return
        if key == "CLS":
            # the typed answer goes and the question is asked again: a `;` prompt as
            # it was, any other with `?` (firmware engine, case INPUT_cls_while_typing)
            prompt, keep, ref = st.items[0]
            if not (keep and prompt is not None):
                st.items[0] = InputItem(None, True, ref)
            self.screen.move_open_line(st.top)
            self._ask_again()
            return
        if self.editor.edit(key, code):
            st.typed = True
            prompt = st.prompt if st.keep else b""
            text = prompt + self.editor.typing_text()
            first = self.show(text)
            self._end_cursor(text, first)
            if self.editor.cursor() < len(self.editor.state.line):
                cell = self._cell(len(prompt) + self.editor.cursor() - first, len(text))
                if cell is not None:
                    self.editor.block_on(*cell)

    def show(self, text):
        """Show the question's line; returns the index in `text` of the first
        character shown (the end of a line too long for the display)."""
        st = self.state
        screen = self.screen
        if self.interp.cursor is None:
            shown_to = screen.row
            st.top = self.terminal.show_rows(st.top, text)
            for row in range(screen.row + 1, shown_to + 1):
                screen.clear_row(row, fill=NUL)     # the line got a row shorter (DEL)
            rows = max(1, -(-len(text) // COLS))
            return max(0, rows - ROWS) * COLS
        # at the CURSOR cell, over what the rows hold
        rows = max(1, -(-(st.col + len(text)) // COLS))
        while st.top + rows > ROWS and st.top > 0:
            screen.scroll()
            st.top -= 1
        self.interp.cursor = (st.col, st.top)
        first, top, col = self._origin(len(text))
        # the cells a longer line used before go blank, NULs (firmware engine)
        rest = text[first:] + bytes(max(0, st.length - len(text)))
        st.length = len(text)
        for row in range(top, ROWS):
            screen.write(row, col if row == top else 0, rest)
            rest = rest[COLS - (col if row == top else 0):]
            if not rest:
                break
        screen.row = min(ROWS - 1, top + (col + max(0, len(text) - first - 1)) // COLS)
        return first

    def _end_cursor(self, text, first):
        """`_` over the NUL that ends `text`, shown from its character `first` on."""
        cell = self._cell(len(text) - 1 - first, len(text))
        if cell is not None:
            self.editor.end_cursor(*cell)

    def _origin(self, length):
        """(index of the first character shown, its row, its column) for a line of
        `length` characters."""
        st = self.state
        col = st.col if self.interp.cursor is not None else 0
        hidden = (max(1, -(-(col + length) // COLS)) - ROWS) * COLS
        if hidden > 0:
            return hidden - col, 0, 0
        return 0, st.top, col

    def _cell(self, index, length):
        """The (row, col) showing the `index`-th character shown of a line of `length`;
        None if off the display."""
        if index < 0:
            return None
        _first, row, col = self._origin(length)
        row, col = divmod(row * COLS + col + index, COLS)
        return (row, col) if row < ROWS else None

    def _done(self):
        st = self.state
        interp = self.interp
        item = st.items.pop(0)
        ref = item.ref
        screen = self.screen
        # a `,` prompt or `?` that a key took away does not come back with an answer
        # typed and deleted again (firmware engine, case INPUT_emptied_answer_no_prompt)
        prompt = st.prompt if st.keep or not st.typed else b""
        self.show(prompt + bytes(self.editor.state.line) + bytes([NUL]))     # the cursor goes
        screen.end_line()
        data = self.editor.entered()
        self.editor.state.line.clear()
        if not data:
            # ENTER alone keeps the variable and goes on with the next line; a `?` or
            # `,` prompt disappears for a number variable, stays for a string one
            # (firmware engine, case INPUT_enter_alone)
            if not st.keep and ref[2] == 0:
                screen.clear_row(screen.row)
            st.items = []
            interp.skip_line()
            self.core.state = State.RUNNING
            return
        try:
            # a number is typed as an expression (3*4, B), as the firmware takes it
            # a string answer ends at its first quote (firmware engine, case
            # INPUT_string_answer_quote)
            value = interp.evaluate(tokenize_body(data)) if ref[2] == 0 \
                else bytes(data).partition(b'"')[0]
            interp.vars.store(ref, value)
        except BasicError as err:
            self._refuse(err.code, item, data)
            return
        if st.items:
            self.ask()
        else:
            self.core.state = State.RUNNING

    def _refuse(self, code, item, data):
        """An answer that is no value of the variable's kind: the firmware shows `ERROR n`
        below it and, once CLS is pressed, asks for the same variable again on the
        answer's row, a `;` prompt as it was, any other with `?`; LEFT or RIGHT instead
        bring the answer back there (after a `;` prompt), the cursor at its end (cases
        GEN_input_6, INPUT_refused_answer, INPUT_refused_answer_recalled,
        INPUT_refused_answer_keeps_prompt)."""
        st = self.state
        st.refused = bytes(data)
        scrolls = self.screen.scrolls
        self.terminal.message(b"ERROR %d" % code)
        st.top = max(0, st.top - (self.screen.scrolls - scrolls))
        st.items.insert(0, InputItem(item.prompt if item.keep else None, True, item.ref))
        st.retry = True

    def _ask_again(self, recall=False):
        st = self.state
        st.retry = False
        screen = self.screen
        for row in range(st.top, ROWS):
            screen.clear_row(row, fill=NUL)
        screen.row, screen.col, screen.done = st.top, 0, False
        self.ask()
        if recall:
            st.typed = True                 # (a `?` goes, as at the first key)
            self.editor.set_line(st.refused)
            text = (st.prompt if st.keep else b"") + self.editor.typing_text()
            self._end_cursor(text, self.show(text))

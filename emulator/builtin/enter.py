"""ENTER on a typed line, as the firmware engine shows it: RUN mode runs it (an
expression shows its value right-aligned, a string result clears the display and
shows at the top, an assignment shows the value assigned), PRO mode stores a numbered
line and shows it as LIST would; DEF + letter runs from a labelled line."""

from emulator.builtin import bcd
from emulator.builtin.basic_errors import LINE, OTHER, SYNTAX, BasicError
from emulator.builtin.costs import (
    LABEL_LINE,
    TYPED_BASE,
    TYPED_CHAR,
    TYPED_RESULT,
    TYPED_STATEMENT_END,
)
from emulator.builtin.interp import ANSWER, ANSWER_END
from emulator.builtin.listview import (
    ends_with_keyword,
    first_colon,
    render_units,
    units_of,
    wrap_listing,
)
from emulator.builtin.screen import COLS, NUL, ROWS
from emulator.builtin.serial_io import close_port, end_latch, enter_cycles
from emulator.builtin.states import Mode, State
from emulator.builtin.steps import LET_COST
from emulator.builtin.terminal import Recalled
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES
from emulator.builtin.typed import from_text, to_text, tokenize_body
from pc1360.errors import FormatError
from pc1360.facts import MAX_LINE, PREFIX
from pc1360.image import Line
from pc1360.listing import list_line
from pc1360.tokenizer import tokenize_line

ENTER_CYCLES = CYCLES["enter_store"]    # storing a typed line in PRO mode
# A key pressed in the key-wait loop acts this many cycles later (key_dispatch.py)
KEY_LATENCY = CYCLES["key_latency"]
# Statements that RUN mode refuses on a typed line with ERROR 1 (seen on the firmware).
PROGRAM_ONLY = frozenset(CODES[name] for name in (
    "PRINT", "CLS", "PAUSE", "CURSOR", "GCURSOR", "IF", "FOR", "NEXT", "READ", "DATA",
    "RESTORE", "GOSUB", "RETURN", "END", "STOP", "REM", "LET", "ON", "AREAD", "INPUT"))


# Typed with a `:` after them, these run, and then the `:` is ERROR 1 (one statement a
# typed line; GOTO, RUN and CONT refuse it themselves before they go anywhere, once their
# line or stop is found); any other statement is refused before it runs (firmware engine,
# measured: CLEAR empties the variables, DIM makes its array, ERASE drops it, BEEP sounds,
# GRAD, TRON and RANDOM take effect, GOTO 99: is ERROR 4; NEW keeps the program; case
# CALC_statement_and_colon)
RUN_BEFORE_COLON = frozenset(CODES[name] for name in (
    "CLEAR", "DIM", "ERASE", "BEEP", "WAIT", "DEGREE", "RADIAN", "GRAD", "RANDOM", "TRON",
    "TROFF", "USING", "GOTO", "RUN", "CONT"))

# typed in RUN mode: ERROR 9 (firmware engine; RENUM and DELETE, which the built-in
# engine does not run in PRO mode: case PRINTER_statements_skipped)
PRO_COMMANDS = frozenset(CODES[name] for name in ("LIST", "NEW", "RENUM", "DELETE"))

PROMPT_CHAR = 0x3E        # the `>` of the prompt
ENTER_EMPTY_WORK = CYCLES["enter_empty_work"]
ENTER_EMPTY_SCROLL = CYCLES["enter_empty_scroll"]
RESULT_SCROLL = CYCLES["typed_result_scroll"]
DEF_START_WORK = CYCLES["def_start_work"]


class TypedLines:
    """ENTER and DEF + letter. The engine wires `runtime` (runtime.Runtime) in."""

    def __init__(self, mem, screen, interp, core, editor, terminal, input_line, jobs):
        self.mem = mem
        self.screen = screen
        self.interp = interp
        self.core = core
        self.editor = editor
        self.terminal = terminal
        self.input_line = input_line
        self.jobs = jobs
        self.runtime = None

    def enter(self):
        data = bytes(self.editor.state.line)
        if not data.strip(b" "):
            # ENTER on an empty line: a new prompt below, and no line to bring back
            # (as the firmware does: CALC_enter_empty_ends_recall)
            row = self.editor.state.input_row
            if row is not None:
                self.screen.row = row
                if self.screen.char_at(row, 0) != PROMPT_CHAR:
                    # a line typed and deleted again leaves its row blank (GEN_input_8)
                    self.screen.clear_row(row, fill=NUL)
            after_end = self.terminal.state.end_prompt
            self.terminal.state.recalled = None     # LEFT/RIGHT bring nothing back now
            with self.terminal.scroll_work(ENTER_EMPTY_SCROLL):
                self.terminal.prompt()
            # after a program's end the new `>` is one too: DEF + letter's output starts
            # on its row (firmware engine, case DEF_after_end_and_enter)
            self.terminal.state.end_prompt = after_end
            self.terminal.state.draw_work += ENTER_EMPTY_WORK
            return
        # RUN mode reads the line for a time that grows with its length; a value then
        # shows after its expression's cycles (_run_immediate; costs.py TYPED_*)
        typed = TYPED_BASE + TYPED_CHAR * len(data) if self.terminal.state.mode is Mode.RUN \
            else ENTER_CYCLES
        # both figures count from ENTER's press, which acted KEY_LATENCY after it
        self.runtime.enter_after(max(1, (enter_cycles(data) or typed) - KEY_LATENCY))

    def enter_now(self, value):
        """ENTER's time has passed: the typed line runs or is stored; or, with
        `value`, a typed calculation's value shows."""
        self.screen.state.open_line = None     # (key_dispatch: typed at a PRINT wait)
        if value is not None:
            self._show_value(value)
            return
        editor = self.editor
        edited = editor.state
        terminal = self.terminal
        mode = terminal.state.mode
        data = editor.entered()
        if edited.input_row is None:
            self.screen.next_line()
            edited.input_row = self.screen.row
        start_row = terminal.show_rows(edited.input_row, data)
        edited.input_row = None
        edited.line.clear()
        # the number of the listed line being edited, if one is
        edited_number = None if edited.edit_addr is None else \
            self.mem[edited.edit_addr] << 8 | self.mem[edited.edit_addr + 1]
        edited.edit_addr = None
        if mode is Mode.RUN:
            terminal.state.recalled = Recalled(data, start_row, self.screen.scrolls, None)
        try:
            if mode is Mode.PRO and data.lstrip(b" ")[:1].isdigit():
                self._store_line(data, start_row, edited_number)
                return
            body = tokenize_body(data)
            # the line is shown again as LIST would show it (`WAIT 0: DEGREE`); the
            # firmware fills the rows from it to the bottom with NULs
            for r in range(start_row, ROWS):
                self.screen.clear_row(r, fill=NUL)
            listed = from_text(list_line(Line(1, body)))[2:] if body else data
            start_row = terminal.show_rows(start_row, listed, indent=0)
            end = len(wrap_listing(listed, 0)[-1])
            if ends_with_keyword(body) and end < COLS:
                self.screen.put(self.screen.row, end, 0x20)     # the buffer keeps `RUN `
            if mode is Mode.RUN:
                # LEFT/RIGHT bring back the listing, its keywords as units (editor.py;
                # a keyword at the end keeps its blank there: `SIN _`, `PI _`)
                units = units_of(body)
                terminal.state.recalled = Recalled(render_units(units, False)[0], start_row,
                                                   self.screen.scrolls, units)
            colon = first_colon(body)
            # (a calculation or an assignment runs up to the `:` first: _run_immediate;
            # so do the statements of RUN_BEFORE_COLON, whose `:` the interpreter refuses)
            if colon is not None and body[0] == PREFIX and body[1] in self.interp.statements \
                    and not (mode is Mode.RUN and body[1] in RUN_BEFORE_COLON):
                self._refuse_statements(body, colon)
            self._run_immediate(body)
        except BasicError as err:
            self.runtime.show_error(err.code, 0, err.on_last)

    def _store_line(self, data, row, edited=None):
        text = data.lstrip(b" ")
        digits = len(text) - len(text.lstrip(b"0123456789"))
        if not 1 <= int(text[:digits]) <= MAX_LINE:
            raise BasicError(LINE)                  # 0 and 65280 are ERROR 4
        # storing or deleting a line, even unchanged, ends what CONT would go on with
        # (ERROR 9 then; firmware engine)
        self.interp.stopped_at = None
        if not text[digits:].strip(b" :"):
            self.interp.program.store(int(text[:digits]), b"")   # `20` ENTER deletes
            self.terminal.prompt()
            return
        try:
            line = tokenize_line(to_text(data))
        except FormatError:
            raise BasicError(SYNTAX) from None
        self.interp.program.store(line.number, line.body)
        self.terminal.state.error_at = None
        # the listing replaces what was typed (the rows below stay: after editing a
        # listed line the rest of the listing is still there)
        for r in range(row, min(ROWS, row + 1 + len(data) // COLS)):
            self.screen.clear_row(r, fill=NUL)
        addr = self.interp.program.find(line.number)
        self.terminal.show_rows(row, self.terminal.listing.text(addr),
                                indent=len(str(line.number)) + 1)
        if edited is not None:
            # an edited listed line: the lines after it (after its new number) are
            # listed below it (firmware engine, case PRO_edited_line_lists_what_follows)
            following = self.terminal.listing.neighbour(addr, 1)
            if following is not None and self.screen.row < ROWS - 1:
                self.terminal.state.draw_work += self.terminal.listing.show(
                    self.screen, following, self.screen.row + 1)
            else:
                for r in range(self.screen.row + 1, ROWS):
                    self.screen.clear_row(r)
        else:
            # below a new line's listing the buffer holds spaces (firmware engine)
            for r in range(self.screen.row + 1, ROWS):
                self.screen.clear_row(r)
        self.terminal.state.list_addr = addr           # UP/DOWN go on from the stored line

    def _refuse_statements(self, body, colon):
        """A typed statement with a `:` after it that does not run first is ERROR 1 at
        the `:`; in RUN mode one that only a program runs is refused at its keyword
        (`PRINT 1:A=2`; firmware engine, case CALC_statement_and_colon)."""
        interp = self.interp
        interp.start_immediate(body)
        if self.terminal.state.mode is Mode.RUN:
            self._refuse_program_only(body[1])
        interp.pos += colon
        raise BasicError(SYNTAX)

    def _refuse_program_only(self, code):
        """RUN mode: ERROR 1 for a statement only a program runs (PRINT # and INPUT # are
        tape statements, which RUN mode takes)."""
        if code in PROGRAM_ONLY and self.interp.mem[self.interp.pos + 2] != 0x23:
            raise BasicError(SYNTAX)

    def _run_immediate(self, body):
        """RUN mode: an expression (or an assignment) shows its value; a string
        result clears the display. Anything else runs as a statement line."""
        interp = self.interp
        interp.start_immediate(body)
        first = interp.peek()
        code = interp.mem[interp.pos + 1] if first == PREFIX else None
        mode = self.terminal.state.mode
        # LIST, NEW, RENUM and DELETE belong to PRO mode, RUN to RUN mode: ERROR 9
        # elsewhere
        if mode is Mode.RUN and code in PRO_COMMANDS:
            raise BasicError(OTHER)
        if code in interp.statements:
            if mode is Mode.RUN:
                self._refuse_program_only(code)
            if mode is Mode.PRO and code == CODES["RUN"]:
                raise BasicError(OTHER)
            if code == CODES["RUN"]:
                close_port(self.mem)        # RUN closes the port (firmware engine)
                end_latch(self.jobs, run=True)
                self.terminal.state.error_at = None        # RUN forgets the last error's line
            # LEFT/RIGHT bring the line back after its error, nothing once it has run
            # (the engine forgets it then; firmware engine)
            self.runtime.run_typed(TYPED_STATEMENT_END)
            return
        interp.cost = 0
        ref = self._assignment_target()
        if ref is None:
            value = interp.expression()
            while interp.accept(0x2C):      # `1,2` shows the last value, as the firmware
                value = interp.expression()
        else:
            interp.expect(0x3D)
            value = interp.expression()
            if isinstance(value, bytes) != (ref[2] != 0):
                raise BasicError(OTHER, on_last=True)
            # the display shows the value assigned, not what the variable kept
            # (R$(1)="XYZW" shows XYZW when R$() holds 3 characters)
            interp.vars.store(ref, value)
        if not isinstance(value, bytes):
            # the last answer, before the line's end is checked: `A=1:B=2` and `3:B=2`
            # are ERROR 1 and leave A=1 and 1, and 3 (firmware engine)
            self.mem[ANSWER:ANSWER_END] = bcd.to_bytes(value)
        if interp.peek() != 0x0D:
            raise BasicError(SYNTAX)
        interp.finish()
        # the value shows once the firmware has worked it out (_enter_now)
        self.runtime.enter_after(TYPED_RESULT + interp.cost + (LET_COST if ref else 0), value)

    def _show_value(self, value):
        """A typed calculation's value: a string at the top of a cleared display, a
        number right-aligned."""
        terminal = self.terminal
        terminal.state.last_shown = value if isinstance(value, bytes) else \
            bcd.format_number(value).encode("ascii")
        if isinstance(value, bytes):
            # from the top row on, a long string going on in the next rows; the next
            # typed line starts below it (on the top row after an empty string), and
            # LEFT/RIGHT bring the last line back on the top row (firmware engine,
            # case CALC_string_result_rows)
            screen = self.screen
            screen.clear()
            for row, start in enumerate(range(0, len(value), COLS)):
                screen.show_line(row, value[start:start + COLS])
                screen.row = row
            screen.end_line()
            self.editor.state.input_row = None if value else 0
            recalled = terminal.state.recalled
            if recalled is not None:
                terminal.state.recalled = recalled._replace(row=0, scrolls=screen.scrolls)
            terminal.state.last_result = None
        else:
            text = bcd.format_number(value).encode("ascii")
            with terminal.scroll_work(RESULT_SCROLL):     # a result that scrolls
                terminal.message(text, right=True)
            terminal.state.last_result = text.replace(b" ", b"")
            terminal.state.result_typed = True

    def _assignment_target(self):
        """If the line is `var = ...`, the variable's reference (position after it)."""
        interp = self.interp
        if not 0x41 <= interp.peek() <= 0x5A:
            return None
        start = interp.pos
        try:
            ref = interp.variable(create=True)
            if interp.peek() == 0x3D:
                return ref
        except BasicError:
            pass
        interp.pos = start
        return None

    def def_start(self, letter):
        """DEF + letter: run from the line labelled with that letter."""
        interp = self.interp
        addr, labelled = interp.program.label_search(bytes([letter]))
        if addr is None:
            return False                    # no such label: the letter is typed
        # AREAD gets what the display holds: the typed line, else the last result
        edited = self.editor.state
        interp.aread = bytes(edited.line) or self.terminal.state.last_shown
        if edited.line and edited.input_row is not None:
            self.editor.drop_cursor()
        elif edited.input_row is not None and self.terminal.state.end_prompt:
            # the `>` after a program's end: the output starts on its row
            self.screen.row = edited.input_row
            self.screen.col = 0
            self.screen.done = False
        elif edited.input_row is not None:
            self.screen.row = edited.input_row  # the `>` stays; output goes below
            self.screen.end_line()
        if self.core.state is State.INPUT:
            self.screen.end_line()          # the INPUT prompt stays, output goes below
        edited.line.clear()
        edited.input_row = None
        self.input_line.state.items = []
        interp.vars.clear()
        interp.start_program(addr, forget_wait=False)
        self.core.state = State.RUNNING
        # the firmware's start from a label, comparing each labelled line before it
        self.runtime.wait(DEF_START_WORK + labelled * LABEL_LINE)
        return True

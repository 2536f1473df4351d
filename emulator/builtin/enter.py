"""ENTER on a typed line, as the firmware engine shows it: RUN mode runs it (an
expression shows its value right-aligned, a string result clears the display and
shows at the top, an assignment shows the value assigned), PRO mode stores a numbered
line and shows it as LIST would; DEF + letter runs from a labelled line."""

from emulator.builtin import bcd
from emulator.builtin.basic_errors import LINE, OTHER, SYNTAX, BasicError
from emulator.builtin.costs import (
    TYPED_BASE,
    TYPED_CHAR,
    TYPED_RESULT,
    TYPED_STATEMENT_END,
)
from emulator.builtin.interp import ANSWER, ANSWER_END, LET_COST
from emulator.builtin.listview import first_colon, render_units, units_of, wrap_listing
from emulator.builtin.screen import COLS, NUL, ROWS
from emulator.builtin.serial_io import close_port, end_latch, enter_cycles
from emulator.builtin.states import DELAY, INPUT, RUNNING
from emulator.builtin.stored_program import MAX_LINE
from emulator.builtin.token_codes import CODES
from emulator.builtin.typed import from_text, to_text, tokenize_body
from pc1360.errors import FormatError
from pc1360.image import Line
from pc1360.listing import list_line
from pc1360.tokenizer import tokenize_line

ENTER_CYCLES = 66_000       # storing a typed line in PRO mode (measured on the firmware engine)
# A key pressed in the key-wait loop acts this many cycles later (engine.py's key
# handling; firmware engine: a typed digit shows 9,900-11,500 cycles after its press)
KEY_LATENCY = 10_000
RUN_MODE, PRO_MODE = "RUN", "PRO"
# Statements that RUN mode refuses on a typed line with ERROR 1 (seen on the firmware).
PROGRAM_ONLY = frozenset(CODES[name] for name in (
    "PRINT", "CLS", "PAUSE", "CURSOR", "GCURSOR", "IF", "FOR", "NEXT", "READ", "DATA",
    "RESTORE", "GOSUB", "RETURN", "END", "STOP", "REM", "LET", "ON", "AREAD", "INPUT"))


def ends_with_keyword(body):
    """True if a tokenized line's last element is a keyword (0xFE code)."""
    in_string = False
    last = None
    index = 0
    while index < len(body):
        byte = body[index]
        step = 1
        if byte == 0x22:
            in_string = not in_string
        elif not in_string and byte == 0xFE:
            step = 2
        elif not in_string and byte == 0x1F:
            step = 3
        last = byte if not in_string or byte == 0x22 else None
        index += step
    return last == 0xFE


class EnterMixin:
    """The ENTER part of BuiltinEngine (needs line, screen, interp, mode, the terminal)."""

    def _enter(self):
        data = bytes(self.line)
        if not data.strip(b" "):
            # ENTER on an empty line: a new prompt below (as the firmware does)
            if self.input_row is not None:
                self.screen.row = self.input_row
            self._prompt()
            return
        # RUN mode reads the line for a time that grows with its length; a value then
        # shows after its expression's cycles (_run_immediate; costs.py TYPED_*)
        typed = TYPED_BASE + TYPED_CHAR * len(data) if self.mode == RUN_MODE else ENTER_CYCLES
        self.entering = True
        self.typed_end = 0
        # both figures count from ENTER's press, which acted KEY_LATENCY after it
        self.delay_left = max(1, (enter_cycles(data) or typed) - KEY_LATENCY)
        self.state = DELAY

    def _enter_now(self):
        if self.enter_value is not None:
            value, self.enter_value = self.enter_value, None
            self._show_value(value)
            return
        data = self._entered()
        if self.input_row is None:
            self.screen.next_line()
            self.input_row = self.screen.row
        start_row = self._show_rows(self.input_row, data)
        self.input_row = None
        self.line.clear()
        # the number of the listed line being edited, if one is
        edited = None if self.edit_addr is None else \
            self.mem[self.edit_addr] << 8 | self.mem[self.edit_addr + 1]
        self.edit_addr = None
        if self.mode == RUN_MODE:
            self.recalled = (data, start_row, self.screen.scrolls, None)
        try:
            if self.mode == PRO_MODE and data.lstrip(b" ")[:1].isdigit():
                self._store_line(data, start_row, edited)
                return
            body = tokenize_body(data)
            # the line is shown again as LIST would show it (`WAIT 0: DEGREE`); the
            # firmware fills the rows from it to the bottom with NULs
            for r in range(start_row, ROWS):
                self.screen.clear_row(r, fill=NUL)
            listed = from_text(list_line(Line(1, body)))[2:] if body else data
            start_row = self._show_rows(start_row, listed, indent=0)
            end = len(wrap_listing(listed, 0)[-1])
            if ends_with_keyword(body) and end < COLS:
                self.screen.put(self.screen.row, end, 0x20)     # the buffer keeps `RUN `
            if self.mode == RUN_MODE:
                # LEFT/RIGHT bring back the listing, its keywords as units (editor.py;
                # a keyword at the end keeps its blank there: `SIN _`, `PI _`)
                units = units_of(body)
                self.recalled = (render_units(units, False)[0], start_row,
                                 self.screen.scrolls, units)
            colon = first_colon(body)
            # (a calculation or an assignment runs up to the `:` first: _run_immediate)
            if colon is not None and body[:1] == b"\xfe" and body[1:2][0] in self.interp.statements:
                self.interp.start_immediate(body)       # the cursor goes to the `:`
                self.interp.pos += colon
                raise BasicError(SYNTAX)        # one statement per typed line
            self._run_immediate(body)
        except BasicError as err:
            self._show_error(err.code, 0)

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
            self._prompt()
            return
        try:
            line = tokenize_line(to_text(data))
        except FormatError:
            raise BasicError(SYNTAX) from None
        self.interp.program.store(line.number, line.body)
        self.error_at = None
        # the listing replaces what was typed (the rows below stay: after editing a
        # listed line the rest of the listing is still there)
        for r in range(row, min(ROWS, row + 1 + len(data) // COLS)):
            self.screen.clear_row(r, fill=NUL)
        addr = self.interp.program.find(line.number)
        self._show_rows(row, self._listing(addr), indent=len(str(line.number)) + 1)
        if edited == line.number:
            # an edited listed line: what comes next goes below the listing it was in
            self.screen.row = max(self.screen.row, self.screen.last_text_row())
        else:
            # below a new line's listing the buffer holds spaces (firmware engine)
            for r in range(self.screen.row + 1, ROWS):
                self.screen.clear_row(r)
        self.list_addr = addr           # UP/DOWN go on from the stored line

    def _run_immediate(self, body):
        """RUN mode: an expression (or an assignment) shows its value; a string
        result clears the display. Anything else runs as a statement line."""
        interp = self.interp
        interp.start_immediate(body)
        first = interp.peek()
        code = interp.mem[interp.pos + 1] if first == 0xFE else None
        if code in interp.statements:
            # (PRINT # and INPUT # are tape statements: RUN mode takes them)
            if self.mode == RUN_MODE and code in PROGRAM_ONLY and interp.mem[interp.pos + 2] != 0x23:
                raise BasicError(SYNTAX)
            # LIST and NEW belong to PRO mode, RUN to RUN mode: ERROR 9 elsewhere
            if self.mode == RUN_MODE and code in (CODES["LIST"], CODES["NEW"]):
                raise BasicError(OTHER)
            if self.mode == PRO_MODE and code == CODES["RUN"]:
                raise BasicError(OTHER)
            if code == CODES["RUN"]:
                close_port(self.mem)        # RUN closes the port (firmware engine)
                end_latch(self, run=True)
                self.error_at = None        # RUN forgets the last error's line
            # LEFT/RIGHT bring the line back after its error, nothing once it has run
            # (the engine forgets it then; firmware engine)
            self.typed_end = TYPED_STATEMENT_END
            self.state = RUNNING
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
                raise BasicError(OTHER)
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
        self.enter_value = value
        self.delay_left = TYPED_RESULT + interp.cost + (LET_COST if ref else 0)
        self.entering = True
        self.state = DELAY

    def _show_value(self, value):
        """A typed calculation's value: a string at the top of a cleared display, a
        number right-aligned."""
        self.last_shown = value if isinstance(value, bytes) else \
            bcd.format_number(value).encode("ascii")
        if isinstance(value, bytes):
            self.screen.clear()
            self.screen.show_line(0, value)
            self.screen.end_line()
            self.input_row = None
            self.last_result = None
        else:
            text = bcd.format_number(value).encode("ascii")
            self._message(text, right=True)
            self.last_result = text.replace(b" ", b"")

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

    def _def_start(self, letter):
        """DEF + letter: run from the line labelled with that letter."""
        interp = self.interp
        try:
            addr = interp.program.find_label(bytes([letter]))
        except BasicError:
            return False                    # no such label: the letter is typed
        # AREAD gets what the display holds: the typed line, else the last result
        interp.aread = bytes(self.line) or self.last_shown
        if self.line and self.input_row is not None:
            self._drop_cursor()
        elif self.input_row is not None and self.end_prompt:
            # the `>` after a program's end: the output starts on its row
            self.screen.row = self.input_row
            self.screen.col = 0
            self.screen.done = False
        elif self.input_row is not None:
            self.screen.row = self.input_row    # the `>` stays; output goes below
            self.screen.end_line()
        if self.state == INPUT:
            self.screen.end_line()          # the INPUT prompt stays, output goes below
        self.line.clear()
        self.input_row = None
        self.input_items = []
        interp.vars.clear()
        interp.start_program(addr)
        self.state = RUNNING
        return True

"""The terminal: the display between and around programs, as the firmware engine shows
it (checked by running it on the same keys):

- the line being typed shows a `_` cursor (editor.py); ENTER leaves it on screen and
  output goes on below, scrolling at the bottom: a number result right-aligned (`2.`),
  `ERROR n`, `BREAK IN 10`; a string result clears the display and shows at the top;
- an operator typed first after a number result continues from it (`6.+1`);
- a statement run from RUN mode, and the end of a program, show a new `>` prompt;
- PRO mode shows each stored line as LIST does (`10:A=1`), long lines continuing on
  the next rows indented by the width of `10:`; UP/DOWN page through the program;
- RUN mode's UP/DOWN type the last number result (`0.` after boot); after a stop DOWN
  goes on line by line (runtime.py), UP clears to `>`;
- after ENTER in RUN mode LEFT brings the line back with the cursor at its end, RIGHT
  with the cursor on its first character; in PRO mode, after a listing, RIGHT or LEFT
  edits the top line, and after a program's error UP/DOWN edit the line in error.
"""

from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from emulator.builtin import bcd
from emulator.builtin.basic_errors import BasicError
from emulator.builtin.interp import ANSWER, ANSWER_END, INPUT_BUFFER
from emulator.builtin.listview import (
    ends_with_keyword,
    last_element,
    last_unit,
    units_of,
    wrap_listing,
)
from emulator.builtin.screen import COLS, NUL, ROWS, SPACE, TEXT_BUFFER
from emulator.builtin.states import Mode
from emulator.builtin.typed import from_text
from emulator.builtin.typed_codes import CHARS, SHIFTED
from pc1360.image import Line
from pc1360.listing import list_line

# typed first after a result, they continue from it (= < > too: CALC_continue_with_relation)
CONTINUING = frozenset(b"+-*/^=<>")


class Recalled(NamedTuple):
    """A line ENTER took, which LEFT/RIGHT bring back."""
    text: bytes
    row: int                        # the display row it started on
    scrolls: int                    # the screen's scroll count then (it moves up since)
    units: list[int | bytes] | None     # its keywords as units (editor.py), if listed


@dataclass
class TerminalState:
    mode: Mode = Mode.RUN
    recalled: Recalled | None = None
    error_at: tuple[int, int] | None = None     # (line number, body offset) of a program error
    error_on_last: bool = False     # ... which is about the element before the offset
    error_cur: int | None = None    # a typed line's error: where LEFT/RIGHT put the cursor
    error_lock: bool = False        # an error is shown: only CLS goes on
    end_prompt: bool = False        # the `>` is the one after a program's end
    cleared: bool = False           # the card was just cleared (the CLEAR question)
    last_result: bytes | None = None    # text of the last number result
    result_typed: bool = False      # ... of a typed calculation (not of a PRINT waiting)
    last_shown: bytes = b""         # the last result on the display (for AREAD)
    shift: bool = False
    sml: bool = False
    def_key: bool = False
    # the PRINT wait that lines are typed under: (pos, line, line_addr)
    wait_stop: tuple[int, int, int | None] | None = None
    list_addr: int | None = None    # the top line of the listing shown
    error_list_from: int | None = None  # the error was LIST n's past the last line
    draw_work: int = 0              # cycles of drawing (listings, a prompt's scroll)
                                    # the key wait has still to wait for (key_dispatch.wait)


class Terminal:
    """Keys typed outside a program and what they show (`state`: TerminalState). The
    engine wires `typed` (enter.TypedLines) and `runtime` (runtime.Runtime) in."""

    def __init__(self, mem, screen, interp, editor, listing):
        self.mem = mem
        self.screen = screen
        self.interp = interp
        self.editor = editor
        self.listing = listing
        self.state = TerminalState()
        self.typed = self.runtime = None

    # ------------------------------------------------------------ output

    @contextmanager
    def scroll_work(self, per_scroll):
        """Drawing inside the block that scrolls the display takes `per_scroll` cycles
        a scroll before the key wait comes back."""
        scrolls = self.screen.scrolls
        yield
        self.state.draw_work += (self.screen.scrolls - scrolls) * per_scroll

    def message(self, text, right=False, fill=SPACE):
        """Show `text` on the next output line and move past it. (The firmware pads
        a result and an immediate line's ERROR with spaces, a message about a
        program line, BREAK IN 10, ERROR 2 IN 40, 30:, with NULs.)"""
        screen = self.screen
        screen.next_line()
        screen.show_line(screen.row, text, right=right, fill=fill)
        screen.end_line()
        self.editor.state.input_row = None

    def prompt(self, top=False):
        """A `>` on the next line (on the top line after CLS); the first typed key
        replaces it."""
        screen = self.screen
        screen.state.open_line = None
        if not top:
            screen.next_line()
        screen.show_line(screen.row, b">")
        for row in range(screen.row + 1, ROWS):     # the firmware clears below it
            screen.clear_row(row)
        edited = self.editor.state
        edited.input_row = screen.row
        edited.line.clear()
        edited.edit_addr = None
        self.state.end_prompt = False

    def clear_prompt(self):
        """CLS: a `>` on a clear display."""
        self.screen.clear()
        self.prompt(top=True)

    def show_rows(self, row, data, indent=None):
        """Write `data` from display row `row` on, continuing on the next rows,
        scrolling at the bottom; leaves the output position on the line after it.
        Returns the row the text starts on after scrolling. Typed text continues
        character by character; a listing (`indent` given) as wrap_listing says.
        The rows' other cells hold NULs, as the firmware leaves them after typed
        lines, listings and INPUT."""
        screen = self.screen
        if indent is None:
            chunks = [data[i:i + COLS] for i in range(0, len(data), COLS)] or [b""]
        else:
            chunks = wrap_listing(data, indent)
        while row + len(chunks) > ROWS and row > 0:
            screen.scroll()
            row -= 1
        first = row
        for chunk in chunks[-ROWS:]:
            screen.show_line(row, chunk, fill=NUL)
            row += 1
        screen.row = row - 1
        screen.end_line()
        return first

    def show_mode(self):
        screen = self.screen
        mode = self.state.mode
        screen.clear()
        screen.set_symbol("RUN", mode is Mode.RUN)
        screen.set_symbol("PRO", mode is Mode.PRO)
        screen.show_line(0, b"RUN MODE" if mode is Mode.RUN else b"PROGRAM MODE")
        screen.end_line()
        self.prompt()
        self.state.list_addr = None
        self.state.last_result = None

    def switch_mode(self):
        self.state.mode = self.state.mode.other()
        self.show_mode()

    def show_error(self, code, line, at, on_last=False):
        """`ERROR n` (`ERROR n IN line` for a program line at `at`: (line, offset));
        `on_last`: a typed line's error about the element read last (BasicError)."""
        st = self.state
        if at is not None:
            st.error_at = at        # PRO mode's UP/DOWN show the line, the cursor there
            st.error_on_last = on_last
        st.error_cur = None if line else self.error_column(on_last)
        st.error_lock = True
        st.error_list_from = None
        self.editor.state.line.clear()
        st.last_result = None
        if line:
            self.message(b"ERROR %d IN %d" % (code, line), fill=NUL)
        else:
            self.message(b"ERROR %d" % code)

    # ------------------------------------------------------------ listings

    def show_listing(self, addr):
        self.state.draw_work += self.listing.show(self.screen, addr)
        self.state.list_addr = addr
        self.editor.state.input_row = None

    def list_from(self, number):
        """LIST [number]: the listing from that line, `>` when there is none."""
        addr = self.interp.program.first_from(number)
        if addr is None:
            self.prompt()
        else:
            self.show_listing(addr)

    def list_last(self):
        """The listing from the program's last line."""
        addrs = [addr for _n, addr in self.interp.program.lines()]
        if addrs:
            self.show_listing(addrs[-1])

    def list_step(self, direction):
        """UP/DOWN after a listing: the listing from the line before/after the top
        one; False if there is none."""
        addr = self.listing.neighbour(self.state.list_addr, direction)
        if addr is None:
            return False
        self.show_listing(addr)
        return True

    # ------------------------------------------------------------ symbols

    def set_shift(self, on):
        self.state.shift = on
        self.screen.set_symbol("SHIFT", on)

    def set_sml(self, on):
        self.state.sml = on
        self.screen.set_symbol("SML", on)

    def set_def(self, on):
        self.state.def_key = on
        self.screen.set_symbol("DEF", on)

    def def_off(self):
        if self.state.def_key:
            self.set_def(False)

    def key_code(self, key):
        """The character `key` would type now (SHIFT and SML applied), or None."""
        st = self.state
        code = None
        if st.shift and key in SHIFTED:
            code = SHIFTED[key]
        elif key in CHARS:
            code = CHARS[key]
            if st.sml and 0x41 <= code <= 0x5A:
                code += 0x20
        return code

    def typed_code(self, key):
        """The character `key` types (key_code); SHIFT goes off."""
        code = self.key_code(key)
        if self.state.shift:
            self.set_shift(False)
        return code

    # ------------------------------------------------------------ a key typed

    def idle_key(self, key, code):
        """A key at the prompt or on a line being typed (`code`: what it types)."""
        st = self.state
        cleared, st.cleared = st.cleared, False
        if key == "CLS":
            st.list_addr = None
            st.last_result = None
            st.recalled = None          # LEFT/RIGHT bring nothing back after CLS (firmware)
            self.clear_prompt()
        elif key == "MODE":
            self.switch_mode()
        elif key in ("UP", "DOWN"):
            self._up_down(key, cleared)
        elif key == "ENTER":
            self.typed.enter()
        elif not (st.mode is Mode.PRO and st.list_addr is not None and self._edit_listed(key)
                  or st.mode is Mode.RUN and self.recall(key)):
            self._type(key, code)

    def _up_down(self, key, cleared):
        st = self.state
        edited = self.editor.state
        if st.mode is Mode.PRO:
            self._pro_up_down(key)
        elif st.list_addr is not None:
            self.list_step(-1 if key == "UP" else 1)
        elif key == "DOWN" and self.interp.stopped_at is not None:
            self.runtime.step_on()
        elif key == "UP" and not edited.line and \
                (self.interp.stopped_at is not None or st.error_at is not None):
            # after a stop, or while a program's error line is remembered (until RUN or
            # a stored line; through CLS, MODE and calculations), UP only clears
            self.clear_prompt()
        else:
            if cleared:
                # right after the CLEAR question the display clears first (firmware)
                self.screen.clear()
                edited.input_row = 0
            # the last answer (interp.ANSWER), typed as if by hand, CLS or not
            answer = bcd.format_number(bcd.from_bytes(self.mem[ANSWER:ANSWER_END]))
            for char in answer.replace(" ", "").encode("ascii"):
                self.editor.edit(None, char)
            st.list_addr = st.last_result = None
            self.editor.show_typing(full=True)

    def _pro_up_down(self, key):
        st = self.state
        edited = self.editor.state
        step = -1 if key == "UP" else 1
        if edited.edit_addr is not None:
            # leaving a listed line being edited: the listing from the line before/after,
            # or from the line itself at the program's start/end (firmware engine)
            st.list_addr, edited.edit_addr = edited.edit_addr, None
            edited.line.clear()
            if not self.list_step(step):
                self.show_listing(st.list_addr)
            return
        if edited.line:
            # a line being typed is dropped: UP/DOWN list as from an empty line
            edited.line.clear()
            st.list_addr = None
        if st.list_addr is not None:
            if not self.list_step(step):
                self.show_listing(st.list_addr)     # the firmware lists it again
        elif not self._show_error_line():
            # DOWN lists the program from its first line, UP from its last
            addrs = [addr for _n, addr in self.interp.program.lines()]
            if addrs:
                self.show_listing(addrs[0] if key == "DOWN" else addrs[-1])

    def _type(self, key, code):
        """A key that edits the line: a character, DEL, INS, LEFT, RIGHT."""
        st = self.state
        editor = self.editor
        edited = editor.state
        if code is not None and not edited.line and edited.input_row is None \
                and st.last_result is not None and code in CONTINUING:
            editor.set_line(st.last_result)
            if st.result_typed:
                # the firmware engine blanks the result's row in the text buffer
                # (spaces), though the display goes on showing it
                base = TEXT_BUFFER + self.screen.row * COLS
                self.mem[base:base + COLS] = b" " * COLS
        st.list_addr = None
        if editor.edit(key, code):
            st.last_result = None
            editor.show_typing(full=code is None and key in ("DEL", "INS"))
        elif editor.cursor() < len(edited.line):
            editor.show_typing()        # a key that changes nothing: the block goes on blinking

    # ------------------------------------------------------------ lines brought back

    def recall(self, key, cur=None):
        """LEFT/RIGHT on an empty line after ENTER: the last line again, the cursor at
        its end (LEFT), its start (RIGHT) or `cur`. True if done."""
        recalled = self.state.recalled
        edited = self.editor.state
        if recalled is None or edited.line or key not in ("LEFT", "RIGHT"):
            return False
        data = recalled.text
        row = max(0, recalled.row - (self.screen.scrolls - recalled.scrolls))  # where it is now
        if edited.input_row is not None:
            row = edited.input_row
        for r in range(row, ROWS):
            self.screen.clear_row(r, fill=NUL)
        edited.input_row = row
        if cur is None:
            cur = len(data) if key == "LEFT" else 0
        self.editor.set_line(data, min(cur, len(data)), recalled.units)
        self.editor.show_typing()
        return True

    def error_column(self, on_last=False):
        """Where in the typed line an immediate line's error was (as its listing
        counts characters); None if not known. `on_last`: the error is about the element
        read last, which the cursor goes on."""
        interp = self.interp
        if self.state.recalled is None or interp.line_addr is not None or interp.pos < INPUT_BUFFER:
            return None
        body = bytes(self.mem[INPUT_BUFFER:interp.pos])
        try:
            width = len(from_text(list_line(Line(1, body)))) - 2
            # an error about the element read last points at it, at its last character or
            # at the start of a keyword or line number (BasicError.on_last): an
            # assignment's value of the wrong type (`A$=12`: on the 2, `A$=PI` on the P),
            # a missing line (`RUN 500`, `GOTO 5*100`: on the last digit, `GOTO 500` on the
            # line number's first), CONT with nothing stopped (on CONT; firmware engine,
            # cases CALC_error_on_last_element ...)
            if width and on_last:
                unit = last_unit(body)
                return width - (len(unit) if unit else 1)
        except Exception:       # noqa: BLE001 - a cut token: no cursor position
            return None
        return width + ends_with_keyword(body)

    def _edit_listed(self, key):
        """PRO mode, a listing shown: RIGHT/LEFT edit its top line. True if done."""
        if key not in ("LEFT", "RIGHT") or self.editor.state.line:
            return False
        addr = self.state.list_addr
        number = self.mem[addr] << 8 | self.mem[addr + 1]
        self._edit_line(addr, len(str(number)) + 1)
        return True

    def _edit_line(self, addr, cur):
        """Line `addr` as it is edited (`10 A=1`) on the top row, the cursor at `cur`;
        the rows below keep the listing."""
        number = self.mem[addr] << 8 | self.mem[addr + 1]
        body = bytes(self.mem[addr + 3:addr + 2 + self.mem[addr + 2]])
        edited = self.editor.state
        edited.input_row = 0
        self.editor.set_line(b"", cur, units_of(body, number), numbered=True)
        self.state.list_addr = None
        edited.edit_addr = addr
        self.editor.show_typing()

    def _show_error_line(self):
        """PRO mode after a program error or stop: UP or DOWN lists from that line, which
        is edited with the cursor where the error was, or after a stop (STOP, BRK, MODE
        at a PRINT wait) on the last element read: STOP itself, PRINT's last item, the
        `1` of C=C+1 (firmware engine). True if done."""
        stop = self.interp.stopped_at       # (a stop comes after any error still noted)
        if stop is not None:
            pos, number, line_addr = stop
            offset = pos - line_addr - 3
        elif self.state.error_at is not None:
            number, offset = self.state.error_at
        else:
            return False
        program = self.interp.program
        try:
            addr = program.find(number)
        except BasicError:
            self.state.error_at = None
            return False
        body = bytes(self.mem[addr + 3:addr + 2 + self.mem[addr + 2]])
        if stop is not None:
            offset = last_element(body, offset)
        read = body[:max(0, offset)]
        cur = len(from_text(list_line(Line(number, read))))
        if stop is None and self.state.error_on_last and read:
            # on the element read last: its last character, a keyword's or a line
            # number's first (`B$=12`: on the 2, `GOTO 500` on the 5; firmware engine)
            unit = last_unit(read)
            cur -= len(unit) if unit else 1
        self.show_listing(addr)
        self._edit_line(addr, cur)
        return True

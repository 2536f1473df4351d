"""BuiltinEngine: the ROM-less engine behind the machine facade (docs/interfaces.md).

It has reset() and run(cycles) and works only through the machine's `mem` (program,
variables, display RAM, status symbols) and `keyboard.pressed` (read once per run()
call; a key acts when it goes down). What the user sees follows the firmware where
hardware.md §9 recorded it: the card question on a blank card, RUN MODE, `1+1` ENTER
giving `2.` right-aligned on the next line, `BREAK IN 10`, lines listed as
`10:PRINT "HI"`; the rest is assumed until compared with the firmware engine.
"""

import copy

from pc1360 import charset
from pc1360.errors import FormatError
from pc1360.listing import list_line
from pc1360.program import Line
from pc1360.tokenizer import tokenize_line

from . import bcd, font, output, statements  # noqa: F401  (registers the handlers)
from .errors import BasicError, SYNTAX
from .interp import STATEMENTS, Interpreter
from .keycodes import CHARS, SHIFTED, inkey_code
from .screen import COLS, ROWS, Screen

MAX_INPUT = 80              # the input buffer at 0xFD20 holds 80 characters
KEYWAIT_STROBE = 0x3F       # what the firmware writes to 0x3E00 while it waits for keys
STROBE_ADDR = 0x3E00
IDLE, QUESTION, RUNNING, ENTER_WAIT, DELAY, INPUT = range(6)
RUN_MODE, PRO_MODE = "RUN", "PRO"
# state() keeps these attributes of the engine, the interpreter and the screen.
ENGINE_STATE = ("state", "mode", "line", "shown", "shift", "sml", "def_key", "prev_keys",
                "delay_left", "input_items", "input_prompt", "input_keep", "clock",
                "list_addr")
INTERP_STATE = ("pos", "line", "line_addr", "for_stack", "gosub_stack", "data_pos",
                "running", "pending", "jumped", "stopped_at", "angle", "wait", "using",
                "cursor", "gcursor", "line_end", "trace", "aread")
SCREEN_STATE = ("row", "col", "scroll_due")


def to_text(data):
    """Typed machine codes as tokenizer text (a code with no character as \\xHH)."""
    return "".join(charset.TO_TEXT.get(c, f"\\x{c:02X}") if c != 0x5C else "¥" for c in data)


def from_text(text):
    """Lister text as machine codes for the display."""
    return bytes(charset.code_of(c) or 0x3F for c in text)


def tokenize_body(data):
    """Tokenize an immediate line (no line number) as PRO mode would store it."""
    if not data.strip(b" "):
        return b""
    try:
        return tokenize_line("1 " + to_text(data)).body
    except FormatError:
        raise BasicError(SYNTAX) from None


class BuiltinEngine:
    name = "builtin"

    def __init__(self, machine):
        self.machine = machine
        self.mem = machine.mem
        self.screen = Screen(self.mem)
        self.interp = Interpreter(self.mem, self.screen, self)
        self.clock = 0
        lcd = getattr(machine, "lcd", None)
        if lcd is not None:
            lcd.set_font({code: font.GLYPHS[code] for code in range(0x20, 0x100)})
        self.reset()

    # ------------------------------------------------------------ engine interface

    def reset(self):
        """Power on / RESET: a valid card goes to RUN mode, a blank one gets the
        CLEAR question. Memory is kept."""
        self.state = IDLE
        self.mode = RUN_MODE
        self.line = bytearray()        # the line being typed
        self.shown = False             # a result/listing is on screen: a key clears it
        self.shift = self.sml = self.def_key = False
        self.prev_keys = frozenset(self.machine.keyboard.pressed)
        self.delay_left = 0
        self.input_items = []
        self.input_prompt = b""
        self.input_keep = True
        self.list_addr = None
        self.interp.clear_run_state()
        self._display_on()
        self.screen.clear()
        self.mem[0x303C] = 0
        if self.interp.program.is_valid():
            self._show_mode()
        else:
            self.state = QUESTION
            self.screen.show_line(0, b'MEM$ = "C"')
            self.screen.show_line(1, b"RAM CARD S1 CLEAR O.K. ?")

    def run(self, cycles):
        self._poll_keys()
        used = 0
        while used < cycles:
            state = self.state
            if state == RUNNING:
                used += self._execute(cycles - used)
            elif state == DELAY:
                step = min(self.delay_left, cycles - used)
                self.delay_left -= step
                used += step
                if self.delay_left <= 0:
                    self.state = RUNNING
            else:
                self._signal_key_wait()
                used = cycles
        self.clock += used
        return used

    def write_floor_changed(self):
        """The firmware engine's CPU needs this; the built-in engine writes mem directly."""

    def state(self):
        interp, screen = self.interp, self.screen
        return copy.deepcopy((tuple(getattr(self, n) for n in ENGINE_STATE),
                              tuple(getattr(interp, n) for n in INTERP_STATE),
                              tuple(getattr(screen, n) for n in SCREEN_STATE)))

    def set_state(self, state):
        mine, interp, screen = copy.deepcopy(state)
        for target, names, values in ((self, ENGINE_STATE, mine),
                                      (self.interp, INTERP_STATE, interp),
                                      (self.screen, SCREEN_STATE, screen)):
            for name, value in zip(names, values):
                setattr(target, name, value)
        self.interp.vars.invalidate()
        self.interp.program.changed()

    # ------------------------------------------------------------ host hooks

    def inkey(self):
        """INKEY$: the one key held now (nothing when none or several are held)."""
        pressed = self.machine.keyboard.pressed
        if len(pressed) != 1:
            return None
        return inkey_code(next(iter(pressed)))

    def now(self):
        return self.clock

    def poke(self, addr, value):
        poke = getattr(self.machine, "poke", None)
        if poke is not None:
            poke(addr, value)
        else:
            self.mem[addr] = value

    # ------------------------------------------------------------ machine glue

    def _display_on(self):
        bus = getattr(self.machine, "bus", None)
        if bus is not None:
            bus.control |= 1
        lcd = getattr(self.machine, "lcd", None)
        if lcd is not None and not getattr(self.machine, "off", False):
            lcd.enabled = True

    def _signal_key_wait(self):
        """Tell the machine's key driver that keys are read now, as the firmware's
        key-wait loop does with its 0x3F strobe."""
        bus = getattr(self.machine, "bus", None)
        if bus is not None:
            bus.write(STROBE_ADDR, KEYWAIT_STROBE)

    def _card_start(self):
        return 0x10000 - getattr(self.machine, "card_kb", 32) * 1024

    # ------------------------------------------------------------ keys

    def _poll_keys(self):
        pressed = frozenset(self.machine.keyboard.pressed)
        new = sorted(pressed - self.prev_keys)
        self.prev_keys = pressed
        for key in new:
            self._key(key)

    def _key(self, key):
        if key == "BRK":
            if self.state in (RUNNING, DELAY, ENTER_WAIT, INPUT):
                self._stop_with(b"BREAK", keep_position=True)
            return
        if self.state == QUESTION:
            if key == "Y":
                self.interp.program.init_card(self._card_start())
                self.state = IDLE
                self._show_mode()
            return
        if self.state in (RUNNING, DELAY):
            return
        if key == "SHIFT":
            self.shift = not self.shift
            self.screen.set_symbol("SHIFT", self.shift)
            return
        if key == "SML":
            self.sml = not self.sml
            self.screen.set_symbol("SML", self.sml)
            return
        if self.state == ENTER_WAIT:
            if key == "ENTER":
                self.state = RUNNING
            return
        if key == "DEF" and self.state == IDLE:
            self.def_key = True
            self.screen.set_symbol("DEF", True)
            return
        code = self._typed_code(key)
        if self.def_key:
            self.def_key = False
            self.screen.set_symbol("DEF", False)
            if code is not None and 0x41 <= code <= 0x5A:
                self._def_start(code)
                return
        if self.state == INPUT:
            self._input_key(key, code)
        else:
            self._idle_key(key, code)

    def _typed_code(self, key):
        code = None
        if self.shift and key in SHIFTED:
            code = SHIFTED[key]
        elif key in CHARS:
            code = CHARS[key]
            if self.sml and 0x41 <= code <= 0x5A:
                code += 0x20
        if self.shift and key not in ("SHIFT",):
            self.shift = False
            self.screen.set_symbol("SHIFT", False)
        return code

    def _edit(self, key, code):
        """Shared line editing; True if the key changed the line."""
        line = self.line
        if code is not None:
            if len(line) < MAX_INPUT:
                line.append(code)
            return True
        if key == "DEL" and line:
            line.pop()
            return True
        if key == "CLS":
            line.clear()
            return True
        return False

    def _idle_key(self, key, code):
        if key == "MODE":
            self.mode = PRO_MODE if self.mode == RUN_MODE else RUN_MODE
            self.line.clear()
            self._show_mode()
            return
        if self.list_addr is not None and key in ("UP", "DOWN"):
            self._list_step(-1 if key == "UP" else 1)
            return
        if key == "ENTER":
            self._enter()
            return
        if self.shown and (code is not None or key == "CLS"):
            self.shown = False
            self.list_addr = None
            self.line.clear()
        if self._edit(key, code):
            self._show_typing()

    def _show_typing(self):
        self.screen.clear()
        data = bytes(self.line)[-ROWS * COLS:]
        for row in range(0, len(data), COLS):
            self.screen.write(row // COLS, 0, data[row:row + COLS])

    def _show_mode(self):
        self.screen.clear()
        self.screen.set_symbol("RUN", self.mode == RUN_MODE)
        self.screen.set_symbol("PRO", self.mode == PRO_MODE)
        self.screen.show_line(0, b"RUN MODE" if self.mode == RUN_MODE else b"PROGRAM MODE")
        self.screen.show_line(1, b">")
        self.shown = True
        self.list_addr = None

    # ------------------------------------------------------------ ENTER

    def _enter(self):
        data = bytes(self.line)
        self.shown = True
        if not data.strip(b" "):
            return
        rows = (len(data) + COLS - 1) // COLS
        self.screen.row, self.screen.col = min(rows, ROWS - 1), 0
        self.screen.scroll_due = rows >= ROWS
        try:
            if self.mode == PRO_MODE and data.lstrip(b" ")[:1].isdigit():
                self._store_line(data)
                return
            body = tokenize_body(data)
            self._run_immediate(body)
        except BasicError as err:
            self._show_error(err.code, 0)

    def _store_line(self, data):
        try:
            line = tokenize_line(to_text(data))
        except FormatError:
            text = data.lstrip(b" ")
            digits = len(text) - len(text.lstrip(b"0123456789"))
            if not text[digits:].strip(b" :"):
                self.interp.program.store(int(text[:digits]), b"")   # `10` ENTER deletes
                self.line.clear()
                self.screen.clear()
                return
            raise BasicError(SYNTAX) from None
        self.interp.program.store(line.number, line.body)
        self._show_listing(self.interp.program.find(line.number))

    def _run_immediate(self, body):
        """RUN mode: an expression shows its value on the next line, right-aligned
        for a number; anything else runs as a statement line."""
        interp = self.interp
        interp.start_immediate(body)
        value = self._calculator_value()
        if value is not None:
            interp.finish()
            text = value if isinstance(value, bytes) else bcd.format_number(value).encode()
            self.screen.begin_line()
            self.screen.show_line(self.screen.row, text, right=not isinstance(value, bytes))
            return
        interp.start_immediate(body)
        self.state = RUNNING

    def _calculator_value(self):
        """The value of the line if it is one expression (not a statement or an
        assignment), else None."""
        interp = self.interp
        first = interp.peek()
        if first == 0xFE and interp.mem[interp.pos + 1] in _STATEMENT_CODES:
            return None
        if 0x41 <= first <= 0x5A:
            try:
                interp.variable(create=False)
                if interp.peek() == 0x3D:
                    return None
            except BasicError:
                pass
            interp.pos = 0xFD20
        value = interp.expression()
        if interp.peek() != 0x0D:
            raise BasicError(SYNTAX)
        return value

    def _def_start(self, letter):
        """DEF + letter: run from the line labelled with that letter."""
        interp = self.interp
        interp.aread = bytes(self.line)
        try:
            addr = interp.program.find_label(bytes([letter]))
        except BasicError as err:
            self._show_error(err.code, 0)
            return
        self.line.clear()
        self.screen.clear()
        interp.vars.clear()
        interp.start_program(addr)
        self.state = RUNNING

    # ------------------------------------------------------------ running

    def _execute(self, budget):
        interp = self.interp
        try:
            used = interp.execute(budget)
        except BasicError as err:
            self._show_error(err.code, interp.line)
            return budget
        pending = interp.pending
        if pending is not None:
            interp.pending = None
            self._serve(pending)
        elif not interp.running:
            self.state = IDLE
            self.shown = True
        return max(used, 1)

    def _serve(self, pending):
        kind = pending[0]
        if kind == "enter":
            self.state = ENTER_WAIT
        elif kind == "delay":
            self.delay_left = pending[1]
            self.state = DELAY
        elif kind == "beep":
            self.delay_left = pending[4]
            self.state = DELAY
        elif kind == "input":
            self.input_items = list(pending[1])
            self._ask()
        elif kind == "stop":
            self._stop_with(b"BREAK", keep_position=False)
        elif kind == "list":
            self._list(pending[1])

    def _stop_with(self, word, keep_position):
        """BRK or STOP: `BREAK IN line` (`BREAK` for an immediate line); CONT goes on."""
        interp = self.interp
        if keep_position and interp.line_addr is not None:
            interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
        text = word + (b" IN %d" % interp.line if interp.line_addr is not None else b"")
        interp.running = False
        interp.pending = None
        self.state = IDLE
        self._message(text)

    def _show_error(self, code, line):
        self.interp.running = False
        self.interp.pending = None
        self.state = IDLE
        self._message(b"ERROR %d IN %d" % (code, line) if line else b"ERROR %d" % code)

    def _message(self, text):
        screen = self.screen
        screen.begin_line()
        screen.show_line(screen.row, text)
        screen.advance()
        self.shown = True
        self.line.clear()

    # ------------------------------------------------------------ INPUT

    def _ask(self):
        """Show the prompt of the next INPUT item and start a fresh line."""
        prompt, keep, _ref = self.input_items[0]
        self.input_prompt = b"?" if prompt is None else prompt
        self.line.clear()
        self.state = INPUT
        self.input_keep = keep
        screen = self.screen
        screen.begin_line()
        screen.show_line(screen.row, self.input_prompt)

    def _input_key(self, key, code):
        if key == "ENTER":
            self._input_done()
            return
        if self._edit(key, code):
            prompt = self.input_prompt if self.input_keep else b""
            self.screen.show_line(self.screen.row, (prompt + bytes(self.line))[-COLS:])

    def _input_done(self):
        interp = self.interp
        _prompt, _keep, ref = self.input_items.pop(0)
        self.screen.advance()
        data = bytes(self.line)
        self.line.clear()
        if not data:
            # ENTER alone keeps the variable and goes on with the next line (assumed)
            self.input_items = []
            interp.skip_line()
            self.state = RUNNING
            return
        try:
            if ref[2] == 0:
                value = bcd.parse_number(data.decode("latin-1").strip())
                if value is None:
                    raise BasicError(SYNTAX)
            else:
                value = data
            interp.vars.store(ref, value)
        except BasicError as err:
            self._show_error(err.code, interp.line)
            return
        if self.input_items:
            self._ask()
        else:
            self.state = RUNNING

    # ------------------------------------------------------------ LIST

    def _list(self, number):
        program = self.interp.program
        addr = program.first_from(number)
        if addr is None:
            self.state = IDLE
            self.shown = True
            return
        self._show_listing(addr)
        self.state = IDLE

    def _show_listing(self, addr):
        mem = self.mem
        number = mem[addr] << 8 | mem[addr + 1]
        body = bytes(mem[addr + 3:addr + 2 + mem[addr + 2]])
        text = from_text(list_line(Line(number, body)))
        self.screen.clear()
        for row in range(min(ROWS, (len(text) + COLS - 1) // COLS)):
            self.screen.write(row, 0, text[row * COLS:(row + 1) * COLS])
        self.list_addr = addr
        self.shown = True
        self.line.clear()

    def _list_step(self, direction):
        addrs = [addr for _n, addr in self.interp.program.lines()]
        if self.list_addr in addrs:
            index = addrs.index(self.list_addr) + direction
            if 0 <= index < len(addrs):
                self._show_listing(addrs[index])


_STATEMENT_CODES = frozenset(STATEMENTS)

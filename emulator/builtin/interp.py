"""The statement loop: runs tokenized lines in RAM one statement at a time.

Execution state that the machine keeps in RAM lives in RAM (program, variables,
screen, random seed); the control stacks (FOR, GOSUB) and the engine's waits are
the interpreter's RunState (run_state.py). Each keyword's handler and cycles come
from the statement table (statement_table.py), built when the interpreter is; each
statement runs as a step compiled once per address (steps.py).

A statement that needs the outside world (wait for ENTER after PRINT, a timed
pause, INPUT) leaves a request in `pending` and the engine serves it before the
next statement runs.
"""

import copy
from dataclasses import fields
from decimal import Decimal
from operator import attrgetter

from emulator.builtin import bcd, costs, nodes, random_numbers
from emulator.builtin.basic_errors import LINE, NESTING, SYNTAX, BasicError
from emulator.builtin.expr import CACHE_LIMIT, compile_at
from emulator.builtin.nodes import to_int
from emulator.builtin.run_state import (  # noqa: F401  (FORLoop: the engine imports it from here)
    ANSWER,
    ANSWER_END,
    FORLoop,
    Return,
    RunState,
)
from emulator.builtin.scanner import STATEMENT_END, STRING_END, Scanner
from emulator.builtin.screen import ROWS
from emulator.builtin.statement_table import statement_table
from emulator.builtin.statements import stmt_return
from emulator.builtin.steps import compile_step
from emulator.builtin.stored_program import Program
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES
from emulator.builtin.vars import NUM, Variables
from pc1360.facts import (
    CR,
    END_MARK,
    END_PTR,
    INPUT_BUFFER,
    LINE_POINTER,
    LINE_REF,
    MAX_LINE,
    PREFIX,
    QUOTE,
)

# each unit (a keyword or a character) of a line the firmware steps over: REM's and a
# false IF's rest of the line, each line READ's search for DATA passes
LINE_SCAN_UNIT = CYCLES["line_scan_unit"]
# READ's search: each line passed besides its units, and the step from a DATA line
# whose items are used up to the next line
DATA_LINE_PASSED = CYCLES["data_line_passed"]
DATA_NEXT_LINE = CYCLES["data_next_line"]
_DATA = CODES["DATA"]
TRACE_CYCLES = CYCLES["trace"]      # TRON's `line:` (and DOWN's stepping) ...
TRACE_SCROLL_CYCLES = CYCLES["trace_scroll"]    # ... and its scrolling on the bottom line
FOR_LIMIT = 5               # nesting limits (docs/basic_language.md §3.3)
GOSUB_LIMIT = 10


class Interpreter(Scanner):
    """Runs statements against `mem`, `screen` (screen.Screen) and `host` (the engine:
    inkey(), now(), poke(addr, value)). Its run state is `state` (a RunState); each
    of its fields reads and writes as an attribute of the interpreter too."""

    def __init__(self, mem, screen, host):
        self.mem = mem
        self.screen = screen
        self.host = host
        self.vars = Variables(mem)
        self.program = Program(mem)
        self.program.current_line = lambda: self.state.line_addr
        self.statements = statement_table()     # keyword code -> Statement
        # compiled expressions (expr.compile_at) by address: values, and variable
        # references that are made (True) or only looked up (False)
        self.compiled = {None: {}, True: {}, False: {}}
        self.steps = {}             # compiled steps (steps.Step) by address
        self.state = RunState()
        self.cost = 0               # cycles the current statement's expressions took
        self.stmt_end = None        # a jumping statement's last byte (LINE_POINTER)

    def clear_run_state(self):
        self.state = self.state.for_new_run()
        self.cost = 0
        self.stmt_end = None

    def save_state(self):
        """A copy of the run state (RunState)."""
        return copy.deepcopy(self.state)

    def load_state(self, state):
        """Go on from a save_state()."""
        self.state = copy.deepcopy(state)
        self.vars.invalidate()
        self.program.changed()

    # ------------------------------------------------------------ expressions

    def refuse(self):
        raise BasicError(SYNTAX)

    def _compiled(self, reference):
        return self.compiled_at(self.state.pos, reference)

    def compiled_at(self, pos, reference):
        """The compiled expression (or reference) at `pos`, parsed again if its bytes
        changed."""
        cache = self.compiled[reference]
        entry = cache.get(pos)
        if entry is None or self.mem[pos:entry.check_end] != entry.code:
            if len(cache) > CACHE_LIMIT:
                cache.clear()
            entry = cache[pos] = compile_at(self, pos, reference)
        return entry

    def expression(self):
        """The value of the expression at pos, which moves past it; its cycles are
        added to `cost`."""
        entry = self._compiled(None)
        value = entry.run()
        self.cost += entry.cost     # (after: an expression that fails takes no time)
        self.state.pos = entry.end
        return value

    def variable(self, create):
        """The storage reference of the variable at pos (name, `$`, subscripts);
        None for a two-character variable that does not exist when not `create`."""
        entry = self._compiled(create)
        self.cost += entry.cost
        ref = entry.run()
        self.state.pos = entry.end
        return ref

    # A statement's argument of the wrong kind (ERROR 9) or out of its range (ERROR 3) is
    # an error about the element read last: the cursor goes on the argument's last
    # element (`WAIT A$` on the $, `WAIT 99999` on the last 9; firmware engine, case
    # CALC_error_on_last_element).

    def number(self):
        return self._checked(nodes.number, self.expression())

    def string(self):
        return self._checked(nodes.string, self.expression())

    def integer(self, low=-32768, high=65535):
        return self._checked(to_int, self.number(), low, high)

    @staticmethod
    def _checked(check, value, *limits):
        try:
            return check(value, *limits)
        except BasicError as error:
            error.on_last = True
            raise

    # ------------------------------------------------------------ functions that
    # need the machine (expr.py compiles calls of them)

    def inkey_string(self):
        code = self.host.inkey()
        return b"" if code is None else bytes([code])

    def free_memory(self):
        return Decimal(self.vars.free_bytes())

    def peek_byte(self, value):
        addr = to_int(value, 0, 65535)
        sync = getattr(self.host, "sync_mirrors", None)
        if sync is not None and 0x8000 <= addr:
            sync()                  # a small card's copies agree (engine.sync_mirrors)
        return Decimal(self.mem[addr])

    def point(self, x, y):
        x, y = to_int(x), to_int(y)
        if not (0 <= x < 150 and 0 <= y < 32):
            return Decimal(-1)                      # off the screen, as the firmware
        return Decimal(self.screen.dot(x, y))

    def rnd(self, limit):
        return random_numbers.rnd(self.mem, limit)

    # ------------------------------------------------------------ starting

    def start_immediate(self, body):
        """Run a tokenized immediate line (without its 0x0D) from the input buffer."""
        buffer = INPUT_BUFFER
        data = bytes(body[:79]) + b"\x0d"
        self.mem[buffer:buffer + len(data)] = data
        state = self.state
        state.pending = None
        state.line = 0
        state.line_addr = None
        state.pos = buffer
        state.running = True

    def evaluate(self, body):
        """The number a tokenized expression gives (INPUT's typed answer), without
        disturbing the statement being run; text after the number is ignored."""
        state = self.state
        saved = state.pos
        data = bytes(body[:79]) + b"\x0d"
        self.mem[INPUT_BUFFER:INPUT_BUFFER + len(data)] = data
        state.pos = INPUT_BUFFER
        try:
            return self.number()
        finally:
            state.pos = saved

    def start_program(self, addr=None, forget_wait=True):
        """RUN: clear the stacks and run from line address `addr` (default: first).
        PRINT waits for ENTER again until a WAIT (the firmware engine forgets WAIT 0
        from one RUN to the next; a start from a label with DEF keeps it:
        DEF_keeps_wait)."""
        self.clear_run_state()
        if forget_wait:
            self.state.wait = None
        self.state.running = True
        self.enter_line(self.program.start + 1 if addr is None else addr)

    def enter_line(self, addr):
        """Continue at the line record at `addr`; the program's end mark ends the run."""
        mem = self.mem
        if addr is None or addr >= (mem[END_PTR] | mem[END_PTR + 1] << 8) or mem[addr] == END_MARK:
            self.finish()
            return
        state = self.state
        state.line = mem[addr] << 8 | mem[addr + 1]
        state.line_addr = addr
        state.pos = addr + 3
        if mem[addr + 3] == QUOTE:           # a label is not a statement
            self.string_literal()
            self.accept(0x3A)
        state.jumped = True

    def finish(self):
        self.state.running = False
        self.state.pos = 0

    # ------------------------------------------------------------ the loop

    def execute(self, budget):
        """Run statements until `budget` cycles are used, the run ends, or a statement
        leaves a request in `pending`; returns the cycles used. Errors propagate as
        BasicError with `line` telling where. Each step is compiled once per address
        (steps.py) and run again while its bytes stay the same."""
        used = 0
        mem = self.mem
        steps = self.steps
        state = self.state
        try:
            while used < budget and state.running and state.pending is None:
                pos = state.pos
                step = steps.get(pos)
                if step is None or mem[pos:step.check_end] != step.code:
                    if len(steps) > CACHE_LIMIT:
                        steps.clear()
                    step = steps[pos] = compile_step(self, pos)
                used += step.run()
                state = self.state      # (RUN starts from a new one)
        except BasicError as err:
            err.used = used + self.cost     # the statements before it and its own
            # expressions so far took their time
            raise
        return used

    def finish_step(self, cost):
        """A statement's end: it must stop at ':' or the line's end unless it jumped;
        LINE_POINTER gets its last byte. Returns its cycles, `cost` plus what its
        expressions took."""
        state = self.state
        end = self.stmt_end
        if not state.jumped:
            if state.running and not self.at_end():
                raise BasicError(SYNTAX)
            if end is None and state.pos:
                end = state.pos - 1
        if end is not None and state.line_addr is not None:
            mem = self.mem
            mem[LINE_POINTER] = end & 0xFF
            mem[LINE_POINTER + 1] = end >> 8
        return cost + self.cost

    def trace_jump(self, entry, old_line):
        """TRON (and DOWN's stepping) stop when a jump leaves a line, showing its
        number; a RETURN to the end of a line goes on to the next line unseen (as
        the firmware engine shows)."""
        returned = entry.handler is stmt_return
        if returned and self.line_addr is not None and self.peek() == CR:
            self.skip_trace = True
        if (self.jumped or returned) and old_line and self.running and self.pending is None:
            self.pending = ("trace", old_line)
            self.cost += self.trace_cost()

    def trace_cost(self):
        """The cycles of a trace line's `line:` (it scrolls from the bottom line)."""
        extra, self.trace_extra = self.trace_extra, 0
        return TRACE_CYCLES + extra + (TRACE_SCROLL_CYCLES if self.screen.row == ROWS - 1 else 0)

    def mark_statement_end(self):
        """A jump leaves its statement: LINE_POINTER gets the statement's last byte."""
        state = self.state
        if state.line_addr is not None:
            self.stmt_end = state.pos - 1

    def store_value(self, ref, value):
        """Assignment and READ: a number stored also becomes the last answer."""
        if ref[2] == NUM:
            # (vars.store of a number writes these 8 bytes too)
            data = bcd.to_bytes(value)
            mem = self.mem
            addr = ref[0]
            mem[addr:addr + 8] = mem[ANSWER:ANSWER_END] = data
            return
        self.vars.store(ref, value)

    # ------------------------------------------------------------ jumps

    def target(self):
        """A jump target: a compiled `0x1F hi lo`, a "label" or a line expression.
        Returns ('line', n) or ('label', bytes) without looking it up."""
        if self.peek() == LINE_REF:
            mem = self.mem
            state = self.state
            pos = state.pos
            state.pos = pos + 3
            return ("line", mem[pos + 1] << 8 | mem[pos + 2])
        # a label may be any string expression: `GOTO "Y"+""` (firmware engine)
        value = self.expression()
        if isinstance(value, bytes):
            return ("label", value)
        if not 1 <= value <= MAX_LINE:
            raise BasicError(LINE, on_last=True)
        return ("line", int(value))

    def resolve(self, target):
        kind, value = target
        if kind == "line":
            return self.program.find(value)
        return self.program.find_label(value)

    def jump(self, target, per_line=costs.LINE_SEARCH, line_end=False):
        """Go to `target`, charging the time the firmware's line search takes to get
        there. With `line_end` the target must end the line (GOTO, IF ... THEN n):
        ERROR 1 otherwise, found after a missing line's ERROR 4 (firmware engine)."""
        kind, value = target
        state = self.state
        if kind == "line":
            addr, passed = self.program.locate(value, state.line)
            self.cost += passed * per_line
        else:
            # a label is searched for from the first line, each labelled line compared
            addr, labelled = self.program.label_search(value)
            if addr is None:
                self.cost += labelled * costs.LABEL_MISS_LINE
                raise BasicError(LINE, on_last=True)
            number = self.mem[addr] << 8 | self.mem[addr + 1]
            self.cost += self.program.lines_passed(number, 0) * per_line + \
                labelled * costs.LABEL_LINE
        if line_end and self.peek() != CR:
            raise BasicError(SYNTAX)
        self.mark_statement_end()
        self.enter_line(addr)

    def push_return(self):
        state = self.state
        if len(state.gosub_stack) >= GOSUB_LIMIT:
            raise BasicError(NESTING)
        state.gosub_stack.append(Return(state.pos, state.line, state.line_addr))

    def skip_line(self):
        """Go to the end of the current line (REM, a false IF), taking the time the
        firmware takes to step over each unit of what is skipped (LINE_SCAN_UNIT)."""
        state = self.state
        mem = self.mem
        line_addr = state.line_addr
        if line_addr is not None:
            end = line_addr + 2 + mem[line_addr + 2]
        else:
            end = state.pos
            while mem[end] != CR:
                end += 1
        self.cost += LINE_SCAN_UNIT * _units(mem[state.pos:end])
        state.pos = end

    def skip_statement(self):
        """Go to the next ':' or the end of the line, stepping over strings, keyword
        tokens and compiled line numbers (DATA, the unused part of ON ... GOTO).

        Not token_walk.walk: it runs in RAM from any position, often (READ looks for
        DATA with it), steps over 0xFE with any code, and reads REM text like code (a
        DATA after `REM A:` is found)."""
        mem = self.mem
        pos = self.pos
        while True:
            byte = mem[pos]
            if byte in STATEMENT_END:
                break
            if byte == QUOTE:
                pos += 1
                while mem[pos] not in STRING_END:
                    pos += 1
                if mem[pos] == QUOTE:
                    pos += 1
            elif byte == LINE_REF:
                pos += 3
            elif byte == PREFIX:
                pos += 2
            else:
                pos += 1
        self.pos = pos

    # ------------------------------------------------------------ FOR / NEXT

    def push_for(self, loop):
        """A FOR goes on the stack even when its variable is there already: leaving
        a loop by GOTO and entering it again six times is ERROR 5 on the firmware."""
        stack = self.for_stack
        if len(stack) >= FOR_LIMIT:
            raise BasicError(NESTING)
        stack.append(loop)

    # ------------------------------------------------------------ DATA

    def next_data_item(self):
        """Position `self.data_pos` on the next DATA item; ERROR 5 when none is left (as
        the firmware engine reports it). Only a line whose first statement is DATA holds
        items, and they end at its first `:`: `A=1:DATA 5` and the second DATA of
        `DATA 5:DATA 6` are never read (firmware engine, case READ_data_starts_line).
        The search takes time for each line it passes (as measured there)."""
        mem = self.mem
        pos = self.data_pos
        if pos is not None:
            if mem[pos] == 0x2C:
                self.data_pos = pos + 1
                return
            if mem[pos] == PREFIX and mem[pos + 1] == _DATA:    # RESTORE n's DATA line
                self.data_pos = pos + 2
                return
            if mem[pos] in (0x3A, CR):
                self.cost += DATA_NEXT_LINE         # a DATA line's items are used up
            else:
                self.cost += _passed_line_cost(mem, pos - 3)    # RESTORE n's other line
        for _number, addr in self.program.lines():
            if pos is not None and addr <= pos:
                continue
            if mem[addr + 3] == PREFIX and mem[addr + 4] == _DATA:
                self.data_pos = addr + 5
                return
            self.cost += _passed_line_cost(mem, addr)
        raise BasicError(NESTING)


def _state_field(name):
    """An interpreter attribute that is the `name` field of its state."""
    def set_field(interp, value):
        setattr(interp.state, name, value)
    return property(attrgetter("state." + name), set_field)


for _field in fields(RunState):
    setattr(Interpreter, _field.name, _state_field(_field.name))


def _passed_line_cost(mem, addr):
    """The time READ's search takes to pass the line at `addr`: a figure for the line
    and one for each unit of its body (without its CR)."""
    return DATA_LINE_PASSED + LINE_SCAN_UNIT * _units(mem[addr + 3:addr + 2 + mem[addr + 2]])


def _units(data):
    """The units of a stretch of a stored line: a keyword's two bytes are one."""
    return len(data) - data.count(PREFIX)

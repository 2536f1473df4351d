"""The statement loop: runs tokenized lines in RAM one statement at a time.

Execution state that the machine keeps in RAM lives in RAM (program, variables,
screen, random seed); the control stacks (FOR, GOSUB) and the engine's waits are
Python state here. Statements are registered once, by keyword name, in STATEMENTS.

A statement that needs the outside world (wait for ENTER after PRINT, a timed
pause, INPUT) leaves a request in `pending` and the engine serves it before the
next statement runs.
"""

import copy
from collections import namedtuple
from dataclasses import dataclass, field, fields
from decimal import ROUND_HALF_UP, Context, Decimal

from emulator.builtin import bcd, costs
from emulator.builtin.basic_errors import LINE, NESTING, OTHER, SYNTAX, BasicError
from emulator.builtin.expr import CACHE_LIMIT, Scanner, compile_at
from emulator.builtin.nodes import to_int
from emulator.builtin.screen import ROWS
from emulator.builtin.stored_program import END_PTR, Program
from emulator.builtin.token_codes import CODES, LINE_REF, PREFIX
from emulator.builtin.vars import Variables

Statement = namedtuple("Statement", "handler cost")
STATEMENTS = {}             # keyword code -> Statement
LET_COST = 3350             # cycles of an assignment besides its expression (costs.py)
LINE_COST = 64              # cycles a step onto the next line takes more than a ':'
                            # (statement costs include their ':'; firmware engine)
# From the program's last statement to the prompt's key wait when it runs off its end:
# 29,000 cycles after PRINT "X" shows, 35,000 after A=1 on the firmware engine.
PROGRAM_END_COST = 24_500
# TRON's `line:` (and DOWN's stepping) takes the firmware engine 17,000 cycles, and
# 16,000 more when it scrolls the display (on the bottom line after RUN: 29,000).
TRACE_CYCLES = 17_000
TRACE_SCROLL_CYCLES = 16_000
INPUT_BUFFER = 0xFD20       # the 80-byte line buffer; immediate lines run from here
RANDOM_SEED = 0xFDE0        # the ROM's random seed (hardware.md §4); our generator's state
# The last answer (8 bytes, stored form), which RUN mode's UP/DOWN type. Found on the
# firmware engine: a typed calculation, a numeric assignment (array elements too) and
# PRINT's or PAUSE's first number after its last `,` write it; FOR, NEXT, IF, INPUT,
# LPRINT and strings do not. (READ writes it too there; stmt_read does not yet.)
ANSWER = 0xFDE8
ANSWER_END = ANSWER + 8
# The ROM's pointer into the program line being run (little-endian): after each program
# statement it holds the address of the statement's last byte (the one before its ':' or
# CR; a false IF: the byte before the line's CR). Found on the firmware engine: jumps
# (GOTO, GOSUB, RETURN, ON, NEXT, THEN n) store the end of their own text, END and a true
# IF store nothing, immediate lines leave it alone.
LINE_POINTER = 0xFEF2
FOR_LIMIT = 5               # nesting limits (basic_language.md §1.1)
GOSUB_LIMIT = 10
FORLoop = namedtuple("FORLoop", "ref limit step pos line line_addr")
Return = namedtuple("Return", "pos line line_addr")
_TEN_DIGITS = Context(prec=10, rounding=ROUND_HALF_UP)  # RND's fraction
RND_NEGATIVE_FACTOR = Decimal("0.434294481903")


def statement(name, cost=3000):
    """Register a handler for keyword `name`; `cost` is its time in CPU cycles
    (estimates until they are calibrated against the firmware engine)."""
    def register(handler):
        STATEMENTS[CODES[name]] = Statement(handler, cost)
        return handler
    return register


@dataclass
class RunState:
    """What the interpreter knows of a run between two run() calls: the snapshot and
    the power-off state are made of this (engine.py)."""
    pos: int = 0
    line: int = 0
    line_addr: int | None = None
    for_stack: list = field(default_factory=list)       # [FORLoop]
    gosub_stack: list = field(default_factory=list)     # [Return]
    data_pos: int | None = None
    running: bool = False
    pending: tuple | None = None
    jumped: bool = False
    stopped_at: tuple | None = None                     # (pos, line, line_addr)
    angle: str = bcd.DEG
    wait: int | None = None
    using: tuple | None = None
    cursor: tuple | None = None
    gcursor: tuple = (0, 7)
    line_end: tuple = (0, 0)
    trace: bool = False
    aread: bytes = b""
    resume_input: list | None = None
    stepping: bool = False
    skip_trace: bool = False
    trace_extra: int = 0


class Interpreter(Scanner):
    """Runs statements against `mem`, `screen` (screen.Screen) and `host` (the engine:
    inkey(), now(), poke(addr, value))."""

    def __init__(self, mem, screen, host):
        self.mem = mem
        self.screen = screen
        self.host = host
        self.vars = Variables(mem)
        self.program = Program(mem)
        self.program.current_line = lambda: self.line_addr
        self.angle = bcd.DEG
        self.wait = None            # PRINT display time in 1/64 s; None: until ENTER
        self.using = None           # the PRINT USING format in force
        self.cursor = None          # (col, row) after CURSOR x,y; None: scrolling output
        self.gcursor = (0, 7)       # GPRINT's first column: x 0, dots 0-7
        self.line_end = (0, 0)      # where the last LINE ended
        self.trace = False
        self.aread = b""            # what the display held when DEF started the program
        # compiled expressions (expr.compile_at) by address: values, and variable
        # references that are made (True) or only looked up (False)
        self.compiled = {None: {}, True: {}, False: {}}
        self.clear_run_state()

    def clear_run_state(self):
        self.pos = 0
        self.line = 0               # line being run; 0 while an immediate line runs
        self.line_addr = None
        self.for_stack = []
        self.gosub_stack = []
        self.data_pos = None        # next DATA item, None: from the program's start
        self.running = False
        self.pending = None
        self.jumped = False
        self.cost = 0               # cycles the current statement's expressions took
        self.stmt_end = None        # a jumping statement's last byte (LINE_POINTER)
        self.stopped_at = None      # (pos, line, line_addr) for CONT after STOP/BRK
        self.resume_input = None    # INPUT items that BRK interrupted: CONT asks again
        self.stepping = False       # DOWN at a wait: trace line by line as TRON does
        self.skip_trace = False     # RETURN to a line's end goes on without a trace stop
        self.trace_extra = 0        # the next trace line's cycles after DOWN (engine.py)

    def save_state(self):
        """A copy of the run state (RunState)."""
        return RunState(**{f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(RunState)})

    def load_state(self, state):
        """Go on from a save_state()."""
        for f in fields(RunState):
            setattr(self, f.name, copy.deepcopy(getattr(state, f.name)))
        self.vars.invalidate()
        self.program.changed()

    # ------------------------------------------------------------ expressions

    def refuse(self):
        raise BasicError(SYNTAX)

    def _compiled(self, reference):
        """The compiled expression (or reference) at pos, parsed again if its bytes
        changed."""
        pos = self.pos
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
        self.cost += entry.cost
        value = entry.run()
        self.pos = entry.end
        return value

    def variable(self, create):
        """The storage reference of the variable at pos (name, `$`, subscripts);
        None for a two-character variable that does not exist when not `create`."""
        entry = self._compiled(create)
        self.cost += entry.cost
        ref = entry.run()
        self.pos = entry.end
        return ref

    def number(self):
        value = self.expression()
        if isinstance(value, bytes):
            raise BasicError(OTHER)
        return value

    def string(self):
        value = self.expression()
        if not isinstance(value, bytes):
            raise BasicError(OTHER)
        return value

    def integer(self, low=-32768, high=65535):
        return to_int(self.number(), low, high)

    # ------------------------------------------------------------ functions that
    # need the machine (expr.py compiles calls of them)

    def inkey(self):
        return self.host.inkey()

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
        if limit < 0:
            self.seed_from(limit)               # RND -x starts a sequence from x
        fraction = self.random_fraction()       # RND 0 and RND -1 give fractions too
        if limit < 1:
            return fraction
        return bcd.fit(Decimal(int(fraction * int(limit)) + 1))

    def random_fraction(self):
        """RND's fraction, as the firmware makes it (found by reading RANDOM_SEED on the
        firmware engine after each RND): the seed is a number whose nibbles 3-15 are a
        digit u and twelve digits f (bytes 99 9u ff ff ff ff ff ff after the first RND).
        The next seed is 23 x 0.f cut to 12 significant digits, its units digit as u,
        the fraction's digits (10 or 11 of them) padded with 0, the 12th digit 1. A
        product below 0.1 is stored normalized: its leading zeros go to the exponent
        (nibbles 0-2, 999 = -1), so 23 x .000000000001 becomes 989 0 200000000001
        (with a units digit the zeros stay: 4.0946... gives 999 4 094673624021).
        RND's fraction is the new 0.f rounded to 10 significant digits."""
        mem = self.mem
        product = 23 * self._seed_digits()              # 23 * 0.f, in units of 1e-12
        cut = 10 ** max(0, len(str(product)) - 12)      # keep 12 significant digits
        product -= product % cut
        digits = product % 10 ** 12 // 10               # 11 digits of the fraction
        shift = 11 - len(str(digits)) if digits and product < 10 ** 12 else 0
        fraction = digits * 10 ** shift * 10 + 1        # the 12th digit is always 1
        seed = "%03d%d%012d" % (999 - shift, product // 10 ** 12 % 10, fraction)
        mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex(seed)
        return bcd.fit(_TEN_DIGITS.plus(Decimal(fraction).scaleb(-12)))

    def seed_from(self, value):
        """RND of a negative number: the seed becomes |x| * 0.434294481903 (log10 e), so
        RND -1 always gives 0.9887730838 and RND -.5 0.9943865419 (firmware engine)."""
        seed = int(abs(value) * RND_NEGATIVE_FACTOR * 10 ** 12) % 10 ** 12
        self.mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex("9990%012d" % seed)

    def _seed_digits(self):
        """The seed's twelve digits f (nibbles 4-15) as an integer; a nibble that a
        POKE made 10-15 counts with that value, so no byte value can fail."""
        value = 0
        for byte in self.mem[RANDOM_SEED + 2:RANDOM_SEED + 8]:
            value = value * 100 + (byte >> 4) * 10 + (byte & 0x0F)
        return value

    def randomize(self, count):
        """RANDOM, as the firmware engine does it (its 0xFDE0 read right after RANDOM's
        multiply and after the statement): f times `count`, the key-wait loop's
        count (engine.key_wait_count), cut to 12 significant digits, becomes f; then
        one RND step. So a seed of 0 gives the same sequence whatever the count."""
        product = self._seed_digits() * count
        digits = str(product)[:12].ljust(12, "0") if product else "0" * 12
        self.mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex("9990" + digits)
        self.random_fraction()

    # ------------------------------------------------------------ starting

    def start_immediate(self, body):
        """Run a tokenized immediate line (without its 0x0D) from the input buffer."""
        buffer = INPUT_BUFFER
        data = bytes(body[:79]) + b"\x0d"
        self.mem[buffer:buffer + len(data)] = data
        self.pending = None
        self.line = 0
        self.line_addr = None
        self.pos = buffer
        self.running = True

    def evaluate(self, body):
        """The number a tokenized expression gives (INPUT's typed answer), without
        disturbing the statement being run; text after the number is ignored."""
        saved = self.pos
        data = bytes(body[:79]) + b"\x0d"
        self.mem[INPUT_BUFFER:INPUT_BUFFER + len(data)] = data
        self.pos = INPUT_BUFFER
        try:
            return self.number()
        finally:
            self.pos = saved

    def start_program(self, addr=None):
        """RUN: clear the stacks and run from line address `addr` (default: first).
        PRINT waits for ENTER again until a WAIT (the firmware engine forgets WAIT 0
        from one RUN to the next)."""
        self.clear_run_state()
        self.wait = None
        self.running = True
        self.enter_line(self.program.start + 1 if addr is None else addr)

    def enter_line(self, addr):
        """Continue at the line record at `addr`; the program's end mark ends the run."""
        mem = self.mem
        if addr is None or addr >= (mem[END_PTR] | mem[END_PTR + 1] << 8) or mem[addr] == 0xFF:
            self.finish()
            return
        self.line = mem[addr] << 8 | mem[addr + 1]
        self.line_addr = addr
        self.pos = addr + 3
        if mem[self.pos] == 0x22:           # a label is not a statement
            self.string_literal()
            self.accept(0x3A)
        self.jumped = True

    def finish(self):
        self.running = False
        self.pos = 0

    # ------------------------------------------------------------ the loop

    def execute(self, budget):
        """Run statements until `budget` cycles are used, the run ends, or a statement
        leaves a request in `pending`; returns the cycles used. Errors propagate as
        BasicError with `self.line` telling where."""
        used = 0
        step = self.step
        while used < budget and self.running and self.pending is None:
            used += step()
        return used

    def step(self):
        mem = self.mem
        byte = self.peek()
        if byte == 0x3A:
            self.pos += 1
            byte = self.peek()
        if byte == 0x0D:
            if self.line_addr is None:
                self.finish()
            else:
                cost = LINE_COST
                if (self.trace or self.stepping) and not self.skip_trace:
                    self.pending = ("trace", self.line)
                    cost += self.trace_cost()
                self.skip_trace = False
                self.enter_line(self.pos + 1)
                if not self.running:
                    return LINE_COST + PROGRAM_END_COST
                return cost
            return LINE_COST
        self.jumped = False
        self.stmt_end = None
        self.cost = 0
        if byte == PREFIX:
            entry = STATEMENTS.get(mem[self.pos + 1])
            if entry is None:
                raise BasicError(SYNTAX)
            self.pos += 2
            old_line = self.line
            entry.handler(self)
            cost = entry.cost
            if self.trace or self.stepping:
                self._trace_jump(entry, old_line)
        else:
            self.assignment()
            cost = LET_COST
        return self.finish_step(cost)

    def finish_step(self, cost):
        """A statement's end: it must stop at ':' or the
        line's end unless it jumped; LINE_POINTER gets its last byte. Returns its
        cycles, `cost` plus what its expressions took."""
        if not self.jumped and self.running and not self.at_end():
            raise BasicError(SYNTAX)
        end = self.stmt_end
        if end is None and not self.jumped and self.pos:
            end = self.pos - 1
        if end is not None and self.line_addr is not None:
            mem = self.mem
            mem[LINE_POINTER] = end & 0xFF
            mem[LINE_POINTER + 1] = end >> 8
        return cost + self.cost

    def _trace_jump(self, entry, old_line):
        """TRON (and DOWN's stepping) stop when a jump leaves a line, showing its
        number; a RETURN to the end of a line goes on to the next line unseen (as
        the firmware engine shows)."""
        returned = entry.handler.__name__ == "stmt_return"
        if returned and self.line_addr is not None and self.peek() == 0x0D:
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
        if self.line_addr is not None:
            self.stmt_end = self.pos - 1

    def assignment(self):
        """`[LET] var = expression [, var = expression ...]` (programs written for
        the PC-1360 use `E=0,W=0`)."""
        while True:
            if self.peek() not in range(0x41, 0x5B):
                raise BasicError(SYNTAX)
            ref = self.variable(create=True)
            self.expect(0x3D)
            value = self.expression()
            if isinstance(value, bytes) != (ref[2] != 0):
                raise BasicError(OTHER)
            self.store_value(ref, value)
            if not self.accept(0x2C):
                return

    def store_value(self, ref, value):
        """Assignment and READ: a number stored also becomes the last answer."""
        self.vars.store(ref, value)
        if ref[2] == 0:
            self.mem[ANSWER:ANSWER_END] = bcd.to_bytes(value)

    # ------------------------------------------------------------ jumps

    def target(self):
        """A jump target: a compiled `0x1F hi lo`, a "label" or a line expression.
        Returns ('line', n) or ('label', bytes) without looking it up."""
        byte = self.peek()
        if byte == LINE_REF:
            mem = self.mem
            number = mem[self.pos + 1] << 8 | mem[self.pos + 2]
            self.pos += 3
            return ("line", number)
        # a label may be any string expression: `GOTO "Y"+""` (firmware engine)
        value = self.expression()
        if isinstance(value, bytes):
            return ("label", value)
        if not 1 <= value <= 65279:
            raise BasicError(LINE)
        return ("line", int(value))

    def resolve(self, target):
        kind, value = target
        if kind == "line":
            return self.program.find(value)
        return self.program.find_label(value)

    def find_line(self, number, per_line=costs.LINE_SEARCH):
        """A jump's line search: the address of line
        `number`, charging the time the firmware's search takes to get there."""
        addr, passed = self.program.locate(number, self.line)
        self.cost += passed * per_line
        return addr

    def jump(self, target, per_line=costs.LINE_SEARCH, line_end=False):
        """With `line_end` the target must end the line (GOTO, IF ... THEN n): ERROR 1
        otherwise, found after a missing line's ERROR 4 (firmware engine)."""
        kind, value = target
        if kind == "line":
            addr = self.find_line(value, per_line)
        else:
            # a label is searched for from the first line
            addr = self.program.find_label(value)
            number = self.mem[addr] << 8 | self.mem[addr + 1]
            self.cost += self.program.lines_passed(number, 0) * per_line
        if line_end and self.peek() != 0x0D:
            raise BasicError(SYNTAX)
        self.mark_statement_end()
        self.enter_line(addr)

    def push_return(self):
        if len(self.gosub_stack) >= GOSUB_LIMIT:
            raise BasicError(NESTING)
        self.gosub_stack.append(Return(self.pos, self.line, self.line_addr))

    def skip_line(self):
        """Go to the end of the current line (REM, a false IF)."""
        if self.line_addr is not None:
            self.pos = self.line_addr + 2 + self.mem[self.line_addr + 2]
            return
        mem = self.mem
        pos = self.pos
        while mem[pos] != 0x0D:
            pos += 1
        self.pos = pos

    def skip_statement(self):
        """Go to the next ':' or the end of the line, stepping over strings, keyword
        tokens and compiled line numbers (DATA, the unused part of ON ... GOTO)."""
        mem = self.mem
        pos = self.pos
        while True:
            byte = mem[pos]
            if byte in (0x3A, 0x0D):
                break
            if byte == 0x22:
                pos += 1
                while mem[pos] not in (0x22, 0x0D):
                    pos += 1
                if mem[pos] == 0x22:
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

    def next_loop(self, ref):
        """NEXT [var]: step the innermost loop (or the loop of `ref`)."""
        stack = self.for_stack
        if ref is not None:
            while stack and stack[-1].ref != ref:
                stack.pop()
        if not stack:
            raise BasicError(NESTING)
        loop = stack[-1]
        value = bcd.add(self.vars.load(loop.ref), loop.step)
        self.vars.store(loop.ref, value)
        if (value <= loop.limit) if loop.step >= 0 else (value >= loop.limit):
            self.mark_statement_end()
            self.pos, self.line, self.line_addr = loop.pos, loop.line, loop.line_addr
        else:
            stack.pop()

    # ------------------------------------------------------------ DATA

    def next_data_item(self):
        """Position `self.pos` on the next DATA item; ERROR 5 when none is left (as
        the firmware engine reports it)."""
        mem = self.mem
        pos = self.data_pos
        if pos is not None and mem[pos] == 0x2C:
            self.data_pos = pos + 1
            return
        data = CODES["DATA"]
        saved = self.pos
        lines = self.program.lines()
        if pos is not None:
            # finish the current line first: another DATA may follow on it
            self.pos = pos
            found = self._find_token_in_line(data)
            if found is not None:
                self.pos = saved
                self.data_pos = found
                return
            end = self.program.end
            lines = ((n, a) for n, a in self.program.lines() if a > pos and a < end)
        for _number, addr in lines:
            self.pos = addr + 3
            found = self._find_token_in_line(data)
            if found is not None:
                self.pos = saved
                self.data_pos = found
                return
        self.pos = saved
        raise BasicError(NESTING)

    def _find_token_in_line(self, code):
        """From self.pos, the position after the next `FE code` on this line, or None."""
        mem = self.mem
        while mem[self.pos] != 0x0D:
            if mem[self.pos] == PREFIX and mem[self.pos + 1] == code:
                return self.pos + 2
            self.skip_statement()
            if mem[self.pos] == 0x3A:
                self.pos += 1
        return None

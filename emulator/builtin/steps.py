"""Steps, compiled once per address: what the interpreter's statement loop runs.

A step is what Interpreter.execute runs in one go: an optional ':' and the statement
after it, or the move onto the next line at a line's end. The first time a step runs
it is compiled into a closure that does it and returns its cycles (`Step.run`), kept
by its address while the bytes it was read from stay the same (an edit, POKE or
CLOAD makes it compile again), as its expressions are (expr.compile_at). For the
statements compiled here (assignment, GOTO, GOSUB, IF, FOR, NEXT) the closure is the
statement's only implementation; every other keyword's handler (statement_table.py)
reads its bytes when it runs, and its step saves only the dispatch.

A statement's syntax is read when it is compiled, but an error found there must come
when the machine meets it: after what the statement works out before that point. So
a statement whose reading stops runs the parts before and then raises at the place
where the reading stopped, as a failed expression does (nodes.failing). `pos` is set
where the interpreter stands before each part that can fail, so an error keeps its
number, line and position; cycles are the statement's own (the table's) plus its
expressions' fixed ones (added up here once) and what their values cost.
"""

from collections.abc import Callable
from dataclasses import dataclass

from emulator.builtin import bcd, costs
from emulator.builtin.basic_errors import NESTING, OTHER, SYNTAX, BasicError
from emulator.builtin.nodes import small_int
from emulator.builtin.run_state import ANSWER, ANSWER_END, FORLoop
from emulator.builtin.scanner import UPPER, Scanner
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES
from emulator.builtin.vars import NUM
from pc1360.facts import CR, LINE_POINTER, LINE_REF, PREFIX

LET_COST = CYCLES["stmt_let"]   # an assignment without LET, besides its expressions
LET_COMMA_COST = CYCLES["let_comma"]    # each further one after a `,` (A=1,B=2)
LINE_COST = CYCLES["line_step"]     # a step onto the next line more than a ':'
PROGRAM_END_COST = CYCLES["program_end"]    # running off the program's end
_THEN, _TO, _STEP = CODES["THEN"], CODES["TO"], CODES["STEP"]
_COLON, _COMMA, _EQUALS = 0x3A, 0x2C, 0x3D
# LINE_POINTER's bytes, written one by one (faster than a slice)
_POINTER_LOW, _POINTER_HIGH = LINE_POINTER, LINE_POINTER + 1


@dataclass(slots=True)
class Step:
    """A compiled step: valid while mem[start:check_end] == code."""
    check_end: int
    code: bytes
    run: Callable[[], int]


class _Stop(Exception):
    """The statement's reading stopped at `at` (ERROR 1 there)."""

    def __init__(self, at):
        super().__init__(at)
        self.at = at


class _Reader(Scanner):
    """A statement read when it is compiled; `check_end` is where the bytes its
    expressions depend on end."""

    def __init__(self, it, pos):
        self.it = it
        self.mem = it.mem
        self.pos = pos
        self.check_end = pos

    def refuse(self):
        raise _Stop(self.pos)

    def entry(self, reference=None):
        """The compiled expression (or variable reference) at pos: (its start, the
        expr.Compiled), pos past it."""
        start = self.pos
        entry = self.it.compiled_at(start, reference)
        self.check_end = max(self.check_end, entry.check_end)
        self.pos = entry.end
        return start, entry


def compile_step(it, start):
    """The Step at `start` for interpreter `it`."""
    reader = _Reader(it, start)
    mem = it.mem
    if reader.peek() == _COLON:
        if it.state.line_addr is None:
            # a typed line's statement has run: its `:` is ERROR 1 (one statement a
            # typed line; enter.RUN_BEFORE_COLON)
            return Step(reader.pos + 1, bytes(mem[start:reader.pos + 1]),
                        _refusal(it, reader.pos))
        reader.pos += 1
    byte = reader.peek()
    if byte == CR:
        run = _line_end(it, reader.pos)
    elif byte == PREFIX:
        statement = it.statements.get(mem[reader.pos + 1])
        reader.pos += 1     # (the code byte is checked too)
        if statement is None:
            run = _refusal(it, reader.pos - 1)
        else:
            reader.pos += 1
            if statement.compile is None:
                run = _keyword(it, statement, reader.pos, _handler(it, statement.handler))
            else:
                run = statement.compile(it, statement, reader)
    else:
        run = assignment(it, LET_COST, reader)
    end = max(reader.check_end, reader.pos + 1)
    return Step(end, bytes(mem[start:end]), run)


def _refusal(it, at):
    """ERROR 1 at `at`: a keyword code the engine does not run (at its 0xFE), a typed
    line's second statement (at the `:`)."""
    def run():
        it.state.jumped = False
        it.state.pos = at
        raise BasicError(SYNTAX)
    return run


def _line_end(it, cr):
    """The step onto the next line (TRON stops there first); an immediate line ends."""
    next_line = cr + 1

    def run():
        state = it.state
        if state.line_addr is None:
            it.finish()
            return LINE_COST
        cost = LINE_COST
        if (state.trace or state.stepping) and not state.skip_trace:
            state.pending = ("trace", state.line)
            cost += it.trace_cost()
        state.skip_trace = False
        it.enter_line(next_line)
        if not state.running:
            return LINE_COST + PROGRAM_END_COST
        return cost
    return run


def _keyword(it, statement, after, body):
    """A keyword statement: `body(state)` does it from `after` (its keyword's end);
    TRON may stop after a jump, and the statement must end where it should."""
    cost = statement.cost
    finish = it.finish_step

    def run():
        state = it.state
        state.jumped = False
        it.stmt_end = None
        it.cost = 0
        state.pos = after
        old_line = state.line
        body(state)
        state = it.state        # (RUN starts from a new one)
        if state.trace or state.stepping:
            it.trace_jump(statement, old_line)
        return finish(cost)
    return run


def _keyword_body(compile_body):
    """The compiler of a statement that runs as `compile_body(it, reader)`'s body in
    a _keyword step."""
    def compile_statement(it, statement, reader):
        after = reader.pos
        return _keyword(it, statement, after, compile_body(it, reader))
    return compile_statement


def _handler(it, handler):
    """A statement that its table handler reads as it runs."""
    return lambda state: handler(it)


def _raising(at):
    """A statement whose reading stopped at once: ERROR 1 at `at`."""
    def body(state):
        state.pos = at
        raise BasicError(SYNTAX)
    return body


# ---------------------------------------------------------------- assignment

def compile_let(it, statement, reader):
    """LET: an assignment with LET's cycles (it neither jumps nor stops TRON)."""
    return assignment(it, statement.cost, reader)


def assignment(it, cost, reader):
    """`[LET] var = expression [, var = expression ...]` (programs written for the
    PC-1360 use `E=0,W=0`) from reader.pos, as a step of `cost` cycles besides its
    expressions'."""
    parts = []
    fail = None
    while True:
        if reader.peek() not in UPPER:
            fail = reader.pos
            break
        ref_at, ref = reader.entry(True)
        cost += ref.cost
        try:
            reader.expect(_EQUALS)
        except _Stop as stop:
            parts.append(_reference_only(ref_at, ref))
            fail = stop.at
            break
        value_at, value = reader.entry()
        cost += value.cost
        parts.append((ref_at, ref, value_at, value))
        if not reader.accept(_COMMA):
            break
        cost += LET_COMMA_COST
    if fail is None and not reader.at_end():
        fail = reader.pos
    end = reader.pos
    if fail is None and len(parts) == 1 and parts[0][1].const is not None \
            and parts[0][1].const[2] == NUM:
        return _number_assignment(it, parts[0], cost, end)
    items = [part if callable(part) else _item(it, *part) for part in parts]
    mem = it.mem
    low, high = (end - 1) & 0xFF, (end - 1) >> 8

    def run():
        state = it.state
        state.jumped = False
        it.cost = 0
        for item in items:
            item(state)
        if fail is not None:
            state.pos = fail
            raise BasicError(SYNTAX)
        state.pos = end
        if state.line_addr is not None:
            mem[_POINTER_LOW] = low
            mem[_POINTER_HIGH] = high
        return cost + it.cost
    return run


def _reference_only(ref_at, ref):
    """The target of an item without its `=` (the variable is made first)."""
    run = ref.run

    def part(state):
        state.pos = ref_at
        run()
    return part


def _item(it, ref_at, ref, value_at, value):
    """`var = expression`: the value must be of the variable's kind; a number stored
    also becomes the last answer (Interpreter.store_value)."""
    ref_run, fixed, value_run, value_end = ref.run, ref.const, value.run, value.end
    store = it.store_value

    def item(state):
        if fixed is None:
            state.pos = ref_at
            target = ref_run()
        else:
            target = fixed      # (a fixed variable's reference is known)
        state.pos = value_at
        result = value_run()
        state.pos = value_end
        if isinstance(result, bytes) != (target[2] != NUM):
            raise BasicError(OTHER, on_last=True)
        store(target, result)
    return item


def _number_assignment(it, part, cost, end):
    """The commonest statement, a fixed number variable `= expression`, as one
    closure: _item and store_value for this case, with the value's stored bytes
    taken from its image when it has one (`A=A+1` on whole numbers)."""
    _ref_at, ref, value_at, value = part
    mem = it.mem
    addr = ref.const[0]
    addr_end = addr + 8
    value_run, value_end, image = value.run, value.end, value.image
    to_bytes = bcd.to_bytes
    low, high = (end - 1) & 0xFF, (end - 1) >> 8

    def run():
        state = it.state
        state.jumped = False
        it.cost = 0
        data = None if image is None else image()
        if data is None:
            state.pos = value_at
            result = value_run()
            if isinstance(result, bytes):
                state.pos = value_end
                raise BasicError(OTHER, on_last=True)
            data = to_bytes(result)
        mem[addr:addr_end] = mem[ANSWER:ANSWER_END] = data
        state.pos = end
        if state.line_addr is not None:
            mem[_POINTER_LOW] = low
            mem[_POINTER_HIGH] = high
        return cost + it.cost
    return run


# ---------------------------------------------------------------- jumps

def _target(it, reader):
    """A jump target's reading (Interpreter.target): a compiled `0x1F hi lo` is read
    now; a "label" or line expression when the statement runs. The function given
    leaves pos after the target and returns it."""
    if reader.peek() != LINE_REF:
        return lambda state: it.target()
    mem = reader.mem
    at = reader.pos
    target = ("line", mem[at + 1] << 8 | mem[at + 2])
    after = reader.pos = at + 3

    def read(state):
        state.pos = after
        return target
    return read


@_keyword_body
def compile_goto(it, reader):
    """GOTO target; `GOTO 45:END` is ERROR 1 (firmware engine)."""
    read = _target(it, reader)
    jump = it.jump

    def body(state):
        jump(read(state), costs.LINE_SEARCH, True)
    return body


@_keyword_body
def compile_gosub(it, reader):
    read = _target(it, reader)
    jump, push_return = it.jump, it.push_return

    def body(state):
        target = read(state)
        push_return()
        jump(target, costs.GOSUB_LINE_SEARCH)
    return body


@_keyword_body
def compile_if(it, reader):
    """IF c THEN line|label|keyword statement, IF c GOTO line, IF c statement. Only a
    condition above 0 is true: 0 and every negative value (-1, -.5, NOT 1, -1E-99) skip
    the rest of the line (firmware engine, cases IF_negative_is_false, GEN_logic_1).
    Without THEN a keyword must follow the condition: `IF 1 A=1`, `IF A$="X" B=1` are
    ERROR 1 on the firmware engine, true or false; a condition that ends the statement
    (`IF 1`, `IF 0:PRINT`) is ERROR 1 only when true, a false one skips the line
    (IF_condition_ends_statement; `IF A A=5` is the condition AA=5)."""
    cond_at, cond = reader.entry()
    cond_run, cond_end, cond_cost = cond.run, cond.end, cond.cost
    then = reader.accept_token(_THEN)
    bad = None
    if not then and reader.peek() != PREFIX:
        bad = reader.pos
    bad_when_false = bad is not None and not reader.at_end()
    after = reader.pos
    read = None
    # after THEN a keyword starts a statement; anything else is a line number or
    # label, so `THEN B=6` jumps to line (B=6): ERROR 4 on the firmware engine
    if then and reader.peek() != PREFIX:
        read = _target(it, reader)
    keyword_at = reader.pos if read is None else None
    jump, skip_line = it.jump, it.skip_line

    def body(state):
        state.pos = cond_at
        it.cost += cond_cost
        condition = cond_run()
        state.pos = cond_end
        if isinstance(condition, bytes):
            raise BasicError(OTHER)
        if bad is not None and (bad_when_false or condition > 0):
            state.pos = bad
            raise BasicError(SYNTAX)
        state.pos = after
        if not condition > 0:
            skip_line()
        elif read is not None:
            # as GOTO: `THEN 45:END` is ERROR 1
            jump(read(state), costs.LINE_SEARCH, True)
        else:
            # the statement after THEN (or after the condition) runs as a fresh step
            state.pos = keyword_at
            state.jumped = True
    return body


# ---------------------------------------------------------------- FOR / NEXT

@_keyword_body
def compile_for(it, reader):
    """FOR var = start TO limit [STEP step]: the variable gets `start` (not the last
    answer), and the loop goes on the stack (Interpreter.push_for)."""
    ref_at, ref = reader.entry(True)
    stages = [_stage(it, ref_at, ref, _not_number_variable)]
    fail = None     # where the reading stopped: ERROR 1 after the stages before it
    try:
        reader.expect(_EQUALS)
        stages.append(_stage(it, *reader.entry(), _is_string, it.vars.store))
        if not reader.accept_token(_TO):
            raise _Stop(reader.pos)
        stages.append(_stage(it, *reader.entry(), _is_string))
        if reader.accept_token(_STEP):
            stages.append(_stage(it, *reader.entry(), _is_string))
        if not reader.at_end():
            raise _Stop(reader.pos)
    except _Stop as stop:
        fail = stop.at
    end = reader.pos
    push_for = it.push_for

    def body(state):
        values = []
        for stage in stages:
            stage(state, values)
        if fail is not None:
            state.pos = fail
            raise BasicError(SYNTAX)
        state.pos = end
        step = values[3] if len(values) > 3 else bcd.ONE
        push_for(FORLoop(values[0], values[2], step, end, state.line, state.line_addr))
    return body


def _stage(it, at, entry, wrong, store=None):
    """A part of FOR worked out at `at`: its variable's reference, or a number; ERROR 9
    when `wrong(value)` (a string variable, a string). `store` puts the start in the
    variable."""
    run, stop, cost = entry.run, entry.end, entry.cost

    def stage(state, values):
        state.pos = at
        it.cost += cost
        value = run()
        state.pos = stop
        if wrong(value):
            raise BasicError(OTHER)
        if store is not None:
            store(values[0], value)
        values.append(value)
    return stage


def _not_number_variable(ref):
    return ref[2] != NUM


def _is_string(value):
    return isinstance(value, bytes)


def compile_next(it, statement, reader):
    """NEXT var: the loop variable plus STEP, stored, for the loop of `var` (the
    loops inside it are dropped); NEXT alone is ERROR 1 on the firmware engine. It
    does not jump (TRON does not stop there), and leaves LINE_POINTER at its
    variable's end when it loops back. A whole number and a whole STEP below 1E10
    add as ints (bcd.add gives exactly their sum; its bytes are int_bytes), and a
    whole limit compares as an int (exactly as the Decimal)."""
    after = reader.pos
    if reader.at_end():
        return _keyword(it, statement, after, _raising(reader.pos))
    ref_at, ref = reader.entry(True)
    ref_run, ref_end = ref.run, ref.end
    # where the statement ends when the loop is done; it must end there
    ends = reader.at_end()
    exit_at = reader.pos
    exit_low, exit_high = (exit_at - 1) & 0xFF, (exit_at - 1) >> 8
    cost = statement.cost + ref.cost
    mem = it.mem
    load, store = it.vars.load, it.vars.store
    ints, int_bytes, limit = bcd.INTS.get, bcd.int_bytes, bcd.INT_LIMIT
    add = bcd.add
    # the last loop stepped: its STEP as an int (None: not whole), limit, STEP >= 0
    known, int_step, bound, forward = None, None, None, True

    fixed = ref.const
    looped_low, looped_high = (ref_end - 1) & 0xFF, (ref_end - 1) >> 8
    written, written_number = None, None    # the bytes this NEXT stored last, their number

    def run():
        nonlocal known, int_step, bound, forward, written, written_number
        state = it.state
        state.jumped = False
        it.cost = 0
        if fixed is None:
            state.pos = ref_at
            target = ref_run()
        else:
            target = fixed      # (a fixed variable's reference is known)
        state.pos = ref_end
        stack = state.for_stack
        while stack and stack[-1].ref != target:
            stack.pop()
        if not stack:
            raise BasicError(NESTING)
        loop = stack[-1]
        if loop is not known:
            whole = small_int(loop.limit)
            known, int_step, forward = loop, small_int(loop.step), loop.step >= 0
            bound = loop.limit if whole is None else whole
        addr = target[0]
        value = None
        if int_step is not None:
            stored = mem[addr:addr + 8]
            number = written_number if stored == written else ints(bytes(stored[:7]))
            if number is not None and -limit < number + int_step < limit:
                value = written_number = number + int_step
                mem[addr:addr + 8] = written = int_bytes(value)
        if value is None:
            value = add(load(target), loop.step)
            store(target, value)
        if value <= bound if forward else value >= bound:
            from_line = state.line_addr
            back = loop.pos
            state.pos, state.line, state.line_addr = back, loop.line, loop.line_addr
            # the loop's body starts after its FOR statement (spaces apart)
            byte = mem[back]
            if byte != _COLON and byte != CR and it.peek() not in (_COLON, CR):
                raise BasicError(SYNTAX)
            if state.line_addr is not None:
                if from_line is not None:
                    mem[_POINTER_LOW] = looped_low
                    mem[_POINTER_HIGH] = looped_high
                else:   # from a typed line: the byte before the loop's start
                    last = state.pos - 1
                    mem[_POINTER_LOW] = last & 0xFF
                    mem[_POINTER_HIGH] = last >> 8
        else:
            stack.pop()
            state.pos = exit_at
            if not ends:
                raise BasicError(SYNTAX)
            if state.line_addr is not None:
                mem[_POINTER_LOW] = exit_low
                mem[_POINTER_HIGH] = exit_high
        return cost + it.cost
    return run

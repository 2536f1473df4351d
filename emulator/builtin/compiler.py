"""Statements compiled into closures: the built-in engine's turbo speed.

The interpreter (interp.py, expr.py) parses a statement's bytes each time it runs.
Here a statement is turned once into a Python closure, kept by the address where its
step starts; Interpreter.execute runs the closure while the bytes in RAM are still
those it was made from (a program edit, POKE, CLOAD or a CALLed routine that changes
them makes it compile again), and the interpreter runs everything else.

What keeps both paths alike:
- Values come from the same functions (bcd.py, expr.py's operator tables), variables
  stay bytes in RAM, and statements that change more than variables run their own
  registered handlers.
- Cycles: an expression's fixed cost is what the interpreter charges for it, measured
  by letting the interpreter parse it once when the statement is compiled (expressions
  have no side effects), less the value-dependent part that the compiled closures
  charge themselves each time (compile_expr's priced nodes); the statement's own cost
  comes from the same registry and constants the interpreter reads.
- Errors: a BasicError inside a closure is not reported from it. The interpreter runs
  the statement again from the last point before which the closure changed nothing
  that a second run would change differently (the statement's start, or the current
  item of `A=1,B=2`), so the error number, line and position are the interpreter's.

Arrays, RND, POINT and the rest of the functions are left to the interpreter.
"""

from emulator.builtin import bcd, expr
from emulator.builtin import interp as interp_module
from emulator.builtin.basic_errors import OTHER, BasicError
from emulator.builtin.compile_expr import (
    NUMBER,
    STRING,
    ExpressionCompiler,
    NotCompiled,
    number_loader,
    small_int,
)
from emulator.builtin.token_codes import CODES, LINE_REF, PREFIX
from emulator.builtin.vars import NUM

CACHE_LIMIT = 4096          # compiled statements kept before the cache starts afresh
_UPPER = expr._UPPER
_LET, _IF, _THEN, _FOR, _TO, _STEP, _NEXT, _GOTO = (CODES[name] for name in (
    "LET", "IF", "THEN", "FOR", "TO", "STEP", "NEXT", "GOTO"))
_ENDS = (0x3A, 0x0D)        # a statement's end


class Compiler:
    """Compiled statements of one interpreter, by the address their step starts at.
    An entry is (end, code, run): `run()` does the statement and returns its cycles
    while mem[start:end] == code."""

    def __init__(self, interp):
        self.interp = interp
        self.entries = {}

    def entry(self, pos):
        """The entry for a step at `pos`, compiling it if its bytes changed."""
        entries = self.entries
        if len(entries) > CACHE_LIMIT:
            entries.clear()
        entry = entries.get(pos)
        mem = self.interp.mem
        if entry is not None and mem[pos:entry[0]] == entry[1]:
            return entry
        try:
            entry = _StatementCompiler(self.interp, pos).compile()
        except (NotCompiled, IndexError):
            # the interpreter runs it (also text running into the end of memory); a
            # change of its first bytes gives it another try
            end = pos + 4
            entry = (end, bytes(mem[pos:end]), self.interp.step)
        except BasicError:
            # an expression fails already: the interpreter runs it and reports the error
            return (pos, b"", self.interp.step)
        entries[pos] = entry
        return entry


class _StatementCompiler(ExpressionCompiler):
    def __init__(self, interp, start):
        self.it = interp
        self.mem = interp.mem
        self.start = start
        self.pos = start
        self.depth = 0

    def measure(self, start, parse):
        """Let the interpreter parse from `start` with `parse` (without side effects):
        (value, end position, cycles charged). The end must be where this compiler's
        own parse ended, or the statement is not compiled."""
        it = self.it
        saved = it.pos, it.cost, it.depth
        it.pos, it.cost, it.depth = start, 0, 0
        try:
            value = parse()
            return value, it.pos, it.cost
        finally:
            it.pos, it.cost, it.depth = saved

    def expression_cost(self, start, node):
        """The fixed cycles the interpreter charges for the expression at `start`
        (compiled into `node`, ending at self.pos): all it charges less what the node
        charges for the same values. Its value must agree with the node's."""
        value, end, cost = self.measure(start, self.it.expression)
        it = self.it
        saved = it.cost
        it.cost = 0
        try:
            same = value == node.run()
            priced = it.cost
        finally:
            it.cost = saved
        if end != self.pos or not same:
            raise NotCompiled
        return cost - priced

    def target_cost(self, start):
        """The cycles the interpreter charges for parsing the variable at `start`."""
        _ref, end, cost = self.measure(start, lambda: self.it.variable(create=False))
        if end != self.pos:
            raise NotCompiled
        return cost

    # ------------------------------------------------------------ statements

    def compile(self):
        mem = self.mem
        byte = self.peek()
        if byte == 0x3A:
            self.pos += 1
            byte = self.peek()
        if byte == 0x0D:
            return self.line_end()
        if byte == PREFIX:
            code = mem[self.pos + 1]
            statement = interp_module.STATEMENTS.get(code)
            if statement is None:
                raise NotCompiled
            self.pos += 2
            if code == _LET:
                return self.assignment(statement.cost)
            if code == _IF:
                return self.if_(statement.cost)
            if code == _FOR:
                return self.for_(statement.cost)
            if code == _NEXT:
                return self.next_(statement)
            if code == _GOTO and mem[self.pos] == LINE_REF:
                return self.goto(statement)
            return self.handler(statement)
        if byte in _UPPER:
            return self.assignment(interp_module.LET_COST)
        raise NotCompiled

    def line_end(self):
        """The step onto the next line (as Interpreter.step does at 0x0D)."""
        it = self.it
        next_line = self.pos + 1
        line_cost = interp_module.LINE_COST
        end_cost = line_cost + interp_module.PROGRAM_END_COST

        def run():
            if it.line_addr is None:
                it.finish()
                return line_cost
            it.skip_trace = False
            it.enter_line(next_line)
            return line_cost if it.running else end_cost
        return (next_line, bytes(self.mem[self.start:next_line]), run)

    def handler(self, statement):
        """Any other keyword: its own handler runs, only the dispatch is saved."""
        it = self.it
        pos = self.pos
        handler, cost = statement

        def run():
            it.jumped = False
            it.stmt_end = None
            it.depth = 0
            it.cost = 0
            it.pos = pos
            old_line = it.line
            handler(it)
            if it.trace or it.stepping:     # TRON itself
                it._trace_jump(statement, old_line)
            return it.finish_step(cost)
        return (pos, bytes(self.mem[self.start:pos]), run)

    def goto(self, statement):
        """GOTO to a compiled line number (stmt_goto with the target read once)."""
        it = self.it
        mem = self.mem
        number = mem[self.pos + 1] << 8 | mem[self.pos + 2]
        self.pos += 3
        if mem[self.pos] != 0x0D:
            raise NotCompiled       # ERROR 1 (stmt_goto)
        after = self.pos
        start = self.start
        find = it.find_line         # (charges the line search, costs.LINE_SEARCH)
        cost = statement.cost

        def run():
            it.jumped = False
            it.stmt_end = None
            it.cost = 0
            try:
                addr = find(number)
            except BasicError:
                it.pos = start
                return it.step()
            it.pos = after
            if it.line_addr is not None:
                it.stmt_end = after - 1
            it.enter_line(addr)
            return it.finish_step(cost)
        return (after + 1, bytes(mem[start:after + 1]), run)     # the CR checked too

    def next_(self, statement):
        """NEXT v of the innermost loop, v a fixed number variable (the interpreter's
        next_loop); anything else (a loop to drop first, an error) is run by the
        interpreter from the start."""
        it = self.it
        mem = self.mem
        if self.at_end() or self.peek() not in _UPPER:
            raise NotCompiled
        var_start = self.pos
        ref, _name, is_str = self.target_var()
        if ref is None or is_str:
            raise NotCompiled
        cost = statement.cost + self.target_cost(var_start)
        after = self.pos
        if not self.at_end():
            raise NotCompiled
        start = self.start
        addr = ref[0]
        load = number_loader(mem, addr)
        add, to_bytes = bcd.add, bcd.to_bytes
        pointer = interp_module.LINE_POINTER
        pointer_end = pointer + 2
        last_bytes = bytes([(after - 1) & 0xFF, (after - 1) >> 8])

        ints, int_bytes, limit = bcd.INTS.get, bcd.int_bytes, bcd.INT_LIMIT
        # the last loop seen: (loop, STEP as a small int or None, the limit as an
        # int when it is a small whole number, STEP >= 0)
        known = [None, None, None, None]
        written = [None, None]      # (the 8 bytes last stored, their whole number)

        def run():
            stack = it.for_stack
            if not stack:
                it.pos = start
                return it.step()
            loop = stack[-1]
            step = loop.step
            if loop is not known[0]:
                if loop.ref != ref:
                    it.pos = start
                    return it.step()
                small = small_int(loop.limit)
                known[:] = (loop, small_int(step), loop.limit if small is None else small,
                            step >= 0)
            _loop, int_step, bound, forward = known
            number = None
            if int_step is not None:
                stored = mem[addr:addr + 8]
                # the bytes this NEXT wrote last time are still there: their value is known
                number = written[1] if stored == written[0] else ints(bytes(stored[:7]))
            if number is not None and -limit < number + int_step < limit:
                # whole numbers: bcd.add would give exactly the int sum
                value = number + int_step
                mem[addr:addr + 8] = written[0] = int_bytes(value)
                written[1] = value
            else:
                try:
                    value = add(load(), step)
                    mem[addr:addr + 8] = to_bytes(value)
                except BasicError:
                    it.pos = start
                    return it.step()
            it.jumped = False
            line_addr = it.line_addr
            if (value <= bound) if forward else (value >= bound):
                back = loop.pos
                it.pos, it.line, it.line_addr = back, loop.line, loop.line_addr
                if mem[back] not in _ENDS:
                    # the loop's start was changed: finish_step's checks decide
                    it.cost = 0
                    it.stmt_end = after - 1 if line_addr is not None else None
                    return it.finish_step(cost)
                if line_addr is not None and loop.line_addr is not None:
                    mem[pointer:pointer_end] = last_bytes
                return cost
            stack.pop()
            it.pos = after
            if line_addr is not None:
                mem[pointer:pointer_end] = last_bytes
            return cost
        return (self.pos + 1, bytes(mem[start:self.pos + 1]), run)

    def target_var(self):
        """A variable being assigned: (ref or None, name, is_str) where ref is a
        fixed variable's reference; a two-character one is looked up when run."""
        name, is_str = self.variable_name()
        if len(name) == 1:
            return self.it.vars.fixed(name[0], is_str), name, is_str
        return None, name, is_str

    def assignment(self, base_cost):
        it = self.it
        mem = self.mem
        items = []          # (item start, cost before it, store function)
        cost = base_cost
        while True:
            item_start = self.pos
            if self.peek() not in _UPPER:
                raise NotCompiled
            start = self.pos
            ref, name, is_str = self.target_var()
            target_cost = self.target_cost(start)
            self.expect(0x3D)
            value_start = self.pos
            node = self.expression()
            if (node.kind == STRING) != is_str:
                raise NotCompiled
            items.append((item_start, cost, _store(it, ref, name, is_str, node), ref, node))
            cost += target_cost + self.expression_cost(value_start, node)
            if not self.accept(0x2C):
                break
        if not self.at_end():
            raise NotCompiled
        end = self.pos
        last = end - 1
        last_bytes = bytes([last & 0xFF, last >> 8])
        pointer = interp_module.LINE_POINTER
        pointer_end = pointer + 2

        def replay(item_start, cost_before):
            # the interpreter does this item and the rest (and raises the error)
            it.pos = item_start
            it.jumped = False
            it.stmt_end = None
            it.depth = 0
            it.cost = cost_before - base_cost
            it.assignment()
            cycles = it.finish_step(base_cost)
            it.cost = 0         # all counted (a priced run adds it.cost)
            return cycles

        if len(items) == 1 and items[0][3] is not None and items[0][3][2] == NUM:
            # the commonest statement, `A=expression`, in one function
            item_start, _c, _s, ref, node = items[0]
            addr = ref[0]
            value = node.run
            encoded = bcd._ENCODED.get
            to_bytes = bcd.to_bytes
            source, step = node.counter if node.counter is not None else (None, 0)
            source_end = None if source is None else source + 7
            ints, int_bytes, limit = bcd.INTS.get, bcd.int_bytes, bcd.INT_LIMIT
            answer, answer_end = interp_module.ANSWER, interp_module.ANSWER_END

            def run():
                # `A=B+n` on whole numbers: bcd.add would give exactly the int sum
                if source is not None:
                    number = ints(bytes(mem[source:source_end]))
                    if number is not None and -limit < number + step < limit:
                        mem[addr:addr + 8] = mem[answer:answer_end] = int_bytes(number + step)
                        it.pos = end
                        it.jumped = False
                        if it.line_addr is not None:
                            mem[pointer:pointer_end] = last_bytes
                        return cost
                try:
                    number = value()
                    data = encoded(number)
                    if data is None:
                        data = to_bytes(number)
                except BasicError:
                    return replay(item_start, base_cost)
                mem[addr:addr + 8] = mem[answer:answer_end] = data
                it.pos = end
                it.jumped = False
                if it.line_addr is not None:
                    mem[pointer:pointer_end] = last_bytes
                return cost
        elif len(items) == 1:
            item_start, _c, store, _r, _n = items[0]

            def run():
                try:
                    store()
                except BasicError:
                    return replay(item_start, base_cost)
                it.pos = end
                it.jumped = False
                if it.line_addr is not None:
                    mem[pointer:pointer_end] = last_bytes
                return cost
        else:
            def run():
                for item_start, cost_before, store, _r, _n in items:
                    try:
                        store()
                    except BasicError:
                        return replay(item_start, cost_before)
                it.pos = end
                it.jumped = False
                if it.line_addr is not None:
                    mem[pointer:pointer_end] = last_bytes
                return cost
        if any(item[4].priced for item in items):
            fixed_run = run

            def run():
                # the nodes add their value-dependent cycles to it.cost
                it.cost = 0
                return fixed_run() + it.cost
        return (end + 1, bytes(mem[self.start:end + 1]), run)

    def if_(self, base_cost):
        """IF c THEN n / IF c GOTO ... / IF c statement: the condition compiled; a
        jump after THEN only to a compiled line number."""
        it = self.it
        start = self.start
        cond_start = self.pos
        cond = self.expression()
        if cond.kind != NUMBER:
            raise NotCompiled
        cost = base_cost + self.expression_cost(cond_start, cond)
        cond_end = self.pos
        condition = cond.run
        number = None
        if self.accept_token(_THEN) and self.peek() != PREFIX:
            if self.mem[self.pos] != LINE_REF:
                raise NotCompiled
            number = self.mem[self.pos + 1] << 8 | self.mem[self.pos + 2]
            self.pos += 3
            if self.mem[self.pos] != 0x0D:
                raise NotCompiled           # ERROR 1 (stmt_if)
            entry_end = self.pos + 1        # the CR checked too
        else:
            if self.peek() != PREFIX:
                raise NotCompiled           # no keyword after the condition: ERROR 1
            entry_end = self.pos + 2        # the two bytes looked at for THEN
        after = self.pos
        find = it.find_line         # (charges the line search, costs.LINE_SEARCH)

        def replay():
            it.pos = start
            return it.step()

        def run():
            it.jumped = False
            it.stmt_end = None
            it.cost = 0         # (a priced condition adds its value-dependent cycles)
            try:
                true = condition()
            except BasicError:
                return replay()
            if not true:
                it.pos = cond_end
                it.skip_line()
                return it.finish_step(cost)
            it.pos = after
            if number is None:
                # the statement after it runs as a fresh one (finish_step has nothing
                # to do after a jump that set no statement end)
                it.jumped = True
                return cost + it.cost
            try:
                addr = find(number)
            except BasicError:
                return replay()
            it.mark_statement_end()
            it.enter_line(addr)
            return it.finish_step(cost)
        return (entry_end, bytes(self.mem[start:entry_end]), run)

    def for_(self, base_cost):
        """FOR v=a TO b [STEP c] with v a fixed number variable, a not reading v."""
        it = self.it
        mem = self.mem
        if self.peek() not in _UPPER:
            raise NotCompiled
        var_start = self.pos
        ref, name, is_str = self.target_var()
        if ref is None or is_str:
            raise NotCompiled
        letter = name[0]
        cost = base_cost + self.target_cost(var_start)
        self.expect(0x3D)
        first_start = self.pos
        first = self.expression()
        # a start value that reads the loop variable would differ in a second run
        if first.kind != NUMBER or letter in first.letters:
            raise NotCompiled
        cost += self.expression_cost(first_start, first)
        if not self.accept_token(_TO):
            raise NotCompiled
        limit_start = self.pos
        limit = self.expression()
        if limit.kind != NUMBER:
            raise NotCompiled
        cost += self.expression_cost(limit_start, limit)
        step = None
        if self.accept_token(_STEP):
            step_start = self.pos
            step = self.expression()
            if step.kind != NUMBER:
                raise NotCompiled
            cost += self.expression_cost(step_start, step)
        if not self.at_end():
            raise NotCompiled
        end = self.pos
        start = self.start
        addr = ref[0]
        to_bytes = bcd.to_bytes
        first_run, limit_run = first.run, limit.run
        step_run = step.run if step is not None else (lambda: bcd.ONE)
        for_limit = interp_module.FOR_LIMIT
        for_loop = interp_module.FORLoop
        last = end - 1
        lo, hi = last & 0xFF, last >> 8
        pointer = interp_module.LINE_POINTER

        def run():
            it.cost = 0         # priced expressions add their value-dependent cycles
            try:
                data = to_bytes(first_run())
                mem[addr:addr + 8] = data
                bound = limit_run()
                increment = step_run()
                if len(it.for_stack) >= for_limit:
                    raise BasicError(OTHER)     # a full stack: the interpreter reports it
            except BasicError:
                it.pos = start
                return it.step()
            it.pos = end
            it.jumped = False
            it.for_stack.append(for_loop(ref, bound, increment, end, it.line, it.line_addr))
            if it.line_addr is not None:
                mem[pointer] = lo
                mem[pointer + 1] = hi
            return cost + it.cost
        return (end + 1, bytes(mem[start:end + 1]), run)


def _store(it, ref, name, is_str, node):
    """The function that evaluates `node` and stores it in the variable (in the
    interpreter's order: a two-character variable is found or made first)."""
    run = node.run
    mem = it.mem
    answer, answer_end = interp_module.ANSWER, interp_module.ANSWER_END
    if ref is not None and ref[2] == NUM:
        addr = ref[0]
        to_bytes = bcd.to_bytes

        def store():
            mem[addr:addr + 8] = mem[answer:answer_end] = to_bytes(run())
        return store
    store_value = it.vars.store
    if ref is not None:         # a fixed string variable
        def store():
            store_value(ref, run())
        return store
    simple = it.vars.simple
    if not is_str:
        to_bytes = bcd.to_bytes

        def store():
            target = simple(name, is_str, True)
            value = run()
            store_value(target, value)
            mem[answer:answer_end] = to_bytes(value)
        return store

    def store():
        store_value(simple(name, is_str, True), run())
    return store

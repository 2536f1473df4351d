"""Expressions compiled into closures (for compiler.py).

ExpressionCompiler mirrors expr.Expressions' parser method for method, but where the
interpreter computes a value it builds a Node: a closure giving the value, with the
value's type known in advance, so a closure calls the bcd function itself (an
expression whose types do not fit is left to the interpreter, which reports the
error). Everything unusual raises NotCompiled.

Cycles: a closure whose time depends on the values (`*`, `/`, `^`, SQR, LN, SIN ...)
adds that part (costs.py) to the interpreter's `cost` each time it runs, as the
interpreter does; such a Node is `priced`, and its statement counts `cost` in.
"""

from decimal import Decimal

from emulator.builtin import bcd, costs, expr
from emulator.builtin.basic_errors import OTHER, BasicError
from emulator.builtin.token_codes import CODES, PI_CHAR, PREFIX, ROOT_CHAR
from emulator.builtin.vars import STRING_MARK

NEST_LIMIT = expr.NEST_LIMIT
_UPPER = expr._UPPER
_DIGITS = expr._DIGITS
NUMBER, STRING = "number", "string"

_NOT = CODES["NOT"]
_ALL_LETTERS = frozenset(_UPPER)
# the string functions whose argument is one operand (a value in, a value out)
_OPERAND_FUNCTIONS = {CODES[name]: (func, arg, result) for name, func, arg, result in (
    ("LEN", expr.str_len, STRING, NUMBER), ("ASC", expr.asc, STRING, NUMBER),
    ("VAL", expr._leading_number, STRING, NUMBER), ("CHR$", expr.chr_, NUMBER, STRING),
    ("STR$", expr.str_, NUMBER, STRING))}
_PAREN_FUNCTIONS = {CODES["MID$"]: (expr.mid, 3), CODES["LEFT$"]: (expr.left, 2),
                    CODES["RIGHT$"]: (expr.right, 2)}
# the arithmetic of expr._BYTE_OPS once both sides are known to be numbers
_NUMERIC_OPS = {0x2B: bcd.add, 0x2D: bcd.sub, 0x2A: bcd.mul, 0x2F: bcd.div,
                0x5E: bcd.power}


class NotCompiled(Exception):
    """The statement is left to the interpreter."""


class Node:
    """A compiled expression part: `run()` gives its value; `kind` is NUMBER or
    STRING; `letters` holds the fixed variables (by letter) it reads; `const` is its
    value when it has no variables, `addr` (mem, address) for a fixed number
    variable; `priced` is true when running it adds value-dependent cycles."""

    __slots__ = ("run", "kind", "letters", "const", "addr", "counter", "priced")

    def __init__(self, run, kind, letters=frozenset(), const=None, addr=None,
                 priced=False):
        self.run = run
        self.kind = kind
        self.letters = letters
        self.const = const
        self.addr = addr
        self.priced = priced
        self.counter = None     # (address, n) when this is `variable + n`, n a small int


def _constant(value):
    kind = STRING if isinstance(value, bytes) else NUMBER
    return Node(lambda: value, kind, const=value)


class ExpressionCompiler(expr.Scanner):
    """The parsing half of compiler._StatementCompiler: needs `it` (the
    interpreter), `mem`, `pos` and `depth`."""

    def refuse(self):
        raise NotCompiled

    def variable_name(self):
        name, is_str = super().variable_name()
        if self.peek() == 0x28:
            raise NotCompiled       # an array element
        return name, is_str

    # ------------------------------------------------------------ expressions
    # These mirror expr.Expressions' methods one for one, building closures.

    def expression(self, min_prec=1):
        left = self.unary(min_prec)
        mem = self.mem
        while True:
            pos, op, width = expr.binary_operator(mem, self.pos)
            numeric = _NUMERIC_OPS.get(mem[pos]) if width == 1 else None
            if op is None or op[0] < min_prec:
                self.pos = pos
                return left
            self.pos = pos + width
            prec, func, _cycles, value_cycles = op
            right = self.power_right() if prec == expr._POWER_PREC else \
                self.expression(prec + 1)
            left = _binary(left, right, prec, func, numeric, self.it, value_cycles)

    def unary(self, min_prec):
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            return _negate(self.expression(expr._POWER_PREC))
        if byte == 0x2B:
            self.pos += 1
            return _number(self.expression(expr._POWER_PREC))
        if byte == PREFIX and self.mem[self.pos + 1] == _NOT:
            self.pos += 2
            value = self.expression(expr._COMPARE_PREC)
            run = value.run
            to_int = expr.to_int
            return Node(lambda: Decimal(~to_int(run())), NUMBER, value.letters,
                        priced=value.priced)
        return self.primary()

    def power_right(self):
        value = self.operand()
        if self.peek() == 0x5E:
            self.pos += 1
            exponent = self.power_right()
            value = _binary(value, exponent, expr._POWER_PREC, None, bcd.power, self.it,
                            costs.power_cycles)
        return value

    def operand(self):
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            return _negate(self.operand())
        if byte == 0x2B:
            self.pos += 1
            return _number(self.operand())
        return self.primary()

    def primary(self):
        mem = self.mem
        byte = self.peek()
        if byte in _DIGITS or byte == 0x2E:
            end = expr.literal_end(mem, self.pos)
            value = bcd.parse_number(bytes(mem[self.pos:end]).decode("ascii"))
            if value is None:
                raise NotCompiled
            self.pos = end
            return _constant(value)
        if byte == 0x22:
            start = pos = self.pos + 1
            while mem[pos] not in (0x22, 0x0D):
                pos += 1
            value = bytes(mem[start:pos])
            self.pos = pos + 1 if mem[pos] == 0x22 else pos
            return _constant(value)
        if byte == 0x28:
            self.pos += 1
            self.nest()
            value = self.expression()
            self.depth -= 1
            self.expect(0x29)
            return value
        if byte in _UPPER:
            return self.variable()
        if byte == 0x26:
            start = pos = self.pos + 1
            while mem[pos] in expr._HEX:
                pos += 1
            self.pos = pos
            value = bcd.parse_number("&" + bytes(mem[start:pos]).decode("ascii"))
            if value is None or not value:
                raise NotCompiled
            return _constant(value)
        if byte == PREFIX:
            code = mem[self.pos + 1]
            self.pos += 2
            self.nest()
            value = self.function(code)
            self.depth -= 1
            return value
        if byte == PI_CHAR:
            self.pos += 1
            return _constant(bcd.PI)
        if byte == ROOT_CHAR:
            self.pos += 1
            return _apply(bcd.sqr, _number(self.operand()), NUMBER, self.it,
                          costs.sqr_cycles)
        raise NotCompiled

    def nest(self):
        """The interpreter's count of open parentheses and functions: past
        expr.NEST_LIMIT it is ERROR 5, left to the interpreter."""
        self.depth += 1
        if self.depth > NEST_LIMIT:
            raise NotCompiled

    def variable(self):
        it = self.it
        mem = self.mem
        name, is_str = self.variable_name()
        if len(name) == 1:
            ref = it.vars.fixed(name[0], is_str)
            letters = frozenset(name)
            if is_str:
                load = it.vars.load
                return Node(lambda: load(ref), STRING, letters)
            addr = ref[0]
            return Node(number_loader(mem, addr), NUMBER, letters, addr=(mem, addr))
        simple, load = it.vars.simple, it.vars.load
        # the interpreter tells a missing string by the byte before where it stopped
        if (mem[self.pos - 1] == 0x24) != is_str:
            raise NotCompiled
        missing = b"" if is_str else bcd.ZERO

        def run():
            ref = simple(name, is_str, False)
            return missing if ref is None else load(ref)
        return Node(run, STRING if is_str else NUMBER)

    def function(self, code):
        it = self.it
        if code in expr._NUMERIC:
            return _apply(expr._NUMERIC[code], _number(self.operand()), NUMBER, it,
                          expr.VALUE_COSTS.get(code))
        if code in expr._ANGLE:
            func = expr._ANGLE[code]
            value_cycles = expr.ANGLE_VALUE_COSTS[code]
            arg = _number(self.operand())
            run = arg.run

            def angle_run():
                number = run()
                angle = it.angle
                value = func(number, angle)
                it.cost += value_cycles(number, value, angle)
                return value
            return Node(angle_run, NUMBER, arg.letters, priced=True)
        if code in _OPERAND_FUNCTIONS:
            func, arg_kind, kind = _OPERAND_FUNCTIONS[code]
            arg = self.operand()
            if arg.kind != arg_kind:
                raise NotCompiled
            return _apply(func, arg, kind, it)
        if code in _PAREN_FUNCTIONS:
            func, count = _PAREN_FUNCTIONS[code]
            self.expect(0x28)
            args = [self.expression()]
            while len(args) < count:
                self.expect(0x2C)
                args.append(self.expression())
            self.expect(0x29)
            if args[0].kind != STRING or any(a.kind != NUMBER for a in args[1:]):
                raise NotCompiled
            runs = [a.run for a in args]
            letters = frozenset().union(*(a.letters for a in args))
            priced = any(a.priced for a in args)
            if count == 2:
                text, length = runs
                return Node(lambda: func(text(), length()), STRING, letters, priced=priced)
            text, first, length = runs
            return Node(lambda: func(text(), first(), length()), STRING, letters,
                        priced=priced)
        if code == CODES["PEEK"]:
            arg = _number(self.operand())
            run = arg.run
            peek = it.peek_byte
            # it may read any variable's bytes
            return Node(lambda: peek(run()), NUMBER, _ALL_LETTERS, priced=arg.priced)
        if code == CODES["PI"]:
            return _constant(bcd.PI)
        if code == CODES["MEM"]:
            return Node(it.fn_mem, NUMBER)
        if code == CODES["INKEY$"]:
            return Node(it.fn_inkey, STRING)
        raise NotCompiled


# ---------------------------------------------------------------- closures

def number_loader(mem, addr):
    """A fixed number variable's value (vars.Variables.load), decoded through bcd's
    cache of stored bytes."""
    cached = bcd._DECODED.get
    from_bytes = bcd.from_bytes
    end = addr + 7

    def load():
        if mem[addr] == STRING_MARK:
            raise BasicError(OTHER)
        data = bytes(mem[addr:end])
        value = cached(data)
        return value if value is not None else from_bytes(data)
    return load


def _fused_load(mem_addr, func, const, compare):
    """`func(variable, const)` for a fixed number variable, its load inlined (the
    hot `A+1`, `A<1E9`). A comparison takes a whole number as the int that
    bcd.INTS knows (Python compares ints and Decimals exactly)."""
    mem, addr = mem_addr
    cached = bcd._DECODED.get
    from_bytes = bcd.from_bytes
    end = addr + 7
    if compare:
        ints = bcd.INTS.get
        # an int compares with an int faster than with a Decimal (and as exactly)
        int_const = const if small_int(const) is None else small_int(const)

        def run():
            data = bytes(mem[addr:end])
            number = ints(data)
            if number is not None:
                return func(number, int_const)
            if mem[addr] == STRING_MARK:
                raise BasicError(OTHER)
            value = cached(data)
            return func(value if value is not None else from_bytes(data), const)
        return run

    def run():
        if mem[addr] == STRING_MARK:
            raise BasicError(OTHER)
        data = bytes(mem[addr:end])
        value = cached(data)
        return func(value if value is not None else from_bytes(data), const)
    return run


def small_int(value):
    """`value` as an int if it is a whole number below 1E10 (so that sums of two
    such are exact in bcd.add's 12 digits), else None."""
    if isinstance(value, Decimal) and value == value.to_integral_value() and \
            abs(value) < bcd.INT_LIMIT:
        return int(value)
    return None


def _number(node):
    if node.kind != NUMBER:
        raise NotCompiled
    return node


def _negate(node):
    return _apply(bcd.neg, _number(node), NUMBER, None)


def _apply(func, arg, kind, it, value_cycles=None):
    """`func(arg)`; `value_cycles(arg, value)` its value-dependent cycles, if any."""
    if arg.const is not None:
        # a constant argument: folded now (an error here leaves the statement to the
        # interpreter; the cycles, the same each time, are among the measured ones)
        return _constant(func(arg.const))
    run = arg.run
    if value_cycles is None:
        return Node(lambda: func(run()), kind, arg.letters, priced=arg.priced)

    def priced_run():
        number = run()
        value = func(number)
        it.cost += value_cycles(number, value)
        return value
    return Node(priced_run, kind, arg.letters, priced=True)


def _binary(left, right, prec, func, numeric, it, value_cycles):
    """`left op right`; `numeric` is the bcd function when op is arithmetic, used
    directly once both sides are numbers (expr's table functions only add the type
    checks); `value_cycles(left, right, result)` its value-dependent cycles, if any."""
    letters = left.letters | right.letters
    if prec == expr._COMPARE_PREC:
        if left.kind != right.kind:
            raise NotCompiled
        kind = NUMBER
    elif numeric is not None and left.kind == right.kind == NUMBER:
        func = numeric
        kind = NUMBER
    elif func is expr._add and left.kind == right.kind == STRING:
        kind = STRING
    elif prec < expr._COMPARE_PREC and left.kind == right.kind == NUMBER:
        kind = NUMBER          # AND, OR
    else:
        raise NotCompiled
    lrun, rrun = left.run, right.run
    if value_cycles is not None:
        def priced_run():
            a = lrun()
            b = rrun()
            result = func(a, b)
            it.cost += value_cycles(a, b, result)
            return result
        return Node(priced_run, kind, letters, priced=True)
    priced = left.priced or right.priced
    if right.const is not None:
        const = right.const
        if left.addr is not None:
            node = Node(_fused_load(left.addr, func, const, prec == expr._COMPARE_PREC),
                        kind, letters)
            if func in (bcd.add, bcd.sub) and small_int(const) is not None:
                step = small_int(const)
                node.counter = (left.addr[1], step if func is bcd.add else -step)
            return node
        return Node(lambda: func(lrun(), const), kind, letters, priced=priced)
    return Node(lambda: func(lrun(), rrun()), kind, letters, priced=priced)

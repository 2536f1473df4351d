"""Expressions over tokenized bytes in RAM, with the machine's precedence: the one
parser, which turns an expression into closures (nodes.py) once per place in RAM.

Precedence, highest first (docs/basic_language.md §3.1): parentheses, variables, functions,
`^`, sign, `* /`, `+ -`, comparisons, NOT, AND, OR. So `-2^2` is -4, `INT 2.5^2` is 4
(a function without parentheses takes one operand), `2^3^2` is 512 (`^` alone groups
to the right), as the firmware engine computes them. Comparisons give
1 or 0; AND/OR/NOT work bitwise on integers (NOT 1 is -2). Numbers are Decimals
(bcd.py), strings are bytes; mixing them is ERROR 9, as on the firmware engine.

The machine works an expression out while it reads it, so a value's error comes
before a syntax error further on (`1/0+(` is ERROR 2, `IF 1/0 A=1` ERROR 1: the
literal 0 is refused before the division). A parse that fails becomes a closure
that works out what came before, in order, and then reports the error where the
parse stopped. A compiled expression is kept by its address while the bytes it was
read from stay the same (an edit, POKE or CLOAD makes it parse again). A function or
operator without side effects applied to constants (`LEFT$("HELLO",3)`, `-1`) is
worked out as it is parsed, unless it fails (then it fails each time it runs, as
always) or its cycles depend on the values (those are charged each time).
"""

import operator
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from emulator.builtin import bcd, costs, nodes
from emulator.builtin.basic_errors import ILLEGAL, NESTING, SYNTAX, BasicError
from emulator.builtin.nodes import NUMBER, STRING, Node, to_int
from emulator.builtin.scanner import DIGITS, UPPER, Scanner
from emulator.builtin.token_codes import CODES, PI_CHAR, ROOT_CHAR
from pc1360.facts import CR, PREFIX, QUOTE

_NOT = CODES["NOT"]
# one-operand functions: code -> (function, argument check, result kind)
_OPERAND_FUNCTIONS = {CODES[name]: entry for name, entry in (
    ("SQR", (bcd.sqr, nodes.number, NUMBER)), ("LN", (bcd.ln, nodes.number, NUMBER)),
    ("LOG", (bcd.log, nodes.number, NUMBER)), ("EXP", (bcd.exp, nodes.number, NUMBER)),
    ("INT", (bcd.int_, nodes.number, NUMBER)), ("ABS", (bcd.abs_, nodes.number, NUMBER)),
    ("SGN", (bcd.sgn, nodes.number, NUMBER)), ("DEG", (bcd.deg, nodes.number, NUMBER)),
    ("DMS", (bcd.dms, nodes.number, NUMBER)),
    ("LEN", (nodes.str_len, nodes.string, NUMBER)), ("ASC", (nodes.asc, nodes.string, NUMBER)),
    ("VAL", (nodes.leading_number, nodes.string, NUMBER)),
    ("CHR$", (nodes.chr_, nodes.number, STRING)), ("STR$", (nodes.str_, nodes.number, STRING)))}
_ANGLE = {CODES[name]: func for name, func in (
    ("SIN", bcd.sin), ("COS", bcd.cos), ("TAN", bcd.tan), ("ASN", bcd.asn),
    ("ACS", bcd.acs), ("ATN", bcd.atn))}
# functions of parenthesized arguments: code -> (function, count, result kind)
_PAREN_FUNCTIONS = {CODES["MID$"]: (nodes.mid, 3, STRING),
                    CODES["LEFT$"]: (nodes.left, 2, STRING),
                    CODES["RIGHT$"]: (nodes.right, 2, STRING)}
_HEX = frozenset(b"0123456789ABCDEF")
_COMPARE = {
    b"=": lambda a, b: a == b, b"<": lambda a, b: a < b, b">": lambda a, b: a > b,
    b"<=": lambda a, b: a <= b, b"=<": lambda a, b: a <= b,
    b">=": lambda a, b: a >= b, b"=>": lambda a, b: a >= b,
    b"<>": lambda a, b: a != b, b"><": lambda a, b: a != b,
}
NEST_LIMIT = 16


@dataclass(slots=True)
class Operator:
    """A binary operator: its precedence, the checked function, the bcd function to
    use once both sides are known numbers (None: `func` always), its fixed cycles
    and its value-dependent ones (costs.py), if any; `exact`: the same operation on
    ints, which bcd gives exactly for whole numbers below 1E10 (nodes.int_image)."""
    prec: int
    func: Callable
    numeric: Callable | None
    cycles: int
    value_cycles: Callable | None = None
    exact: Callable | None = None
    error_cycles: Callable | None = None    # the cycles it takes before an error


# Unary NOT binds between AND and the comparisons, unary sign between `* /` and `^`.
_COMPARE_PREC = 4
_POWER_PREC = 8
_VALUE_OPS = costs.OPERATOR_VALUE_COSTS
_TOKEN_OPS = {CODES["OR"]: Operator(1, nodes.bitwise(lambda a, b: a | b), None, costs.LOGIC),
              CODES["AND"]: Operator(2, nodes.bitwise(lambda a, b: a & b), None, costs.LOGIC)}
_BYTE_OPS = {
    0x2B: Operator(5, nodes.join_or_add, bcd.add, costs.ADD, exact=operator.add),
    0x2D: Operator(5, nodes.checked(bcd.sub), bcd.sub, costs.ADD, exact=operator.sub),
    0x2A: Operator(6, nodes.checked(bcd.mul), bcd.mul, costs.MULTIPLY, _VALUE_OPS["*"]),
    0x2F: Operator(6, nodes.checked(bcd.div), bcd.div, costs.DIVIDE, _VALUE_OPS["/"]),
    0x5E: Operator(_POWER_PREC, nodes.checked(bcd.power), bcd.power, costs.POWER,
                   _VALUE_OPS["^"], error_cycles=costs.power_error_cycles),
}
_POWER = _BYTE_OPS[0x5E]
_COMPARE_BYTES = frozenset(b"<=>")
_COMPARE_OPS = {op: Operator(_COMPARE_PREC, nodes.comparison(test), None, costs.COMPARE)
                for op, test in _COMPARE.items()}
_FUNCTION_COSTS = {CODES[name]: cycles for name, cycles in costs.FUNCTIONS.items()}
_VALUE_COSTS = {CODES[name]: func for name, func in costs.VALUE_COSTS.items()}
_ANGLE_VALUE_COSTS = {CODES[name]: func for name, func in costs.ANGLE_VALUE_COSTS.items()}
_NOT_AFTER_LITERAL = frozenset(range(0x41, 0x5B)) | frozenset(range(0x61, 0x7B)) | {QUOTE}
# what may start an operand: a letter, a digit, `.`, `"`, `(`, `&` (a hex number)
_NOT_AFTER_CALL = _NOT_AFTER_LITERAL | DIGITS | {0x2E, 0x28, 0x26}
CACHE_LIMIT = 4096          # compiled expressions kept before the cache starts afresh
_LOOKAHEAD = 3              # bytes past its end that a parse may have looked at


def literal_end(mem, pos):
    """Where the number literal starting at `pos` ends: digits and points, then an
    exponent: E, a sign, digits, where the sign and digits may be missing (`1E`, `2E-`
    are 1 and 2: firmware engine, case NUMBER_empty_exponent). The firmware reads on over
    a point or an E more, which it passes over (`1.5.5` is 1.55, `1E2E3` 1E23, `1E2.5`
    1E25: _complete; case NUMBER_extra_points). A letter or `"` after it (spaces apart)
    is ERROR 1 at once, before any operation pending in the expression, where the
    literal ends (LEFT puts the cursor there: `12+3A` on the A, `0T` on the T; firmware
    engine, case CALC_error_after_literal)."""
    while mem[pos] in _MANTISSA:
        pos += 1
    if mem[pos] == 0x45:
        pos += 1
        if mem[pos] in (0x2B, 0x2D):
            pos += 1
        while mem[pos] in _EXPONENT:
            pos += 1
    look = pos
    while mem[look] == 0x20:
        look += 1
    if mem[look] in _NOT_AFTER_LITERAL:
        raise _Stop(SYNTAX, pos)
    return pos


_MANTISSA = DIGITS | {0x2E}
_EXPONENT = DIGITS | {0x2E, 0x45}


def _complete(text):
    """A literal (literal_end's) as Decimal reads it: the points after the first and in
    the exponent passed over, so are the E's after the first; an exponent with no digits
    is 0, a lone point 0."""
    mantissa, e, exponent = text.partition("E")
    whole, point, fraction = mantissa.partition(".")
    text = whole + point + fraction.replace(".", "") + e + exponent.replace(".", "").replace("E", "")
    if text[-1:] in ("E", "+", "-"):
        text += "0"
    return "0" + text if text.startswith(".") else text


def binary_operator(mem, pos):
    """(position, Operator or None, width in bytes) of the binary operator at `pos`
    after spaces."""
    byte = mem[pos]
    while byte == 0x20:
        pos += 1
        byte = mem[pos]
    if byte == PREFIX:
        return pos, _TOKEN_OPS.get(mem[pos + 1]), 2
    if byte in _COMPARE_BYTES:
        width = 2 if mem[pos + 1] in _COMPARE_BYTES and bytes(mem[pos:pos + 2]) in _COMPARE \
            else 1
        return pos, _COMPARE_OPS[bytes(mem[pos:pos + width])], width
    return pos, _BYTE_OPS.get(byte), 1


@dataclass(slots=True)
class Compiled:
    """A compiled expression (or variable reference) at its start: valid while
    mem[start:check_end] == code; `run()` gives the value, `end` is where the parse
    stopped and `cost` the fixed cycles of its parts; `const` and `image` are its
    Node's."""
    check_end: int
    code: bytes
    run: Callable
    end: int
    cost: int
    const: object = None
    image: Callable | None = None


def compile_at(it, start, reference=None):
    """The expression at `start` (with `reference`: the variable reference, created
    if it is True), compiled for interpreter `it`."""
    parser = _Parser(it, start)
    try:
        node = parser.expression() if reference is None else parser.reference(reference)
        end = parser.pos
        check_end = end + _LOOKAHEAD
    except _Stop as stop:
        node = nodes.failing(it, stop.code, stop.at, stop.before)
        # (a literal's look past itself went no further than the line's end)
        check_end = _line_end(it.mem, max(stop.at, parser.pos)) + 1
    return Compiled(check_end, bytes(it.mem[start:check_end]), node.run, parser.pos,
                    parser.cost, node.const, node.image)


class _Stop(Exception):
    """The parse stopped with ERROR `code` at `at`; `before` is what the machine
    worked out before it got there."""

    def __init__(self, code, at):
        super().__init__(code)
        self.code, self.at, self.before = code, at, []


class _Parser(Scanner):
    """One expression's parse: `cost` adds up the fixed cycles of its parts."""

    def __init__(self, it, start):
        self.it = it
        self.mem = it.mem
        self.pos = start
        self.depth = 0
        self.cost = 0

    def refuse(self):
        raise _Stop(SYNTAX, self.pos)

    def after(self, done, parse, *args):
        """`parse(*args)` once the nodes `done` are worked out: if it stops, they
        are worked out before the error."""
        try:
            return parse(*args)
        except _Stop as stop:
            stop.before[:0] = [node.run for node in done]
            raise

    def nest(self):
        """One more open parenthesis or function: the machine allows 16
        (docs/basic_language.md §3.3)."""
        self.depth += 1
        if self.depth > NEST_LIMIT:
            raise _Stop(NESTING, self.pos)

    # ------------------------------------------------------------ precedence levels

    def expression(self, min_prec=1):
        """Precedence climbing over the operator tables (all but `^` group to the
        left)."""
        left_start = self.cost
        left = self.unary()
        mem = self.mem
        while True:
            pos, op, width = binary_operator(mem, self.pos)
            if op is None or op.prec < min_prec:
                self.pos = pos
                return left
            self.pos = pos + width
            if op.prec == _POWER_PREC:
                right = self.after([left], self.power_right)
            else:
                right = self.after([left], self.expression, op.prec + 1)
            left = self.binary(op, left, right, self.cost - left_start)

    def pure(self, func, args, kind):
        """`func(*args)` for a function without side effects or value-dependent
        cycles: worked out now if the arguments are constants."""
        node = nodes.folded(func, args)
        if node is not None:
            return node
        if len(args) == 1:
            return nodes.apply(self.it, func, args[0], kind, self.pos)
        return nodes.apply_args(self.it, func, args, kind, self.pos)

    def binary(self, op, left, right, operand_cycles=0):
        self.cost += op.cycles
        both = left.kind == right.kind == NUMBER
        func = op.numeric if both and op.numeric is not None else op.func
        if op.value_cycles is None:
            node = nodes.folded(func, [left, right])
            if node is not None:
                return node
        kind = NUMBER if both or op.func is not nodes.join_or_add else STRING
        return nodes.binary(self.it, left, right, func, kind, self.pos, op.value_cycles,
                            op.prec == _COMPARE_PREC, op.exact if both else None,
                            op.error_cycles, operand_cycles)

    def unary(self):
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            self.cost += costs.NEGATE
            return self.negate(self.expression(_POWER_PREC))
        if byte == 0x2B:
            self.pos += 1
            return self.numeric(self.expression(_POWER_PREC))
        if byte == PREFIX and self.mem[self.pos + 1] == _NOT:
            self.pos += 2
            self.cost += costs.NOT
            return self.pure(lambda value: Decimal(~to_int(value)),
                             [self.expression(_COMPARE_PREC)], NUMBER)
        return self.primary()

    def negate(self, node):
        return self.pure(lambda value: bcd.neg(nodes.number(value)), [node], NUMBER)

    def numeric(self, node):
        """A value that must be a number (a sign, a function's argument)."""
        if node.kind == NUMBER:
            return node
        return Node(nodes.checking(self.it, nodes.number, node, self.pos), NUMBER)

    def power_right(self):
        """The right side of `^`: `^` groups to the right (2^3^2 is 512 on the
        firmware engine)."""
        value = self.operand()
        if self.peek() == 0x5E:
            self.pos += 1
            exponent = self.after([value], self.power_right)
            value = self.binary(_POWER, value, exponent)
        return value

    def operand(self):
        """A function's argument without parentheses, or the right side of `^`:
        an optional sign and one primary."""
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            self.cost += costs.NEGATE
            return self.negate(self.operand())
        if byte == 0x2B:
            self.pos += 1
            return self.numeric(self.operand())
        return self.primary()

    # ------------------------------------------------------------ primaries

    def primary(self):
        byte = self.peek()
        if byte in DIGITS or byte == 0x2E:
            return self.number_literal()
        if byte == QUOTE:
            value = self.string_literal()
            self.cost += costs.STRING_LITERAL + len(value) * costs.STRING_CHAR
            return nodes.constant(value)
        if byte == 0x28:
            self.pos += 1
            self.cost += costs.PARENTHESES
            self.nest()
            value = self.expression()
            self.depth -= 1
            self.after([value], self.expect, 0x29)
            return value
        if byte in UPPER:
            self.cost += costs.VARIABLE
            return self.variable()
        if byte == 0x26:
            return self.hex_literal()
        if byte == PREFIX:
            code = self.mem[self.pos + 1]
            self.pos += 2
            self.nest()
            value = self.function(code)
            self.depth -= 1
            return value
        if byte == PI_CHAR:
            self.pos += 1
            return nodes.constant(bcd.PI)
        if byte == ROOT_CHAR:
            self.pos += 1
            self.cost += costs.FUNCTIONS["SQR"]
            arg = self.numeric(self.operand())
            return nodes.apply(self.it, bcd.sqr, arg, NUMBER, self.pos, costs.sqr_cycles)
        raise _Stop(SYNTAX, self.pos)

    def number_literal(self):
        mem = self.mem
        start = self.pos
        self.cost += costs.LITERAL
        end = literal_end(mem, start)
        self.pos = end
        self.cost += (end - start - 1) * costs.LITERAL_CHAR
        try:
            value = bcd.parse_number(_complete(bytes(mem[start:end]).decode("ascii")))
        except BasicError as error:         # 1E100
            raise _Stop(error.code, end) from None
        if value is None:
            raise _Stop(SYNTAX, end)
        return nodes.constant(value)

    def hex_literal(self):
        mem = self.mem
        start = pos = self.pos + 1
        while mem[pos] in _HEX:
            pos += 1
        self.pos = pos
        value = bcd.parse_number("&" + bytes(mem[start:pos]).decode("ascii"))
        if value is None or not value:
            # the firmware refuses &0 (&00, 1+&0) with ERROR 1; in a program it even
            # reports line 0 (`ERROR 1 IN 0`, not modelled)
            raise _Stop(SYNTAX, pos)
        return nodes.constant(value)

    # ------------------------------------------------------------ variables

    def variable(self):
        """A variable's value; a two-character variable that does not exist yet is
        0 or "" (told by the byte before where its parse stopped, as always)."""
        it = self.it
        ref_node = self.reference(False)
        at = self.pos
        missing = b"" if self.mem[at - 1] == 0x24 else bcd.ZERO
        if ref_node.const is not None:          # a fixed variable
            ref = ref_node.const
            if ref[2] == 0:
                mem = self.mem
                return Node(nodes.number_loader(it, mem, ref[0], at), NUMBER,
                            addr=(mem, ref[0]))
            return Node(_loader(it, lambda: ref, missing, at), STRING)
        kind = NUMBER if ref_node.kind == NUMBER and missing == bcd.ZERO else STRING
        return Node(_loader(it, ref_node.run, missing, at), kind)

    def reference(self, create):
        """A variable reference (name, `$`, subscripts): a Node whose run() gives the
        storage reference (None for a two-character variable that does not exist and
        is not to be created); a fixed variable's is its `const`."""
        it = self.it
        variables = it.vars
        name, is_str = self.variable_name()
        kind = STRING if is_str else NUMBER
        if self.peek() != 0x28:
            at = self.pos
            if len(name) == 1:
                ref = variables.fixed(name[0], is_str)
                return Node(lambda: ref, kind, const=ref)
            simple = variables.simple

            def simple_run():
                try:
                    return simple(name, is_str, create)
                except BasicError:
                    it.pos = at
                    raise
            return Node(simple_run, kind)
        self.pos += 1
        self.cost += costs.ELEMENT
        indices = [self.index()]
        while self.accept(0x2C):
            indices.append(self.after(indices, self.index))
        self.after(indices, self.expect, 0x29)
        element, fixed_index = variables.element, variables.fixed_index
        return nodes.apply_args(it, lambda *values: _element(element, fixed_index, name,
                                                             is_str, list(values)),
                                indices, kind, self.pos)

    def index(self):
        node = self.expression()
        return Node(nodes.checking(self.it, lambda value: to_int(value, 0, 65535), node,
                                   self.pos), NUMBER)

    # ------------------------------------------------------------ functions

    def function(self, code):
        it = self.it
        self.cost += _FUNCTION_COSTS.get(code, costs.FUNCTION)
        before = self.cost
        entry = _OPERAND_FUNCTIONS.get(code)
        if entry is not None:
            func, check, kind = entry
            arg = self.argument(self.operand())
            if check is not nodes.number or arg.kind != NUMBER:
                arg = Node(nodes.checking(it, check, arg, self.pos), arg.kind)
            value_cycles = _VALUE_COSTS.get(code)
            if value_cycles is None:
                return self.pure(func, [arg], kind)
            return nodes.apply(it, func, arg, kind, self.pos, value_cycles, self.cost - before)
        if code in _ANGLE:
            func, value_cycles = _ANGLE[code], _ANGLE_VALUE_COSTS[code]
            # in the angle unit in force when it runs
            arg = self.argument(self.numeric(self.operand()))
            return nodes.apply(it, lambda number: func(number, it.angle), arg, NUMBER,
                               self.pos,
                               lambda number, value: value_cycles(number, value, it.angle),
                               self.cost - before)
        entry = _PAREN_FUNCTIONS.get(code)
        if entry is not None:
            func, count, kind = entry
            return self.pure(func, self.argument(self.paren_args(count)), kind)
        if code == CODES["POINT"]:
            return nodes.apply_args(it, it.point, self.argument(self.paren_args(2)), NUMBER,
                                    self.pos)
        if code == CODES["RND"]:
            return nodes.apply(it, it.rnd, self.argument(self.numeric(self.operand())), NUMBER,
                               self.pos)
        if code == CODES["PEEK"]:
            return nodes.apply(it, it.peek_byte, self.argument(self.numeric(self.operand())),
                               NUMBER, self.pos)
        if code == CODES["PI"]:
            return nodes.constant(bcd.PI)
        if code == CODES["MEM"]:
            return Node(it.free_memory, NUMBER)
        if code == CODES["INKEY$"]:
            return Node(it.inkey_string, STRING)
        raise _Stop(SYNTAX, self.pos)

    def argument(self, parsed):
        """A function's argument (a node) or arguments (a list), just parsed: what may
        start an operand after it (spaces apart) is ERROR 1 there once it is worked out,
        before the function runs (`ACS(10)A`, `ACS(10)5`, `LEFT$("AB",1)A`: not ERROR 2
        or 9; firmware engine, case ERROR_letter_after_function)."""
        look = self.pos
        while self.mem[look] == 0x20:
            look += 1
        if self.mem[look] in _NOT_AFTER_CALL:
            stop = _Stop(SYNTAX, self.pos)
            stop.before = [arg.run for arg in (parsed if isinstance(parsed, list) else [parsed])]
            raise stop
        return parsed

    def paren_args(self, count):
        self.expect(0x28)
        args = [self.expression()]
        while len(args) < count:
            self.after(args, self.expect, 0x2C)
            args.append(self.after(args, self.expression))
        self.after(args, self.expect, 0x29)
        return args


def _line_end(mem, pos):
    while pos < len(mem) - 1 and mem[pos] != CR:
        pos += 1
    return pos


def _element(element, fixed_index, name, is_str, indices):
    ref = element(name, is_str, indices)
    if ref is None:
        # without a DIM only A() names the fixed variables (X(2) is ERROR 3)
        if name != b"A" or len(indices) != 1:
            raise BasicError(ILLEGAL)
        ref = fixed_index(indices[0], is_str)
    return ref


def _loader(it, reference, missing, at):
    """A variable's value through its reference (the vars' own load)."""
    load = it.vars.load

    def run():
        ref = reference()
        if ref is None:
            return missing
        try:
            return load(ref)
        except BasicError as error:     # its value is of the other kind
            it.pos = at
            error.on_last = True
            raise
    return run

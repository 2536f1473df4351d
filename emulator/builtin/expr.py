"""Expressions over tokenized bytes in RAM, with the machine's precedence.

Precedence, highest first (basic_language.md §1.1): parentheses, variables, functions,
`^`, sign, `* /`, `+ -`, comparisons, NOT, AND, OR. So `-2^2` is -4, `INT 2.5^2` is 4
(a function without parentheses takes one operand), `2^3^2` is 512 (`^` alone groups
to the right), as the firmware engine computes them. Comparisons give
1 or 0; AND/OR/NOT work bitwise on integers (NOT 1 is -2). Numbers are Decimals
(bcd.py), strings are bytes; mixing them is ERROR 9, as on the firmware engine.
"""

import re
from decimal import Decimal

from emulator.builtin import bcd, costs
from emulator.builtin.basic_errors import ILLEGAL, NESTING, OTHER, SYNTAX, BasicError
from emulator.builtin.token_codes import CODES, PI_CHAR, PREFIX, ROOT_CHAR

_NOT = CODES["NOT"]
_NUMERIC = {CODES[name]: func for name, func in (
    ("SQR", bcd.sqr), ("LN", bcd.ln), ("LOG", bcd.log), ("EXP", bcd.exp),
    ("INT", bcd.int_), ("ABS", bcd.abs_), ("SGN", bcd.sgn), ("DEG", bcd.deg),
    ("DMS", bcd.dms))}
_ANGLE = {CODES[name]: func for name, func in (
    ("SIN", bcd.sin), ("COS", bcd.cos), ("TAN", bcd.tan), ("ASN", bcd.asn),
    ("ACS", bcd.acs), ("ATN", bcd.atn))}
_DIGITS = frozenset(b"0123456789")
_HEX = frozenset(b"0123456789ABCDEF")
_UPPER = frozenset(range(0x41, 0x5B))
_NAME2 = _UPPER | _DIGITS
_TRUE, _FALSE = Decimal(1), Decimal(0)
_COMPARE = {
    b"=": lambda a, b: a == b, b"<": lambda a, b: a < b, b">": lambda a, b: a > b,
    b"<=": lambda a, b: a <= b, b"=<": lambda a, b: a <= b,
    b">=": lambda a, b: a >= b, b"=>": lambda a, b: a >= b,
    b"<>": lambda a, b: a != b, b"><": lambda a, b: a != b,
}
MAX_STRING = 80
NEST_LIMIT = 16
# VAL reads a decimal number only (VAL "&1F" is 0 on the firmware engine)
_VAL = re.compile(r" *([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:E[+-]?[0-9]+)?)")


def _number(value):
    if isinstance(value, bytes):
        raise BasicError(OTHER)
    return value


def _add(a, b):
    """`+`: numbers add, strings join (up to 80 characters)."""
    if isinstance(a, bytes) and isinstance(b, bytes):
        if len(a) + len(b) > MAX_STRING:
            raise BasicError(NESTING)       # ERROR 5 past 80 characters, as the firmware
        return a + b
    return bcd.add(_number(a), _number(b))


def _comparison(test):
    def compare(a, b):
        if isinstance(a, bytes) != isinstance(b, bytes):
            raise BasicError(OTHER)
        return _TRUE if test(a, b) else _FALSE
    return compare


def _bitwise(func):
    return lambda a, b: Decimal(func(to_int(a), to_int(b)))


# Binary operators: (precedence, function). Unary NOT binds between AND and the
# comparisons, unary sign between `* /` and `^`.
_COMPARE_PREC = 4
_POWER_PREC = 8
# The fourth item gives an evaluation's value-dependent cycles (costs.py), if any.
_TOKEN_OPS = {CODES["OR"]: (1, _bitwise(lambda a, b: a | b), costs.LOGIC, None),
              CODES["AND"]: (2, _bitwise(lambda a, b: a & b), costs.LOGIC, None)}
_VALUE_OPS = costs.OPERATOR_VALUE_COSTS
_BYTE_OPS = {
    0x2B: (5, _add, costs.ADD, None),
    0x2D: (5, lambda a, b: bcd.sub(_number(a), _number(b)), costs.ADD, None),
    0x2A: (6, lambda a, b: bcd.mul(_number(a), _number(b)), costs.MULTIPLY,
           _VALUE_OPS["*"]),
    0x2F: (6, lambda a, b: bcd.div(_number(a), _number(b)), costs.DIVIDE,
           _VALUE_OPS["/"]),
    0x5E: (_POWER_PREC, lambda a, b: bcd.power(_number(a), _number(b)), costs.POWER,
           _VALUE_OPS["^"]),
}
_COMPARE_BYTES = frozenset(b"<=>")
_COMPARE_OPS = {op: (_COMPARE_PREC, _comparison(test), costs.COMPARE, None)
                for op, test in _COMPARE.items()}
_FUNCTION_COSTS = {CODES[name]: cycles for name, cycles in costs.FUNCTIONS.items()}
VALUE_COSTS = {CODES[name]: func for name, func in costs.VALUE_COSTS.items()}
ANGLE_VALUE_COSTS = {CODES[name]: func for name, func in costs.ANGLE_VALUE_COSTS.items()}
_SQR_CYCLES = costs.VALUE_COSTS["SQR"]


_NOT_AFTER_LITERAL = frozenset(range(0x41, 0x5B)) | frozenset(range(0x61, 0x7B)) | {0x22}


def literal_end(mem, pos):
    """Where the number literal starting at `pos` ends: digits, an optional fraction,
    and an exponent only when digits follow the E. A letter or `"` after it (spaces
    apart) is ERROR 1 at once, before any operation pending in the expression: the
    firmware engine gives ERROR 1 for `IF 1/0 A=1` but ERROR 2 for `IF 1/Z A=1`."""
    while mem[pos] in _DIGITS:
        pos += 1
    if mem[pos] == 0x2E:
        pos += 1
        while mem[pos] in _DIGITS:
            pos += 1
    if mem[pos] == 0x45:
        look = pos + 1
        if mem[look] in (0x2B, 0x2D):
            look += 1
        if mem[look] in _DIGITS:
            pos = look
            while mem[pos] in _DIGITS:
                pos += 1
    look = pos
    while mem[look] == 0x20:
        look += 1
    if mem[look] in _NOT_AFTER_LITERAL:
        raise BasicError(SYNTAX)
    return pos


def to_int(value, low=-32768, high=65535):
    """A number as an integer argument (truncated); ERROR 3 outside [low, high]."""
    if isinstance(value, bytes):
        raise BasicError(OTHER)
    if not low <= value < high + 1:
        raise BasicError(ILLEGAL)
    return int(value)


def binary_operator(mem, pos):
    """(position, operator entry or None, width in bytes) of the binary operator at
    `pos` after spaces; shared by the interpreter and the expression compiler."""
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


class Scanner:
    """Reading tokenized bytes at `pos` in `mem`, shared by the interpreter and the
    expression compiler; `refuse()` says what a missing byte means to each."""

    def peek(self):
        """The next byte that is not a space (the tokenizer drops spaces outside
        strings, so the loop rarely runs)."""
        mem = self.mem
        byte = mem[self.pos]
        if byte != 0x20:
            return byte
        pos = self.pos
        while mem[pos] == 0x20:
            pos += 1
        self.pos = pos
        return mem[pos]

    def accept(self, byte):
        if self.peek() == byte:
            self.pos += 1
            return True
        return False

    def expect(self, byte):
        if not self.accept(byte):
            self.refuse()

    def peek_token(self):
        """The keyword code at the current position, or None."""
        if self.peek() == PREFIX:
            return self.mem[self.pos + 1]
        return None

    def accept_token(self, code):
        if self.peek() == PREFIX and self.mem[self.pos + 1] == code:
            self.pos += 2
            return True
        return False

    def at_end(self):
        """True at the end of a statement (':' or the line's 0x0D)."""
        return self.peek() in (0x3A, 0x0D)

    def variable_name(self):
        """(name, is_str) of the variable at pos, which moves past the name and `$`."""
        mem = self.mem
        pos = self.pos
        name = bytes([mem[pos]])
        pos += 1
        if mem[pos] in _NAME2:
            name += bytes([mem[pos]])
            pos += 1
            while mem[pos] in _NAME2:       # ABC is AB (as on the firmware engine)
                pos += 1
        is_str = mem[pos] == 0x24
        if is_str:
            pos += 1
        self.pos = pos
        return name, is_str


class Expressions(Scanner):
    """Mixin for the interpreter: needs mem, pos, vars, screen, angle, a dict
    `_literals`, a cycle counter `cost` and the host hooks inkey(),
    random_fraction()."""

    def refuse(self):
        raise BasicError(SYNTAX)

    # ------------------------------------------------------------ typed results

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

    # ------------------------------------------------------------ precedence levels

    def expression(self, min_prec=1):
        """An expression whose binary operators bind at least as tight as `min_prec`
        (precedence climbing over the operator tables; all but `^` group to the
        left)."""
        left = self._unary(min_prec)
        mem = self.mem
        while True:
            pos, op, width = binary_operator(mem, self.pos)
            if op is None or op[0] < min_prec:
                self.pos = pos
                return left
            self.pos = pos + width
            prec, func, cycles, value_cycles = op
            right = self._power_right() if prec == _POWER_PREC else self.expression(prec + 1)
            if value_cycles is None:
                left = func(left, right)
                self.cost += cycles
            else:
                result = func(left, right)
                self.cost += cycles + value_cycles(left, right, result)
                left = result

    def _unary(self, min_prec):
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            self.cost += costs.NEGATE
            return bcd.neg(_number(self.expression(_POWER_PREC)))
        if byte == 0x2B:
            self.pos += 1
            return _number(self.expression(_POWER_PREC))
        if byte == PREFIX and self.mem[self.pos + 1] == _NOT:
            self.pos += 2
            self.cost += costs.NOT
            return Decimal(~to_int(self.expression(_COMPARE_PREC)))
        return self.primary()

    def _power_right(self):
        """The right side of `^`: `^` groups to the right (2^3^2 is 512 on the
        firmware engine)."""
        value = self.operand()
        if self.peek() == 0x5E:
            self.pos += 1
            exponent = _number(self._power_right())
            result = bcd.power(_number(value), exponent)
            self.cost += costs.POWER + costs.power_cycles(value, exponent, result)
            value = result
        return value

    def operand(self):
        """A function's argument without parentheses, or the right side of `^`:
        an optional sign and one primary."""
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            self.cost += costs.NEGATE
            return bcd.neg(self._num(self.operand()))
        if byte == 0x2B:
            self.pos += 1
            return self._num(self.operand())
        return self.primary()

    @staticmethod
    def _num(value):
        if isinstance(value, bytes):
            raise BasicError(OTHER)
        return value

    # ------------------------------------------------------------ primaries

    def nest(self):
        """Count one more open parenthesis or function: the machine allows 16
        (basic_language.md §1.1). The count is reset per statement, so an error that
        abandons an expression leaves nothing behind."""
        self.depth += 1
        if self.depth > NEST_LIMIT:
            raise BasicError(NESTING)

    def primary(self):
        byte = self.peek()
        if byte in _DIGITS or byte == 0x2E:
            return self._number_literal()
        if byte == 0x22:
            value = self.string_literal()
            self.cost += costs.STRING_LITERAL + len(value) * costs.STRING_CHAR
            return value
        if byte == 0x28:
            self.pos += 1
            self.cost += costs.PARENTHESES
            self.nest()
            value = self.expression()
            self.depth -= 1
            self.expect(0x29)
            return value
        if byte in _UPPER:
            self.cost += costs.VARIABLE
            ref = self.variable(create=False)
            if ref is None:
                return b"" if self.mem[self.pos - 1] == 0x24 else bcd.ZERO
            return self.vars.load(ref)
        if byte == 0x26:
            return self._hex_literal()
        if byte == PREFIX:
            code = self.mem[self.pos + 1]
            self.pos += 2
            self.nest()
            value = self.function(code)
            self.depth -= 1
            return value
        if byte == PI_CHAR:
            self.pos += 1
            return bcd.PI
        if byte == ROOT_CHAR:
            self.pos += 1
            self.cost += costs.FUNCTIONS["SQR"]
            arg = self._num(self.operand())
            root = bcd.sqr(arg)
            self.cost += _SQR_CYCLES(arg, root)
            return root
        raise BasicError(SYNTAX)

    def _number_literal(self):
        mem = self.mem
        start = pos = self.pos
        # A literal is parsed once per place in RAM; the cached bytes (with the three
        # after it that decided where it ends) are compared, so an edited or POKEd
        # program, or a new immediate line, is parsed afresh.
        self.cost += costs.LITERAL
        cached = self._literals.get(start)
        if cached is not None and mem[start:cached[0] + 3] == cached[1]:
            self.pos = cached[0]
            self.cost += (cached[0] - start - 1) * costs.LITERAL_CHAR
            return cached[2]
        pos = literal_end(mem, start)
        self.pos = pos
        self.cost += (pos - start - 1) * costs.LITERAL_CHAR
        raw = bytes(mem[start:pos])
        value = bcd.parse_number(raw.decode("ascii"))
        if value is None:
            raise BasicError(SYNTAX)
        if len(self._literals) > 4096:
            self._literals.clear()
        self._literals[start] = (pos, bytes(mem[start:pos + 3]), value)
        return value

    def _hex_literal(self):
        mem = self.mem
        start = pos = self.pos + 1
        while mem[pos] in _HEX:
            pos += 1
        self.pos = pos
        value = bcd.parse_number("&" + bytes(mem[start:pos]).decode("ascii"))
        if value is None or not value:
            # the firmware refuses &0 (&00, 1+&0) with ERROR 1; in a program it even
            # reports line 0 (`ERROR 1 IN 0`, not modelled)
            raise BasicError(SYNTAX)
        return value

    def string_literal(self):
        """A quoted string; a missing closing quote ends at the line's end."""
        mem = self.mem
        start = pos = self.pos + 1
        while mem[pos] not in (0x22, 0x0D):
            pos += 1
        value = bytes(mem[start:pos])
        self.pos = pos + 1 if mem[pos] == 0x22 else pos
        return value

    # ------------------------------------------------------------ variables

    def variable(self, create):
        """Parse a variable reference (name, `$`, subscripts) and return its storage
        reference; None for a two-character variable that does not exist yet."""
        name, is_str = self.variable_name()
        if self.peek() != 0x28:
            return self.vars.simple(name, is_str, create)
        self.pos += 1
        self.cost += costs.ELEMENT
        indices = [self.integer(0, 65535)]
        while self.accept(0x2C):
            indices.append(self.integer(0, 65535))
        self.expect(0x29)
        ref = self.vars.element(name, is_str, indices)
        if ref is None:
            # without a DIM only A() names the fixed variables (X(2) is ERROR 3)
            if name != b"A" or len(indices) != 1:
                raise BasicError(ILLEGAL)
            ref = self.vars.fixed_index(indices[0], is_str)
        return ref

    # ------------------------------------------------------------ functions

    def function(self, code):
        self.cost += _FUNCTION_COSTS.get(code, costs.FUNCTION)
        if code in _NUMERIC:
            arg = self._num(self.operand())
            value = _NUMERIC[code](arg)
            value_cycles = VALUE_COSTS.get(code)
            if value_cycles is not None:
                self.cost += value_cycles(arg, value)
            return value
        if code in _ANGLE:
            arg = self._num(self.operand())
            value = _ANGLE[code](arg, self.angle)
            self.cost += ANGLE_VALUE_COSTS[code](arg, value, self.angle)
            return value
        handler = FUNCTIONS.get(code)
        if handler is None:
            raise BasicError(SYNTAX)
        return handler(self)

    def _paren_args(self, count):
        self.expect(0x28)
        args = [self.expression()]
        while len(args) < count:
            self.expect(0x2C)
            args.append(self.expression())
        self.expect(0x29)
        return args

    def fn_pi(self):
        return bcd.PI

    def fn_mem(self):
        return Decimal(self.vars.free_bytes())

    def fn_rnd(self):
        limit = self._num(self.operand())
        if limit < 0:
            self.seed_from(limit)               # RND -x starts a sequence from x
        fraction = self.random_fraction()       # RND 0 and RND -1 give fractions too
        if limit < 1:
            return fraction
        return bcd.fit(Decimal(int(fraction * int(limit)) + 1))

    def fn_peek(self):
        return self.peek_byte(self._num(self.operand()))

    def peek_byte(self, value):
        """PEEK's work on its evaluated argument (shared with compiler.py)."""
        addr = to_int(value, 0, 65535)
        sync = getattr(self.host, "sync_mirrors", None)
        if sync is not None and 0x8000 <= addr:
            sync()                  # a small card's copies agree (engine.sync_mirrors)
        return Decimal(self.mem[addr])

    def fn_point(self):
        x, y = self._paren_args(2)
        x, y = to_int(x), to_int(y)
        if not (0 <= x < 150 and 0 <= y < 32):
            return Decimal(-1)                      # off the screen, as the firmware
        return Decimal(self.screen.dot(x, y))

    def fn_inkey(self):
        code = self.inkey()
        return b"" if code is None else bytes([code])

    def fn_len(self):
        return str_len(self._str(self.operand()))

    def fn_asc(self):
        return asc(self._str(self.operand()))

    def fn_val(self):
        text = self._str(self.operand())
        return _leading_number(text)

    def fn_chr(self):
        return chr_(self._num(self.operand()))

    def fn_str(self):
        return str_(self._num(self.operand()))

    def fn_mid(self):
        text, start, length = self._paren_args(3)
        return mid(text, start, length)

    def fn_left(self):
        text, length = self._paren_args(2)
        return left(text, length)

    def fn_right(self):
        text, length = self._paren_args(2)
        return right(text, length)

    @staticmethod
    def _str(value):
        if not isinstance(value, bytes):
            raise BasicError(OTHER)
        return value


# The string functions' work on evaluated arguments (shared with compiler.py).

def str_len(text):
    return Decimal(len(text))


def asc(text):
    return Decimal(text[0] if text else 0)


def chr_(value):
    # CHR$ 256 is CHR$ 0 (an empty-looking string) on the firmware engine
    return bytes([to_int(value) & 0xFF])


def str_(value):
    return bcd.str_number(value).encode("ascii")


def mid(text, start, length):
    start = to_int(start, 1, 255)
    length = to_int(length, 0, 255)
    return Expressions._str(text)[start - 1:start - 1 + length]


def left(text, length):
    return Expressions._str(text)[:to_int(length, 0, 255)]


def right(text, length):
    text = Expressions._str(text)
    length = to_int(length, 0, 255)
    return text[max(0, len(text) - length):] if length else b""


def _leading_number(text):
    """VAL: the number at the start of a string (0 if there is none)."""
    match = _VAL.match(text.decode("latin-1"))
    if not match:
        return bcd.ZERO
    return bcd.parse_number(match.group(1)) or bcd.ZERO


FUNCTIONS = {CODES[name]: getattr(Expressions, method) for name, method in (
    ("PI", "fn_pi"), ("MEM", "fn_mem"), ("RND", "fn_rnd"), ("PEEK", "fn_peek"),
    ("POINT", "fn_point"), ("INKEY$", "fn_inkey"), ("LEN", "fn_len"), ("ASC", "fn_asc"),
    ("VAL", "fn_val"), ("CHR$", "fn_chr"), ("STR$", "fn_str"), ("MID$", "fn_mid"),
    ("LEFT$", "fn_left"), ("RIGHT$", "fn_right"))}

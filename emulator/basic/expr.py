"""Expressions over tokenized bytes in RAM, with the machine's precedence.

Precedence, highest first (basic_language.md §1.1): parentheses, variables, functions,
`^`, sign, `* /`, `+ -`, comparisons, NOT, AND, OR. So `-2^2` is -4, `SQR 4^2` is 16
(a function without parentheses takes one operand), `2^3^2` is 64. Comparisons give
1 or 0; AND/OR/NOT work bitwise on integers. Numbers are Decimals (bcd.py), strings
are bytes; mixing them is ERROR 9 (assumed number: to check against the firmware).
"""

import re
from decimal import Decimal

from . import bcd
from .errors import ILLEGAL, NESTING, OTHER, SYNTAX, BasicError
from .tokens import CODES, PI_CHAR, PREFIX, ROOT_CHAR

_OR, _AND, _NOT = CODES["OR"], CODES["AND"], CODES["NOT"]
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
_VAL = re.compile(r" *([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:E[+-]?[0-9]+)?|&[0-9A-F]{1,4})")


def to_int(value, low=-32768, high=65535):
    """A number as an integer argument (truncated); ERROR 3 outside [low, high]."""
    if isinstance(value, bytes):
        raise BasicError(OTHER)
    if not low <= value < high + 1:
        raise BasicError(ILLEGAL)
    return int(value)


class Expressions:
    """Mixin for the interpreter: needs mem, pos, vars, screen, angle and the
    host hooks inkey(), random_fraction()."""

    # ------------------------------------------------------------ scanning

    def peek(self):
        mem = self.mem
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
        if self.peek() != byte:
            raise BasicError(SYNTAX)
        self.pos += 1

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

    def expression(self):
        left = self._and()
        while self.accept_token(_OR):
            left = Decimal(to_int(left) | to_int(self._and()))
        return left

    def _and(self):
        left = self._not()
        while self.accept_token(_AND):
            left = Decimal(to_int(left) & to_int(self._not()))
        return left

    def _not(self):
        if self.accept_token(_NOT):
            return Decimal(~to_int(self._not()))
        return self._compare()

    def _compare(self):
        left = self._additive()
        while True:
            byte = self.peek()
            if byte not in (0x3C, 0x3D, 0x3E):
                return left
            op = bytes([byte])
            nxt = self.mem[self.pos + 1]
            if nxt in (0x3C, 0x3D, 0x3E) and op + bytes([nxt]) in _COMPARE:
                op += bytes([nxt])
            self.pos += len(op)
            right = self._additive()
            if isinstance(left, bytes) != isinstance(right, bytes):
                raise BasicError(OTHER)
            left = _TRUE if _COMPARE[op](left, right) else _FALSE

    def _additive(self):
        left = self._term()
        while True:
            byte = self.peek()
            if byte == 0x2B:
                self.pos += 1
                right = self._term()
                if isinstance(left, bytes) and isinstance(right, bytes):
                    left = left + right
                    if len(left) > MAX_STRING:
                        raise BasicError(OTHER)
                elif isinstance(left, bytes) or isinstance(right, bytes):
                    raise BasicError(OTHER)
                else:
                    left = bcd.add(left, right)
            elif byte == 0x2D:
                self.pos += 1
                left = bcd.sub(self._num(left), self._num(self._term()))
            else:
                return left

    def _term(self):
        left = self._signed()
        while True:
            byte = self.peek()
            if byte == 0x2A:
                self.pos += 1
                left = bcd.mul(self._num(left), self._num(self._signed()))
            elif byte == 0x2F:
                self.pos += 1
                left = bcd.div(self._num(left), self._num(self._signed()))
            else:
                return left

    def _signed(self):
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
            return bcd.neg(self._num(self._signed()))
        if byte == 0x2B:
            self.pos += 1
            return self._num(self._signed())
        return self._power()

    def _power(self):
        left = self.primary()
        while self.accept(0x5E):
            left = bcd.power(self._num(left), self._num(self.operand()))
        return left

    def operand(self):
        """A function's argument without parentheses, or the right side of `^`:
        an optional sign and one primary."""
        byte = self.peek()
        if byte == 0x2D:
            self.pos += 1
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
            return self.string_literal()
        if byte == 0x28:
            self.pos += 1
            self.nest()
            value = self.expression()
            self.depth -= 1
            self.expect(0x29)
            return value
        if byte in _UPPER:
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
            return bcd.sqr(self._num(self.operand()))
        raise BasicError(SYNTAX)

    def _number_literal(self):
        mem = self.mem
        start = pos = self.pos
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
        self.pos = pos
        value = bcd.parse_number(bytes(mem[start:pos]).decode("ascii"))
        if value is None:
            raise BasicError(SYNTAX)
        return value

    def _hex_literal(self):
        mem = self.mem
        start = pos = self.pos + 1
        while mem[pos] in _HEX:
            pos += 1
        self.pos = pos
        value = bcd.parse_number("&" + bytes(mem[start:pos]).decode("ascii"))
        if value is None:
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
        mem = self.mem
        pos = self.pos
        name = bytes([mem[pos]])
        pos += 1
        if mem[pos] in _NAME2:
            name += bytes([mem[pos]])
            pos += 1
        is_str = mem[pos] == 0x24
        if is_str:
            pos += 1
        self.pos = pos
        if self.peek() != 0x28:
            return self.vars.simple(name, is_str, create)
        self.pos += 1
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
        if code in _NUMERIC:
            return _NUMERIC[code](self._num(self.operand()))
        if code in _ANGLE:
            return _ANGLE[code](self._num(self.operand()), self.angle)
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
        if limit <= 0:
            raise BasicError(ILLEGAL)
        fraction = self.random_fraction()
        if limit < 1:
            return fraction
        return bcd.fit(Decimal(int(fraction * int(limit)) + 1))

    def fn_peek(self):
        return Decimal(self.mem[to_int(self._num(self.operand()), 0, 65535)])

    def fn_point(self):
        x, y = self._paren_args(2)
        return Decimal(self.screen.dot(to_int(x), to_int(y)))

    def fn_inkey(self):
        code = self.inkey()
        return b"" if code is None else bytes([code])

    def fn_len(self):
        return Decimal(len(self._str(self.operand())))

    def fn_asc(self):
        text = self._str(self.operand())
        return Decimal(text[0] if text else 0)

    def fn_val(self):
        text = self._str(self.operand())
        return _leading_number(text)

    def fn_chr(self):
        code = self._num(self.operand())
        if not 0 <= code < 256:
            raise BasicError(OTHER)                 # ERROR 9, as the firmware gives
        return bytes([int(code)])

    def fn_str(self):
        return bcd.str_number(self._num(self.operand())).encode("ascii")

    def fn_mid(self):
        text, start, length = self._paren_args(3)
        start = to_int(start, 1, 255)
        length = to_int(length, 0, 255)
        return self._str(text)[start - 1:start - 1 + length]

    def fn_left(self):
        text, length = self._paren_args(2)
        return self._str(text)[:to_int(length, 0, 255)]

    def fn_right(self):
        text, length = self._paren_args(2)
        text = self._str(text)
        length = to_int(length, 0, 255)
        return text[len(text) - length:] if length else b""

    @staticmethod
    def _str(value):
        if not isinstance(value, bytes):
            raise BasicError(OTHER)
        return value


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

"""The closures an expression is compiled into (expr.py parses, this builds).

A Node's `run()` gives the value; its `kind` (NUMBER or STRING) is known when it is
built, so a closure can call the bcd function itself once both sides are numbers.
Everything that can fail at run time fails as the interpreter always did it: the
same check in the same order, and `it.pos` set to where the parse stood when the
value was worked out, so the error's position is what the engine shows.

Cycles: the parser adds each part's fixed figure up once; a closure whose time
depends on the values (`*`, `/`, `^`, SQR, LN, SIN ...) adds that part (costs.py) to
`it.cost` each time it runs.
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from emulator.builtin import bcd
from emulator.builtin.basic_errors import ILLEGAL, NESTING, OTHER, BasicError
from emulator.builtin.vars import STRING_MARK

NUMBER, STRING = "number", "string"
MAX_STRING = 80
_TRUE, _FALSE = Decimal(1), Decimal(0)


@dataclass(slots=True)
class Node:
    """A compiled expression part: `run()` gives its value of `kind`; `const` is the
    value of a literal (or a fixed variable's reference), `addr` (mem, address) that
    of a fixed number variable; `image()`, if there is one, gives the 8 bytes the
    value is stored as without working the value out, or None when it cannot (then
    `run()` must)."""
    run: Callable
    kind: str
    const: object = None
    addr: tuple[bytearray, int] | None = None
    image: Callable | None = None


def kind_of(value):
    return STRING if isinstance(value, bytes) else NUMBER


def constant(value):
    return Node(lambda: value, kind_of(value), const=value)


# ---------------------------------------------------------------- value checks

def number(value):
    if isinstance(value, bytes):
        raise BasicError(OTHER)
    return value


def string(value):
    if not isinstance(value, bytes):
        raise BasicError(OTHER)
    return value


def to_int(value, low=-32768, high=65535):
    """A number as an integer argument (truncated); ERROR 3 outside [low, high]."""
    if isinstance(value, bytes):
        raise BasicError(OTHER)
    if not low <= value < high + 1:
        raise BasicError(ILLEGAL)
    return int(value)


# ---------------------------------------------------------------- operators

def join_or_add(a, b):
    """`+`: numbers add, strings join (up to 80 characters)."""
    if isinstance(a, bytes) and isinstance(b, bytes):
        if len(a) + len(b) > MAX_STRING:
            raise BasicError(NESTING)       # ERROR 5 past 80 characters, as the firmware
        return a + b
    return bcd.add(number(a), number(b))


def checked(func):
    """A bcd operation on two values that must be numbers."""
    return lambda a, b: func(number(a), number(b))


def comparison(test):
    def compare(a, b):
        if isinstance(a, bytes) != isinstance(b, bytes):
            raise BasicError(OTHER)
        return _TRUE if test(a, b) else _FALSE
    return compare


def bitwise(func):
    return lambda a, b: Decimal(func(to_int(a), to_int(b)))


# ---------------------------------------------------------------- string functions

def str_len(text):
    return Decimal(len(text))


def asc(text):
    return Decimal(text[0] if text else 0)


def chr_(value):
    """CHR$: a code above 255 is two characters (its high byte first), a NUL is no
    character (CHR$ 0 is ""), a code below 0 or past 65535 is ERROR 9 (firmware
    engine, case CHR_codes)."""
    if value < 0 or value >= 65536:
        raise BasicError(OTHER)
    code = int(value)
    data = bytes((code >> 8, code & 0xFF)) if code > 0xFF else bytes((code,))
    return data.replace(b"\x00", b"")


def str_(value):
    return bcd.str_number(value).encode("ascii")


def _signs(text, pos):
    """Past a run of + and - at `pos`: (pos, True if it holds an odd number of -)."""
    negative = False
    while pos < len(text) and text[pos] in b"+-":
        negative ^= text[pos] == 0x2D
        pos += 1
    return pos, negative


def leading_number(text):
    """VAL: the number at the start of a string (0 if there is none), read as the
    firmware engine reads it (docs/basic_language.md §1.2): spaces skipped anywhere;
    a run of signs counts its minus signs (`--2` is 2); the points after the first
    are skipped (`1.2.3` is 1.23); after E a run of signs, then the digits, with E
    and points among them skipped, and only the last two kept (`1E1234` is 1E34);
    a value past the largest number is ERROR 9."""
    text = text.replace(b" ", b"")
    pos, negative = _signs(text, 0)
    digits, point = [], None
    while pos < len(text):
        byte = text[pos]
        if 0x30 <= byte <= 0x39:
            digits.append(chr(byte))
        elif byte == 0x2E:
            point = len(digits) if point is None else point
        else:
            break
        pos += 1
    if not digits:
        return bcd.ZERO
    exponent = "0"
    if pos < len(text) and text[pos] == 0x45:
        pos, exponent_negative = _signs(text, pos + 1)
        exponent_digits = []
        while pos < len(text) and (0x30 <= text[pos] <= 0x39 or text[pos] in b"E."):
            if text[pos] != 0x45 and text[pos] != 0x2E:
                exponent_digits.append(chr(text[pos]))
            pos += 1
        exponent = ("-" if exponent_negative else "") + ("".join(exponent_digits[-2:]) or "0")
    if point is not None:
        digits.insert(point, ".")
    try:
        value = bcd.parse_number(("-" if negative else "") + "".join(digits) + "E" + exponent)
    except BasicError:
        raise BasicError(OTHER) from None
    return value if value is not None else bcd.ZERO


def mid(text, start, length):
    start = to_int(start, 1, 255)
    length = to_int(length, 0, 255)
    return string(text)[start - 1:start - 1 + length]


def left(text, length):
    return string(text)[:to_int(length, 0, 255)]


def right(text, length):
    text = string(text)
    length = to_int(length, 0, 255)
    return text[max(0, len(text) - length):] if length else b""


# ---------------------------------------------------------------- closures

def failing(it, code, at, before):
    """A parse that stopped at `at` with ERROR `code`: what the interpreter worked out
    before it got there (`before`, in order) runs first, as its errors come first."""
    def run():
        for part in before:
            part()
        it.pos = at
        raise BasicError(code)
    return Node(run, NUMBER)


def number_loader(it, mem, addr, at):
    """A fixed number variable's value (vars.Variables.load), decoded through bcd's
    cache of stored bytes."""
    cached = bcd.DECODED.get
    from_bytes = bcd.from_bytes
    end = addr + 7

    def load():
        if mem[addr] == STRING_MARK:
            it.pos = at
            raise BasicError(OTHER, on_last=True)
        data = bytes(mem[addr:end])
        value = cached(data)
        return value if value is not None else from_bytes(data)
    return load


def checking(it, check, node, at):
    """`node`'s value passed through `check` (a type or range test) at `at`."""
    run = node.run

    def checked_run():
        value = run()
        try:
            return check(value)
        except BasicError:
            it.pos = at
            raise
    return checked_run


def folded(func, args):
    """A pure function (without value-dependent cycles) of constant Nodes worked out
    now: its constant Node; None when an argument is not constant, or when it fails
    (then it fails each time it runs, as always)."""
    if any(arg.const is None for arg in args):
        return None
    try:
        return constant(func(*[arg.const for arg in args]))
    except BasicError:
        return None


def apply(it, func, arg, kind, at, value_cycles=None, arg_cycles=0):
    """`func(arg)`; `value_cycles(arg, value)` its value-dependent cycles, if any;
    `arg_cycles` the fixed cycles of the argument, which an error here takes too (the
    statement's fixed cycles are charged only when it gets through: firmware engine,
    LN(TAN(-32768)) fails 33600 cycles later than LN(-1))."""
    run = arg.run
    if value_cycles is None:
        def plain_run():
            value = run()
            try:
                return func(value)
            except BasicError:
                it.pos = at
                it.cost += arg_cycles
                raise
        return Node(plain_run, kind)

    def priced_run():
        value = run()
        try:
            result = func(value)
        except BasicError:
            it.pos = at
            it.cost += arg_cycles
            raise
        it.cost += value_cycles(value, result)
        return result
    return Node(priced_run, kind)


def apply_args(it, func, args, kind, at):
    """`func(*args)`, the arguments worked out in order."""
    runs = [a.run for a in args]

    def run():
        values = [r() for r in runs]
        try:
            return func(*values)
        except BasicError:
            it.pos = at
            raise
    return Node(run, kind)


def fused_load(it, left, func, const, compare, at):
    """`func(variable, const)` for a fixed number variable, its load inlined (the
    hot `A+1`, `A<1E9`). A comparison takes a whole number as the int that bcd.INTS
    knows (Python compares ints and Decimals exactly). A string in the variable
    fails in the variable's own load, before `func`, as it always did."""
    mem, addr = left.addr
    load = left.run
    cached = bcd.DECODED.get
    from_bytes = bcd.from_bytes
    end = addr + 7
    if compare:
        ints = bcd.INTS.get
        whole = small_int(const)
        int_const = const if whole is None else whole

        def compare_run():
            data = bytes(mem[addr:end])
            value = ints(data)
            if value is not None:
                return func(value, int_const)
            if mem[addr] == STRING_MARK:
                load()
            value = cached(data)
            return func(value if value is not None else from_bytes(data), const)
        return compare_run

    def run():
        if mem[addr] == STRING_MARK:
            load()
        data = bytes(mem[addr:end])
        value = cached(data)
        try:
            return func(value if value is not None else from_bytes(data), const)
        except BasicError:
            it.pos = at
            raise
    return run


def int_image(left, exact, const):
    """The stored bytes of `variable op const` for a fixed number variable holding a
    whole number and a whole `const` (the hot `A=A+1`): `exact` is the operator on
    ints, which gives what the bcd operation gives while the result stays below 1E10
    (bcd.add's window holds both whole), and bcd.int_bytes are to_bytes' bytes for
    it. None (no image) for anything else."""
    step = small_int(const)
    if exact is None or step is None:
        return None
    mem, addr = left.addr
    end = addr + 8
    ints = bcd.INTS.get
    int_bytes = bcd.int_bytes
    limit = bcd.INT_LIMIT
    # the last image given and its number: `A=A+1` finds it in A the next time
    given = [None, None]

    def image():
        stored = mem[addr:end]
        # a string's STRING_MARK is no whole number's first byte: it gives None too
        number = given[1] if stored == given[0] else ints(bytes(stored[:7]))
        if number is not None:
            total = exact(number, step)
            if -limit < total < limit:
                given[0] = data = int_bytes(total)
                given[1] = total
                return data
        return None
    return image


def small_int(value):
    """`value` as an int if it is a whole number below 1E10, else None."""
    if isinstance(value, Decimal) and value == value.to_integral_value() and \
            abs(value) < bcd.INT_LIMIT:
        return int(value)
    return None


def binary(it, left, right, func, kind, at, value_cycles, compare, exact=None,
           error_cycles=None, operand_cycles=0):
    """`left op right` with `func` (the checked operator, or the bcd function when
    both sides are numbers); `value_cycles(left, right, result)` its
    value-dependent cycles, if any, and `error_cycles(left, right)` those it takes
    before an error, besides the operands' fixed `operand_cycles` (as apply's);
    `exact` the operator on ints (int_image)."""
    lrun, rrun = left.run, right.run
    if value_cycles is not None:
        def priced_run():
            a = lrun()
            b = rrun()
            try:
                result = func(a, b)
            except BasicError:
                it.pos = at
                it.cost += operand_cycles + (0 if error_cycles is None else error_cycles(a, b))
                raise
            it.cost += value_cycles(a, b, result)
            return result
        return Node(priced_run, kind)
    if right.const is not None and left.addr is not None and right.kind == NUMBER:
        return Node(fused_load(it, left, func, right.const, compare, at), kind,
                    image=int_image(left, exact, right.const))
    if right.const is not None:
        const = right.const

        def const_run():
            a = lrun()
            try:
                return func(a, const)
            except BasicError:
                it.pos = at
                raise
        return Node(const_run, kind)

    def run():
        a = lrun()
        b = rrun()
        try:
            return func(a, b)
        except BasicError:
            it.pos = at
            raise
    return Node(run, kind)

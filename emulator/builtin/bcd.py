"""The PC-1360's number: 10 BCD mantissa digits and a decimal exponent, in 8 bytes.

Stored layout, nibble by nibble (docs/stored_format.md §4.1: A=1 is
`00 00 10 00 00 00 00 00`, Z=-12.5 is `00 18 12 50 00 00 00 00`):

    byte 0    byte 1      bytes 2-6            byte 7
    E2 E1     E0 S        M0 M1 ... M9         0 0

- E2 E1 E0: the decimal exponent as three BCD digits (1.25E1 -> 0 0 1); a negative
  exponent as its ten's complement (0.5 -> 9 9 9, 1E-99 -> 9 0 1), as the firmware
  engine stores them.
- S: sign nibble, 0 = positive, 8 = negative.
- M0..M9: the mantissa digits, M0 the leading one (1 <= M0.M1...M9 < 10).
- byte 7: not part of the value (the ROM's guard digits live in its registers); an
  array element keeps all 8 bytes too (DIM B(10) takes 7 + 11 * 8 = 95 bytes,
  docs/stored_format.md §3.2). Zero is all zero bytes.

Values are Python `Decimal`s of up to 12 digits inside the range (|x| < 1E100,
anything below 1E-99 flushes to 0): the firmware engine keeps two guard digits
through an expression (PI-3.141592654 is -4.1E-10, 2/3-0.6666666667 is -3.4E-11) and
rounds half-up to the 10 stored digits only when a variable is written (A=2/3 keeps
0.6666666667) or a number is shown. + - * / SQR LOG and LN cut at 12 digits (add()
says how + and - align); the other functions round there; a number written in the
program keeps its first 10 digits (0.99999999999 reads as 0.9999999999). No float
appears anywhere.
"""

from decimal import (
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)

from emulator.builtin.basic_errors import CALC, BasicError

DIGITS = 10
MAX_EXP = 99
ZERO = Decimal(0)
ONE = Decimal(1)
# The machine's PI constant, as the firmware shows it (`3.141592654`).
PI = Decimal("3.14159265359")

_TRAPS = [InvalidOperation, DivisionByZero, Overflow]
GUARD = 12
# Arithmetic keeps two guard digits beyond the stored ten, as the ROM's registers do.
_WORK = Context(prec=GUARD, rounding=ROUND_HALF_UP, Emax=999, Emin=-999, traps=_TRAPS)
_CUT = Context(prec=GUARD, rounding=ROUND_DOWN, Emax=999, Emin=-999, traps=_TRAPS)
_STORE = Context(prec=DIGITS, rounding=ROUND_HALF_UP, Emax=999, Emin=-999, traps=_TRAPS)
_LITERAL = Context(prec=DIGITS, rounding=ROUND_DOWN, Emax=999, Emin=-999, traps=_TRAPS)
# Transcendental functions are computed well past 10 digits so the final rounding
# decides the last digit (SIN 30 must give exactly 0.5).
_HI = Context(prec=32, rounding=ROUND_HALF_EVEN, Emax=99999, Emin=-99999, traps=_TRAPS)
_PI_HI = Decimal("3.14159265358979323846264338327950288419716939937510")

DEG, RAD, GRAD = "DEG", "RAD", "GRAD"
# One quarter turn in each angle unit; trig reduces the angle by quarter turns, in
# radians quarters of the machine's own PI: RADIAN SIN PI, TAN PI and SIN (2*PI) are 0
# (firmware engine, case TRIG_radian_multiples_of_pi).
_QUARTER = {DEG: Decimal(90), GRAD: Decimal(100), RAD: _HI.divide(PI, 2)}
# The reduction works in degrees: an angle of 1E10 degrees or more is ERROR 2 (DEGREE
# SIN 1E10, RADIAN SIN 1.745329252E8; GRAD SIN 1E10 is 9E9 degrees and fine: firmware
# engine, case TRIG_angle_limit).
_MAX_QUARTERS = Decimal("1E10") / 90
# RADIAN SIN, COS and TAN turn the angle into degrees with the machine's PI first, kept to
# 11 digits: RADIAN COS 180 is COS 10313.240312 degrees, -0.598460074 (not -5.984600691E-01),
# RADIAN TAN(PI/2) is TAN 90, ERROR 2 (firmware engine, case TRIG_radian_in_degrees).
_RAD_TO_DEG = Context(prec=11, rounding=ROUND_HALF_UP, Emax=999, Emin=-999, traps=_TRAPS)


def fit(value, context=_WORK):
    """Round to the 12 working digits and check the range: the one exit of every
    calculation."""
    value = context.plus(value)
    if not value:
        return ZERO
    exp = value.adjusted()
    if exp > MAX_EXP:
        raise BasicError(CALC)
    if exp < -MAX_EXP:
        return ZERO
    return value


def _guard(func):
    """Turn decimal's traps (overflow, division by zero, domain) into ERROR 2."""
    def wrapper(*args):
        try:
            return fit(func(*args))
        except ArithmeticError:
            raise BasicError(CALC) from None
    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


# ---------------------------------------------------------------- stored bytes

# Stored bytes <-> values, memoized: a program keeps reading and writing the same few
# numbers, and both conversions are pure.
ENCODED = {}
DECODED = {}
_CACHE_LIMIT = 8192
# Stored bytes (the first 7) of whole numbers below 1E10 -> the int: NEXT and the
# comparisons of a variable with a number use these without Decimals (int_bytes).
INTS = {bytes(7): 0}
INT_LIMIT = 10 ** DIGITS


def stored(value):
    """A value as a variable keeps it: rounded half-up to 10 digits."""
    return fit(value, _STORE)


def to_bytes(value):
    """The 8 stored bytes of a value (rounded to its 10 stored digits)."""
    data = ENCODED.get(value)
    if data is None:
        data = _to_bytes(value)
        if len(ENCODED) > _CACHE_LIMIT:
            ENCODED.clear()
        ENCODED[value] = data
    return data


# Hex of bytes 0-1 (exponent digits and sign nibble) by exponent + 99 and sign, and
# the exponent suffix of a decoded value's text, for _to_bytes.
_HEADS = [(f"{e % 1000:03d}0", f"{e % 1000:03d}8") for e in range(-MAX_EXP, MAX_EXP + 1)]
_SCALES = [f"E{e - DIGITS + 1}" for e in range(-MAX_EXP, MAX_EXP + 1)]
_PADS = ["0" * (DIGITS - 1 - e) + "00" for e in range(DIGITS)]  # digits -> 10 + byte 7


def _to_bytes(value):
    value = stored(value)
    if not value:
        return bytes(8)
    exp = value.adjusted()      # -99 ... 99 after stored()
    # a stored value has at most 10 significant digits, so this shows all of them
    # unrounded: `[-]d.ddddddddde[+-]x`
    text = format(value, ".9e")
    if text[0] == "-":
        sign, mantissa = "-", text[1] + text[3:12]
    else:
        sign, mantissa = "", text[0] + text[2:11]
    data = bytes.fromhex(_HEADS[exp + MAX_EXP][1 if sign else 0] + mantissa + "00")
    # the variable is usually read back soon: its decoded value goes in the cache now
    # (what _from_bytes makes of these bytes: the 10 digits at exponent exp - 9)
    if len(DECODED) > _CACHE_LIMIT:
        DECODED.clear()
    key = data[:7]
    DECODED[key] = Decimal(sign + mantissa + _SCALES[exp + MAX_EXP])
    if 0 <= exp < DIGITS and len(mantissa.rstrip("0")) <= exp + 1:
        _remember_int(key, int(sign + mantissa[:exp + 1]))
    return data


def _remember_int(key, number):
    if len(INTS) > _CACHE_LIMIT:
        INTS.clear()
        INTS[bytes(7)] = 0
    INTS[key] = number


def int_bytes(number):
    """to_bytes(Decimal(number)) for an int with |number| < 1E10, without Decimals
    (its 10 digits are the int's digits)."""
    if not number:
        return bytes(8)
    digits = str(number)
    sign = 0
    if number < 0:
        digits, sign = digits[1:], 1
    exp = len(digits) - 1
    data = bytes.fromhex(_HEADS[exp + MAX_EXP][sign] + digits + _PADS[exp])
    _remember_int(data[:7], number)
    return data


def _int_decoded(number):
    """What _from_bytes gives for int_bytes(number)."""
    if not number:
        return ZERO
    digits = str(number)
    sign = ""
    if number < 0:
        digits, sign = digits[1:], "-"
    exp = len(digits) - 1
    return Decimal(sign + digits + "0" * (DIGITS - 1 - exp) + _SCALES[exp + MAX_EXP])


def from_bytes(data):
    """The value held in stored bytes (the first 7 are read).

    Any byte pattern gives a value (a POKE can leave nibbles above 9): each nibble is
    weighted as a decimal digit, so nothing here raises.
    """
    data = bytes(data[:7])
    value = DECODED.get(data)
    if value is None:
        number = INTS.get(data)
        value = _from_bytes(data) if number is None else _int_decoded(number)
        if len(DECODED) > _CACHE_LIMIT:
            DECODED.clear()
        DECODED[data] = value
    return value


def _from_bytes(data):
    nibbles = data.hex()
    if nibbles[4:14] == "0000000000":
        return ZERO
    exp = int(nibbles[0], 16) * 100 + int(nibbles[1], 16) * 10 + int(nibbles[2], 16)
    if exp >= 500:
        exp -= 1000
    if nibbles[4:14].isdigit():
        mantissa = int(nibbles[4:14])
    else:
        mantissa = 0
        for nibble in nibbles[4:14]:
            mantissa = mantissa * 10 + int(nibble, 16)
    return _decoded(mantissa, exp, int(nibbles[3], 16) & 8)


def _decoded(mantissa, exp, negative):
    value = Decimal(mantissa).scaleb(exp - DIGITS + 1)
    if negative:
        value = -value
    try:
        return fit(value)
    except BasicError:
        return ZERO


# ---------------------------------------------------------------- arithmetic

# _HI cutting, for add's quantize; quanta 1E-999 ... 1E999 by exponent + 999
_HI_DOWN = Context(prec=_HI.prec, rounding=ROUND_DOWN, Emax=_HI.Emax, Emin=_HI.Emin,
                   traps=_TRAPS)
_QUANTA = [Decimal(1).scaleb(e) for e in range(-999, 1000)]


def add(a, b):
    """a + b in a 12-digit window at the larger operand's exponent, as the firmware
    engine adds: the smaller operand loses the digits shifted out of the window
    (1.42+1.234567891E-5 is 1.42001234567, 1.42-1.234567891E-5 1.41998765433), and a
    result whose first digit falls below the 11th of the window is 0 (SQR 15.12 -
    3.888444419 is 0, 1/3-.3333333333 is 3.3E-11; 1/3+1/3+1/3-1 is 0)."""
    if not a or not b:
        return fit(a + b)
    try:
        exp_a, exp_b = a.adjusted(), b.adjusted()
        top = exp_a if exp_a > exp_b else exp_b
        exp = top - GUARD + 1
        quantum = _QUANTA[exp + 999] if -999 <= exp <= 999 else Decimal(1).scaleb(exp)
        if exp_a > exp_b:
            b = _HI_DOWN.quantize(b, quantum)
        elif exp_b > exp_a:
            a = _HI_DOWN.quantize(a, quantum)
        total = _HI.add(a, b)
        if not total or total.adjusted() < top - DIGITS:
            return ZERO
        value = _CUT.plus(total)
    except ArithmeticError:
        raise BasicError(CALC) from None
    # fit(), inline: this is the hottest arithmetic
    if not value:
        return ZERO
    exp = value.adjusted()
    if exp > MAX_EXP:
        raise BasicError(CALC)
    return value if exp >= -MAX_EXP else ZERO


def sub(a, b):
    return add(a, -b)


def mul(a, b):
    """a * b cut at 12 digits (firmware engine: 1.42*1.234567891 is 1.75308640522)."""
    try:
        return fit(_HI.multiply(a, b), _CUT)
    except ArithmeticError:
        raise BasicError(CALC) from None


def div(a, b):
    try:
        return fit(_HI.divide(a, b), _CUT)
    except ArithmeticError:
        raise BasicError(CALC) from None


_POWER_LOG_LIMIT = Decimal("1E100")    # b * LOG |a| from here on is ERROR 2
_HUGE_EXPONENT = Decimal("1E97")       # below it b * LOG |a| stays under the limit


@_guard
def power(a, b):
    """a ^ b. A negative base needs an integer exponent; 0 ^ b needs b > 0; b * LOG |a|
    must be below 1E100 even where the result is 0 (1E-10^1E99 is ERROR 2, 2E-10^1E99
    is 0: docs/basic_language.md §1.1)."""
    if not a:
        if b > 0:
            return ZERO
        raise BasicError(CALC)
    if abs(b) >= _HUGE_EXPONENT and abs(_HI.multiply(b, _HI.log10(abs(a)))) >= _POWER_LOG_LIMIT:
        raise BasicError(CALC)
    if b == b.to_integral_value():
        return _HI.power(a, int(b)) if abs(b) < 1000000 else _HI.power(a, b)
    if a < 0:
        # an odd root of a negative number is real: (-8)^(1/3) is -2 on the firmware
        # 1/b to the 12 working digits must be odd: 1/(1/3) and 1/(1/3333333333) are,
        # 1/1.5E-10 (6666666666.67) is not (case POWER_negative_base_odd_root)
        root = _CUT.divide(ONE, b)
        if root == root.to_integral_value() and int(root) % 2:
            return -_HI.power(-a, b)
        raise BasicError(CALC)
    return _HI.power(a, b)


def neg(a):
    return -a if a else ZERO


def int_(a):
    """INT: the largest integer not above a (INT -2.5 = -3)."""
    return fit(a.to_integral_value(rounding=ROUND_FLOOR))


def abs_(a):
    return abs(a)


def sgn(a):
    return ONE if a > 0 else (-ONE if a < 0 else ZERO)


def sqr(a):
    """SQR cut at 12 digits (firmware engine: SQR 5 is 2.23606797749)."""
    if a < 0:
        raise BasicError(CALC)
    return fit(_HI.sqrt(a), _CUT)


# LOG E to 12 digits: the firmware engine's LN is LOG divided by it (144 of 148
# arguments give its 12 digits; the exact LN cut gives 54).
_LOG_E = Decimal("0.434294481903")


def ln(a):
    """LN as LOG a / LOG E, cut at 12 digits, as the firmware engine computes it."""
    return div(log(a), _LOG_E)


def log(a):
    """LOG cut at 12 digits (firmware engine, most arguments; a few are a unit of the
    12th digit below)."""
    if a <= 0:
        raise BasicError(CALC)
    return fit(_HI.log10(a), _CUT)


@_guard
def exp(a):
    if a > 1000:
        raise BasicError(CALC)
    return _HI.exp(a)


def _regroup(a, base_in, base_out):
    """Read a's fraction as two digit groups of `base_in` (minutes, then seconds) and write
    them back as fractions of `base_out`: DEG (100 -> 60) and DMS (60 -> 100) share this."""
    sign = -1 if a < 0 else 1
    a = abs(a)
    whole = a.to_integral_value(rounding=ROUND_FLOOR)
    minutes_x = _HI.multiply(a - whole, base_in)
    minutes = minutes_x.to_integral_value(rounding=ROUND_FLOOR)
    seconds = _HI.multiply(minutes_x - minutes, base_in)
    total = _HI.add(_HI.add(whole, _HI.divide(minutes, base_out)),
                    _HI.divide(seconds, base_out * base_out))
    return total * sign


def deg(a):
    """DEG: degrees.minutes seconds (dd.mmss) to decimal degrees, cut at 12 digits
    (firmware engine: DEG 32.9708 is 33.6188888888)."""
    try:
        return fit(_regroup(a, 100, 60), _CUT)
    except ArithmeticError:
        raise BasicError(CALC) from None


@_guard
def dms(a):
    """DMS: decimal degrees to degrees.minutes seconds (dd.mmss)."""
    return _regroup(a, 60, 100)


# ---------------------------------------------------------------- trigonometry

def _alternating_series(first, x, n):
    """first - first*x^2/((n+1)(n+2)) + ...: the sine (first = x, n = 1) or cosine (first = 1,
    n = 0) series for |x| <= pi/4, to the working precision."""
    term = total = first
    x2 = _HI.multiply(x, x)
    while True:
        term = _HI.divide(_HI.multiply(-term, x2), (n + 1) * (n + 2))
        n += 2
        if not term or abs(term) < Decimal("1E-34"):
            return total
        total = _HI.add(total, term)


def _sin_series(x):
    return _alternating_series(x, x, 1)


def _cos_series(x):
    return _alternating_series(ONE, x, 0)


def _sin_cos(angle, mode):
    """(sin, cos) of an angle in the given unit.

    The angle (in RAD first turned into degrees) is reduced by whole quarter turns in
    exact decimal arithmetic, so COS 90 is exactly 0 and SIN 30 exactly 0.5.
    """
    if mode == RAD:
        angle, mode = _RAD_TO_DEG.plus(_HI.divide(_HI.multiply(angle, 180), PI)), DEG
    quarter = _QUARTER[mode]
    quarters = _HI.divide(angle, quarter)
    if abs(quarters) >= _MAX_QUARTERS:
        raise BasicError(CALC)
    turns = quarters.to_integral_value(rounding=ROUND_HALF_EVEN)
    rest = _HI.subtract(angle, _HI.multiply(turns, quarter))
    if not rest:
        s, c = ZERO, ONE
    else:
        if mode != RAD:
            rest = _HI.divide(_HI.multiply(rest, _PI_HI), 2 * quarter)
        s, c = _sin_series(rest), _cos_series(rest)
    return {0: (s, c), 1: (c, -s), 2: (-s, -c), 3: (-c, s)}[int(turns) % 4]


def sin(a, mode):
    return _trig(lambda: _sin_cos(a, mode)[0])


def cos(a, mode):
    return _trig(lambda: _sin_cos(a, mode)[1])


def tan(a, mode):
    def compute():
        s, c = _sin_cos(a, mode)
        if not c:
            raise BasicError(CALC)
        return _HI.divide(s, c)
    return _trig(compute)


def _trig(compute):
    try:
        return fit(compute())
    except ArithmeticError:
        raise BasicError(CALC) from None


def _atan_rad(x):
    """atan x in radians, by halving the argument until the series converges fast."""
    if x > 1:
        return _HI.subtract(_HI.divide(_PI_HI, 2), _atan_rad(_HI.divide(ONE, x)))
    halvings = 0
    while abs(x) > Decimal("0.1"):
        x = _HI.divide(x, _HI.add(ONE, _HI.sqrt(_HI.add(ONE, _HI.multiply(x, x)))))
        halvings += 1
    term = x
    total = x
    x2 = _HI.multiply(x, x)
    n = 1
    while True:
        term = _HI.multiply(-term, x2)
        n += 2
        step = _HI.divide(term, n)
        if not step or abs(step) < Decimal("1E-34"):
            break
        total = _HI.add(total, step)
    return total * (2 ** halvings)


def _from_rad(value, mode):
    if mode == RAD:
        return value
    return _HI.divide(_HI.multiply(value, 2 * _QUARTER[mode]), _PI_HI)


def atn(a, mode):
    def compute():
        result = _atan_rad(abs(a))
        return _from_rad(result if a >= 0 else -result, mode)
    return _trig(compute)


def _asn_raw(a, mode):
    if abs(a) > 1:
        raise BasicError(CALC)
    if abs(a) == 1:
        return _QUARTER[mode] if a > 0 else -_QUARTER[mode]
    root = _HI.sqrt(_HI.subtract(ONE, _HI.multiply(a, a)))
    result = _atan_rad(abs(_HI.divide(a, root)))
    return _from_rad(result if a >= 0 else -result, mode)


def asn(a, mode):
    return _trig(lambda: _asn_raw(a, mode))


def acs(a, mode):
    return _trig(lambda: _HI.subtract(_QUARTER[mode], _asn_raw(a, mode)))


# ---------------------------------------------------------------- text

# The sign shown before a positive exponent in E notation: a blank (`1.E 10`, as the
# firmware engine shows 1E10).
EXP_PLUS = " "


def shown(value):
    """The value as the display shows it, in PRINT and in USING alike: its 10 stored
    digits (USING "##.############" shows 2/3 as 0.666666666700: case USING_ten_digits)."""
    try:
        return stored(value)
    except BasicError:          # rounding 9.9999999999E99 up would leave the range
        return fit(value, _LITERAL)


def format_number(value):
    """The number as the firmware displays it: `2.`, `0.5`, `3.333333333E-01`,
    `0.000000001`, `1.23456789E 25`.

    Fixed notation is used while the digits shown (a leading `0` included for values
    below 1) fit the 10-digit field; integers end in `.`. Otherwise E notation with
    the full mantissa and a two-digit exponent.
    """
    value = shown(value)
    if not value:
        return "0."
    sign = "-" if value < 0 else ""
    digits = "".join(map(str, value.as_tuple().digits)).rstrip("0") or "0"
    exp = value.adjusted()
    if 0 <= exp < DIGITS:
        whole, frac = digits[:exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
        return f"{sign}{whole}.{frac}"
    if exp < 0 and len(digits) - exp <= DIGITS:
        return f"{sign}0.{'0' * (-exp - 1)}{digits}"
    mark = "-" if exp < 0 else EXP_PLUS
    return f"{sign}{digits[0]}.{digits[1:]}E{mark}{abs(exp):02d}"


def str_number(value):
    """STR$: the display form without a trailing `.` (the firmware engine gives `2`
    for STR$ 2 and `1.E 10` for STR$ 1E10)."""
    text = format_number(value)
    return text[:-1] if text.endswith(".") else text


def parse_number(text):
    """A number written in program text (`1.5E3`, `.5`, `&4B8`) as a fitted value;
    None if the text is not a number."""
    if text.startswith("&"):
        body = text[1:]
        if not body or len(body) > 4 or any(c not in "0123456789ABCDEF" for c in body):
            return None
        return Decimal(int(body, 16))
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    try:
        return fit(value, _LITERAL)
    except ArithmeticError:
        raise BasicError(CALC) from None    # an exponent past any context's, as 1E100

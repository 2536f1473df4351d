"""Time, in CPU cycles (256,000 a second), that expression parts and a jump's line
search add to a statement, and how the value-dependent parts are worked out. The
figures are timing.csv's (each with how it was measured on the firmware engine):
the fixed ones are for general arguments; the firmware's times depend on the values
too (SIN 0 takes half of SIN 30, 2^3 half of 2^.5, 2/3 half as long again as 1/2),
and VALUE_COSTS below adds each evaluation's value-dependent part.
"""

import math
from decimal import Context, Decimal
from functools import lru_cache

from emulator.builtin.timing import CYCLES

LITERAL = CYCLES["literal"]                 # a number written in the program ...
LITERAL_CHAR = CYCLES["literal_char"]       # ... and each character of it after the first
STRING_LITERAL = CYCLES["string_literal"]   # a string written in the program ...
STRING_CHAR = CYCLES["string_char"]         # ... and each character of it
VARIABLE = CYCLES["variable"]
ELEMENT = CYCLES["element"]     # an array element's indexing, besides its index expressions
PARENTHESES = CYCLES["parentheses"]     # a pair around an expression or an argument
NEGATE = CYCLES["negate"]               # a leading -
ADD = CYCLES["add"]                     # + and -
MULTIPLY = CYCLES["multiply"]
DIVIDE = CYCLES["divide"]
POWER = CYCLES["power"]
COMPARE = CYCLES["compare"]
LOGIC = CYCLES["logic"]                 # AND, OR
NOT = CYCLES["not"]
FUNCTION = CYCLES["function"]           # a function with no figure of its own below
# A line typed in RUN mode, from ENTER's press to the next key wait
TYPED_BASE = CYCLES["typed_base"]       # to acting on the line (an error shows then)
TYPED_CHAR = CYCLES["typed_char"]       # ... and each typed character
TYPED_RESULT = CYCLES["typed_result"]   # showing a calculation's value, after its expression
TYPED_STATEMENT_END = CYCLES["typed_statement_end"]     # a typed statement's way back
# Each line a jump's search steps over (program.lines_passed)
LINE_SEARCH = CYCLES["line_search"]
GOSUB_LINE_SEARCH = CYCLES["gosub_line_search"]
LABEL_LINE = CYCLES["label_line"]               # a label search: each other labelled line
LABEL_MISS_LINE = CYCLES["label_miss_line"]     # ... each labelled line when none matches

# A function's own time, its argument's parts apart (parentheses are PARENTHESES).
FUNCTIONS = {name: CYCLES["function_" + name.rstrip("$").lower()] for name in (
    "INT", "ABS", "SGN", "SQR", "EXP", "LN", "LOG", "SIN", "COS", "TAN", "ATN", "ASN",
    "ACS", "RND", "PEEK", "LEN", "STR$", "VAL", "MID$", "LEFT$", "RIGHT$", "CHR$", "ASC",
    "POINT", "PI", "INKEY$")}


# ---------------------------------------------------------------- value-dependent parts
# The ROM's arithmetic works digit by digit, and its functions stop early when a step
# leaves nothing to do:
# - `/` subtracts the divisor once per unit of each quotient digit;
# - `*` adds the left operand once per unit of each digit of the right one;
# - SQR takes the root digit by digit;
# - LN and LOG divide the mantissa by 2, 1.1, 1.01 ... (pseudo-division) and stop when
#   nothing is left; EXP does the reverse and stops at a zero rest; `^` is the two in
#   a row. Below 1 LN takes 1/x first, and EXP of a negative number divides 1 by EXP
#   of its opposite;
# - trigonometry on a whole number of quarter turns (or an odd number of eighths)
#   needs no series. In RADIAN the angle goes through degrees; GRAD adds a little.
MULTIPLY_DIGIT = CYCLES["multiply_digit"]
DIVIDE_DIGIT = CYCLES["divide_digit"]
SQR_DIGIT = CYCLES["sqr_digit"]         # a unit of the root's digit sum ...
SQR_PLACE = CYCLES["sqr_place"]         # ... and each of its significant digits
LN_STEP = CYCLES["ln_step"]             # each pseudo-division step of a general LN or LOG
LN_GENERAL = CYCLES["ln_general"] - FUNCTIONS["LN"]     # (the figures are whole times)
LOG_GENERAL = CYCLES["log_general"] - FUNCTIONS["LOG"]
LN_EXACT = CYCLES["ln_exact"] - FUNCTIONS["LN"]     # a mantissa the pseudo-division uses up
LN_ONE = CYCLES["ln_one"] - FUNCTIONS["LN"]         # LN 1
LOG_EXACT = CYCLES["log_exact"] - FUNCTIONS["LOG"]
EXP_STEP = CYCLES["exp_step"]
EXP_GENERAL = CYCLES["exp_general"] - FUNCTIONS["EXP"]
EXP_ZERO = CYCLES["exp_zero"] - FUNCTIONS["EXP"]
POWER_EXACT = CYCLES["power_exact"]     # x^n with ln x exact, x^n below 10 (2^3): EXP's part
POWER_EXP = CYCLES["power_exp"]         # ... and EXP's part otherwise, besides EXP_STEP a step
POWER_OVERFLOW = CYCLES["power_overflow"]   # x^y out of range: after its LN part and y*LN x
POWER_NEGATIVE_BASE = CYCLES["power_negative_base"]    # a negative x, y no whole number
TURN_OVER = CYCLES["turn_over"]         # LN's 1/x of an x below 1, and DIVIDE_DIGIT a digit unit
TRIG_EXACT = {          # the function's whole time at an exact angle: (0, 45 degrees)
    name: (CYCLES[name.lower() + "_zero"], CYCLES[name.lower() + "_half"])
    for name in ("SIN", "COS", "TAN")}
INVERSE_EXACT = {       # the function's whole time for arguments 0 and +-1
    name: (CYCLES[name.lower() + "_zero"], CYCLES[name.lower() + "_one"])
    for name in ("ATN", "ASN", "ACS")}
MODE_CYCLES = {"DEG": (0, 0, 0)}        # (trig of 0, other trig, inverse) more than DEG
MODE_CYCLES.update((mode, tuple(CYCLES[mode.lower() + part] for part in
                                ("_trig_zero", "_trig", "_inverse"))) for mode in ("GRAD", "RAD"))
_QUARTER = {"DEG": 90, "GRAD": 100, "RAD": 90}     # RAD: tested in degrees
_TO_DEGREES = Decimal(180) / Decimal("3.14159265359")
_TEN_DIGITS = Context(prec=10)
_TENTH = Decimal("0.1")
_EXACT = Context(prec=22)               # for the exactness tests
_LN10 = math.log(10)
_LN_STEPS = [math.log(1 + 10.0 ** -j) for j in range(11)]


def _digits(value):
    """The first ten mantissa digits (the stored number's)."""
    return value.as_tuple().digits[:10]


def multiply_cycles(_left, right, _result):
    return MULTIPLY_DIGIT * sum(_digits(right))


def divide_cycles(_left, _right, quotient):
    return DIVIDE_DIGIT * sum(_digits(quotient))


def _division(quotient):
    """A whole division inside a function."""
    return DIVIDE + DIVIDE_DIGIT * sum(_digits(quotient))


def sqr_cycles(_arg, root):
    digits = _digits(root.normalize())
    return SQR_DIGIT * sum(digits) + SQR_PLACE * len(digits)


@lru_cache(maxsize=4096)
def _pseudo_division(value):
    """(steps, exact) of the LN reduction of value's mantissa: how many divisions by
    2, 1.1, 1.01 ... it takes, and whether they used the mantissa up."""
    digits = abs(value).normalize().as_tuple().digits
    rest = Decimal((0, digits, 1 - len(digits)))
    steps = 0
    for j in range(11):
        factor = 1 + Decimal(10) ** -j
        while rest >= factor:
            rest = _EXACT.divide(rest, factor)
            steps += 1
        if rest == 1:
            return steps, True
    return steps, False


@lru_cache(maxsize=4096)
def _pseudo_multiplication(value):
    """The steps of the EXP reduction of |value| (less whole ln 10s): how many times
    ln 2, ln 1.1, ln 1.01 ... go into it."""
    rest = abs(float(value)) % _LN10
    steps = 0
    for step in _LN_STEPS:
        while rest >= step:
            rest -= step
            steps += 1
    return steps


def _reduction(value):
    """(steps, exact, cycles) of LN's reduction of |value|: a number below 1 is turned
    over first, a division (LN .5 is as quick as LN 2, LN .2 as slow as LN 5)."""
    value = abs(value)
    if value < 1:
        value = _TEN_DIGITS.divide(1, value)
        return _pseudo_division(value) + (TURN_OVER + divide_cycles(None, None, value),)
    return _pseudo_division(value) + (0,)


def ln_cycles(arg, _result):
    steps, exact, turn = _reduction(arg)
    if exact:
        return turn + (LN_ONE if arg == 1 else LN_EXACT)
    return turn + LN_GENERAL + LN_STEP * steps


def log_cycles(arg, _result):
    steps, exact, turn = _reduction(arg)
    return turn + (LOG_EXACT if exact else LOG_GENERAL + LN_STEP * steps)


def exp_cycles(arg, result):
    if not arg:
        return EXP_ZERO
    # e^-x is 1/e^x (EXP -2 takes a division more than EXP 2)
    turn = _division(result) if arg < 0 else 0
    return turn + EXP_GENERAL + EXP_STEP * _pseudo_multiplication(arg)


def _power_ln(base):
    """(cycles, exact) of x^y's LN part; exact None when LN x is whole ln 10s."""
    steps, exact, extra = _reduction(base)
    if exact and abs(base).normalize().as_tuple().digits == (1,):
        return extra, None
    if exact:
        return extra + LN_EXACT - LN_ONE, True
    return extra + LN_GENERAL - LN_ONE + LN_STEP * steps, False


def power_cycles(base, exponent, result):
    """x^y is EXP(y*LN x): the LN part as LN's, the EXP part exact when y is a whole
    number and LN x was, and no ln 10 is taken off (x^y between .1 and 10)."""
    if not base:
        return 0
    extra, exact = _power_ln(base)
    if exact is None:
        return extra        # LN is whole ln 10s: nothing left for EXP either
    if exact and exponent == exponent.to_integral_value() and _TENTH < abs(result) < 10:
        return extra + POWER_EXACT
    rest = float(exponent) * math.log(abs(float(base)))
    if rest < 0:
        extra += _division(result)
    return extra + POWER_EXP + EXP_STEP * _pseudo_multiplication(rest)


def _trig(name):
    zero_cycles, half_cycles = TRIG_EXACT[name]

    def cycles(arg, _result, mode):
        """A whole number of quarter turns, or an odd number of eighths."""
        zero_mode, other_mode, _inverse = MODE_CYCLES[mode]
        if not arg:
            return zero_cycles - FUNCTIONS[name] + zero_mode
        if mode == "RAD":
            arg = _TEN_DIGITS.multiply(arg, _TO_DEGREES)
        eighths = arg * 2 / _QUARTER[mode]
        if eighths != eighths.to_integral_value():
            return other_mode
        return (half_cycles if int(eighths) % 2 else zero_cycles) - FUNCTIONS[name] + \
            other_mode
    return cycles


def _inverse(name):
    zero_cycles, one_cycles = INVERSE_EXACT[name]

    def cycles(arg, _result, mode):
        mode_cycles = MODE_CYCLES[mode][2]
        if not arg:
            return zero_cycles - FUNCTIONS[name] + mode_cycles
        if abs(arg) == 1:
            return one_cycles - FUNCTIONS[name] + mode_cycles
        return mode_cycles
    return cycles


# Each evaluation's value-dependent cycles, over the fixed figure: an operator's take
# (left, right, result), a function's (argument, result) and, for the angle functions,
# the angle unit as well.
def power_error_cycles(base, exponent):
    """The cycles x^y takes before its ERROR 2: a negative x with a y that is no whole
    number fails at once; otherwise the LN part and y*LN x come first and the result
    is found out of range after them (POWER_OVERFLOW)."""
    if not base:
        return 0
    if base < 0 and exponent != exponent.to_integral_value():
        return POWER_NEGATIVE_BASE
    return POWER_OVERFLOW + _power_ln(base)[0] + multiply_cycles(None, exponent, None)


OPERATOR_VALUE_COSTS = {"*": multiply_cycles, "/": divide_cycles, "^": power_cycles}
VALUE_COSTS = {"SQR": sqr_cycles, "LN": ln_cycles, "LOG": log_cycles, "EXP": exp_cycles}
ANGLE_VALUE_COSTS = {name: _trig(name) for name in TRIG_EXACT}
ANGLE_VALUE_COSTS.update((name, _inverse(name)) for name in INVERSE_EXACT)

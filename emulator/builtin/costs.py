"""Time, in CPU cycles (256,000 a second), that expression parts and a jump's line
search add to a statement.

Measured on the firmware engine with `WAIT 0:FOR I=1 TO 20:<statement>:NEXT I` against
the empty loop (bench/bench_timing.py --probe): A=1 takes 3976 cycles, A=I 4415, A=I*I 8231,
A=(I) 5343, A=SIN(I*7.3) 55452. Statement base costs sit with their handlers. The
firmware's times depend on the values too (SIN 0 takes half of SIN 30, 2^3 half of
2^.5, 2/3 half as long again as 1/2): the fixed figures here are for general
arguments, and VALUE_COSTS below adds each evaluation's value-dependent part.
"""

import math
from decimal import Context, Decimal
from functools import lru_cache

LITERAL = 510           # a number written in the program ...
LITERAL_CHAR = 90       # ... and each character of it after the first (1.5: 690)
STRING_LITERAL = 0      # a string written in the program: its characters' time only
STRING_CHAR = 115       # each character of it (LEN "ABCDE" 6830, 20 characters 8560)
VARIABLE = 1170         # reading a variable
ELEMENT = 1300          # an array element's indexing, besides its index expressions
PARENTHESES = 925       # a pair of parentheses around an expression or an argument
NEGATE = 830            # a leading - (A=-I 5244 cycles, A=I 4415)
ADD = 2000              # + and - (1930 for I-1, 2100 in A+I*2-1)
MULTIPLY = 2550         # and MULTIPLY_DIGIT a unit of the right operand's digit sum
DIVIDE = 3280           # and DIVIDE_DIGIT a unit of the quotient's digit sum
POWER = 24400           # and what power_cycles adds (24,200 for 10^2, 57,700 for 3^2)
COMPARE = 2000
LOGIC = 3740            # AND, OR
NOT = 2900
CONCAT = 2000           # string +
FUNCTION = 3000         # a function with no figure of its own below
# A line typed in RUN mode, from ENTER's press to the next key wait (firmware engine;
# tests/emulator/test_basic_timing.py keeps these figures):
# `1` 76,400 cycles, 29 digits 104,400, 40 digits 115,300 (about 900 a character: the
# firmware reads and tokenizes the line first); `1+` (ERROR 1) 73,600, `CONT` (ERROR 9)
# 72,700; `SIN 30` 123,100, `A=SIN 30` 128,500, `1+1+...+1` (29 characters) 137,600:
# the expression's own cycles as a program's, then the value is shown; `WAIT 0`,
# `RADIAN`, `CLEAR` 86,200-86,900, most of it after the statement, back at the prompt.
TYPED_BASE = 59_000         # ENTER's press to acting on the line (an error shows then)
TYPED_CHAR = 908            # ... and each typed character
TYPED_RESULT = 4_800        # showing a calculation's value, after its expression
TYPED_STATEMENT_END = 9_000     # a typed statement's return to the prompt
# Each line a jump's search steps over (program.lines_passed): GOTO 900 from line 10
# over 8 more lines takes 670 cycles more; a GOSUB about 190 a line.
LINE_SEARCH = 85
GOSUB_LINE_SEARCH = 190

# A function's own time, its argument's parts apart (parentheses are PARENTHESES).
FUNCTIONS = {
    "INT": 2050, "ABS": 1000, "SGN": 1000, "SQR": 3230, "EXP": 27000, "LN": 33000,
    "LOG": 27500, "SIN": 45000, "COS": 45500, "TAN": 28500, "ATN": 29000,
    "ASN": 45500, "ACS": 48000, "RND": 9900, "PEEK": 3650, "LEN": 2700,
    "STR$": 3500, "VAL": 2300, "MID$": 4600, "LEFT$": 3100, "RIGHT$": 3300,
    "CHR$": 900, "ASC": 2850, "POINT": 6700, "PI": 40, "INKEY$": 800,
}


# ---------------------------------------------------------------- value-dependent parts
# The ROM's arithmetic works digit by digit, and its functions stop early when a step
# leaves nothing to do. Measured with --probe on the firmware engine (DEG mode):
# - `/` subtracts the divisor once per unit of each quotient digit: 1/2 (sum 5) 3,600
#   cycles, 1/3 (sum 30) 5,400, 2/3 (sum 60) 7,500;
# - `*` adds the left operand once per unit of each digit of the right one: 2*3 2,760,
#   2*99 3,480, 2*9.999999999 6,670 (9.999999999*2 stays at 2,800);
# - SQR takes the root digit by digit: 3,450 for SQR 1, 4,250 for SQR 81, 7,300 for
#   SQR 2, 8,150 for SQR 10;
# - LN and LOG divide the mantissa by 2, 1.1, 1.01 ... (pseudo-division) and stop when
#   nothing is left: LN 2, LN 4, LN 1.1, LN 20 take 16,300, LN 1 13,500, LN 3 33,900,
#   LN 7 38,800; EXP does the reverse and stops at a zero rest (EXP 0 10,500, EXP 1
#   21,300, EXP .5 28,500); `^` is the two in a row (10^2 24,200, 2^3 27,800, 2^.5
#   39,000, 3^2 57,700). Below 1 LN takes 1/x first (LN .5 about LN 2 and 2,100
#   more), and EXP of a negative number divides 1 by EXP of its opposite;
# - trigonometry on a whole number of quarter turns needs no series: SIN 0, SIN 90,
#   SIN 180, COS 90 about 18,500 (SIN 30 42,800), SIN 45 25,800, TAN 0 12,200, TAN 45
#   14,500; ATN 0 800, ATN 1 13,100, ASN 0 6,900, ASN 1 5,900, ACS 0 5,100, ACS 1 7,900.
#   In RADIAN the angle goes through degrees (SIN(PI/2) is an exact one too), which
#   adds about 4,500 cycles (1,500 for SIN 0) and 5,800 to ASN, ACS and ATN; GRAD adds
#   about 1,400 and 2,000.
MULTIPLY_DIGIT = 47
DIVIDE_DIGIT = 71
SQR_DIGIT = 100         # a unit of the root's digit sum ...
SQR_PLACE = 117         # ... and each of its significant digits
LN_STEP = 640           # each pseudo-division step of a general LN or LOG
LN_GENERAL = 8000 - FUNCTIONS["LN"]    # LN's general time is 8,000 + LN_STEP a step
LOG_GENERAL = 2800 - FUNCTIONS["LOG"]
LN_EXACT = 16300 - FUNCTIONS["LN"]     # a mantissa the pseudo-division uses up (2, 1.1)
LN_ONE = 13500 - FUNCTIONS["LN"]       # LN 1
LOG_EXACT = 11300 - FUNCTIONS["LOG"]
EXP_STEP = 180
EXP_GENERAL = 17700 - FUNCTIONS["EXP"]  # EXP's general time is 17,700 + EXP_STEP a step
EXP_ZERO = 10500 - FUNCTIONS["EXP"]
POWER_EXACT = 400       # x^n with ln x exact, x^n below 10 (2^3): EXP's part
POWER_EXP = 5500        # ... and EXP's part otherwise, besides EXP_STEP a step
TURN_OVER = 2000        # LN's 1/x of an x below 1, and DIVIDE_DIGIT a digit unit
TRIG_EXACT = {          # the function's whole time at an exact angle (bcd angle units)
    "SIN": (18500, 25800), "COS": (18300, 25800), "TAN": (12200, 14500)}   # (0, 45)
INVERSE_EXACT = {       # the function's whole time for arguments 0 and +-1
    "ATN": (800, 13100), "ASN": (6900, 5900), "ACS": (5100, 7900)}
_QUARTER = {"DEG": 90, "GRAD": 100, "RAD": 90}     # RAD: tested in degrees
MODE_CYCLES = {"DEG": (0, 0, 0), "GRAD": (1400, 1400, 2000),
               "RAD": (1500, 4500, 5800)}   # (trig of 0, other trig, inverse)
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


def power_cycles(base, exponent, result):
    """x^y is EXP(y*LN x): the LN part as LN's, the EXP part exact when y is a whole
    number and LN x was, and no ln 10 is taken off (x^y between .1 and 10)."""
    if not base:
        return 0
    steps, exact, extra = _reduction(base)
    if exact and abs(base).normalize().as_tuple().digits == (1,):
        return extra        # LN is whole ln 10s: nothing left for EXP either
    if exact:
        extra += LN_EXACT - LN_ONE
    else:
        extra += LN_GENERAL - LN_ONE + LN_STEP * steps
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
OPERATOR_VALUE_COSTS = {"*": multiply_cycles, "/": divide_cycles, "^": power_cycles}
VALUE_COSTS = {"SQR": sqr_cycles, "LN": ln_cycles, "LOG": log_cycles, "EXP": exp_cycles}
ANGLE_VALUE_COSTS = {name: _trig(name) for name in TRIG_EXACT}
ANGLE_VALUE_COSTS.update((name, _inverse(name)) for name in INVERSE_EXACT)

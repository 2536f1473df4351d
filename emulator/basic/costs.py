"""Time, in CPU cycles (256,000 a second), that expression parts and a jump's line
search add to a statement.

Measured on the firmware engine with `WAIT 0:FOR I=1 TO 20:<statement>:NEXT I` against
the empty loop (bench/bench_timing.py --probe): A=1 takes 3976 cycles, A=I 4415, A=I*I 8231,
A=(I) 5343, A=SIN(I*7.3) 55452. Statement base costs sit with their handlers. The
firmware's times depend on the values too (SIN 0 takes half of SIN 30, 2^3 half of
2^.5, I/21 twice I/4): the figures here are averages over arguments a program meets.
"""

LITERAL = 510           # a number written in the program ...
LITERAL_CHAR = 90       # ... and each character of it after the first (1.5: 690)
STRING_LITERAL = 0      # a string written in the program: its characters' time only
STRING_CHAR = 115       # each character of it (LEN "ABCDE" 6830, 20 characters 8560)
VARIABLE = 1170         # reading a variable
ELEMENT = 1300          # an array element's indexing, besides its index expressions
PARENTHESES = 925       # a pair of parentheses around an expression or an argument
NEGATE = 830            # a leading - (A=-I 5244 cycles, A=I 4415)
ADD = 2000              # + and - (1930 for I-1, 2100 in A+I*2-1)
MULTIPLY = 2800         # 2540 for I*I, 2860 for I*7, 4540 for I*1.234567891
DIVIDE = 5500           # 3500 for I/2, 5900 for I/7, 6600 for 1/7 (by quotient digits)
POWER = 45000           # ^: 27,000 for 2^3, 38,000 for 2^.5, 53,000 for I^1.5
COMPARE = 2000
LOGIC = 3740            # AND, OR
NOT = 2900
CONCAT = 2000           # string +
FUNCTION = 3000         # a function with no figure of its own below
# Each line a jump's search steps over (program.lines_passed): GOTO 900 from line 10
# over 8 more lines takes 670 cycles more; a GOSUB about 190 a line.
LINE_SEARCH = 85
GOSUB_LINE_SEARCH = 190

# A function's own time, its argument's parts apart (parentheses are PARENTHESES).
FUNCTIONS = {
    "INT": 2050, "ABS": 1000, "SGN": 1000, "SQR": 8000, "EXP": 27000, "LN": 33000,
    "LOG": 27500, "SIN": 45000, "COS": 45500, "TAN": 30500, "ATN": 29000,
    "ASN": 45500, "ACS": 48000, "RND": 9900, "PEEK": 3650, "LEN": 2700,
    "STR$": 3500, "VAL": 2300, "MID$": 4600, "LEFT$": 3100, "RIGHT$": 3300,
    "CHR$": 900, "ASC": 2850, "POINT": 6700, "PI": 40, "INKEY$": 800,
}

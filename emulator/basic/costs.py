"""Time, in CPU cycles (256,000 a second), that expression parts add to a statement.

Measured on the firmware engine with `FOR I=1 TO 60:<statement>:NEXT I` against the
empty loop (an assignment A=1 takes 3956 cycles, A=A+1 6949, A=B*C+D 11188, A=SQR 2
11264, A=SIN 30 46860). Statement base costs sit with their handlers. The firmware's
times depend on the values too (SIN 30 takes twice COS 0): these are averages.
"""

LITERAL = 600           # a number written in the program
STRING_LITERAL = 200
VARIABLE = 1170         # reading a variable
ADD = 1800              # + and -
MULTIPLY = 2500         # * (and /, not yet measured)
DIVIDE = 3500
POWER = 12000           # ^ (estimate: EXP and LN)
COMPARE = 2300
LOGIC = 1500            # AND, OR, NOT (estimate)
CONCAT = 1200           # string +
FUNCTION = 3000         # a function with no figure of its own below

FUNCTIONS = {
    "INT": 2000, "ABS": 750, "SGN": 750, "SQR": 7300, "EXP": 10800, "LN": 10000,
    "LOG": 10000, "SIN": 30000, "COS": 18300, "TAN": 40000, "ATN": 1100,
    "ASN": 30000, "ACS": 30000, "RND": 9700, "PEEK": 2800, "LEN": 2100,
}

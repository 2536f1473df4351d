"""Tokenize and list throughput on a generated 10,000-line program (lines per second).

Run: python bench/bench_tokenize.py. The target is 50,000 lines/s for tokenize on one core.
Times are the best of several runs in CPU time of this process, so that other work on a
shared machine disturbs the figures less.
"""

import random
import time

from pc1360.listing import list_program
from pc1360.tokenizer import tokenize

LINES = 10_000
STATEMENTS = (
    'PRINT "SCORE";S;" OF ";T', "IF A>=B THEN {n}", "GOSUB {n}", "FOR I=1 TO 10 STEP 2",
    "NEXT I", "A$=MID$(B$,I,1)+CHR$ 65", "X=SQR(Y*Y+Z*Z)+SIN 30", "ON K GOTO {n},{n},{n}",
    "REM a comment with GOTO 10 in it", "POKE &FFD7,48,128", "CURSOR 3,1:WAIT 0",
    "GCURSOR (10,7):GPRINT \"7F41417F\"", 'INPUT "NAME? ";N$', "C=C+1:IF C<5 GOTO {n}",
    "DATA 1,2,3,ABC", "RESTORE {n}", "RETURN", "LINE (0,0)-(149,31),B",
)


def program(seed=1360):
    rng = random.Random(seed)
    lines = []
    for number in range(5, 5 * LINES + 1, 5):
        statements = rng.sample(STATEMENTS, rng.randint(1, 2))
        body = ":".join(s.replace("{n}", str(rng.randrange(5, 5 * LINES, 5)))
                        for s in statements)
        lines.append(f"{number} {body}")
    return "\n".join(lines) + "\n"


def rate(function, argument, repeats=5):
    best = min(_timed(function, argument) for _ in range(repeats))
    return LINES / best


def _timed(function, argument):
    start = time.process_time()
    function(argument)
    return time.process_time() - start


def main():
    source = program()
    image = tokenize(source)
    print(f"program: {LINES} lines, {len(source)} characters, image {len(image)} bytes")
    print(f"tokenize: {rate(tokenize, source):10,.0f} lines/s")
    print(f"list:     {rate(list_program, image):10,.0f} lines/s")


if __name__ == "__main__":
    main()

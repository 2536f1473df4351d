"""A seeded generator of PC-1360 BASIC programs and key sequences (issue 15).

    from tests.faithful.generator import generate, sample
    case = generate(seed=1, index=7)      # one GenCase, always the same for (seed, index)
    cases = sample(seed=1, count=200)     # the first `count` cases of a seed

Each case is drawn from one *area* of the language (AREAS: operators and functions on
edge values, logical operators on non-booleans, PRINT with ; and ,, USING, strings up to
80 characters, arrays, FOR/NEXT, GOSUB and ON ... GOTO/GOSUB, DATA/READ/RESTORE,
graphics with text, INPUT answers and editing keys, PAUSE/WAIT, LIST, RND, angle modes,
errors, statement mixes that take time, FOR and GOSUB nesting, CURSOR and GCURSOR at the
edges, small programs mixing all of these, RUN mode as a calculator, PRO-mode editing of
lines, labels and DEF keys, INKEY$ polling) and carries that area as its tag. The area of
case `index` is AREAS[index % len(AREAS)], so any run of len(AREAS) consecutive cases
covers every area; what is drawn inside it comes from random.Random seeded by
(seed, index) alone, so a case does not depend on which other cases were drawn.

A generated program always tokenizes (pc1360.tokenizer, typeable lines of at most 80
characters) and stays small (a few lines, far below the smallest card): a drawing that
does not is drawn again (with the next attempt number in the seed). The steps are key
scripts as the faithfulness cases take them (faithful_harness.Step); the program is
bounded in time (loops of at most a hundred turns; the time-taking mixes get a 40 s
settle limit), so nearly every step settles within its limit. One that does not (a loop
that prints and scrolls 50 times, for example) is observed where its limit stops it, on
both engines alike, and its difference then is one of time.
"""

import random
from dataclasses import dataclass, field

from pc1360.tokenizer import FormatError, parse_program

MAX_PROGRAM_BYTES = 1500      # far below a 32 KB card's free memory: never a memory error
MAX_ATTEMPTS = 20
TIMING_SETTLE = 40.0     # emulated seconds a time-taking mix may run before its step settles


@dataclass(frozen=True)
class GenCase:
    seed: int
    index: int
    area: str
    lines: tuple          # program lines, each "NUMBER BODY"
    steps: tuple          # key scripts (str) or step tables (dict), as in a case file
    notes: dict = field(default_factory=dict, compare=False)

    @property
    def program(self):
        return "\n".join(self.lines)

    @property
    def ident(self):
        return f"{self.seed}:{self.index}"


# ---------------------------------------------------------------- values

NUMBERS = ["0", "1", "-1", "2", "-2", "3", "7", "10", "255", "256", "-0.5", "0.5", ".1",
           "2.5", "-2.5", "1E99", "-1E99", "9.999999999E99", "1E-99", "-1E-99", "1E-5",
           "123456789012", "-123456789", "1E10", "99999", "0.000123", "3.14159265359",
           "1.5E-10", "65535", "-32768", "1234.5678", "0.1234567891", "9999999999"]
SMALL = ["0", "1", "-1", "2", "3", "0.5", "-0.5", "1.5", "-3", "4", "10"]
STRINGS = ['""', '"A"', '"AB"', '"HELLO"', '"12"', '"-3.5"', '"1E5"', '"X1"', '"1X"',
           '" 7"', '"--2"', '"1.2.3"', '"E"', '"&H1F"', '"ABCDEFGHIJKLMNOP"', '"0"', '"."']
VAL_STRINGS = ['"12"', '"-3.5"', '"1E5"', '"X1"', '"1X"', '" 7"', '"--2"', '"1.2.3"', '"E5"',
               '"&H1F"', '"&HFF"', '"1E"', '"+4"', '"."', '""', '"1 2"', '"1E99"', '"1E100"',
               '"-.5"', '"5-"', '"1E-99"', '"0012"', '"9999999999999"']
NUM_FUNCS = ["ABS", "INT", "SGN", "SQR", "LOG", "LN", "EXP", "SIN", "COS", "TAN", "ASN",
             "ACS", "ATN", "DEG", "DMS"]
OPERATORS = ["+", "-", "*", "/", "^"]
RELATIONS = ["=", "<", ">", "<=", ">=", "<>"]
USING_FORMATS = ['"###"', '"###.##"', '"#.##^"', '"##.#^"', '"&&&"', '"&&&&&&"', '"####.#"',
                 '"#"', '"##,###"', '"###.###"', '"&&&&&"', '"#####"', '"-###.##"']


def _num(rng):
    return rng.choice(NUMBERS)


def _term(rng):
    value = _num(rng) if rng.random() < 0.7 else rng.choice(SMALL)
    return f"({value})" if value.startswith("-") else value


def _expr(rng, depth=0):
    roll = rng.random()
    if depth > 1 or roll < 0.35:
        return _term(rng)
    if roll < 0.7:
        return f"{_term(rng)}{rng.choice(OPERATORS)}{_expr(rng, depth + 1)}"
    return f"{rng.choice(NUM_FUNCS)}({_expr(rng, depth + 1)})"


def _by_roll(roll, table):
    """The item of `table` ((upper limit, make) pairs, limits rising to 1) that `roll`
    (0 <= roll < 1) falls in, made."""
    for limit, make in table:
        if roll < limit:
            return make()
    return table[-1][1]()


def _strexpr(rng):
    roll = rng.random()
    s = rng.choice(STRINGS)
    n = rng.choice(["0", "1", "2", "3", "-1", "20", "1.5"])
    return _by_roll(roll, [
        (0.2, lambda: s),
        (0.4, lambda: f"LEFT$({s},{n})"),
        (0.55, lambda: f"RIGHT$({s},{n})"),
        (0.7, lambda: f"MID$({s},{rng.choice(['1', '2', '0', '5'])},{n})"),
        (0.85, lambda: f"STR$({_num(rng)})"),
        (1.0, lambda: f"CHR$({rng.choice(['65', '48', '32', '0', '255', '127', '91', '300', '-1'])})"),
    ])


# ---------------------------------------------------------------- areas
# Each returns (bodies, steps): the line bodies (numbered 10, 20, ... afterwards) and
# the key steps after the program is on the card.

def _print_waits(bodies):
    """Steps for a program whose PRINTs wait for ENTER: RUN and an ENTER for each."""
    waits = sum(body.count("PRINT") + body.count("GPRINT") for body in bodies)
    return ["RUN{ENTER}"] + ["{ENTER}"] * min(waits, 6)


def area_arith(rng):
    bodies = ["WAIT 0"]
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.25:
            bodies.append(f"PRINT {rng.choice(['LEN', 'ASC', 'VAL'])}({_strexpr(rng)})")
        elif rng.random() < 0.3:
            bodies.append(f"A={_expr(rng)}:PRINT A")
        else:
            bodies.append(f"PRINT {_expr(rng)}")
    return bodies, ["RUN{ENTER}"]


def area_val(rng):
    items = [f"VAL {rng.choice(VAL_STRINGS)}" for _ in range(rng.randint(1, 3))]
    bodies = ["WAIT 0", "PRINT " + ";".join(items)]
    if rng.random() < 0.4:
        bodies.append(f"PRINT STR$ VAL {rng.choice(VAL_STRINGS)}")
    return bodies, ["RUN{ENTER}"]


def area_logic(rng):
    def operand():
        return rng.choice(["0", "1", "-1", "5", "-2", "3", "0.5", "-0.5", "255", "256",
                           "-32768", "32767", "1E5", "A", "B"])
    bodies = [f"WAIT 0:A={operand()}:B={operand()}"]
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.35:
            bodies.append(f"PRINT {operand()} {rng.choice(['AND', 'OR'])} {operand()}")
        elif kind < 0.5:
            bodies.append(f"PRINT NOT {operand()}")
        elif kind < 0.7:
            bodies.append(f"PRINT ({operand()}{rng.choice(RELATIONS)}{operand()})"
                          f"{rng.choice(['AND', 'OR', '+', '*'])}{operand()}")
        else:
            cond = rng.choice([operand(), f"NOT {operand()}", f"{operand()} AND {operand()}",
                               f"{operand()}{rng.choice(RELATIONS)}{operand()}"])
            bodies.append(f'IF {cond} PRINT "T";')
            bodies.append('PRINT "/"')
    return bodies, ["RUN{ENTER}"]


def area_print(rng):
    def item():
        roll = rng.random()
        if roll < 0.5:
            return _num(rng)
        if roll < 0.8:
            return rng.choice(STRINGS)
        return rng.choice(["A", "B$", "-A", "A*1E9"])
    bodies = ['A=-12.5:B$="XY"']
    wait = rng.random() < 0.5
    if wait:
        bodies.insert(0, "WAIT 0")
    for _ in range(rng.randint(1, 3)):
        parts = [item() for _ in range(rng.randint(1, 4))]
        text = parts[0]
        for part in parts[1:]:
            text += rng.choice([";", ",", ";"]) + part
        if rng.random() < 0.2:
            text += rng.choice([";", ","])
        bodies.append(f"PRINT {text}")
    return bodies, ["RUN{ENTER}"] if wait else _print_waits(bodies)


def area_using(rng):
    fmt = rng.choice(USING_FORMATS)
    bodies = ["WAIT 0"]
    style = rng.random()
    value = rng.choice(NUMBERS + ["-0.004", "-0.005", "0.005", "-0.4", "0.045", "-12.345"])
    if rng.random() < 0.3:
        value = rng.choice(STRINGS)
    if style < 0.3:
        bodies.append(f"PRINT USING {fmt};{value}")
    elif style < 0.5:
        bodies.append(f"F$={fmt}:PRINT USING F$;{value}")
    elif style < 0.65:
        bodies.append(f"USING {fmt}:PRINT {value};{rng.choice(NUMBERS)}")
        bodies.append(f"USING:PRINT {value}")
    elif style < 0.8:
        bodies.append(f"PRINT USING;{value}")
    else:
        bodies.append(f"PRINT USING {fmt};{value},{rng.choice(NUMBERS)}")
    if rng.random() < 0.3:
        bodies.append(f'PRINT USING "{"#" * rng.randint(20, 30)}";{value}')
    return bodies, ["RUN{ENTER}"]


def area_strings(rng):
    length = rng.choice([16, 30, 79, 80, 81])
    piece = rng.choice(["ABCDEFGHIJ", "0123456789", "XY", "HELLO WORLD "])
    bodies = [f"WAIT 0:DIM S$(0)*{min(length, 80)}", f'A$="{piece}"',
              "S$(0)=" + "+".join(["A$"] * max(1, min(8, length // len(piece))))]
    roll = rng.random()
    if roll < 0.3:
        bodies.append("S$(0)=S$(0)+A$")
    elif roll < 0.5:
        bodies.append("B$=S$(0)")
    bodies.append(rng.choice(["PRINT LEN S$(0)", "PRINT S$(0)", "PRINT RIGHT$(S$(0),5);LEN S$(0)",
                              "PRINT MID$(S$(0),70,20)", "PRINT S$(0);LEN S$(0)"]))
    return bodies, ["RUN{ENTER}"] + (["{ENTER}"] if rng.random() < 0.3 else [])


def area_arrays(rng):
    kind = rng.random()
    n = rng.choice([0, 1, 3, 5, 10])
    i = rng.choice(["0", "1", str(n), str(n + 1), "-1", "2.5"])
    if kind < 0.3:
        bodies = [f"WAIT 0:DIM X({n})", f"FOR K=0 TO {n}:X(K)=K*K:NEXT K", f"PRINT X({i});X(0)"]
    elif kind < 0.55:
        m = rng.choice([1, 2, 3])
        bodies = [f"WAIT 0:DIM Y({n},{m})", f"Y({n},{m})=7:Y(0,0)=-1", f"PRINT Y({i},1);Y({n},{m})"]
    elif kind < 0.8:
        size = rng.choice(["", "*1", "*5", "*80"])
        bodies = [f"WAIT 0:DIM N$({n}){size}", 'N$(0)="ABCDEFGHIJKLMNOPQRST"',
                  f"PRINT N$(0);LEN N$({i})"]
    else:
        bodies = ["WAIT 0:A=5:B=6", f"A({rng.choice(['1', '2', '26', '27', '0'])})=9",
                  "PRINT A;B;A(1);A(2)"]
    return bodies, ["RUN{ENTER}"]


def area_for(rng):
    start = rng.choice(["1", "0", "-2", "5", "0.5", "10"])
    end = rng.choice(["1", "3", "5", "-3", "2.5", "0", "10"])
    step = rng.choice(["", " STEP 1", " STEP -1", " STEP 2", " STEP 0.5", " STEP -0.25", " STEP 3"])
    bodies = ["WAIT 0:C=0", f"FOR I={start} TO {end}{step}", "C=C+1:PRINT I;", "NEXT I",
              'PRINT "/";I;C']
    if rng.random() < 0.3:
        bodies[1:4] = [f"FOR I={start} TO {end}{step}:FOR J=1 TO 2:C=C+1:NEXT J:NEXT I"]
    return bodies, ["RUN{ENTER}"]


def area_gosub(rng):
    kind = rng.random()
    x = rng.choice(["0", "1", "2", "3", "4", "-1", "1.5", "2.9", "256"])
    verb = rng.choice(["GOTO", "GOSUB"])
    targets = rng.choice(["40,50,60", "40,50,60", "40", "40,,60", "60,50"])
    if kind < 0.6:
        bodies = [f"WAIT 0:X={x}", f"ON X {verb} {targets}", 'PRINT "FELL":END',
                  'PRINT "A":' + ("RETURN" if verb == "GOSUB" else "END"),
                  'PRINT "B":' + ("RETURN" if verb == "GOSUB" else "END"),
                  'PRINT "C":' + ("RETURN" if verb == "GOSUB" else "END")]
        if verb == "GOSUB":
            bodies[2] = 'PRINT "BACK":END'
    else:
        depth = rng.choice([1, 2, 3])
        bodies = ["WAIT 0:D=0", "GOSUB 40:PRINT D", "END",
                  f'D=D+1:IF D<{depth} GOSUB 40', rng.choice(["RETURN", "RETURN", "PRINT D:RETURN"])]
        if rng.random() < 0.2:
            bodies.append("RETURN")
            bodies[2] = "GOTO 60"
    return bodies, ["RUN{ENTER}"]


def area_data(rng):
    items = [rng.choice(["1", "-2.5", '"XY"', "3E2", "ABC", '""', "0", "7"]) for _ in range(4)]
    roll = rng.random()
    if roll < 0.3:
        extra = f"RESTORE {rng.choice(['70', '60', '65', ''])}:READ C$:PRINT C$"
    elif roll < 0.6:
        extra = "READ C,D,E:PRINT C;D;E"
    else:
        extra = "READ C$,D$:PRINT C$;D$"
    # lines 10-50 read, the DATA lines are 60 and 70
    bodies = ["WAIT 0", "READ A,B$", "PRINT A;B$", extra, "END",
              f"DATA {','.join(items[:2])}", f"DATA {','.join(items[2:])}"]
    return bodies, ["RUN{ENTER}"]


def area_graphics(rng):
    x1, y1 = rng.randint(0, 149), rng.randint(0, 31)
    x2, y2 = rng.choice([rng.randint(0, 149), 200, -5]), rng.randint(0, 31)
    cmds = [f"LINE ({x1},{y1})-({x2},{y2})", f"LINE ({x1},{y1})-({x2},{y2}),B",
            f"PSET ({x1},{y1})", f"PRESET ({x1},{y1})", f'GPRINT "{rng.choice(["7F41417F", "FF", "0F0F"])}"',
            f"GCURSOR ({x1},{y1})", f"PSET ({x1},{y1}),X", f"LINE -({x2},{y2})"]
    wait = rng.random() < 0.6
    bodies = ["CLS" + (":WAIT 0" if wait else "")]
    for _ in range(rng.randint(1, 3)):
        bodies.append(rng.choice(cmds))
        if rng.random() < 0.6:
            bodies.append(rng.choice(['PRINT "AB";', 'PRINT "HELLO"', "PRINT 12;",
                                      f"CURSOR {rng.randint(0, 23)},{rng.randint(0, 3)}:PRINT \"X\"",
                                      "PRINT POINT(1,1)"]))
    bodies.append('WAIT:PRINT "E"')
    steps = _print_waits(bodies) if not wait else ["RUN{ENTER}", "{ENTER}"]
    return bodies, steps


def area_input(rng):
    prompt = rng.choice(['"V";', '"";', '"AB CD?";', "", '"X=",'])
    var = rng.choice(["A", "A$", "A,B", "A$,B"])
    bodies = ["CLS"] if rng.random() < 0.3 else []
    if rng.random() < 0.3:
        bodies.append('PRINT "Q";')
    bodies += [f"INPUT {prompt}{var}", f"PRINT {var.replace(',', ';')}"]
    answers = [rng.choice(["12", "-3.5", "ABC", "", "1E5", "HELLO", "1+2", "\"Q\"", "7"])
               for _ in range(var.count(",") + 1)]
    steps = ["RUN{ENTER}"]
    for answer in answers:
        edit = rng.random()
        if edit < 0.2 and answer:
            steps.append(answer + "{LEFT}{DEL}")
        elif edit < 0.3:
            steps.append(answer + "{CLS}")
            steps.append("5")
        elif edit < 0.4 and answer:
            steps.append(answer + "{LEFT}{LEFT}{INS}9")
        elif answer:
            steps.append(answer)
        steps.append("{ENTER}")
    if rng.random() < 0.5:
        steps.append("8{ENTER}")        # asked again after an error, or nothing to do
    steps.append("{ENTER}")
    return bodies, steps


def area_wait(rng):
    n = rng.choice(["0", "1", "10", "64", "100", "255", ""])
    bodies = [f"WAIT {n}".rstrip(), rng.choice(['PRINT "A"', "PRINT 1;2", 'PAUSE "P"', "PAUSE 12"]),
              rng.choice(['PAUSE "Q";3', 'PRINT "B"', "PAUSE", 'PRINT "C":PAUSE "D"'])]
    steps = ["RUN{ENTER}"] + (["{ENTER}"] * 3 if not n else [])
    return bodies, steps


LISTED_AREAS = ("arith", "val", "logic", "print", "using", "strings", "arrays", "for", "gosub",
                "data", "graphics", "wait", "rnd", "angle", "errors", "timing")


def area_list(rng):
    """LIST (in PRO mode) of a program drawn from another area, then UP/DOWN through it."""
    bodies, _ = AREAS[rng.choice(LISTED_AREAS)](rng)
    last = 10 * len(bodies)
    start = rng.choice(["", " 10", f" {last}", f" {last // 2 + 5}", f" {last + 5}", " 1"])
    steps = ["{MODE}", f"LIST{start}{{ENTER}}"]
    steps += [rng.choice(["{DOWN}", "{UP}", "{DOWN}{DOWN}"]) for _ in range(rng.randint(0, 3))]
    return bodies, steps


def area_rnd(rng):
    arg = rng.choice(["100", "1", "0", "-1", "0.5", "10", "1E10", "2.5"])
    bodies = ["WAIT 0", f"PRINT RND {arg};RND {arg}"]
    if rng.random() < 0.3:
        bodies.append("PRINT INT(RND 6)")
    return bodies, ["RUN{ENTER}"]


def area_angle(rng):
    mode = rng.choice(["DEGREE", "RADIAN", "GRAD"])
    arg = rng.choice(["0", "30", "45", "90", "180", "1", "0.5", "-1", "PI", "PI/4", "PI/2", "100", "1E10"])
    funcs = rng.sample(["SIN", "COS", "TAN", "ASN", "ACS", "ATN"], 2)
    bodies = [f"WAIT 0:{mode}", f"PRINT {funcs[0]} {arg};{funcs[1]}({arg})"]
    if rng.random() < 0.3:
        bodies.append("PRINT PI;PI*2")
    return bodies, ["RUN{ENTER}"]


ERROR_BODIES = ["A=1/0", "GOTO 999", "NEXT I", "RETURN", "A=LOG 0", "A=SQR -1", "A$=CHR$ 300",
                "DIM X(3):DIM X(3)", "A=ASN 2", "READ A", "A=(1", 'A=VAL "1E200"', "A=1E99*10",
                "CURSOR 99", "WAIT -1", "A=ASC 3", 'A$="A"+1', "GOSUB 999", "DIM Z(300,300)",
                'A$=MID$("AB",0,1)', "BEEP -1", "PSET (1)", "LINE (0,0)-(1E9,0)", "RESTORE 999",
                "ON 1 GOTO", "A(30)=1", "X=INT", "PRINT USING \"##\";1E99", "CLEAR 1", "FOR I=1",
                "A$=LEFT$(\"A\",-1)", "POKE 0", "GCURSOR -1", "DEGREE 1", "A=DMS"]


def area_errors(rng):
    bodies = ["WAIT 0:A=2", rng.choice(ERROR_BODIES), 'PRINT "AFTER"']
    steps = ["RUN{ENTER}"] + ([rng.choice(["{CLS}", "{UP}", "{DOWN}", "{ENTER}"])]
                              if rng.random() < 0.5 else [])
    return bodies, steps


def area_timing(rng):
    n = rng.choice([10, 20, 50, 100])
    count = rng.choice([1, 1, 2, 3])
    if count > 1:
        n = min(n, 30)          # SIN or READ/RESTORE take ~0.2 s a turn on the firmware
    body = ":".join(rng.sample([
                       "A=A+1", "A=A+1,B=B*2", "B$=B$+\"X\":B$=\"\"", "READ Z:RESTORE",
                       "GOSUB 60", "A=SIN(I)", "A$=STR$ I", "A=A+I*2:B=A/3", "C$=LEFT$(\"ABC\",2)",
                       'PRINT "";', "A=A+1:B=B+1:C=C+1", "A=I^2", "A(2)=I",
                       "ON 2 GOSUB 60,60", "IF A>I THEN A=0", "A$=CHR$(65+I/10)", "A=INT(I/3)"],
                       count))
    bodies = ["WAIT 0", f"FOR I=1 TO {n}", body, "NEXT I", 'PRINT "D";A:END', "RETURN", "DATA 5"]
    if rng.random() < 0.3:
        bodies[0] = 'WAIT 0:PRINT "S"'
    # the slowest mixes take ~20 emulated seconds on the firmware: let the step settle
    return bodies, [{"keys": "RUN{ENTER}", "settle_timeout": TIMING_SETTLE}]


STR_OPERANDS = ['""', '"A"', '"B"', '"AB"', '"a"', '"ABC"', '"A "', '" A"', '"1"', '"Z"', "A$", "B$"]


def area_strcmp(rng):
    """String relations (as numbers and in IF) and string functions on edge arguments."""
    bodies = [f"WAIT 0:A$={rng.choice(STR_OPERANDS[:-2])}:B$={rng.choice(STR_OPERANDS[:-2])}"]
    for _ in range(rng.randint(1, 3)):
        left, right = rng.choice(STR_OPERANDS), rng.choice(STR_OPERANDS)
        kind = rng.random()
        if kind < 0.4:
            bodies.append(f"PRINT ({left}{rng.choice(RELATIONS)}{right});({left}={right})")
        elif kind < 0.6:
            bodies.append(f'IF {left}{rng.choice(RELATIONS)}{right} PRINT "T";')
            bodies.append('PRINT "/"')
        elif kind < 0.8:
            bodies.append(f"PRINT {_strexpr(rng)};LEN {_strexpr(rng)}")
        else:
            bodies.append(f"C$={left}+{right}:PRINT C$;ASC C$")
    return bodies, ["RUN{ENTER}"]


def area_nesting(rng):
    """FOR and GOSUB nested to and past their limits, loops left by GOTO or RETURN and
    entered again, NEXT of an outer variable, a reused loop variable."""
    kind = rng.random()
    if kind < 0.3:
        depth = rng.choice([3, 4, 5, 6])
        names = "IJKLMN"[:depth]
        heads = [f"FOR {v}=1 TO 2" for v in names]
        tail = ":".join(f"NEXT {v}" for v in reversed(names))
        bodies = ["WAIT 0:C=0", ":".join(heads[:3]), ":".join(heads[3:] + ["C=C+1"]), tail,
                  "PRINT C;I"]
    elif kind < 0.55:
        depth = rng.choice([8, 9, 10, 11, 12])
        bodies = ["WAIT 0:D=0", "GOSUB 40:PRINT D", "END", f"D=D+1:IF D<{depth} GOSUB 40",
                  rng.choice(["RETURN", "PRINT D;:RETURN"])]
    elif kind < 0.75:
        exit_to = rng.choice(["GOTO 40", "RETURN", "NEXT I"])
        bodies = ["WAIT 0:GOSUB 30:PRINT \"R\";I", "END",
                  f"FOR I=1 TO 5:IF I={rng.choice(['1', '3', '5', '9'])} {exit_to}",
                  "NEXT I:PRINT \"N\";I:RETURN" if exit_to != "GOTO 40" else "NEXT I:RETURN",
                  "PRINT \"X\";I:RETURN"]
    else:
        inner = rng.choice(["NEXT I", "NEXT J", "NEXT", "NEXT J:NEXT I"])
        bodies = ["WAIT 0:C=0", f"FOR I=1 TO 3:FOR J=1 TO {rng.choice(['2', '0', '-1'])}",
                  f"C=C+1:{inner}", "PRINT I;J;C"]
        if rng.random() < 0.4:
            bodies.insert(2, "FOR I=1 TO 2")
    return bodies, ["RUN{ENTER}"]


def area_cursor(rng):
    """CURSOR and GCURSOR at and past every edge, text printed from there (wrapping and
    scrolling), GPRINT at the right edge, CLS between."""
    x = rng.choice(["0", "1", "22", "23", "24", "-1", "12", "5.9"])
    y = rng.choice(["0", "1", "3", "4", "-1", "2"])
    text = rng.choice(['"A"', '"HELLO"', '"ABCDEFGHIJKLMNOPQRSTUVWXYZ"', "12", "-3.5", '""'])
    bodies = ["CLS:WAIT 0"]
    roll = rng.random()
    if roll < 0.4:
        bodies.append(f"CURSOR {x},{y}:PRINT {text}{rng.choice(['', ';', ''])}")
        if rng.random() < 0.5:
            bodies.append(rng.choice(['PRINT "B"', "CURSOR 0:PRINT 7", 'CURSOR:PRINT "C"',
                                      f"CURSOR {y},{x}:PRINT 1;2"]))
    elif roll < 0.7:
        gx = rng.choice(["0", "140", "145", "149", "150", "-1", "75"])
        gy = rng.choice(["0", "7", "8", "31", "32", "-1", "15"])
        bodies.append(f"GCURSOR ({gx},{gy}):GPRINT \"{rng.choice(['FF', '7F41417F', '01020408'])}\"")
        if rng.random() < 0.6:
            bodies.append(f"GCURSOR ({gx},{gy}):PRINT {text}")
    else:
        bodies.append(f"CURSOR {x},{y}:PRINT {text};")
        bodies.append(f'CLS:PRINT {rng.choice(["1", chr(34) + "Z" + chr(34)])}')
    bodies.append('WAIT:PRINT "E"')
    return bodies, ["RUN{ENTER}", "{ENTER}"]


MIX_VARS = ["A", "B", "C", "X", "Y"]


def _mix_statement(rng):
    """A statement as programs are written: assignments, string work, arrays, IF, a short
    loop, PRINT of what was computed."""
    v, w = rng.choice(MIX_VARS), rng.choice(MIX_VARS)

    def condition():
        action = rng.choice([f"{v}={w}+2", f"PRINT {v};", 'PRINT "I";', f"{v}=-{v}"])
        return f"IF {v}{rng.choice(RELATIONS)}{w} {action}"

    def printed():
        items = [rng.choice([v, w, "S$", "LEN S$", f"{v}*{w}", f"{v}/3", "Z(1)"])
                 for _ in range(rng.randint(1, 3))]
        return "PRINT " + rng.choice([";", ","]).join(items)

    return _by_roll(rng.random(), [
        (0.2, lambda: f"{v}={rng.choice([_expr(rng), f'{w}+1', f'{w}*{v}-1', f'INT({w}/2)', f'{w}^2'])}"),
        (0.3, lambda: f"S$={_strexpr(rng)}+STR$ {w}"),
        (0.4, lambda: f"Z({rng.choice(['1', '2', v])})={w}:{v}=Z(1)+Z(2)"),
        (0.55, condition),
        (0.65, lambda: f"FOR K=1 TO {rng.choice(['2', '3', v])}:{v}={v}+K:NEXT K"),
        (0.75, lambda: f"S$=LEFT$(S$+\"XY\",{rng.choice(['1', '3', '9', v])})"),
        (0.9, printed),
        (1.0, lambda: f"{v}={rng.choice(['SGN', 'ABS', 'INT', 'SQR ABS'])} {w}"),
    ])


def area_mixed(rng):
    """Small programs of statements from every part of the language together, as users
    write them: each line a few statements, a subroutine, variables printed at the end."""
    bodies = ["WAIT 0:DIM Z(5):" + ":".join(f"{v}={rng.choice(SMALL)}" for v in MIX_VARS[:3])]
    for _ in range(rng.randint(2, 4)):
        bodies.append(":".join(_mix_statement(rng) for _ in range(rng.randint(1, 3))))
    if rng.random() < 0.4:
        at = len(bodies) + 3
        bodies.append(f"GOSUB {10 * at}")
        bodies.append("PRINT A;B;C:END")
        bodies.append(_mix_statement(rng) + ":RETURN")
    else:
        bodies.append("PRINT A;B;C;X;Y")
    return bodies, ["RUN{ENTER}"] + (["{ENTER}"] if rng.random() < 0.2 else [])


CALC_LINES = ["1+2*3", "A=5", "A*2", "B=A/3", "B", "SIN 30", "SQR 2", "2^10", "-7/2",
              "A$=\"XY\"", "A$", "LEN A$", "INT -2.5", "1/3*3", "1E99*10", "PI", "A+B",
              "C=A:C", "\"AB\"+\"C\"", "ABS -3;5", "1E-5", "123456789012", "1,2",
              "PRINT A", "DEGREE:COS 60", "X", "&FF", "3>2", "ASC \"A\""]
EDIT_KEYS = ["{LEFT}", "{RIGHT}", "{DEL}", "{INS}", "{LEFT}{LEFT}{DEL}", "{INS}7",
             "{LEFT}9", "{CLS}"]


def area_calc(rng):
    """RUN mode as a calculator: typed expressions and statements (no program), with
    the editing keys on the typed line, LEFT or RIGHT to bring back the last line, and
    answers used in the next line (`*2` after a result)."""
    steps = []
    for _ in range(rng.randint(2, 5)):
        line = rng.choice(CALC_LINES)
        roll = rng.random()
        if roll < 0.25:
            line += rng.choice(EDIT_KEYS)
        elif roll < 0.4:
            steps.append(rng.choice(["{LEFT}", "{RIGHT}"]) + rng.choice(["", "{DEL}", "1"]) + "{ENTER}")
            continue
        elif roll < 0.55:
            line = rng.choice(["*2", "+1", "/4", "-A"])
        steps.append(line + "{ENTER}")
    return [], steps


def area_edit(rng):
    """PRO mode: lines typed, a line typed again (replaced), a number alone (deleted),
    a line fetched with UP/DOWN and changed, then LIST and RUN."""
    bodies = [f'PRINT "{c}";{n}' for c, n in zip("ABC", rng.sample(range(1, 9), 3))]
    steps = ["{MODE}"]
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        line = 10 * rng.randint(1, 4)
        if roll < 0.3:
            steps.append(f"{line} PRINT {rng.choice(['7', chr(34) + 'NEW' + chr(34), 'X'])}{{ENTER}}")
        elif roll < 0.5:
            steps.append(f"{line}{{ENTER}}")
        elif roll < 0.75:
            steps.append(rng.choice(["{UP}", "{DOWN}", "{UP}{UP}", "{DOWN}{DOWN}"]))
            steps.append(rng.choice(["{RIGHT}{RIGHT}{RIGHT}{DEL}", "{LEFT}9", "{RIGHT}{INS}1"])
                         + "{ENTER}")
        else:
            text = rng.choice(["Q", "RS"])
            steps.append(f'{line} PRINT "{text}"{{LEFT}}{{DEL}}{{ENTER}}')
    steps += [f"LIST{rng.choice(['', ' 20'])}{{ENTER}}", rng.choice(["{DOWN}", "{UP}", ""]) or "{DOWN}",
              "{MODE}", "RUN{ENTER}"]
    return bodies, steps


LABELS = ["A", "S", "D", "F", "Z", "X"]


def area_labels(rng):
    """Labelled lines: DEF + letter, GOTO and GOSUB to a label (written or in a string
    variable), a missing label, DEF at a PRINT wait."""
    first, second = rng.sample(LABELS, 2)
    q = chr(34)
    bodies = [f"{q}{first}{q} WAIT 0:PRINT {q}1{first}{q};",
              rng.choice([f"GOTO {q}{second}{q}", f"GOSUB {q}{second}{q}:PRINT {q}R{q}:END",
                          f"L$={q}{second}{q}:GOTO L$", f"GOTO {q}Q{q}", f"GOSUB L$"]),
              "END",
              f"{q}{second}{q} PRINT {q}2{second}{q};" + rng.choice([":RETURN", ":END", ""]),
              f'PRINT "3"']
    start = rng.choice([f"{{DEF}}{first}", f"{{DEF}}{second}", "RUN{ENTER}",
                        f"{{DEF}}{rng.choice(['Q', 'W'])}"])
    steps = [start, "{ENTER}"]
    if rng.random() < 0.4:
        steps.append(f"{{DEF}}{rng.choice([first, second])}")
    return bodies, steps


INKEY_KEYS = ["K", "7", "{ENTER}", "{UP}", "{SPACE}", "{DEL}", "A", "=", "{CLS}"]


def area_inkey(rng):
    """INKEY$ in a polling loop: the key's code and text, a second poll with no key, two
    keys read one after the other."""
    bodies = ['A$=INKEY$:IF A$="" GOTO 10', "PRINT ASC A$;A$;LEN A$"]
    if rng.random() < 0.5:
        bodies.append(rng.choice(['B$=INKEY$:PRINT LEN B$', 'B$=INKEY$:IF B$="" GOTO 30',
                                  "WAIT 0:PRINT INKEY$;1"]))
    steps = [{"keys": "RUN{ENTER}", "settle": False, "run": 0.3}, rng.choice(INKEY_KEYS)]
    if "GOTO 30" in bodies[-1]:
        steps.append(rng.choice(INKEY_KEYS))
    steps.append("{ENTER}")
    return bodies, steps


AREAS = {
    "arith": area_arith, "val": area_val, "logic": area_logic, "print": area_print,
    "using": area_using, "strings": area_strings, "arrays": area_arrays, "for": area_for,
    "gosub": area_gosub, "data": area_data, "graphics": area_graphics, "input": area_input,
    "wait": area_wait, "list": area_list, "rnd": area_rnd, "angle": area_angle,
    "errors": area_errors, "timing": area_timing, "strcmp": area_strcmp,
    "nesting": area_nesting, "cursor": area_cursor, "mixed": area_mixed,
    "calc": area_calc, "edit": area_edit, "labels": area_labels, "inkey": area_inkey,
}
AREA_NAMES = tuple(AREAS)


def number(bodies):
    return tuple(f"{10 * (i + 1)} {body}" for i, body in enumerate(bodies))


def program_fits(lines):
    """The program tokenizes (each line typeable, at most 80 characters) and its image
    is small."""
    if any(len(line) > 80 for line in lines):
        return False
    if not lines:
        return True             # typed lines only (area calc)
    try:
        image = parse_program("\n".join(lines)).image
    except FormatError:
        return False
    return len(image) <= MAX_PROGRAM_BYTES


def generate(seed, index, area=None):
    """Case `index` of `seed` (its area AREA_NAMES[index % n] unless `area` is given)."""
    area = area or AREA_NAMES[index % len(AREA_NAMES)]
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{seed}/{index}/{attempt}")
        bodies, steps = AREAS[area](rng)
        lines = number(bodies)
        if program_fits(lines):
            return GenCase(seed, index, area, lines, tuple(steps))
    raise RuntimeError(f"area {area}: no program that tokenizes in {MAX_ATTEMPTS} attempts")


def sample(seed, count, start=0, areas=None):
    """Cases start .. start+count-1 of `seed`; with `areas`, only those areas' cases."""
    out = []
    index = start
    while len(out) < count:
        area = AREA_NAMES[index % len(AREA_NAMES)]
        if areas is None or area in areas:
            out.append(generate(seed, index))
        index += 1
    return out

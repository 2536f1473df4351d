"""Generator areas of the language itself (generator.py): operators and functions, VAL,
logic, PRINT and USING, strings, arrays, FOR, GOSUB and ON, DATA, graphics with text,
PAUSE/WAIT, RND, angle modes, errors, mixes that take time, string relations. Each
returns (line bodies, key steps)."""

from tests.faithful.gen_values import (
    NUMBERS,
    RELATIONS,
    STRINGS,
    USING_FORMATS,
    VAL_STRINGS,
    expr,
    num,
    strexpr,
)

TIMING_SETTLE = 40.0     # emulated seconds a time-taking mix may run before its step settles


def _print_waits(bodies):
    """Steps for a program whose PRINTs wait for ENTER: RUN and an ENTER for each."""
    waits = sum(body.count("PRINT") + body.count("GPRINT") for body in bodies)
    return ["RUN{ENTER}"] + ["{ENTER}"] * min(waits, 6)


def area_arith(rng):
    bodies = ["WAIT 0"]
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.25:
            bodies.append(f"PRINT {rng.choice(['LEN', 'ASC', 'VAL'])}({strexpr(rng)})")
        elif rng.random() < 0.3:
            bodies.append(f"A={expr(rng)}:PRINT A")
        else:
            bodies.append(f"PRINT {expr(rng)}")
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
            return num(rng)
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



def area_wait(rng):
    n = rng.choice(["0", "1", "10", "64", "100", "255", ""])
    bodies = [f"WAIT {n}".rstrip(), rng.choice(['PRINT "A"', "PRINT 1;2", 'PAUSE "P"', "PAUSE 12"]),
              rng.choice(['PAUSE "Q";3', 'PRINT "B"', "PAUSE", 'PRINT "C":PAUSE "D"'])]
    steps = ["RUN{ENTER}"] + (["{ENTER}"] * 3 if not n else [])
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
            bodies.append(f"PRINT {strexpr(rng)};LEN {strexpr(rng)}")
        else:
            bodies.append(f"C$={left}+{right}:PRINT C$;ASC C$")
    return bodies, ["RUN{ENTER}"]

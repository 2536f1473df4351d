"""Generator areas of the keyboard and the terminal (generator.py): INPUT answers and
editing keys, FOR/GOSUB nesting, CURSOR and GCURSOR at the edges, small mixed programs,
RUN mode as a calculator, PRO-mode editing, labels and DEF keys, INKEY$ polling, lines
refused and brought back (recall). Each returns (line bodies, key steps)."""

from tests.faithful.gen_values import (
    RELATIONS,
    SMALL,
    by_roll,
    expr,
    strexpr,
)


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

    return by_roll(rng.random(), [
        (0.2, lambda: f"{v}={rng.choice([expr(rng), f'{w}+1', f'{w}*{v}-1', f'INT({w}/2)', f'{w}^2'])}"),
        (0.3, lambda: f"S$={strexpr(rng)}+STR$ {w}"),
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


# Lines typed in RUN mode that are often refused: a value of the wrong kind, a number run
# into a letter, a jump to a missing line or label, a second statement after a colon.
RECALL_STATEMENTS = ["PRINT 1", "CLS", "PAUSE 2", "LET B=1", "BEEP 1", "WAIT 0", "CLEAR",
                     "DEGREE", "RANDOM", "CONT", "RUN", "GOTO 10", "DIM D(3)", "USING"]


RECALL_TARGETS = ["10", "99", "500", "5*100", "A", "(7)", '"Q"', '"X"']


def recall_line(rng):
    """A typed line from a small grammar of the errors whose place LEFT/RIGHT show
    (A holds a string)."""
    return by_roll(rng.random(), [
        (0.15, lambda: f"B={rng.choice(['A', 'B+A', 'SIN A', '(A)', '2*A+1'])}"),
        (0.3, lambda: f"{rng.choice(['B$', 'C$'])}={rng.choice([expr(rng), 'PI', 'B1', '-5'])}"),
        (0.45, lambda: f"{expr(rng)}{rng.choice(['A', 'T', ' X', 'E2Q', '1B'])}"),
        (0.6, lambda: f"{rng.choice(['GOTO', 'RUN'])} {rng.choice(RECALL_TARGETS)}"),
        (0.85, lambda: f"{rng.choice(RECALL_STATEMENTS)}:{rng.choice(['A=1', 'B', ''])}"),
        (1.0, lambda: f"CONT {rng.choice(['5', 'A', ''])}"),
    ])


def area_recall(rng):
    """RUN mode: a line typed that is often refused, then LEFT or RIGHT to bring it back
    (the cursor where the firmware puts it after the error) and a key on it; A holds a
    string, a small program has line 10 and label X, and may have stopped at a STOP."""
    bodies = ['PRINT "R"', '"X" STOP', 'PRINT "S"']
    steps = ['A$="XY"{ENTER}']
    if rng.random() < 0.4:
        steps += ["RUN{ENTER}", "{ENTER}"]
    for _ in range(rng.randint(1, 3)):
        steps.append("{CLS}" + recall_line(rng) + "{ENTER}")
        steps.append(rng.choice(["{LEFT}", "{RIGHT}"]) + rng.choice(["", "", "{DEL}", "{INS}", "7"]))
    return bodies, steps


def area_renumber(rng):
    """PRO mode: RENUM or DELETE with drawn arguments on a program whose lines jump to
    each other (GOTO, GOSUB, THEN, RESTORE, an ON list; now and then to a missing line or
    a computed target), then LIST and UP/DOWN through it and the error's line."""
    count = rng.randint(2, 5)
    numbers = [10 * (k + 1) for k in range(count)]      # as generator.number numbers them
    jumps = ["GOTO", "GOSUB", "IF A THEN", "RESTORE", "ON A GOTO"]
    bodies = []
    for _ in numbers:
        target = rng.choice(numbers + [99] if rng.random() < 0.2 else numbers)  # 99: missing
        jump = rng.choice(jumps)
        text = f"{jump} {target}"
        if jump == "ON A GOTO":
            text += f",{rng.choice(numbers)}"
        if rng.random() < 0.1:
            text = f"{jump} {target}*1"     # computed: RENUM refuses it
        bodies.append(rng.choice([text, f"A=1:{text}", f'PRINT "{target}":{text}']))
    arg = lambda: str(rng.choice(numbers + [rng.randint(1, 120)]))  # noqa: E731
    command = rng.choice([
        "RENUM", f"RENUM {arg()}", f"RENUM {arg()},{arg()}", f"RENUM {arg()},{arg()},{rng.randint(0, 30)}",
        f"RENUM ,,{rng.randint(1, 20)}", f"RENUM 65270,{numbers[0]}",
        f"DELETE {arg()}", f"DELETE {arg()},{arg()}", f"DELETE {arg()},", f"DELETE ,{arg()}"])
    steps = ["{MODE}", command + "{ENTER}", "{CLS}LIST{ENTER}",
             rng.choice(["{DOWN}{DOWN}", "{DOWN}{DOWN}{DOWN}{DOWN}", "{UP}"]), "{CLS}{UP}"]
    return bodies, steps

"""The built-in engine's interpreter: expressions and statements over tokenized RAM
(emulator/builtin/interp.py, expr.py, statements.py, output.py), steps compiled once
per address (steps.py)."""

from decimal import Decimal as D

import pytest

from emulator.builtin import interp as interp_module
from emulator.builtin import random_numbers
from emulator.builtin.basic_errors import ILLEGAL, BasicError
from emulator.builtin.engine import tokenize_body
from emulator.builtin.expr import compile_at
from pc1360.facts import INPUT_BUFFER
from tests.helpers.bare_machine import machine_with


def run(source, cycles=2_000_000, keys=()):
    """Run a program (RUN from the first line) until it ends or `cycles` pass."""
    machine, engine = machine_with(source)
    engine.start()
    for key in keys:
        engine.run(cycles // (len(keys) + 1))
        machine.keyboard.pressed.add(key)
        engine.run(2560)
        machine.keyboard.pressed.discard(key)
    engine.run(cycles)
    return engine


def num(engine, letter):
    return engine.interp.vars.load(engine.interp.vars.fixed(ord(letter), False))


def text(engine, letter):
    return engine.interp.vars.load(engine.interp.vars.fixed(ord(letter), True))


def evaluate(expr):
    _machine, engine = machine_with("10 END")
    interp = engine.interp
    interp.start_immediate(tokenize_body(expr.encode("latin-1")))
    value = interp.expression()
    assert interp.peek() == 0x0D
    return value


def lines(engine):
    return [line.rstrip() for line in engine.screen.text()]


# ---------------------------------------------------------------- expressions

@pytest.mark.parametrize("expr,value", [
    ("1+2*3", "7"), ("(1+2)*3", "9"), ("-2^2", "-4"), ("2^3^2", "512"), ("(2^3)^2", "64"),
    ("2^-1", "0.5"), ("(-8)^(1/3)", "-2"),
    ("INT 2.5^2", "4"), ("INT (2.5^2)", "6"), ("-3*-2", "6"), ("10/4", "2.5"),
    ("1<2", "1"), ("2<=1", "0"), ("3<>3", "0"), ("3>=3", "1"), ("1+1=2", "1"),
    ("6 AND 3", "2"), ("6 OR 3", "7"), ("NOT 0", "-1"), ("1=1 AND 2=2", "1"),
    ("INT -2.5", "-3"), ("ABS -7", "7"), ("SGN -7", "-1"), ("PI", "3.14159265359"),
    ("SIN 30", "0.5"), ("&FF", "255"), ("1.5E3", "1500"), (".5", "0.5"),
    ("LEN \"ABC\"", "3"), ("ASC \"A\"", "65"), ("VAL \"12.5X\"", "12.5"),
    ("VAL \"X\"", "0"), ("\"ABC\"<\"ABD\"", "1"), ("\"A\"=\"A\"", "1"),
])
def test_number_expressions(expr, value):
    assert evaluate(expr) == D(value)


@pytest.mark.parametrize("expr,value", [
    ("\"AB\"+\"CD\"", b"ABCD"), ("LEFT$(\"HELLO\",2)", b"HE"),
    ("RIGHT$(\"HELLO\",3)", b"LLO"), ("MID$(\"HELLO\",2,3)", b"ELL"),
    ("MID$(\"HELLO\",9,3)", b""), ("CHR$ 65", b"A"), ("STR$ 12.5", b"12.5"),
    ("STR$ 2", b"2"),
])
def test_string_expressions(expr, value):
    assert evaluate(expr) == value


@pytest.mark.parametrize("expr,code", [
    ("1/0", 2), ("\"A\"+1", 9), ("LEFT$(1,2)", 9), ("1+", 1),
    ("(1", 1), ("SQR -1", 2),
])
def test_expression_errors(expr, code):
    with pytest.raises(BasicError) as err:
        evaluate(expr)
    assert err.value.code == code


# ---------------------------------------------------------------- statements

def test_assignment_and_two_character_variables():
    engine = run('10 A=5:B$="HI":XY=A*2:C=XY+1:N1$="NAME":D$=N1$')
    assert num(engine, "A") == 5 and num(engine, "C") == 11
    assert text(engine, "B") == b"HI" and text(engine, "D") == b"NAME"


def test_for_next_with_step_and_nesting():
    engine = run("10 S=0:FOR I=1 TO 10 STEP 3:FOR J=1 TO 2:S=S+I:NEXT J:NEXT I")
    assert num(engine, "S") == 2 * (1 + 4 + 7 + 10)
    assert num(engine, "I") == 13


def test_for_runs_once_and_counts_down():
    engine = run("10 N=0:FOR I=5 TO 1 STEP -2:N=N+1:NEXT I")
    assert num(engine, "N") == 3


def test_gosub_return_and_on_gosub():
    engine = run("10 A=0:GOSUB 100:ON 2 GOSUB 200,300:ON 5 GOTO 100:END\n"
                 "100 A=A+1:RETURN\n200 A=A+10:RETURN\n300 A=A+100:RETURN")
    assert num(engine, "A") == 101


def test_if_then_forms():
    engine = run('10 A=1:IF A=1 THEN 30\n20 A=99\n30 IF A=2 THEN A=50:B=7\n'
                 '40 IF A=1 LET C=3:D=4\n50 IF A GOTO 70\n60 A=98\n70 E=1')
    assert num(engine, "A") == 1 and num(engine, "B") == 0
    assert num(engine, "C") == 3 and num(engine, "D") == 4 and num(engine, "E") == 1


def test_labels():
    engine = run('10 GOSUB "SUB":A=A+1:END\n20 "SUB" A=10:RETURN')
    assert num(engine, "A") == 11


def test_data_read_restore():
    engine = run('10 READ A,B$,C:RESTORE 40:READ D\n20 DATA 1,"X,Y"\n30 DATA -2.5\n40 DATA 7')
    assert num(engine, "A") == 1 and text(engine, "B") == b"X,Y"
    assert num(engine, "C") == D("-2.5") and num(engine, "D") == 7


def test_dim_arrays():
    engine = run('10 DIM X(3),N$(2)*4:FOR I=0 TO 3:X(I)=I*I:NEXT I:N$(2)="ABCDEF"\n'
                 '20 A=X(3):B$=N$(2):C=A(1)')
    assert num(engine, "A") == 9 and text(engine, "B") == b"ABCD"
    assert num(engine, "C") == 9                  # A(1) is A


def test_peek_poke():
    engine = run("10 POKE &F000,1,2,255:A=PEEK &F001+PEEK &F002")
    assert num(engine, "A") == 257


def test_error_shows_error_n_in_line():
    engine = run("10 A=1\n20 B=1/0")
    assert "ERROR 2 IN 20" in lines(engine)


@pytest.mark.parametrize("line", ["20 B=1E100", "20 B=1E999999999"])
def test_a_number_past_the_range_is_error_2(line):
    """However large its exponent, a written number past 1E99 is a calculation error
    (a Python exception in the interpreter once)."""
    engine = run("10 A=1\n" + line)
    assert "ERROR 2 IN 20" in lines(engine)
    assert engine.internal_errors == []


def test_missing_line_is_error_4():
    engine = run("10 GOTO 50")
    assert "ERROR 4 IN 10" in lines(engine)


@pytest.mark.parametrize("source,message", [
    ("10 RETURN", "ERROR 5 IN 10"), ("10 NEXT I", "ERROR 5 IN 10"),
    ("10 A=", "ERROR 1 IN 10"), ("10 DIM A(2):DIM A(2)", "ERROR 3 IN 10"),
    ("10 READ A", "ERROR 5 IN 10"), ("10 DATA 1\n20 READ A,B", "ERROR 5 IN 20"),
    ("10 X(2)=1", "ERROR 3 IN 10"), ("10 A=LEN 5", "ERROR 9 IN 10"),
    ("10 CURSOR 30,0", "ERROR 3 IN 10"), ("10 A=PEEK 70000", "ERROR 3 IN 10"),
    ("10 FOR I=1 TO 2:NEXT", "ERROR 1 IN 10"),
])
def test_errors(source, message):
    assert message in lines(run(source))


def test_print_with_wait_0_fills_lines_and_scrolls():
    engine = run('10 WAIT 0:FOR I=1 TO 5:PRINT "L";I:NEXT I')
    assert lines(engine) == ["L3.", "L4.", "L5.", ">"]        # the end shows a prompt


def test_print_lone_number_is_right_aligned_and_comma_splits_halves():
    # as the firmware engine shows them
    engine = run('10 WAIT 0:CLS:PRINT 12:PRINT "A","B":PRINT -5,"X"')
    assert engine.screen.text() == [
        "12.".rjust(24), "A".ljust(12) + "B".ljust(12),
        "-5.".rjust(12) + "X".ljust(12), ">".ljust(24)]
    engine = run('10 WAIT 0:CLS:PRINT 1,2:PRINT "AB";5;"C":PRINT 1/3;2')
    assert lines(engine) == ["1.".rjust(12) + "2.".rjust(12), "AB5.C", "3.333333333E-012.", ">"]


def test_print_waits_for_enter():
    machine, engine = machine_with('10 PRINT "ONE":A=1')
    engine.start()
    engine.run(100000)
    assert num(engine, "A") == 0 and engine.screen.text()[1].startswith("ONE")
    machine.keyboard.pressed.add("ENTER")
    engine.run(100000)
    assert num(engine, "A") == 1


def test_wait_n_and_pause_take_time():
    engine = run('10 WAIT 64:PRINT "X":A=1', cycles=200_000)
    assert num(engine, "A") == 0                   # still showing for 1 s
    engine.run(100_000)
    assert num(engine, "A") == 1


def test_cursor_and_cls():
    engine = run('10 WAIT 0:PRINT "GONE":CLS:CURSOR 5,2:PRINT "AB";:PRINT "CD"')
    assert lines(engine) == ["", "", "     ABCD", ">"]          # as the firmware engine


def test_using():
    engine = run('10 WAIT 0:CLS:PRINT USING "###.##";3.14159:PRINT USING "&&&";"ABCDE"')
    assert lines(engine)[:2] == ["3.14".rjust(24), "ABC"]     # as the firmware engine


def test_input_assigns_typed_values():
    machine, engine = machine_with('10 INPUT "N?";N,A$:B=N*2')
    engine.start()
    engine.run(50000)
    # held 45 ms, and the next key only when the last one is done (a key pressed
    # while the firmware still handles the previous one is lost, as on the ROM)
    for key in ["4", "2", "ENTER", "H", "I", "ENTER"]:
        machine.keyboard.pressed.add(key)
        engine.run(11_520)
        machine.keyboard.pressed.discard(key)
        engine.run(80_000)
    engine.run(100000)
    assert num(engine, "B") == 84 and text(engine, "A") == b"HI"


def test_inkey_reads_the_held_key():
    machine, engine = machine_with('10 A$=INKEY$:IF A$="" GOTO 10\n20 B=ASC A$')
    engine.start()
    engine.run(100000)
    machine.keyboard.pressed.add("K")
    engine.run(100000)
    assert num(engine, "B") == ord("K")


def test_break_and_cont():
    machine, engine = machine_with("10 A=A+1:GOTO 10")
    engine.start()
    engine.run(256000)
    machine.keyboard.pressed.add("BRK")
    engine.run(2560)
    assert "BREAK IN 10" in lines(engine)
    count = num(engine, "A")
    assert 20 <= count <= 40                      # about 30 loops a second (docs/basic_language.md §6)


def test_stop_shows_break():
    engine = run("10 A=1:STOP:A=2")
    assert "BREAK IN 10" in lines(engine) and num(engine, "A") == 1


def test_rnd_ranges_and_random_reseeds():
    engine = run("10 RANDOM:M=99:X=0:FOR I=1 TO 30:R=RND 6:IF R<M LET M=R\n"
                 "20 IF R>X LET X=R\n30 F=RND .5:IF F<=0 OR F>=1 LET E=1\n40 NEXT I")
    assert 1 <= num(engine, "M") <= num(engine, "X") <= 6 and num(engine, "E") == 0


@pytest.mark.parametrize("seed, count, after", [
    # seeds read on the firmware engine at 0xFDE0 after RANDOM (count from its X register)
    ("0010572957795131", 21, "9992767386150471"),       # the seed after the CLEAR question
    ("9992767386150471", 21, "9993706475106751"),       # RANDOM: RANDOM
    ("0010572957795131", 105, "9993836930752401"),
    ("0000000000000000", 37, "9990000000000001"),       # a zero seed: the count drops out
])
def test_random_multiplies_the_seed_by_the_key_wait_count(seed, count, after):
    _machine, engine = machine_with("10 END")
    mem = engine.interp.mem
    mem[0xFDE0:0xFDE8] = bytes.fromhex(seed)
    random_numbers.randomize(mem, count)
    assert bytes(mem[0xFDE0:0xFDE8]).hex() == after


@pytest.mark.parametrize("seed, after", [
    # 0xFDE0 on the firmware engine after each X=RND .5 from a POKEd seed
    ("9990000000000001", ["9890200000000001", "9994600000000021", "9993800000000401"]),
    ("9990004000000000", ["9980920000000001", "9991160000000001", "9993680000000021"]),
    ("9990000000043478", ["9930999990000001", "9992999770000001", "9992994710000001"]),
    ("0010572957795131", ["9993178029288001", "9994094673624021", "9992177493352481"]),
])
def test_rnd_stores_a_small_product_normalized(seed, after):
    _machine, engine = machine_with("10 END")
    mem = engine.interp.mem
    mem[0xFDE0:0xFDE8] = bytes.fromhex(seed)
    seen = []
    for _ in after:
        random_numbers.random_fraction(mem)
        seen.append(bytes(mem[0xFDE0:0xFDE8]).hex())
    assert seen == after


def test_random_survives_a_seed_with_non_decimal_nibbles():
    _machine, engine = machine_with("10 POKE &FDE2,255:RANDOM:A=RND 6")
    engine.start()
    engine.run(500_000)
    assert not engine.internal_errors and 1 <= num(engine, "A") <= 6


def test_angle_modes():
    engine = run("10 A=SIN 90:RADIAN:B=COS PI:GRAD:C=SIN 100:DEGREE:D=ATN 1")
    assert [num(engine, c) for c in "ABCD"] == [1, -1, 1, 45]


def test_graphics():
    # (WAIT 0 first: with no WAIT each PSET, PRESET and LINE waits for ENTER)
    engine = run("10 WAIT 0:PSET (1,1):PSET (2,2):PRESET (2,2):A=POINT(1,1)+POINT(2,2)\n"
                 "20 LINE (10,0)-(10,9),B:B=POINT(10,5)\n"
                 '30 GCURSOR (20,7):GPRINT "FF01";3:C=POINT(20,0)+POINT(21,0)+POINT(22,1)')
    assert num(engine, "A") == 1 and num(engine, "B") == 1 and num(engine, "C") == 3


# ---------------------------------------------------------------- compiled once

def test_a_loop_compiles_each_step_once(monkeypatch):
    compiled = []
    compile_step = interp_module.compile_step
    monkeypatch.setattr(interp_module, "compile_step",
                        lambda it, pos: compiled.append(pos) or compile_step(it, pos))
    engine = run("10 A=A+1:B$=\"X\":FOR I=1 TO 3:NEXT I:IF A<50 GOSUB 30:GOTO 10\n"
                 "20 END\n30 C=C+2:RETURN", cycles=3_000_000)
    assert num(engine, "A") == 50 and num(engine, "C") == 98
    assert compiled and len(compiled) == len(set(compiled))


def test_a_changed_step_is_compiled_again():
    machine, engine = machine_with("10 A=A+1:IF A<20 GOTO 10")
    engine.start()
    engine.run(2_000_000)
    assert num(engine, "A") == 20
    line = engine.interp.program.find(10)
    limit = machine.mem.index(b"<20", line)
    machine.mem[limit + 1] = ord("3")       # `IF A<30`, as a POKE would change it
    engine.interp.vars.store(engine.interp.vars.fixed(ord("A"), False), 0)
    engine.start()
    engine.run(2_000_000)
    assert num(engine, "A") == 30


def _compiled(expression):
    machine, engine = machine_with("10 END")
    body = tokenize_body(expression.encode("latin-1")) + b"\x0d"
    machine.mem[INPUT_BUFFER:INPUT_BUFFER + len(body)] = body
    return engine.interp, compile_at(engine.interp, INPUT_BUFFER)


@pytest.mark.parametrize("expression, value", [
    ('LEFT$("HELLO",3)+"X"', b"HELX"), ("-1", -1), ("2+3-4", 1), ("NOT 0", -1),
    ('MID$("HELLO",2,2)', b"EL"), ("INT -2.5", -3), ("CHR$ 65", b"A"),
])
def test_constants_are_worked_out_when_parsed(expression, value):
    _interp, entry = _compiled(expression)
    assert entry.const == value and entry.run() == value


@pytest.mark.parametrize("expression", ["SQR 16", "RND 5", "PEEK 100", "SIN 30", "3*4"])
def test_what_depends_on_the_machine_or_prices_its_values_is_not(expression):
    _interp, entry = _compiled(expression)
    assert entry.const is None


def test_a_constant_call_that_fails_fails_each_time_it_runs():
    interp, entry = _compiled('LEFT$("AB",300)')
    for _ in range(2):
        interp.pos = 0
        with pytest.raises(BasicError) as err:
            entry.run()
        assert err.value.code == ILLEGAL and interp.pos == entry.end
    assert "ERROR 3 IN 10" in lines(run('10 A$=LEFT$("AB",300)'))


@pytest.mark.parametrize("source, message, start", [
    ("10 FOR A$=1 TO 2", "ERROR 9 IN 10", 0), ("10 FOR I=1,2", "ERROR 1 IN 10", 1),
    ('10 FOR I="A" TO 2', "ERROR 9 IN 10", 0), ("10 FOR I=3 TO 4 STEP", "ERROR 1 IN 10", 3),
    ("10 FOR I=5 TO 6 STEP 1,2", "ERROR 1 IN 10", 5), ("10 FOR I 1 TO 2", "ERROR 1 IN 10", 0),
])
def test_a_for_that_stops_stores_what_came_before(source, message, start):
    """A FOR's errors come in the order it is read in: its start is stored first."""
    engine = run(source)
    assert message in lines(engine) and num(engine, "I") == start


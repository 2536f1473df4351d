"""The built-in engine shell: boot, RUN-mode calculator, PRO-mode line entry, keys,
time, and robustness against any token stream (emulator/builtin/engine.py)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.builtin import font
from emulator.builtin.engine import BuiltinEngine
from emulator.machine import key_script as keys
from emulator.machine.lcd import LCD
from pc1360.keywords import KEYWORDS
from tests.helpers.bare_machine import BareMachine


def tap(machine, engine, key):
    """Press and release a key, then give the engine time to act (ENTER on a typed
    calculation takes the firmware 76,000 cycles, 123,000 for SIN 30)."""
    machine.keyboard.pressed.add(key)
    engine.run(2560)
    machine.keyboard.pressed.discard(key)
    engine.run(160_000)


def type_text(machine, engine, text):
    """Type a key script (emulator/machine/key_script.py syntax: shifted characters as SHIFT, key)."""
    for step in keys.parse(text):
        tap(machine, engine, step.key)


@pytest.fixture
def booted():
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    tap(machine, engine, "Y")
    return machine, engine


def screen(engine):
    """What the display shows, read from its dots (the text buffer at 0xFD80 holds
    no `_` cursor and NULs where the firmware keeps them)."""
    return LCD(engine.mem, {code: font.GLYPHS[code] for code in range(0x20, 0x100)}).text()


def test_blank_card_asks_the_clear_question():
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    assert screen(engine)[:2] == ['MEM$ = "C"'.ljust(24), "RAM CARD S1 CLEAR O.K. ?"]
    tap(machine, engine, "N")
    assert screen(engine)[1] == "RAM CARD S1 CLEAR O.K. ?"
    tap(machine, engine, "Y")
    assert screen(engine)[0].strip() == "RUN MODE"
    mem = machine.mem
    # an empty program FF FF at 0x8030, pointers as the firmware leaves them (docs/stored_format.md §2.1, §2.2)
    assert mem[0xFFD7:0xFFDB] == bytes([0x30, 0x80, 0x31, 0x80])
    assert mem[0x8030:0x8032] == b"\xff\xff"
    assert mem[0x283E:0x2840] == bytes([0x31, 0x80]) == mem[0x8009:0x800B]
    assert engine.screen.symbols() == {"RUN"}


def test_a_valid_card_boots_to_run_mode():
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    tap(machine, engine, "Y")
    engine.reset()
    assert screen(engine)[0].strip() == "RUN MODE"


@pytest.mark.parametrize("typed,result", [
    ("1+1", "2."), ("PI", "3.141592654"), ("SQR 2", "1.414213562"),
    ("1/3", "3.333333333E-01"), ("SIN 30", "0.5"), ("2^10", "1024."),
    ("EXP 1", "2.718281828"),
])
def test_calculator_matches_the_firmware(booted, typed, result):
    machine, engine = booted
    type_text(machine, engine, typed + "\n")
    assert screen(engine)[:3] == ["RUN MODE".ljust(24), typed.ljust(24), result.rjust(24)]


def test_calculator_error(booted):
    machine, engine = booted
    type_text(machine, engine, "1/0\n")
    assert screen(engine)[2].strip() == "ERROR 2"


def test_assignment_then_recall(booted):
    machine, engine = booted
    type_text(machine, engine, "A=6*7\nA\n")
    assert [line.strip() for line in screen(engine)] == ["A=6*7", "42.", "A", "42."]


def test_typing_goes_on_below_the_result_with_a_cursor(booted):
    machine, engine = booted
    type_text(machine, engine, "1+1\n5")
    assert screen(engine)[3].strip() == "5_"


def test_an_operator_continues_from_the_result(booted):
    machine, engine = booted
    type_text(machine, engine, "2*3\n+1")
    assert screen(engine)[3].strip() == "6.+1_"
    type_text(machine, engine, "\n")
    assert screen(engine)[3].strip() == "7."


def test_string_result_clears_the_display(booted):
    machine, engine = booted
    type_text(machine, engine, '"ABC"\n5')
    assert [line.strip() for line in screen(engine)] == ["ABC", "5_", "", ""]


def test_cls_shows_the_prompt_at_the_top(booted):
    machine, engine = booted
    type_text(machine, engine, "1+1\n{CLS}")
    assert [line.strip() for line in screen(engine)] == [">", "", "", ""]


@pytest.mark.parametrize("typed,message", [
    ("PRINT 5", "ERROR 1"), ("A=1:B=2", "ERROR 1"), ("LIST", "ERROR 9"),
    ("CONT", "ERROR 9"), ("GOTO 10", "ERROR 4"), ("WAIT 0", ">"), ("B", "0."),
])
def test_run_mode_statements(booted, typed, message):
    machine, engine = booted
    type_text(machine, engine, typed + "\n")
    engine.run(10_000)
    assert screen(engine)[2].strip() == message


def test_pro_mode_stores_sorted_lines_like_the_firmware(booted):
    machine, engine = booted
    tap(machine, engine, "MODE")
    assert screen(engine)[0].strip() == "PROGRAM MODE"
    assert engine.screen.symbols() == {"PRO"}
    type_text(machine, engine, '20 END\n10 PRINT "HI":GOTO 10\n')
    assert [line.strip() for line in screen(engine)] == [
        "PROGRAM MODE", "20:END", '10:PRINT "HI": GOTO 10', ""]
    mem = machine.mem
    # docs/stored_format.md §1.7 byte images
    assert mem[0x8031:0x8041] == bytes.fromhex("000A0DFE60224849223AFE2B1F000A0D")
    assert mem[0x8041:0x8048] == bytes.fromhex("001403FE5A0DFF")
    assert mem[0xFFD9] | mem[0xFFDA] << 8 == 0x8047


def test_pro_mode_replaces_and_deletes_lines(booted):
    machine, engine = booted
    tap(machine, engine, "MODE")
    type_text(machine, engine, "10 A=1\n20 B=2\n10 C=3\n20\n")
    program = engine.interp.program
    assert [n for n, _ in program.lines()] == [10]
    assert program.body(10) == b"C=3\r"


def test_run_and_break(booted):
    machine, engine = booted
    tap(machine, engine, "MODE")
    type_text(machine, engine, "10 A=A+1:GOTO 10\n")
    tap(machine, engine, "MODE")
    type_text(machine, engine, "RUN\n")
    engine.run(256_000)
    tap(machine, engine, "BRK")
    assert [line.strip() for line in screen(engine)][:3] == ["RUN MODE", "RUN", "BREAK IN 10"]
    type_text(machine, engine, "CONT\n")
    engine.run(2560)
    assert engine.interp.running                  # running again


def test_list_and_arrows(booted):
    machine, engine = booted
    tap(machine, engine, "MODE")
    type_text(machine, engine, "10 A=1\n20 B=2\n30 C=3\n")
    type_text(machine, engine, "LIST 20\n")
    assert [line.strip() for line in screen(engine)] == ["20:B=2", "30:C=3", "", ""]
    tap(machine, engine, "DOWN")
    assert screen(engine)[0].strip() == "30:C=3"
    tap(machine, engine, "UP")
    tap(machine, engine, "UP")
    assert screen(engine)[0].strip() == "10:A=1"


def test_def_key_starts_at_the_label_and_aread(booted):
    machine, engine = booted
    tap(machine, engine, "MODE")
    type_text(machine, engine, '10 "S" AREAD N:B=N*2:END\n')
    tap(machine, engine, "MODE")
    type_text(machine, engine, "21")
    tap(machine, engine, "DEF")
    assert "DEF" in engine.screen.symbols()
    tap(machine, engine, "S")
    engine.run(100_000)
    interp = engine.interp
    assert interp.vars.load(interp.vars.fixed(ord("B"), False)) == 42


def test_shift_latches_for_one_key(booted):
    machine, engine = booted
    tap(machine, engine, "SHIFT")
    assert "SHIFT" in engine.screen.symbols()
    type_text(machine, engine, "QW")
    assert screen(engine)[1].strip() == "!W_"
    assert "SHIFT" not in engine.screen.symbols()


def test_run_consumes_the_cycles_it_is_given(booted):
    machine, engine = booted
    assert engine.run(12345) == 12345


def test_plugs_into_the_machine_facade():
    from emulator.machine.facade import PC1360
    machine = PC1360(engine="builtin")
    machine.type_keys("Y1+1{ENTER}")
    machine.run_for(0.3)
    assert machine.screen_text()[2] == "2.".rjust(24)
    assert machine.symbols() == {"RUN"}


def _booted_machine():
    from emulator.machine.facade import PC1360
    machine = PC1360(engine="builtin")
    machine.type_keys("Y")
    assert machine.key_wait_ready()
    return machine


def test_a_key_acts_late_and_the_key_wait_comes_back_after_its_release():
    from emulator.builtin.key_dispatch import KEY_LATENCY, KEY_RELEASE_CYCLES
    machine = _booted_machine()
    machine.press("1")
    machine.run_cycles(KEY_LATENCY - 1000)
    assert machine.screen_text()[1].strip() == ">"
    strobes = machine.bus.keywait_count
    machine.run_cycles(50_000)              # shown, but no key wait while it is held
    assert machine.screen_text()[1].startswith("1")
    assert machine.bus.keywait_count == strobes
    machine.release("1")
    machine.run_cycles(KEY_RELEASE_CYCLES - 1000)
    assert machine.bus.keywait_count == strobes
    machine.run_cycles(3000)
    assert machine.bus.keywait_count > strobes


def _at_strobe(machine):
    strobes = machine.bus.keywait_count
    while machine.bus.keywait_count == strobes:
        machine.run_cycles(4)


def test_the_key_wait_count_is_0_at_the_first_round_then_one_a_round():
    # firmware engine: its X register reads 0 at the first strobe after power-on
    from emulator.machine.facade import PC1360
    machine = PC1360(engine="builtin")
    _at_strobe(machine)
    assert machine.engine.key_wait_count() == 0
    for _ in range(5):
        _at_strobe(machine)
    assert machine.engine.key_wait_count() == 5


@pytest.mark.parametrize("key, phase, rounds", [
    ("A", 850, 1), ("A", 950, 2),           # K line 2: read 890 cycles into the round
    ("O", 400, 1), ("O", 450, 2),           # IA line 2: read at 427
    ("U", 250, 1), ("U", 300, 2),           # IA line 0: read at 270
])
def test_a_key_pressed_after_its_line_is_read_waits_a_counted_round(key, phase, rounds):
    # as the firmware engine counts, from the strobe before the press to the first
    # strobe after the key: the round after the key's work counts at once
    machine = _booted_machine()
    _at_strobe(machine)
    count = machine.engine.key_wait_count()
    machine.run_cycles(phase)
    machine.press(key)
    machine.run_cycles(11_520)
    machine.release(key)
    _at_strobe(machine)
    assert machine.engine.key_wait_count() - count == rounds


def test_a_key_tapped_while_the_last_one_is_handled_is_lost():
    machine = _booted_machine()
    for key in "12":
        machine.press(key)
        machine.run_cycles(5000)
        machine.release(key)
        machine.run_cycles(2000)
    machine.run_cycles(100_000)
    assert machine.screen_text()[1].rstrip() == "1_"


def test_left_repeats_while_held_and_letters_do_not():
    machine = _booted_machine()
    machine.type_keys("1234567890")
    machine.tap("LEFT", hold=0.85)          # acts, then 3 repeats in 0.85 s
    assert machine.engine.editor.state.cur == 6
    machine.tap("A", hold=0.9)
    assert machine.engine.editor.state.line.count(b"A") == 1 and machine.engine.editor.state.cur == 7


# ---------------------------------------------------------------- robustness

_VOCABULARY = ([bytes([0xFE, k.code]) for k in KEYWORDS]
               + [bytes([c]) for c in b'0123456789ABCXYZ$"(),:;=<>+-*/^.&E ']
               + [b"\x1f\x00\x0a", b"\x1f\x00\x14", b"\xfb", b"\xfc", b"\x0d", b"\xff"])
_bodies = st.lists(st.one_of(st.sampled_from(_VOCABULARY), st.binary(min_size=1, max_size=2)),
                   min_size=1, max_size=24).map(b"".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_bodies, min_size=1, max_size=4),
       st.lists(st.sampled_from(["ENTER", "BRK", "A", "1", "DOWN", "CLS"]), max_size=4))
def test_any_token_stream_ends_as_a_machine_error_never_a_python_one(bodies, keys):
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    tap(machine, engine, "Y")
    program = engine.interp.program
    for number, body in enumerate(bodies, start=1):
        program.store(number * 10, body)
    engine.start()
    engine.run(30_000)
    for key in keys:
        tap(machine, engine, key)
        engine.run(20_000)
    assert engine.internal_errors == []


@settings(max_examples=100, deadline=None)
@given(_bodies)
def test_any_typed_immediate_line_is_handled(body):
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    tap(machine, engine, "Y")
    engine.editor.state.line[:] = body[:80]
    machine.keyboard.pressed.add("ENTER")
    engine.run(30_000)
    assert engine.internal_errors == []


@pytest.mark.parametrize("source", [
    b"A=" + b"(" * 40 + b"1" + b")" * 40,
    b"A=" + b"\xfe\x95" * 40 + b"1",
    b"A=" + b"-" * 200 + b"1",
    b'A$="' + b"X" * 70 + b'":A$=A$+A$+A$',
    "10 POKE &FFD7,255,255:GOTO 10",
    "10 POKE &FFD9,255,255:GOTO 20\n20 END",
    "10 POKE &FFDD,0,0:DIM A(5):AB=1",
    "10 POKE &FFDD,&C8,&F9:AB=1:DIM X(3)",
    "10 GOSUB 10",
    "10 FOR A=1 TO 2:FOR B=1 TO 2:FOR C=1 TO 2:FOR D=1 TO 2:FOR E=1 TO 2:FOR F=1 TO 2",
])
def test_hostile_programs_end_as_machine_errors(source):
    from pc1360.tokenizer import parse_program
    machine = BareMachine()
    engine = BuiltinEngine(machine)
    tap(machine, engine, "Y")
    if isinstance(source, bytes):          # a body the tokenizer would refuse (> 80 typed)
        engine.interp.program.store(10, source)
    else:
        for line in parse_program(source).lines:
            engine.interp.program.store(line.number, line.body)
    engine.start()
    engine.run(200_000)
    assert engine.internal_errors == []
    assert not engine.interp.running


# ---------------------------------------------------------------- against the firmware

FIRMWARE_SCRIPTS = {
    "calculator": ["1+1{ENTER}", "5", "{CLS}", "STR$ 2{ENTER}", '{CLS}A$="ABC"{ENTER}',
                   "A${ENTER}", "{CLS}1/0{ENTER}", "{CLS}", "A=5{ENTER}", "2{ENTER}",
                   "3{ENTER}", "{CLS}", "12345678901234567890123456{ENTER}", "2*3{ENTER}",
                   "+1", '{CLS}"ABC"{ENTER}', "5", "{ENTER}", "{CLS}1E10{ENTER}",
                   "1E-9{ENTER}", "{CLS}PRINT 5{ENTER}", "{CLS}LIST{ENTER}",
                   "{CLS}WAIT 0{ENTER}"],
    "program mode": ["{MODE}", "10 A=1{ENTER}", "20 B=2", "{ENTER}", "30 C=3{ENTER}",
                     "LIST{ENTER}", "{DOWN}", "{DOWN}", "{UP}", "{CLS}", "LIST 20{ENTER}",
                     "{MODE}", "{CLS}{MODE}"],
    "print": ["{MODE}10 PRINT 5{ENTER}", '20 PRINT "AB";5;"C"{ENTER}',
              '30 PRINT "AB",5{ENTER}', "40 PRINT 1,2{ENTER}", '50 PRINT -5,"X"{ENTER}',
              '60 PRINT "A";{ENTER}', '70 PRINT "B"{ENTER}', "80 PRINT 1/3;2{ENTER}",
              "{MODE}RUN{ENTER}", "{WAIT 5}", "{ENTER}", "{ENTER}", "{ENTER}", "{ENTER}",
              "{ENTER}", "{ENTER}", "{ENTER}", "{ENTER}"],
    "long lines": ["{MODE}20 INPUT A:WAIT 0:PRINT A*2{ENTER}",
                   "10 PRINT \"X\":A=1:B=2:C=3:D=4:E=5:F=6:G=7:H=8:I=9{ENTER}",
                   '30 A$="ABCDEFGHIJKLMNOPQRSTUVWXYZ":PRINT A${ENTER}',
                   "40 A=12345678:B=SQR 2:C=1:B=INT 5{ENTER}", "LIST{ENTER}", "{DOWN}",
                   "{DOWN}", "{MODE}{CLS}RUN 20{ENTER}", "3*4{ENTER}", "{CLS}RUN 20{ENTER}",
                   "B{ENTER}", "{CLS}RUN 20{ENTER}", "{ENTER}"],
    "def key": ['{MODE}10 "K" AREAD N:WAIT 0:PRINT N*2{ENTER}', "20 INPUT A:PRINT A*2{ENTER}",
                "{MODE}21", "{DEF}", "K", "{CLS}{DEF}K", "{WAIT 5}"],
    "trace and commands": ['{MODE}10 WAIT 0:TRON:A=1:PRINT "X"{ENTER}', "20 B=2{ENTER}",
                           "{MODE}{CLS}RUN{ENTER}", "{WAIT 5}", "{DOWN}", "{DOWN}",
                           "{CLS}{MODE}30 RUN 20{ENTER}", "{MODE}{CLS}RUN 30{ENTER}",
                           "{CLS}TROFF{ENTER}", "{CLS}{MODE}10 X=5:PRINT MEM{ENTER}",
                           "{MODE}{CLS}RUN{ENTER}"],
    "input and break": ["{MODE}10 A=A+1:GOTO 10{ENTER}", '20 INPUT "N?";N,M{ENTER}',
                        "30 PRINT N*2{ENTER}", "40 B=1/0{ENTER}", "{MODE}RUN{ENTER}",
                        "{BRK}", "{CLS}RUN 20{ENTER}", "{WAIT 5}", "4", "2", "{ENTER}",
                        "7{ENTER}", "{ENTER}", "{CLS}"],
}


def firmware_session(engine, steps, rom_dir):
    from emulator.machine.facade import PC1360
    machine = PC1360(engine=engine, rom_dir=rom_dir)
    machine.run_for(0.5)
    machine.type_keys("Y")
    machine.run_for(1.5)
    screens = []
    for step in steps:
        machine.type_keys(step)
        machine.run_for(1.0)        # well past the moments when output appears
        screens.append((step, machine.screen_text()))
    return screens


@pytest.mark.rom
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIRMWARE_SCRIPTS))
def test_same_screens_as_the_firmware(rom_dir, name):
    steps = FIRMWARE_SCRIPTS[name]
    assert firmware_session(BuiltinEngine, steps, rom_dir) == \
        firmware_session("firmware", steps, rom_dir)


GRAPHICS = [
    "LINE (0,0)-(20,5)", "LINE (20,5)-(0,0)", "LINE (0,5)-(20,0)", "LINE (3,0)-(0,9)",
    "LINE (0,0)-(10,10),B", "LINE (0,0)-(8,8),BF", "LINE (0,0)-(30,0),&F0F0",
    "LINE (0,0)-(7,3),&AAAA,B", "LINE (0,2)-(30,2),&C000:LINE (0,4)-(30,4),&8001",
    "LINE (0,0)-(9,5),X,&F00F,BF", "LINE (0,2)-(20,2),X:LINE (5,2)-(10,2),X",
    "LINE (1,1)-(5,5):LINE -(9,1)", "LINE (0,0)-(10,5),BF:LINE (1,1)-(9,4),R,B",
    "PSET (3,3):PSET (3,3),X:PSET (4,4),X", 'GCURSOR (0,7):GPRINT "FF0181"',
    "GCURSOR (2,10):GPRINT 255;1,3",
]


@pytest.mark.rom
@pytest.mark.slow
def test_same_graphics_as_the_firmware(rom_dir):
    """The dots of the graphics statements (text rows are not compared: the fonts
    differ by design)."""
    from emulator.machine.facade import PC1360
    from pc1360.tokenizer import tokenize
    source = "".join(f'{10 * (n + 1)} WAIT 0:CLS:{src}:CURSOR 0,2:PRINT "":END\n'
                     for n, src in enumerate(GRAPHICS))
    machines = []
    for engine in (BuiltinEngine, "firmware"):
        machine = PC1360(engine=engine, rom_dir=rom_dir)
        machine.type_keys("Y")
        machine.run_for(1.0)
        machine.load_program(tokenize(source))
        machines.append(machine)
    for n, src in enumerate(GRAPHICS):
        dots = []
        for machine in machines:
            machine.type_keys(f"{{CLS}}RUN {10 * (n + 1)}{{ENTER}}")
            machine.run_for(2.0)
            dots.append(machine.pixels()[:16])
        assert any(map(any, dots[1])) and dots[0] == dots[1], src


def test_beep_sounds_the_buzzer_and_takes_the_firmware_time():
    from emulator.machine.facade import PC1360
    machine = PC1360(engine="builtin")
    machine.type_keys("Y{MODE}10 BEEP 3:A=1{ENTER}{MODE}RUN{ENTER}")
    start = machine.cycles
    machine.run_for(2.0)
    edges = machine.buzzer.take_transitions(machine.cycles)
    # three 0.2 s tones at 4 kHz (an edge per 32 cycles), 105,350 cycles apart: the
    # firmware engine makes 1632 edges in 52,174 cycles for each
    assert abs(len(edges) - 3 * 1632) <= 6
    assert abs(edges[-1][0] - edges[0][0] - (2 * 105_350 + 52_174)) < 500
    assert machine.engine.internal_errors == [] and machine.cycles > start


def test_a_new_line_is_not_read_with_the_last_ones_numbers(booted):
    machine, engine = booted
    type_text(machine, engine, "1\n{CLS}1E10\n")
    assert screen(engine)[1].strip() == "1.E 10"


CALCULATIONS = [
    "2^3^2", "-2^2", "2^-1", "-2^-2", "-3^2*2", "INT 2.5^2", "2*-3", "1/3*3-1",
    "2/3-0.6666666667", "PI-3.141592654", "1/3+1/3+1/3-1", "2/3*3-2", "SQR 2-1.414213562",
    "7/3*1-2.333333333", "0.99999999999", "1E99*10", "9.999999999E99+1E89",
    "NOT 1", "5 AND 3", "5 OR 2", "-1 AND 255", "1<2", "3<>3", '"A"<"B"', "LEN 5",
    "ASN 2", "LN 0", "SQR -1", "1E10", "1E-9", "0.0001", "12345678901234567890",
    "COS 12.5+100+(-2)", "(1E5)/EXP 0.5*0.001", "LN(10/7)+(0.5^PI)", "TAN 45",
    "DEG 10.3", "DMS 10.5", "ATN 1", "ABS -7.5", "SGN -3", "INT -2.5", "STR$ 1E10",
    'VAL "12.5X"', 'LEFT$("HELLO",2)+MID$("HELLO",4,9)', "CHR$ 65", "ASC \"A\"",
]


@pytest.mark.rom
@pytest.mark.slow
def test_same_calculations_as_the_firmware(rom_dir):
    from emulator.machine.facade import PC1360
    shown = []
    for engine in ("builtin", "firmware"):
        machine = PC1360(engine=engine, rom_dir=rom_dir)
        machine.type_keys("Y")
        machine.run_for(1.0)
        results = []
        for calculation in CALCULATIONS:
            machine.type_keys("{CLS}" + calculation + "{ENTER}")
            machine.run_for(1.0)        # ^ and the functions take the firmware long
            results.append((calculation, machine.screen_text()[:2]))
        shown.append(results)
    assert shown[0] == shown[1]

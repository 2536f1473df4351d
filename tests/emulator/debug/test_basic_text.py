"""Which line and statement an address of the program is in (emulator/debug/basic_text.py)."""

from emulator.debug.basic_text import ProgramText, statement_bounds
from pc1360.tokenizer import tokenize_line
from tests.helpers.bare_machine import machine_with

PROGRAM = '10 A=1:B$="X:Y":C=2\n20 REM A:B\n30 PRINT A\n'


def test_statements_are_split_at_colons_outside_strings_and_rem():
    body = tokenize_line('10 A=1:B$="X:Y":C=2').body
    assert [body[s:e] for s, e in statement_bounds(body)] == [b"A=1", b'B$="X:Y"', b"C=2"]
    rem = tokenize_line("20 REM A:B").body
    assert len(statement_bounds(rem)) == 1


def test_every_address_of_a_line_is_in_its_statement():
    machine, _engine = machine_with(PROGRAM)
    text = ProgramText(machine.mem)
    (n10, a10), (n20, a20), (n30, a30) = text.lines()
    assert (n10, n20, n30) == (10, 20, 30)
    body = text.body(a10)
    second = a10 + 3 + body.index(b"B$")
    place = text.place(second)
    assert (place.line, place.statement, place.statements) == (10, 2, 3)
    assert text.place(a10).statement == 1            # the line number's bytes: statement 1
    assert text.place(a20 - 1).line == 10            # the CR ends line 10
    assert text.place(a30 + 3).line == 30
    assert text.place(a10 - 1) is None               # the leading 0xFF
    assert text.describe(place) == 'line 10, statement 2 of 3: 10:B$="X:Y"'


def test_a_remembered_place_follows_a_changed_program():
    machine, engine = machine_with(PROGRAM)
    text = ProgramText(machine.mem)
    _n, a30 = text.lines()[2]
    assert text.cached_place(a30 + 3).line == 30
    engine.interp.program.store(5, tokenize_line("5 PRINT B").body)   # line 30 moves up
    assert text.cached_place(a30 + 3).line == 20
    assert text.has_line(5)

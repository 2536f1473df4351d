"""`vars`: every BASIC variable read from its bytes in RAM, after a program assigned known
values, on both engines (the firmware's RAM is the judge of the layout)."""

import itertools

import pytest

from emulator.builtin.vars import fixed_address
from emulator.debug.variables import all_variables, fixed_variables, format_variable
from pc1360.tokenizer import tokenize
from tests.helpers.booting import booted_machine

PROGRAM = """10 A=1.5:B$="ABC":Z=-12.5
20 AB=7:CD$="HELLO WORLD"
30 DIM XY(3),N$(1,2)*5
40 XY(2)=9:N$(1,1)="HI"
50 A(27)=4:K1=1E-5
"""
# newest first in the DIM area
EXPECTED = [
    ("A", "1.5"), ("B$", '"ABC"'), ("Z", "-12.5"),
    ("K1", "0.00001"),
    ("A(27)", "4."),
    ("N$(1,2)", '""  ""  ""  ""  "HI"  ""'),
    ("XY(3)", "0.  0.  9.  0."),
    ("CD$", '"HELLO WORLD"'),
    ("AB", "7."),
]


@pytest.fixture
def ran(booted):
    machine = booted_machine(booted)
    machine.load_program(tokenize(PROGRAM))
    machine.type_keys("RUN{ENTER}")
    assert machine.key_wait_ready(10)
    return machine


def test_vars_shows_what_the_program_assigned(ran):
    found = all_variables(ran.mem)
    assert [(v.name, v.value) for v in found] == EXPECTED
    by_name = {v.name: v for v in found}
    assert by_name["A"].addr == fixed_address(ord("A")) and by_name["Z"].size == 8
    dim = found[3:]
    # the DIM area grows down: each older variable sits above the newer ones
    assert all(newer.addr < older.addr for newer, older in itertools.pairwise(dim))
    assert format_variable(by_name["AB"]) == f"AB = 7.   ({by_name['AB'].addr:04X}-{by_name['AB'].addr + 7:04X})"


def test_fixed_variables_at_zero_are_shown_on_request():
    memory = bytearray(0x10000)
    assert fixed_variables(memory) == []
    everyone = fixed_variables(memory, everyone=True)
    assert [v.name for v in everyone] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert {v.value for v in everyone} == {"0."}

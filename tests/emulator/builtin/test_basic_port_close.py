"""The SIO latch at 0x3800 after END, RUN, STOP and CLOSE, on both engines (the firmware
engine needs the ROM set and is the reference).

The firmware keeps the lines it holds up between transfers in a shadow byte (0x2CBE,
nibbles swapped: ER once OPEN raised it). CLOSE and END write the shadow to the latch,
then the shadow and bit 6; RUN's writes end with the shadow alone; a program that runs
off its end or stops writes nothing. Bit 6 drives no SIO pin, ER stays as OPEN left it.
"""

import pytest

from pc1360.tokenizer import tokenize
from tests.helpers.booting import booted_machine

ER, BIT6 = 0x02, 0x40
SHADOW = 0x2CBE
PROGRAM = "10 END\n20 A=1\n30 STOP\n"


@pytest.fixture
def machine(booted):
    machine = booted_machine(booted)
    machine.load_program(tokenize(PROGRAM))
    return machine


def typed(machine, line):
    machine.type_keys(line + "{ENTER}")
    assert machine.key_wait_ready(6)
    return machine.sio.latch


def test_end_after_open_sets_bit_6_and_keeps_er(machine):
    assert typed(machine, "OPEN") == ER
    assert machine.peek(SHADOW) == ER << 4
    assert typed(machine, "RUN") == ER | BIT6       # line 10: END


def test_run_clears_bit_6_and_running_off_the_end_writes_nothing(machine):
    typed(machine, "OPEN")
    assert typed(machine, "CLOSE") == ER | BIT6
    assert typed(machine, "RUN 20") == ER           # RUN's writes; line 20 runs off the end


def test_stop_leaves_the_latch_as_run_left_it(machine):
    typed(machine, "OPEN")
    typed(machine, "RUN")
    assert typed(machine, "RUN 30") == ER


def test_without_open_close_and_end_leave_er_low(machine):
    assert typed(machine, "CLOSE") == BIT6
    assert typed(machine, "RUN 20") == 0
    assert typed(machine, "RUN") == BIT6
    assert machine.peek(SHADOW) == 0

"""The memory writes of pc1360.ramcard put a program into the running firmware."""

import pytest

from emulator.machine.facade import PC1360
from pc1360.ramcard import program_writes
from pc1360.tokenizer import tokenize


@pytest.mark.rom
def test_writes_put_a_program_into_the_running_firmware(rom_dir):
    machine = PC1360(rom_dir=rom_dir, card_kb=16)
    machine.key_wait_ready(5)
    machine.type_keys("Y")  # the cold-boot card question
    machine.key_wait_ready()
    for address, data in program_writes(tokenize('10 PRINT "HI":GOTO 10\n20 END\n'), 16):
        for offset, value in enumerate(data):
            machine.poke(address + offset, value)
    machine.type_keys("{MODE}LIST{ENTER}")
    machine.key_wait_ready()
    assert [row.rstrip() for row in machine.screen_text()[:2]] == ['10:PRINT "HI": GOTO 10', "20:END"]

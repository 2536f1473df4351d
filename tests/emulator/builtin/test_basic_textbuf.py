"""The text buffer at 0xFD80 (the screen's characters in RAM) on both engines, byte for
byte, after each step of typing, listing, messages and INPUT. The firmware engine is
the reference: it pads typed lines, listings, program messages and INPUT with NULs and
does not store the `_` cursor, but pads results, immediate errors, prompts and CLS with
spaces. (tests/faithful/cases/TEXTBUF_* read the same bytes with PEEK.)"""

import pytest

from emulator.machine.facade import PC1360
from emulator.machine.romset import load
from pc1360.tokenizer import tokenize

pytestmark = [pytest.mark.rom, pytest.mark.slow]

TEXT_BUFFER = 0xFD80

SCENARIOS = {
    "typing": ("", [
        "A=12", "{ENTER}", "B", "{BRK}{CLS}1{ENTER}{ENTER}1234567890123456789012345678901",
        "{LEFT}{LEFT}", "{ENTER}", "{LEFT}", "{BRK}{CLS}ABCDEF{LEFT}{LEFT}{LEFT}{DEL}{DEL}",
        "{INS}", "{ENTER}", "{RIGHT}", "{CLS}1{ENTER}+2", "{ENTER}{UP}",
    ]),
    "immediate_errors": ("", ["2*(3{ENTER}", "{CLS}A=1/0{ENTER}", "{LEFT}", "{CLS}GOTO 9{ENTER}"]),
    "pro_mode": ('10 A=1\n20 PRINT "HELLO WORLD";12345678;"ABCDEFGHIJ"\n30 B=2\n', [
        "{MODE}", "40 C=3{ENTER}", "{UP}", "{UP}", "{DOWN}", "{RIGHT}", "{CLS}LIST{ENTER}",
        "{CLS}LIST 20{ENTER}", "{CLS}{DOWN}", "{DOWN}", "{CLS}{DOWN}", "{RIGHT}{DEL}", "{INS}",
        "{ENTER}", "{CLS}5 ABC{LEFT}{DEL}", "{ENTER}",
    ]),
    "program_messages": ("10 GOTO 10\n20 STOP\n30 TRON:A=1\n40 X=1/0\n", [
        "RUN{ENTER}", "{BRK}", "GOTO 20{ENTER}", "{CLS}GOTO 40{ENTER}", "{CLS}GOTO 30{ENTER}",
        "{DOWN}",
    ]),
    "input": (('10 INPUT "VAL?";A\n20 INPUT B\n30 CLS:PRINT "ABCDEFGHIJKLMNOPQRSTUVWXYZ";\n'
               '40 CURSOR 5,0:INPUT "Q";C:CURSOR 3,2:INPUT D\n'), [
                  "RUN{ENTER}", "12", "{ENTER}", "3{LEFT}", "{ENTER}", "789", "{DEL}{LEFT}{DEL}",
                  "{ENTER}", "5{LEFT}{LEFT}", "{ENTER}",
              ]),
}


@pytest.fixture(scope="module")
def firmware(rom_dir):
    machine = PC1360(roms=load(rom_dir))
    boot(machine)
    return machine, machine.snapshot()


def boot(machine):
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")              # clear the blank card: RUN mode, `>`
    assert machine.key_wait_ready()
    return machine


def buffers(machine, program, steps):
    if program:
        machine.load_program(tokenize(program))
    seen = []
    for keys in steps:
        machine.type_keys(keys)
        machine.key_wait_ready(6)
        seen.append(bytes(machine.mem[TEXT_BUFFER:TEXT_BUFFER + 96]))
    return seen


def rows(data):
    return [data[i:i + 24] for i in range(0, 96, 24)]


@pytest.mark.parametrize("name", SCENARIOS)
def test_text_buffer_matches_the_firmware(firmware, name):
    program, steps = SCENARIOS[name]
    machine, snap = firmware
    machine.restore(snap)
    expected = buffers(machine, program, steps)
    actual = buffers(boot(PC1360(engine="builtin")), program, steps)
    for keys, want, got in zip(steps, expected, actual):
        assert rows(got) == rows(want), keys

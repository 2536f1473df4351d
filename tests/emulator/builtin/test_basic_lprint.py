"""LPRINT on the 15-pin SIO after OPEN (emulator/builtin/output.py, serial_io.lprint_job),
with machine.sio as the far end. The built-in engine's tests need no ROM; the crossing
tests run the same keys on the firmware engine (marked `rom`) and compare the bytes on
the wire and when their start bits go out."""

from itertools import pairwise

import pytest

from emulator.builtin import output
from emulator.connectors.serial_line import FrameFormat
from emulator.machine.facade import PC1360
from emulator.machine.romset import load
from pc1360.tokenizer import tokenize

OPEN = 'OPEN "1200,N,8,1,A,L,&1A"'
FO_SD = 0x02


def boot(machine):
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")
    assert machine.key_wait_ready()
    machine.sio.set_format(FrameFormat(1200))
    machine.sio.host_ready = True
    return machine


@pytest.fixture(scope="module")
def firmware_snapshot(rom_dir):
    machine = boot(PC1360(roms=load(rom_dir)))
    return machine, machine.snapshot()


@pytest.fixture(params=[pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]),
                        "builtin"])
def machine(request):
    if request.param == "builtin":
        return boot(PC1360(engine="builtin"))
    machine, snap = request.getfixturevalue("firmware_snapshot")
    machine.restore(snap)
    machine.sio.set_format(FrameFormat(1200))       # time went back: a fresh line
    machine.sio.host_ready = True
    return machine


def screen(machine):
    return [line.rstrip() for line in machine.screen_text()]


def typed(machine, keys, seconds=0.6):
    """Type a line, run a while, and return what arrived on the SIO."""
    machine.type_keys("{CLS}" + keys + "{ENTER}")
    received = bytearray()
    for _ in range(round(seconds / 0.05)):
        machine.run_for(0.05)
        received += machine.sio.receive()
    assert machine.key_wait_ready()
    return bytes(received)


def start_bits(machine):
    """Watch SD: a list that gets the cycle of each frame's start bit."""
    starts = []
    bus = machine.bus
    outf = bus.outf
    state = {"level": 0, "free": 0}

    def spy(value):
        level = 1 if value & FO_SD else 0           # inverted: 1 = space
        now = machine.now()
        if level and not state["level"] and now >= state["free"]:
            starts.append(now)
            state["free"] = now + 9 * 212           # the frame's own changes are not starts
        state["level"] = level
        outf(value)

    bus.outf = spy
    return starts


@pytest.mark.parametrize("keys, wire", [
    ("LPRINT 5", b" 5.\r\n"),
    ("LPRINT -2.5", b"-2.5\r\n"),
    ('LPRINT "AB";5', b"AB5.\r\n"),
    ('LPRINT "A","B"', b"A" + b" " * 11 + b"B\r\n"),
    ("LPRINT 1,2", bytes(9) + b" 1." + b" " * 10 + b"2.\r\n"),
    ('LPRINT 5,"LONGER THAN TWELVE"', bytes(9) + b" 5.LONGER THAN \r\n"),
    ('LPRINT "X";', b"X"),
    ("LPRINT", b"\r\n"),
    ("LPRINT 1E20", b" 1.E 20\r\n"),
])
def test_lprint_after_open_sends_prints_text(machine, keys, wire):
    typed(machine, OPEN)
    assert typed(machine, keys) == wire
    assert ">" in screen(machine)                   # nothing shown; the port stays open
    assert machine.sio.latch & 0x0A == 0x02         # RS back down, ER up


def test_lprint_evaluates_after_open_and_skips_without(machine):
    assert typed(machine, "LPRINT 1/0") == b"" and screen(machine)[1] == ">"
    typed(machine, OPEN)
    assert typed(machine, "LPRINT 1/0") == b"" and screen(machine)[1] == "ERROR 2"


def test_a_programs_end_closes_the_port_an_error_does_not(machine):
    machine.load_program(tokenize('10 WAIT 0:LPRINT 5:PRINT "X":END\n20 X=1/0\n'))
    typed(machine, OPEN)
    assert typed(machine, "GOTO 10") == b" 5.\r\n"
    assert typed(machine, "GOTO 10") == b""         # closed when the program ended
    typed(machine, OPEN)
    typed(machine, "GOTO 20")
    assert screen(machine)[1] == "ERROR 2 IN 20"
    typed(machine, "OPEN")
    assert screen(machine)[1] == "ERROR 8"          # still open


def test_run_closes_the_port(machine):
    machine.load_program(tokenize('10 WAIT 0:LPRINT 5:PRINT "X"\n'))
    typed(machine, OPEN)
    assert typed(machine, "RUN") == b""
    assert screen(machine)[1] == "X"


def test_lprint_waits_for_cs(machine):
    typed(machine, OPEN)
    machine.sio.host_ready = False                  # CS low: the far end is not ready
    machine.type_keys("LPRINT 7{ENTER}")
    machine.run_for(1)
    assert machine.sio.receive() == b"" and machine.sio.latch & 0x08    # RS up, waiting
    machine.sio.host_ready = True
    machine.run_for(0.5)
    assert machine.sio.receive() == b" 7.\r\n"


def test_lprint_text_pads_fields_but_not_the_last():
    segments = [[(b"A", False)], [(b"7.", True)]]
    assert output.lprint_text(segments, False) == b"A" + b" " * 11 + bytes(9) + b" 7."
    assert output.lprint_text([[(b"5.", True)]], True) == b"5."     # `;` at the end


@pytest.mark.rom
@pytest.mark.slow
def test_both_engines_send_the_same_frames_at_the_same_pace(rom_dir, firmware_snapshot):
    program = '10 WAIT 0:LPRINT 5:LPRINT "AB":LPRINT "X";:LPRINT "Y":PRINT "Z"\n'
    seen = {}
    for engine in ("firmware", "builtin"):
        if engine == "firmware":
            machine, snap = firmware_snapshot
            machine.restore(snap)
            machine.sio.set_format(FrameFormat(1200))
            machine.sio.host_ready = True
        else:
            machine = boot(PC1360(engine="builtin"))
        machine.load_program(tokenize(program))
        typed(machine, OPEN)
        starts = start_bits(machine)
        wire = typed(machine, "GOTO 10", seconds=1)
        seen[engine] = wire, [b - a for a, b in pairwise(starts)]
    (wire, gaps), (built_wire, built_gaps) = seen["firmware"], seen["builtin"]
    assert wire == built_wire == b" 5.\r\nAB\r\nXY\r\n"
    # within an LPRINT the same cycles; from one LPRINT to the next within 4%
    for firmware_gap, builtin_gap in zip(gaps, built_gaps):
        assert abs(builtin_gap - firmware_gap) <= 0.04 * firmware_gap, (gaps, built_gaps)

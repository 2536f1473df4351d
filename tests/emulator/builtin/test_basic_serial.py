"""The built-in engine's OPEN / CLOSE / LOAD / SAVE (emulator/builtin/serial_io.py) on
their own, with machine.sio as the far end; no ROM needed. The same transfers against
the firmware engine are in tests/emulator/connectors/test_sio_firmware.py and
tests/tools/test_serial_firmware.py (parametrised over both engines)."""

import pytest

from emulator.builtin import serial_io
from emulator.builtin.basic_errors import BasicError
from emulator.builtin.host import FO_SD
from emulator.connectors.serial_line import FrameFormat
from emulator.machine.facade import PC1360
from pc1360.facts import CYCLES_PER_SECOND as CPU_HZ
from pc1360.tokenizer import parse_program, tokenize

SMALL = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n30 FOR I=1 TO 3:PRINT I:NEXT I\n'
DEFAULTS = serial_io.DEFAULT_PORT[0]


@pytest.fixture
def machine():
    machine = PC1360(engine="builtin")
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")
    assert machine.key_wait_ready()
    yield machine
    assert machine.engine.internal_errors == []


def screen(machine):
    return [line.rstrip() for line in machine.screen_text()]


def typed(machine, keys):
    machine.type_keys(keys + "{ENTER}")
    assert machine.key_wait_ready()
    return screen(machine)


@pytest.mark.parametrize("text, expected", [
    (b"1200,N,8,1,A,L,&1A", (1200, "N", 8, 1, "A", "L", 0x1A)),
    (b"300,E,7,2,A,F,&0D", (300, "E", 7, 2, "A", "F", 0x0D)),
    (b"600", (600,) + DEFAULTS[1:]),
    (b",,,,,,", DEFAULTS),
    (b"1200,N,8,1,A,L", DEFAULTS[:5] + ("L", 0x1A)),
])
def test_open_string_fields_and_empty_fields_keep_the_old_value(text, expected):
    assert serial_io.parse_open(text, DEFAULTS) == expected


@pytest.mark.parametrize("text", [b"", b"150", b"2400", b"1200,X", b"1200,N,9", b"1200,N,8,3",
                                  b"1200,N,8,1,B", b"1200,N,8,1,A,X", b"1200,N,8,1,A,L,&1A,X"])
def test_a_bad_open_string_is_error_1(text):
    with pytest.raises(BasicError) as err:
        serial_io.parse_open(text, DEFAULTS)
    assert err.value.code == 1


@pytest.mark.parametrize("keys, last", [
    ('OPEN 5', "ERROR 9"), ('OPEN ""', "ERROR 1"), ('OPEN "1200,N,8,1,A,L,&1A",1', "ERROR 1"),
    ('LOAD', ">"), ('SAVE', ">"),  # without OPEN they do nothing
])
def test_open_errors_and_load_save_without_open(machine, keys, last):
    assert typed(machine, keys)[-2:].count(last) == 1


@pytest.mark.parametrize("keys, last", [('OPEN', "ERROR 8"), ('LOAD "X"', "ERROR 8"),
                                        ('LOAD "COM:"', "ERROR 1"), ('SAVE "COM:"', "ERROR 1"),
                                        ('SAVE "X"', ">"), ('CLOSE', ">")])
def test_after_open(machine, keys, last):
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    assert typed(machine, keys)[-1] == last


def test_open_sets_er_at_the_firmware_time_and_close_keeps_it(machine):
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    assert machine.sio.latch == serial_io.ER
    typed(machine, "CLOSE")
    assert machine.sio.latch & serial_io.ER and not machine.sio.latch & 0x0C
    assert serial_io.get_port(machine.mem) == ((1200, "N", 8, 1, "A", "L", 0x1A), False)


def test_save_text_spells_pi_and_sqr_and_a_space_after_a_last_keyword():
    line = parse_program('10 X=π*√2:A$="π":CLS\n').lines[0]
    assert serial_io.save_text(line.number, line.body) == b'10 X= PI * SQR 2:A$="\xfb": CLS '


def test_load_and_save_with_the_host_on_machine_sio(machine):
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    machine.type_keys("LOAD{ENTER}")
    wire = "".join(line + "\r\n" for line in SMALL.splitlines()).encode() + b"\x1a"
    machine.sio.send(wire)
    start = machine.cycles
    while machine.sio.pending:
        machine.run_for(0.05)
    assert machine.key_wait_ready()
    # 86 bytes at 1200 baud are 0.72 s; the firmware's LOAD takes 1.25 s in all
    assert 0.9 < (machine.cycles - start) / CPU_HZ < 1.4
    image = tokenize(SMALL)
    start_ptr = machine.peek_word(0xFFD7)
    assert bytes(machine.mem[start_ptr + 1:machine.peek_word(0xFFD9)]) == image
    typed(machine, "CLOSE")
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    machine.type_keys("SAVE{ENTER}")
    received = bytearray()
    while not received.endswith(b"\x1a"):
        machine.run_for(0.05)
        received += machine.sio.receive()
    assert received.startswith(b'10 PRINT "HI": GOTO 10\r\n20 A=1.5E3:B$="X": REM OK\r\n')


def test_load_store_times_follow_the_firmware_figures():
    """RR low while LOAD stores each line of SMALL: 15162, 24638 and 23740 cycles on the
    firmware engine (tests/emulator/connectors/test_sio_firmware.py measures it live)."""
    lines = parse_program(SMALL).lines
    for line, firmware in zip(lines, (15162, 24638, 23740)):
        ours = serial_io.model(serial_io.LOAD_LINE, line.number, line.body)
        assert abs(ours - firmware) <= 0.25 * firmware, (line.number, ours)


def test_the_frame_on_sd_uses_the_firmware_bit_time(machine):
    machine.load_program(tokenize('10 END\n'))
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    edges = []
    bus = machine.bus
    outf = bus.outf

    def spy(value):
        edges.append((machine.now(), value & FO_SD))
        outf(value)

    bus.outf = spy
    machine.sio.set_format(FrameFormat(1200))
    machine.type_keys("SAVE{ENTER}")
    machine.run_for(1)
    first = [cycle for cycle, level in edges if level][0]
    # '1' = 0x31: start, 1,0,0,0,1,1,0,0 -> levels change at bits 1, 2, 5, 7 and the stop
    changes = [cycle - first for (cycle, level), (_, before) in zip(edges[1:], edges)
               if level != before and cycle > first][:5]
    assert changes == [212, 424, 1060, 1484, 1901]


def test_kniffel_loads_in_the_firmware_time(machine):
    """The firmware engine takes 44.57 s from LOAD to the prompt for kniffel.bas fed by a
    host that follows RR (its lines stored in 11.35 s of RR low in all, at most 0.415 s)."""
    from pathlib import Path

    from tools import transfer

    kniffel = Path(__file__).resolve().parents[3] / "basic_src" / "kniffel.bas"
    if not kniffel.is_file():
        pytest.skip("basic_src/kniffel.bas not present")
    source = kniffel.read_bytes()
    settings = transfer.Settings()
    wire = b"".join(transfer.wire_chunks(
        transfer.listing_lines(parse_program(source).lines, settings), settings))
    typed(machine, settings.open_statement())
    lows, changes = [], []
    write = machine.bus.write

    def spy(addr, value):
        if addr & 0xFE00 == 0x3800 and (not changes or changes[-1][1] != value & 4):
            changes.append((machine.now(), value & 4))
        write(addr, value)

    machine.bus.write = spy
    machine.type_keys("LOAD{ENTER}")
    start = machine.cycles
    machine.sio.send(wire)
    while machine.sio.pending:
        machine.run_for(0.05)
    assert machine.key_wait_ready()
    seconds = (machine.cycles - start) / CPU_HZ
    assert 44.57 * 0.9 < seconds < 44.57 * 1.1, seconds
    lows = [(end - begin) / CPU_HZ for (begin, rr), (end, _) in zip(changes, changes[1:]) if not rr]
    assert abs(sum(lows[1:]) - 11.35) < 0.1 * 11.35, sum(lows[1:])
    assert max(lows[1:]) < 0.5
    start_ptr = machine.peek_word(0xFFD7)
    assert bytes(machine.mem[start_ptr + 1:machine.peek_word(0xFFD9)]) == tokenize(source)


@pytest.mark.parametrize("offset, value", [(1, 0), (2, ord("X")), (3, 5), (4, 3), (5, ord("Q"))])
def test_port_settings_a_poke_spoiled_raise_nothing(machine, offset, value):
    """POKE over the port settings OPEN keeps in RAM (baud, parity, bits, stop bits, end
    of line): LOAD and SAVE still run, with well-formed frames (the fixture checks that
    nothing was raised inside the engine)."""
    typed(machine, 'OPEN "1200,N,8,1,A,L,&1A"')
    for base in (serial_io.PORT_RAM, serial_io.PORT_RAM ^ 0x100):
        machine.poke(base + offset, value)
    assert serial_io.get_port(machine.mem) == (DEFAULTS, True)
    typed(machine, "SAVE")

"""Cassette statements of the built-in engine (emulator/builtin/tape_io.py) and the data
file records of pc1360.tape, checked against what the firmware engine writes and reads.

The hex records below were read from the firmware engine's Xout (machine.cassette) after
the same statements. The tests marked `rom` cross the engines: a tape one writes, the
other reads; the same statement writes the same record and the same bits on both.
"""

import pytest

from emulator.connectors.cassette import RECORD_RATE, record_edges, signal_edges
from emulator.machine.facade import PC1360
from emulator.machine.romset import load
from pc1360 import tape, tapesound
from pc1360.tokenizer import tokenize

# 10 A=1.5:B$="XY" / PRINT# "DAT";A,B$ on the firmware engine
DAT_RECORD = bytes.fromhex("74 0000000045144 45f 2a"      # type, name block, checksum
                           " ef00000000 1d 0000000000510000 06 f0"      # A
                           " ef00000000 1d 0000000000958 55f 2f f0"     # B$
                           .replace(" ", ""))
# DIM R(3):R(1)=2:R(3)=-7.25E-12 / PRINT# R(*),A
ARRAY_RECORD = bytes.fromhex(
    "7400000000000000 5f14 0032300080 10 0000000000000000 00 0000020000000000 02"
    " 0000000000000000 00 8988270500000000 2f ef00000000 1d 0000000000000000 00 f0"
    .replace(" ", ""))
# 10 A=1 / CSAVE "AB","PW"
PASSWORD_RECORD = bytes.fromhex("73 0000000000241 45f 1f 0000000000750 55f 25"
                                " 000a04413d310d ffff 52".replace(" ", ""))
START_PTR = 0xFFD7
A_ADDR, B_ADDR = 0xFA98, 0xFA90            # the fixed variables A and B
CPS = 256_000


# ---------------------------------------------------------------- pc1360.tape

def test_data_record_items_decode_to_memory_bytes_and_encode_back():
    name, items = tape.decode_data(DAT_RECORD)
    assert name == "DAT"
    assert items == [(tape.FIXED_ITEM, bytes.fromhex("0000150000000000")),   # 1.5
                     (tape.FIXED_ITEM, b"\xf5XY" + bytes(5))]                # "XY"
    assert tape.encode_data(items, name) == DAT_RECORD


def test_array_item_carries_its_dim_header_and_a_checksum_every_8_bytes():
    name, items = tape.decode_data(ARRAY_RECORD)
    assert name == ""
    descriptor, data = items[0]
    assert descriptor == bytes((0, 35, 3, 0, 8))       # L = 3 + 32, R(3), 8-byte elements
    assert data[8:16] == bytes.fromhex("0000200000000000") and len(data) == 32
    assert tape.encode_data(items) == ARRAY_RECORD


def test_data_record_checksum_error_names_the_offset():
    damaged = bytearray(DAT_RECORD)
    damaged[20] ^= 0x10
    with pytest.raises(tape.FormatError) as caught:
        tape.decode_data(damaged)
    assert caught.value.offset == 24 and "checksum" in caught.value.message


def test_password_record_as_the_firmware_writes_it():
    record = tape.encode_tap(tokenize("10 A=1\n"), "AB", "PW")
    assert record == PASSWORD_RECORD
    assert tape.decode_tap(record) == ("AB", tokenize("10 A=1\n"))
    assert tape.tap_password(record) == "PW"
    assert tape.tap_password(tape.encode_tap(tokenize("10 A=1\n"))) is None


def test_firmware_stops_pause_before_f0_and_lead_between_items():
    stops = tape.firmware_stops(DAT_RECORD)
    assert stops[0] == (1, 4) and stops[9] == (1, 6)
    assert stops[24] == (1, 101) and stops[25] == (1, 1008)    # before / after A's F0
    assert stops[-1] == (1, 14)
    program = tape.firmware_stops(PASSWORD_RECORD)
    assert program[:19] == [(1, 5)] * 19 and program[19] == (1, 2) and program[-1] == (1, 13)


def test_decode_crossings_times_each_byte():
    bits = tapesound.frame_bits(DAT_RECORD, tape.firmware_stops(DAT_RECORD))
    crossings = []
    at = 0
    for bit in bits:
        for _ in range(16 if bit else 8):
            crossings.append(at)
            at += 32 if bit else 64
    timed = tapesound.decode_crossings(crossings, CPS)
    assert bytes(b for b, _ in timed) == DAT_RECORD
    # the type byte's last data bit ends 4001 + 5 + 1 + 5 bits into the signal
    assert timed[0][1] == pytest.approx((4001 + 11) * 512, abs=64)


# ---------------------------------------------------------------- built-in engine

def builtin(program=None):
    machine = PC1360(engine="builtin")
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")
    if program:
        machine.load_program(tokenize(program))
    return machine


def screen(machine):
    return [line.rstrip() for line in machine.screen_text()]


def record_of(machine, keys, timeout=60):
    machine.cassette.record()
    machine.type_keys(keys + "{ENTER}")
    assert machine.key_wait_ready(timeout), screen(machine)
    return machine.cassette.stop()


def read_with(machine, edges, keys, timeout=60):
    machine.cassette.insert(edges)
    machine.type_keys(keys + "{ENTER}")
    start = machine.cycles
    assert machine.key_wait_ready(timeout), screen(machine)
    machine.cassette.eject()
    assert getattr(machine.engine, "internal_errors", []) == []
    return (machine.cycles - start) / CPS


def program_bytes(machine):
    start, end = machine.peek_word(START_PTR), machine.peek_word(START_PTR + 2)
    return bytes(machine.mem[start + 1:end])


def test_builtin_print_hash_writes_the_firmware_record():
    machine = builtin('10 A=1.5:B$="XY"\n20 PRINT# "DAT";A,B$\n')
    recording = record_of(machine, "RUN")
    assert recording.tape_record() == DAT_RECORD
    assert screen(machine)[2] == ">"


def test_builtin_input_hash_reads_a_tape_the_package_wrote():
    machine = builtin("10 A=0\n")
    seconds = read_with(machine, record_edges(DAT_RECORD), 'INPUT# "DAT";A,B$')
    assert bytes(machine.mem[A_ADDR:A_ADDR + 8]) == bytes.fromhex("0000150000000000")
    assert bytes(machine.mem[B_ADDR:B_ADDR + 8]) == b"\xf5XY" + bytes(5)
    assert 5 < seconds < 6      # 1 s lead-in, 42 bytes and PRINT#'s 2 s lead before B$


def test_builtin_input_hash_skips_a_data_file_of_another_name():
    machine = builtin("10 A=0\n")
    machine.cassette.insert(record_edges(DAT_RECORD))
    machine.type_keys('INPUT# "OTHER";A{ENTER}')
    assert not machine.key_wait_ready(6)
    assert screen(machine)[1:] == ['INPUT #"OTHER";A', "", ""]
    machine.type_keys("{BRK}")
    assert screen(machine)[2] == ">"


def test_builtin_cload_takes_a_tape_put_in_while_it_listens():
    image = tokenize("10 PRINT 1\n")
    machine = builtin()
    machine.type_keys("CLOAD{ENTER}")
    assert not machine.key_wait_ready(2)
    machine.cassette.insert(record_edges(tape.encode_tap(image)))
    assert machine.key_wait_ready(5)
    assert program_bytes(machine) == image and screen(machine)[2] == ">"


def test_builtin_csave_then_cload_on_a_fresh_machine():
    source = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n'
    recording = record_of(builtin(source), 'CSAVE "AB"')
    assert tape.decode_tap(recording.tape_record()) == ("AB", tokenize(source))
    other = builtin()
    seconds = read_with(other, signal_edges(recording.samples(), RECORD_RATE), 'CLOAD "AB"')
    assert program_bytes(other) == tokenize(source)
    assert 9 < seconds < 12     # CSAVE's 8 s lead-in, then the program


def test_builtin_cload_of_a_damaged_tape_is_error_8_and_leaves_no_program():
    record = bytearray(tape.encode_tap(tokenize("10 PRINT 1\n")))
    record[12] ^= 0x40
    machine = builtin("5 B=2\n")
    read_with(machine, record_edges(bytes(record)), "CLOAD")
    assert screen(machine)[2] == "ERROR 8"
    assert program_bytes(machine) == b""


def test_builtin_cload_verify_and_merge():
    image = tokenize('10 PRINT "HI"\n20 A=1\n')
    edges = record_edges(tape.encode_tap(image, "P"))
    same = builtin('10 PRINT "HI"\n20 A=1\n')
    read_with(same, edges, 'CLOAD?"P"')
    assert screen(same)[2] == ">"
    other = builtin("10 PRINT 2\n")
    read_with(other, edges, 'CLOAD?"P"')
    assert screen(other)[2] == "ERROR 8"
    # lines above the last one continue the program; lower ones start a MERGE block
    after = builtin("1 B=2\n")
    read_with(after, edges, "MERGE")
    assert program_bytes(after) == tokenize("1 B=2\n") + image
    before = builtin("100 B=2\n")
    read_with(before, edges, "MERGE")
    assert program_bytes(before) == tokenize("100 B=2\n") + b"\xff" + image
    assert before.peek_word(0xFFDB) == before.peek_word(START_PTR) + 1 + len(tokenize("100 B=2\n"))


@pytest.mark.parametrize("program, shown, r1", [
    # a smaller array takes what fits, and so does a string array (no type check)
    ("10 DIM R(2):INPUT# R(*)\n", ">", "0000200000000000"),
    ("10 DIM R$(3)*8:INPUT# R$(*)\n", ">", "0000200000000000"),
    ("10 DIM R(3):INPUT# R(*),B\n", ">", "0000200000000000"),
    # a fixed variable does not take an array's item; a missing AB is ERROR 3
    ("10 INPUT# A\n", "ERROR 8 IN 10", None),
    ("10 DIM R(3):INPUT# R(*),AB\n", "ERROR 3 IN 10", "0000200000000000"),
])
def test_builtin_input_hash_takes_items_as_the_firmware_does(program, shown, r1):
    machine = builtin(program)
    read_with(machine, record_edges(ARRAY_RECORD), "RUN")
    assert screen(machine)[2] == shown
    if r1 is not None:
        header = machine.peek_word(0xFFDD)
        assert bytes(machine.mem[header + 15:header + 23]).hex() == r1
    assert machine.peek_word(0xFFDD) == (0xF9D0 if r1 is None else header)


def test_builtin_chain_loads_and_runs_keeping_the_variables():
    edges = record_edges(tape.encode_tap(tokenize('10 PRINT A;"C"\n20 B=B+1:PRINT B\n'), "N"))
    machine = builtin('10 A=7:B=1:CHAIN\n20 PRINT "OLD"\n')
    read_with(machine, edges, "RUN")
    assert screen(machine)[2] == "7.C"
    machine = builtin('10 A=7:DIM Z(2):CHAIN "N",20\n')
    dim = machine.peek_word(0xFFDD)
    read_with(machine, edges, "RUN")
    assert screen(machine)[2] == "1.".rjust(24)
    assert program_bytes(machine) == tokenize('10 PRINT A;"C"\n20 B=B+1:PRINT B\n')
    assert machine.peek_word(0xFFDD) < dim      # DIM Z(2) is still there


# ---------------------------------------------------------------- across the engines

@pytest.fixture(scope="module")
def firmware(rom_dir):
    machine = PC1360(roms=load(rom_dir))
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")
    assert machine.key_wait_ready()
    return machine, machine.snapshot()


def fresh_firmware(firmware, program=None):
    machine, snap = firmware
    machine.restore(snap)
    machine.cassette.eject()
    if program:
        machine.load_program(tokenize(program))
    return machine


def bit_runs(recording):
    """(mode, bits) of the square-wave part of a recording, and its length in cycles
    from the first mode 1 before the lead-in to the last mode 1."""
    modes = recording.modes + [(recording.end, None)]
    runs = [(mode, round((modes[i + 1][0] - at) / 512)) for i, (at, mode) in enumerate(modes[:-1])
            if mode in (2, 3)]
    remote = [at for i, (at, mode) in enumerate(modes[:-1]) if mode == 1
              and (modes[i + 2][1] == 3 or modes[i - 1][1] in (2, 3))]
    return runs, remote[-1] - remote[0]


DATA_PROGRAM = ('10 A=1.5:B$="XY":DIM R(2):R(1)=7:AB=4:CD$="Q"\n'
                '20 PRINT# "DAT";A,B$,R(*),AB,CD$\n')


@pytest.mark.rom
@pytest.mark.slow
@pytest.mark.parametrize("program, keys", [
    (DATA_PROGRAM, "RUN"),
    ("10 A=1:B=2\n20 PRINT A\n", 'CSAVE "PROG"'),
    ("10 A=1\n", 'CSAVE "AB","PW"'),
])
def test_same_statement_same_record_and_bits_on_both_engines(firmware, program, keys):
    theirs = record_of(fresh_firmware(firmware, program), keys)
    mine = record_of(builtin(program), keys)
    assert mine.tape_record() == theirs.tape_record()
    (their_runs, their_span), (my_runs, my_span) = bit_runs(theirs), bit_runs(mine)
    assert my_runs == their_runs
    assert my_span == pytest.approx(their_span, rel=0.001)


@pytest.mark.rom
@pytest.mark.slow
def test_firmware_print_hash_read_by_builtin_input_hash_and_back(firmware):
    reader = "10 DIM R(2):A=0:B$=\"\":AB=0:CD$=\"\":INPUT# \"DAT\";A,B$,R(*),AB,CD$\n"
    written = record_of(fresh_firmware(firmware, DATA_PROGRAM), "RUN")
    edges = signal_edges(written.samples(), RECORD_RATE)
    mine = builtin(reader)
    my_seconds = read_with(mine, edges, "RUN")
    theirs = fresh_firmware(firmware, reader)
    their_seconds = read_with(theirs, edges, "RUN")
    assert mine.mem[0xF800:0xFAA0] == theirs.mem[0xF800:0xFAA0]      # DIM area and A-Z
    assert my_seconds == pytest.approx(their_seconds, rel=0.01)
    # and the built-in engine's tape read by the firmware
    again = record_of(builtin(DATA_PROGRAM), "RUN")
    theirs = fresh_firmware(firmware, reader)
    read_with(theirs, signal_edges(again.samples(), RECORD_RATE), "RUN")
    assert mine.mem[0xF800:0xFAA0] == theirs.mem[0xF800:0xFAA0]


@pytest.mark.rom
@pytest.mark.slow
def test_csave_on_one_engine_cload_on_the_other(firmware):
    source = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n30 FOR I=1 TO 3:NEXT I\n'
    from_firmware = record_of(fresh_firmware(firmware, source), "CSAVE")
    mine = builtin("5 B=2\n")
    my_seconds = read_with(mine, signal_edges(from_firmware.samples(), RECORD_RATE), "CLOAD")
    assert program_bytes(mine) == tokenize(source)
    theirs = fresh_firmware(firmware, "5 B=2\n")
    their_seconds = read_with(theirs, signal_edges(from_firmware.samples(), RECORD_RATE), "CLOAD")
    assert mine.mem[0xFFD7:0xFFDF] == theirs.mem[0xFFD7:0xFFDF]       # program pointers
    assert my_seconds == pytest.approx(their_seconds, rel=0.01)
    from_builtin = record_of(builtin(source), "CSAVE")
    theirs = fresh_firmware(firmware, "5 B=2\n")
    read_with(theirs, signal_edges(from_builtin.samples(), RECORD_RATE), "CLOAD")
    assert program_bytes(theirs) == tokenize(source)

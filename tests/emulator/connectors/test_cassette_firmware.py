"""The firmware's own CLOAD and CSAVE through the machine's cassette (machine.cassette).

CLOAD reads tapes the pc1360 package writes (a WAV file, a .tap record) and leaves the
program as the tokenizer makes it; CSAVE's Xout, recorded to a WAV file, is read back by
the package's decoder as the same program. The project's lead-in is 1 s and CSAVE's own
is 8 s, so a CSAVE takes about 10 s of emulated time for a short program.
"""

import pytest

from emulator.connectors.cassette import record_edges
from emulator.machine import card_file as card
from emulator.machine.facade import PC1360
from emulator.machine.romset import load
from pc1360 import tape, tapesound
from pc1360.facts import END_PTR, START_PTR
from pc1360.listing import list_program
from pc1360.ramcard import read_card
from pc1360.tokenizer import tokenize
from tools.cli import main

pytestmark = [pytest.mark.rom, pytest.mark.slow]

SMALL = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n30 FOR I=1 TO 3:PRINT I:NEXT I\n'


@pytest.fixture(scope="module")
def booted(rom_dir):
    machine = PC1360(roms=load(rom_dir))
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")  # clear the blank card: RUN mode, empty program
    assert machine.key_wait_ready()
    return machine, machine.snapshot()


@pytest.fixture
def machine(booted):
    machine, snap = booted
    machine.restore(snap)
    yield machine
    machine.cassette.eject()
    machine.cassette.stop()


def screen(machine):
    return [line.rstrip() for line in machine.screen_text()]


def program(machine):
    return bytes(machine.mem[machine.peek_word(START_PTR) + 1:machine.peek_word(END_PTR)])


def cload(machine, command="CLOAD"):
    machine.type_keys(command + "{ENTER}")
    deadline = machine.cycles + 30 * machine.CYCLES_PER_SECOND
    while not machine.cassette.finished and machine.cycles < deadline:
        machine.run_for(0.1)
    assert machine.key_wait_ready(), screen(machine)


def test_cload_reads_a_wav_file_the_package_wrote(machine, tmp_path):
    image = tokenize(SMALL)
    path = tmp_path / "small.wav"
    path.write_bytes(tapesound.wav_bytes(tapesound.encode_samples(tape.encode_tap(image, "AB"))))
    machine.cassette.insert_file(path)
    cload(machine, 'CLOAD "AB"')
    assert ">" in screen(machine)
    assert program(machine) == image


def test_cload_reads_a_tap_record(machine, tmp_path):
    image = tokenize(SMALL)
    path = tmp_path / "small.tap"
    path.write_bytes(tape.encode_tap(image))
    machine.cassette.insert_file(path)
    cload(machine)
    assert program(machine) == image


def test_cload_of_a_damaged_tape_is_an_error_not_a_crash(machine):
    record = bytearray(tape.encode_tap(tokenize(SMALL)))
    record[12] ^= 0x40  # a program byte: the final checksum no longer matches
    machine.cassette.insert(record_edges(bytes(record)))
    cload(machine)
    assert any(line.startswith("ERROR") for line in screen(machine)), screen(machine)


def test_csave_records_a_wav_that_the_decoder_lists_as_the_program(machine, tmp_path):
    image = tokenize(SMALL)
    machine.load_program(image)
    machine.cassette.record()
    machine.type_keys('CSAVE "AB"{ENTER}')
    assert machine.key_wait_ready(30)
    recording = machine.cassette.stop()
    assert 8 < recording.seconds < 20  # CSAVE's 8 s lead-in, then the program
    path = tmp_path / "csave.wav"
    path.write_bytes(recording.wav())
    name, saved = tape.decode_tap(tapesound.decode_samples(*reversed(
        tapesound.wav_samples(path.read_bytes()))))
    assert name == "AB" and saved == image
    assert list_program(saved) == list_program(image)


# --- pc1360 run --tape / --tape-record ------------------------------------------------

def card_program(path):
    data, _state, problem = card.decode(path.read_bytes())
    assert problem is None
    return read_card(data)


def test_cli_csave_to_a_wav_then_cload_it_on_a_fresh_card(rom_dir, tmp_path, capsys):
    source = tmp_path / "p.bas"
    source.write_text(SMALL)
    wav = tmp_path / "p.wav"
    run = ["run", "--rom", str(rom_dir), "--headless"]
    assert main(run + ["--card-file", str(tmp_path / "one.bin"), "--load", str(source),
                       "--tape-record", str(wav), "--keys", "CSAVE{ENTER}", "--for", "12"]) == 0
    assert tape.program_from_tape(wav.read_bytes(), "wav") == tokenize(SMALL)
    fresh = tmp_path / "two.bin"
    assert main(run + ["--card-file", str(fresh), "--tape", str(wav),
                       "--keys", "CLOAD{ENTER}", "--for", "14"]) == 0
    assert card_program(fresh) == tokenize(SMALL)


def test_cli_tape_that_is_no_tape_is_a_usage_error(rom_dir, tmp_path, capsys):
    other = tmp_path / "x.doc"
    other.write_bytes(b"")
    assert main(["run", "--rom", str(rom_dir), "--headless", "--card-file",
                 str(tmp_path / "c.bin"), "--tape", str(other)]) == 1
    assert "--tape" in capsys.readouterr().err

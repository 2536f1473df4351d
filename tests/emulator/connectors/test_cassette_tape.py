"""The cassette on the machine's bus: Xin played from a tape, Xout recorded (no ROM)."""

import pytest

from emulator.connectors.cassette import (
    PLAY_RATE,
    Recording,
    record_edges,
    signal_edges,
    tape_edges,
)
from pc1360 import tape, tapesound
from pc1360.tokenizer import tokenize

SMALL = '10 PRINT "HI":GOTO 10\n'
BIT = 512  # cycles: 2 ms
XIN = 0x80


@pytest.fixture
def machine(idle_machine):
    return idle_machine


def csave_modes(record, start=0, lead_in=300):
    """Xout modes as CSAVE sets them: each bit on the 2 ms tick, mode 3 (4 kHz) for 1 and
    mode 2 (2 kHz) for 0; nibbles high first, LSB first, with the header's and the body's
    stop bits (docs/stored_format.md §7.1)."""
    bits = [1] * lead_in
    for index, byte in enumerate(record):
        for nibble, stops in zip((byte >> 4, byte & 15), (1, 5) if index < 10 else (1, 3)):
            bits += [0] + [(nibble >> k) & 1 for k in range(4)] + [1] * stops
    bits += [1, 1]
    return [(start + n * BIT, 3 if bit else 2) for n, bit in enumerate(bits)] + \
        [(start + len(bits) * BIT, 0)]


def test_a_tape_signal_becomes_edges_at_its_frequencies():
    record = tape.encode_tap(tokenize(SMALL))
    edges = record_edges(record)
    assert [level for _, level in edges[:4]] in ([1, 0, 1, 0], [0, 1, 0, 1])
    halves = {b[0] - a[0] for a, b in zip(edges[10:200], edges[11:201])}
    assert halves == {32}  # the lead-in: 4 kHz, 32 cycles a half wave


def test_edges_ignore_offset_and_level():
    samples = tapesound.encode_samples(b"\x72", 48_000)
    louder = [3 * (s - 128) + 1000 for s in samples]
    assert signal_edges(louder, 48_000) == signal_edges(list(samples), 48_000)
    assert signal_edges([128] * 1000, 48_000) == []


def test_xin_plays_the_tape_from_the_first_read(machine):
    machine.cycles = 10_000
    machine.cassette.insert([(0, 1), (32, 0), (64, 1), (96, 0)])
    assert machine.bus.xin() == 1 and machine.cassette.playing  # PLAY: the tape starts now
    machine.cycles += 40
    assert machine.bus.xin() == 0
    assert machine.bus.test(XIN) & XIN == 0
    machine.cycles += 30
    assert machine.bus.test(XIN) & XIN and machine.bus.xin() == 1
    machine.cycles += 30
    assert machine.cassette.finished and machine.bus.xin() == 0


def test_xin_reads_0_without_a_tape_and_after_eject(machine):
    assert machine.bus.xin() == 0 and machine.bus.test(XIN) & XIN == 0
    machine.cassette.insert([(0, 1)])
    assert machine.bus.xin() == 1
    machine.cassette.eject()
    assert machine.bus.xin() == 0 and machine.bus.test(XIN) & XIN == 0


def test_tape_files_by_suffix(tmp_path):
    image = tokenize(SMALL)
    record = tape.encode_tap(image)
    (tmp_path / "p.tap").write_bytes(record)
    (tmp_path / "p.bas").write_text(SMALL)
    wav = tapesound.wav_bytes(tapesound.encode_samples(record, PLAY_RATE), PLAY_RATE)
    (tmp_path / "p.wav").write_bytes(wav)
    expected = record_edges(record)  # the same signal, as the package writes it
    for name in ("p.tap", "p.bas", "p.wav"):
        assert tape_edges(tmp_path / name) == expected
    (tmp_path / "p.txt").write_text(SMALL)
    with pytest.raises(ValueError, match="no tape reader"):
        tape_edges(tmp_path / "p.txt")


def test_a_recording_of_csave_modes_decodes_to_the_record():
    record = tape.encode_tap(tokenize(SMALL), "AB")
    recording = Recording(csave_modes(record, start=1_000_000), 1_000_000 + 400 * 1024)
    assert recording.tape_record().startswith(record)
    assert tape.program_from_tape(recording.wav(), "wav") == tokenize(SMALL)


def test_outc_mode_changes_are_recorded_only_while_recording(machine):
    machine.bus.outc(0x31)
    machine.cassette.record()
    machine.cycles = 512
    machine.bus.outc(0x21)
    machine.bus.outc(0x21)  # the same mode again: no change
    machine.cycles = 1024
    machine.bus.outc(0x01)
    recording = machine.cassette.stop()
    assert recording.modes == [(0, 3), (512, 2), (1024, 0)]
    assert machine.cassette.stop() is None and not machine.cassette.recording
    samples = recording.samples(16_000)
    assert len(samples) == 64 and set(samples[:8]) == {28, 228}


def test_the_tape_is_busy_while_it_plays_and_while_a_tone_is_recorded(machine):
    cassette = machine.cassette
    cassette.insert([(0, 1), (25_600, 0)])
    assert not cassette.busy and cassette.active_at is None  # in, but not started
    machine.cycles = 1_000
    machine.bus.xin()
    machine.cycles = 13_800
    assert cassette.busy and cassette.active_at == 13_800 and cassette.played == (0.05, 0.1)
    machine.cycles = 40_000
    assert not cassette.busy and cassette.active_at == 26_600 and cassette.played == (0.1, 0.1)
    cassette.eject()
    cassette.record()
    machine.bus.outc(0x31)  # a tone: CSAVE's 4 kHz
    machine.cycles = 50_000
    assert cassette.sending and cassette.busy and cassette.active_at == 50_000
    machine.bus.outc(0x01)
    machine.cycles = 60_000
    assert not cassette.busy and cassette.active_at == 50_000

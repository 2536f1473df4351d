"""Tape audio: samples and WAV bytes, decoded back despite level, DC offset and speed."""

import io
import struct
import wave

import pytest

from pc1360.errors import FormatError
from pc1360.tape import decode_tap, encode_tap, program_from_tape
from pc1360.tapesound import (
    DEFAULT_RATE,
    decode_samples,
    encode_samples,
    wav_bytes,
    wav_samples,
)
from pc1360.tokenizer import tokenize

IMAGE = tokenize('10 PRINT "HELLO":GOTO 10\n20 END\n')
RECORD = encode_tap(IMAGE, "HELLO")


def test_samples_round_trip():
    samples = encode_samples(RECORD, lead_in_bits=50)
    assert decode_samples(list(samples), DEFAULT_RATE) == RECORD


def test_bit_shapes():
    # 2 ms per bit: a 1 is 8 cycles of 4 kHz, a 0 is 4 cycles of 2 kHz
    rate = 16_000
    one = encode_samples(b"", rate, lead_in_bits=1)
    silence = int(rate * 0.1)
    bit = one[silence:silence + 32]
    rising = [i for i in range(1, 32) if bit[i - 1] < 128 <= bit[i]]
    assert len(rising) == 7  # 8 cycles starting on a rising edge at sample 0


@pytest.mark.parametrize("speed", [0.96, 1.04])
def test_wav_with_dc_offset_lower_level_and_speed(speed):
    """Recorded `speed` times too fast or slow, at 40 % level on a DC offset of +30."""
    rate = 44_100
    samples = encode_samples(RECORD, round(rate / speed), lead_in_bits=80)
    quiet = bytes(min(255, max(0, round(30 + 128 + (s - 128) * 0.4))) for s in samples)
    data = wav_bytes(quiet, rate)
    assert program_from_tape(data, "wav") == IMAGE


def test_wav_bytes_header():
    data = wav_bytes(b"\x80" * 10, 16_000)
    with wave.open(io.BytesIO(data)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 1, 16_000)


def test_16_bit_stereo_wav_is_read_by_its_first_channel():
    samples = encode_samples(RECORD, 22_050, lead_in_bits=60)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(22_050)
        out.writeframes(b"".join(struct.pack("<hh", (s - 128) * 200, 0) for s in samples))
    rate, read = wav_samples(buffer.getvalue())
    assert rate == 22_050
    assert decode_tap(decode_samples(read, rate))[1] == IMAGE


def test_no_signal():
    assert decode_samples([128] * 5000, 16_000) == b""
    assert decode_samples([], 16_000) == b""
    with pytest.raises(FormatError, match="no tape signal"):
        program_from_tape(wav_bytes(b"\x80" * 1000, 16_000), "wav")
    with pytest.raises(FormatError, match="WAV"):
        program_from_tape(b"RIFF1234WAVEjunk", "wav")


def test_cut_recording_is_salvaged():
    image = tokenize("".join(f'{n} PRINT "LINE {n}"\n' for n in range(1, 9)))
    samples = encode_samples(encode_tap(image), 16_000, lead_in_bits=40)
    cut = wav_bytes(samples[: len(samples) * 2 // 3], 16_000)
    with pytest.raises(FormatError, match="cut off.*decoded from the recording"):
        program_from_tape(cut, "wav")
    problems = []
    partial = program_from_tape(cut, "wav", problems)
    assert image.startswith(partial) and len(partial) > 40
    assert len(problems) == 1 and "decoded from the recording" in problems[0].message


def test_spikes_where_the_tone_switches_are_ignored():
    # the machine switches between free-running 2 kHz and 4 kHz square waves, which can
    # leave a spike of a sample or two; put one near a crest in every bit
    samples = bytearray(encode_samples(RECORD, DEFAULT_RATE, lead_in_bits=40))
    per_bit = DEFAULT_RATE * 2 // 1000
    silence = int(DEFAULT_RATE * 0.1)
    for start in range(silence + 3, len(samples) - silence, per_bit):
        samples[start] = 255 - samples[start]
    assert decode_samples(list(samples), DEFAULT_RATE) == RECORD


def test_framing_lengths_as_csave_sends():
    # header bytes: start + 4 bits, 1 stop, start + 4 bits, 5 stops = 16 bits;
    # other bytes 1 and 2 stops = 13 bits; then two closing 1 bits
    rate = 16_000
    samples = encode_samples(RECORD, rate, lead_in_bits=7)
    bits = 7 + 16 * 10 + 13 * (len(RECORD) - 10) + 2
    assert len(samples) == 2 * int(rate * 0.1) + bits * 32

"""The one WAV reader (issue 18 items 7 and 15): PCM as the wave module reads it and
WAVE_FORMAT_EXTENSIBLE, read in blocks; every other header is refused by name."""

import io
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pc1360 import tapesound
from pc1360.errors import FormatError
from pc1360.tape import encode_tap, program_from_tape
from pc1360.tapesound import decode_wav, encode_samples, wav_bytes, wav_format
from pc1360.tokenizer import tokenize

IMAGE = tokenize('10 PRINT "HELLO":GOTO 10\n20 END\n')
RECORD = encode_tap(IMAGE, "HELLO")
RATE = 16_000
SIGNAL = encode_samples(RECORD, RATE, lead_in_bits=60)  # unsigned 8-bit mono


def fmt_chunk(tag=1, channels=1, rate=RATE, bits=8, extensible_tag=None):
    width = (bits + 7) // 8
    body = struct.pack("<HHIIHH", tag, channels, rate, rate * width * channels, width * channels, bits)
    if extensible_tag is not None:
        guid = struct.pack("<H", extensible_tag) + bytes.fromhex("000000001000800000aa00389b71")
        body += struct.pack("<HHI", 22, bits, 0) + guid
    return body


def riff(fmt_body, data, data_size=None):
    chunks = (b"fmt " + struct.pack("<I", len(fmt_body)) + fmt_body
              + b"data" + struct.pack("<I", len(data) if data_size is None else data_size) + data)
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks


def frames_of(width, channels):
    """SIGNAL as signed samples `width` bytes wide in the first of `channels` channels."""
    out = bytearray()
    for value in SIGNAL:
        sample = (value - 128) << (8 * width - 8)
        out += sample.to_bytes(width, "little", signed=True)
        out += bytes(width * (channels - 1))
    return bytes(out)


def test_24_bit_six_channel_extensible_wav_is_decoded():
    data = riff(fmt_chunk(0xFFFE, 6, bits=24, extensible_tag=1), frames_of(3, 6))
    assert program_from_tape(data, "wav") == IMAGE


@pytest.mark.parametrize("width", [2, 3, 4])
def test_plain_pcm_of_each_width_is_decoded(width):
    data = riff(fmt_chunk(bits=8 * width, channels=2), frames_of(width, 2))
    assert program_from_tape(data, "wav") == IMAGE


@pytest.mark.parametrize("fmt, message", [
    (fmt_chunk(bits=65535), "65535 bits per sample are not supported"),
    (fmt_chunk(bits=0), "0 bits per sample"),
    (fmt_chunk(tag=3, bits=32), "IEEE float WAV files are not supported"),
    (fmt_chunk(tag=0x55), "MP3 WAV files"),
    (fmt_chunk(tag=1234), "format tag 1234"),
    (fmt_chunk(0xFFFE, bits=32, extensible_tag=3), "IEEE float WAV files"),
    (fmt_chunk(0xFFFE, bits=16, extensible_tag=1)[:-1] + b"X", "EXTENSIBLE of a kind other than PCM"),
    (fmt_chunk(channels=0), "0 channels"),
    (fmt_chunk(rate=0), "sample rate of 0 Hz"),
    (fmt_chunk()[:10], "format chunk of 10 bytes"),
])
def test_headers_it_cannot_read_are_refused_by_name(fmt, message):
    with pytest.raises(FormatError, match=message):
        program_from_tape(riff(fmt, bytes(SIGNAL)), "wav")


def test_a_riff_header_with_random_bytes_is_a_format_error():
    with pytest.raises(FormatError, match="no format"):
        program_from_tape(b"RIFF\x10\x00\x00\x00WAVE" + bytes(range(7)), "wav")


def test_a_recording_whose_size_was_never_written_is_read_to_its_end():
    assert program_from_tape(riff(fmt_chunk(), bytes(SIGNAL), data_size=0xFFFFFFFF), "wav") == IMAGE


def test_wav_samples_and_the_stream_reader_agree_with_the_wave_module_s_files():
    data = wav_bytes(SIGNAL, RATE)
    assert tapesound.wav_samples(data) == (RATE, list(SIGNAL))
    assert decode_wav(io.BytesIO(data)) == RECORD
    fmt = wav_format(io.BytesIO(data))
    assert (fmt.rate, fmt.width, fmt.channels, fmt.frames) == (RATE, 1, 1, len(SIGNAL))


def test_small_blocks_give_the_same_record():
    data = io.BytesIO(wav_bytes(SIGNAL, RATE))
    fmt = wav_format(data)
    blocks = list(tapesound.wav_blocks(data, fmt, frames=256))
    assert len(blocks) > 10 and b"".join(blocks) == bytes(SIGNAL)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_damaged_wav_headers_give_only_format_errors(data):
    blob = bytearray(riff(fmt_chunk(bits=16), frames_of(2, 1)[:4000]))
    for _ in range(data.draw(st.integers(1, 6))):
        blob[data.draw(st.integers(0, 60))] = data.draw(st.integers(0, 255))
    blob = bytes(blob[:data.draw(st.integers(0, len(blob)))]) + data.draw(st.binary(max_size=40))
    try:
        program_from_tape(blob, "wav")
    except FormatError:
        pass

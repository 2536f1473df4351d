"""Containers told apart by content; the image got out of each."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pc1360.detect import detect_kind, image_of
from pc1360.errors import FormatError
from pc1360.ramcard import build_card
from pc1360.tape import encode_tap
from pc1360.tapesound import encode_samples, wav_bytes
from pc1360.tokenizer import tokenize

IMAGE = tokenize("10 PRINT 1\n20 GOTO 10\n")
CONTAINERS = {
    "img": IMAGE,
    "ram": build_card(IMAGE, 8),
    "tap": encode_tap(IMAGE, "T"),
    "wav": wav_bytes(encode_samples(encode_tap(IMAGE), 16_000, lead_in_bits=40), 16_000),
}


@pytest.mark.parametrize("kind", sorted(CONTAINERS))
def test_kind_and_image(kind):
    data = CONTAINERS[kind]
    assert detect_kind(data) == kind
    assert image_of(kind, data) == IMAGE


def test_img_with_end_mark():
    assert detect_kind(IMAGE + b"\xff") == "img"
    assert image_of("img", IMAGE + b"\xff") == IMAGE


def test_img_starting_like_a_tape_type_byte():
    image = tokenize("29200 END")  # high byte 0x72
    assert detect_kind(image) == "img"


def test_empty_and_damaged():
    with pytest.raises(FormatError, match="empty"):
        detect_kind(b"")
    assert detect_kind(b"\x00\x0a\x09") == "img"  # damaged image: its reader says why
    with pytest.raises(FormatError):
        image_of("img", b"\x00\x0a\x09")
    assert detect_kind(b"\x00" * 8192) == "ram"
    with pytest.raises(FormatError, match="source text"):
        detect_kind(b"10 PRINT 1\n20 END\n")


def _only_format_errors(data):
    try:
        image_of(detect_kind(data), data)
    except FormatError:
        pass
    try:
        image_of(detect_kind(data), data, problems=[])  # salvage
    except FormatError:
        pass


@settings(max_examples=120, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_format_error(data):
    _only_format_errors(data)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["img", "ram", "tap", "wav"]), st.data())
def test_damaged_containers_raise_only_format_error(kind, data):
    blob = bytearray(CONTAINERS[kind])
    if kind in ("ram", "wav"):  # damage the part that matters, not the silence or free RAM
        span = range(0, 80) if kind == "wav" else [*range(0x30, 0x50), *range(len(blob) - 0x30, len(blob))]
    else:
        span = range(len(blob))
    for _ in range(data.draw(st.integers(1, 4))):
        blob[data.draw(st.sampled_from(span))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(blob)))
    _only_format_errors(bytes(blob[:cut]) if kind != "ram" else bytes(blob))

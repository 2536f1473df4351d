"""Program image: line records, 0xFF block marks, damage with byte offsets, salvage."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pc1360.errors import FormatError
from pc1360.image import (
    Line,
    build_image,
    lines_only,
    split_image,
    typed_length,
)
from pc1360.image_format import IMG_FILE, LINE
from pc1360.tokenizer import tokenize, tokenize_line

IMAGE = tokenize("10 PRINT 1\n20 END\n")  # 00 0A 04 FE 60 31 0D  00 14 03 FE 5A 0D


def test_line_record_layout():
    assert Line(10, b"\xfe\x60\x31").to_bytes() == bytes.fromhex("000a04fe60310d")
    assert build_image([Line(10, b"\xfe\x60\x31"), Line(20, b"\xfe\x5a")]) == IMAGE


def test_split_skips_end_and_merge_marks():
    lines = split_image(b"\xff" + IMAGE + b"\xff" + IMAGE + b"\xff")
    assert [line.number for line in lines] == [10, 20, 10, 20]
    assert split_image(IMAGE + b"\xff" + IMAGE, blocks=False) == split_image(IMAGE)


def test_body_may_hold_0d_after_a_line_reference():
    line = tokenize_line("13 GOTO 13")
    assert line.body == b"\xfe\x2b\x1f\x00\x0d"
    assert split_image(line.to_bytes()) == [line]


@pytest.mark.parametrize("data, offset, words", [
    (IMAGE[:2], 0, "header cut off"),
    (bytes.fromhex("000a00"), 2, "length byte is 0"),
    (IMAGE[:-1], 9, "runs past the end"),
    (bytes.fromhex("000a04fe603141"), 6, "no 0x0D"),
    (IMAGE + bytes.fromhex("001e09fe60"), 15, "runs past the end"),
])
def test_damage_names_the_offset(data, offset, words):
    with pytest.raises(FormatError) as caught:
        split_image(data)
    assert caught.value.offset == offset and words in caught.value.message
    assert f"byte {offset}" in str(caught.value)


def test_salvage_keeps_the_intact_lines():
    problems = []
    lines = split_image(IMAGE + bytes.fromhex("001e09fe60"), problems=problems)
    assert [line.number for line in lines] == [10, 20]
    assert len(problems) == 1 and problems[0].offset == 15


def test_typed_length():
    assert typed_length(tokenize_line("10 PRINT 1")) == len("10P.1")
    assert typed_length(tokenize_line("10 GOTO 100")) == len("10G.100")
    assert typed_length(tokenize_line("10 COS 1")) == len("10COS1")  # no abbreviation


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0xFEFF), st.binary(max_size=254)), max_size=6),
       st.booleans())
def test_fast_paths_agree_with_the_construct_description(pairs, end_mark):
    lines = [Line(number, body) for number, body in pairs]
    image = build_image(lines)
    assert image == b"".join(LINE.build({"number": n, "body": b}) for n, b in pairs)
    data = image + (b"\xff" if end_mark else b"")
    parsed = IMG_FILE.parse(data)
    assert [Line(p.number, p.body) for p in parsed.lines] == split_image(data) == lines
    assert (parsed.end_mark is not None) == end_mark


def test_lines_only_drops_one_trailing_end_mark():
    image = Line(10, b"A").to_bytes()
    assert lines_only(image + b"\xff") == lines_only(image) == image
    assert lines_only(bytearray(image + b"\xff\xff")) == image + b"\xff"

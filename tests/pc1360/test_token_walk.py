"""The token walker: a stored line body as keywords, line numbers, strings, REM text and
other bytes."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pc1360.keywords import BY_NAME, KEYWORDS
from pc1360.token_walk import (
    BYTES,
    KEYWORD,
    LINE_NUMBER,
    REM_TEXT,
    STRING,
    Element,
    walk,
)
from pc1360.tokenizer import tokenize_line

PRINT, GOTO, REM = (BY_NAME[name].code for name in ("PRINT", "GOTO", "REM"))
NO_KEYWORD = next(code for code in range(256) if code not in {k.code for k in KEYWORDS})


def kinds(body):
    return [(e.kind, bytes(body[e.start:e.end]), e.value) for e in walk(body)]


@pytest.mark.parametrize("body, elements", [
    (bytes((0xFE, PRINT)) + b"1", [(KEYWORD, bytes((0xFE, PRINT)), PRINT), (BYTES, b"1", None)]),
    (bytes((0xFE, GOTO, 0x1F, 0x01, 0x2C)),
     [(KEYWORD, bytes((0xFE, GOTO)), GOTO), (LINE_NUMBER, b"\x1f\x01\x2c", 300)]),
    (b'A$="X\xfe\x97\x1f\x00\x0a"B', [(BYTES, b"A$=", None),
                                      (STRING, b'"X\xfe\x97\x1f\x00\x0a"', None), (BYTES, b"B", None)]),
    (b'"OPEN', [(STRING, b'"OPEN', None)]),  # a string runs to the line end
    (b'""', [(STRING, b'""', None)]),
    (bytes((0xFE, REM)) + b' "\xfe\x97', [(KEYWORD, bytes((0xFE, REM)), REM),
                                          (REM_TEXT, b' "\xfe\x97', None)]),
    (bytes((0xFE, REM)), [(KEYWORD, bytes((0xFE, REM)), REM)]),  # REM text is never empty
    (bytes((0xFE, NO_KEYWORD, 0x22)), [(BYTES, bytes((0xFE, NO_KEYWORD)), None),
                                       (STRING, b'"', None)]),
    (b"1\xfe", [(BYTES, b"1", None), (BYTES, b"\xfe", None)]),  # 0xFE at the end
    (b"\x1f\x01", [(BYTES, b"\x1f\x01", None)]),  # too short for a line number
    (b"\x1f\x22\xfe" + bytes((PRINT,)),  # a line number's bytes are only its bytes
     [(LINE_NUMBER, b"\x1f\x22\xfe", 0x22FE), (BYTES, bytes((PRINT,)), None)]),
    (b"", []),
])
def test_each_kind_of_element(body, elements):
    assert kinds(body) == elements


def test_elements_give_their_offsets():
    assert list(walk(b'\xfe' + bytes((PRINT,)) + b'"A"')) == [
        Element(KEYWORD, 0, 2, PRINT), Element(STRING, 2, 5, None)]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_walking_any_body_gives_back_its_bytes_in_order(body):
    elements = list(walk(body))
    assert b"".join(body[e.start:e.end] for e in elements) == body
    assert all(a.end == b.start for a, b in zip(elements, elements[1:]))
    assert all(e.start < e.end for e in elements)


_SOURCE_PIECES = st.one_of(
    st.sampled_from([k.name for k in KEYWORDS if k.typed]),
    st.sampled_from(["A", "B$", "X1", "10", "300", "65279", ",", ":", "(", ")", "=", "+", " "]),
    st.text(alphabet="ABC xyz019:", max_size=6).map(lambda s: f'"{s}"'),
    st.sampled_from(['"', "\\xFE", "\\x1F", "\\x22"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_SOURCE_PIECES, min_size=1, max_size=12))
def test_walking_a_tokenized_line_gives_back_its_body(pieces):
    line = tokenize_line("10 " + "".join(pieces) + "X", long_lines=True)
    elements = list(walk(line.body))
    assert b"".join(line.body[e.start:e.end] for e in elements) == line.body


_TEXT = st.lists(st.sampled_from(["A", "a", " ", "1", ":", "\\xFE", "\\x1F", "\\x0D", "π"]),
                 max_size=10).map("".join)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 65279), _TEXT, _TEXT)
def test_walking_tokenized_lines_finds_what_was_typed(number, text, remark):
    line = tokenize_line(f'10 GOTO {number}:PRINT "{text}"X:REM{remark}', long_lines=True)
    elements = [(e.kind, e.value if e.kind != BYTES else bytes(line.body[e.start:e.end]))
                for e in walk(line.body)]
    expected = [(KEYWORD, GOTO), (LINE_NUMBER, number), (BYTES, b":"), (KEYWORD, PRINT),
                (STRING, None), (BYTES, b"X:"), (KEYWORD, REM)]
    assert elements == expected + ([(REM_TEXT, None)] if remark.lstrip(" ") else [])

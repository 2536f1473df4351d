"""Character codes <-> Unicode (docs/stored_format.md §5)."""

import pytest

from pc1360 import charset


@pytest.mark.parametrize("code, char", [
    (0x41, "A"), (0x61, "a"), (0x20, " "), (0x5C, "¥"), (0x7E, "‾"), (0xA1, "｡"), (0xB1, "ｱ"),
    (0xDF, "ﾟ"), (0xF1, "年"), (0xF2, "月"), (0xF3, "日"), (0xF4, "円"), (0xF5, "♠"), (0xF6, "♥"),
    (0xF7, "♦"), (0xF8, "♣"), (0xF9, "■"), (0xFA, "□"), (0xFB, "π"), (0xFC, "√"),
])
def test_code_to_text_and_back(code, char):
    assert charset.TO_TEXT[code] == char
    assert charset.code_of(char) == code


@pytest.mark.parametrize("code", [0x00, 0x0D, 0x1F, 0x7F, 0x80, 0x9F, 0xA0, 0xE0, 0xF0, 0xFD, 0xFE, 0xFF])
def test_codes_without_a_glyph_have_no_character(code):
    assert code not in charset.TO_TEXT


def test_alternative_spellings_and_the_escape_character():
    assert charset.code_of("~") == 0x7E
    assert charset.code_of("\\") is None  # it starts an escape
    assert charset.code_of("€") is None
    assert 0x5C not in charset.TO_ASCII and charset.TO_ASCII[0x7E] == "~"
    assert all(char.isascii() for char in charset.TO_ASCII.values())
    assert len(charset.TO_TEXT) == 95 + 63 + 12

"""basic_src/kniffel.bas as source: it tokenizes, every line can be typed, it fits an 8 KB
card with room for 8 players, and it keeps the PC-1360's variable rules (no emulator)."""

import re
from pathlib import Path

import pytest

from tests.helpers.basic_source import fixed_letter_uses, long_words

tokenizer = pytest.importorskip("pc1360.tokenizer")
program = pytest.importorskip("pc1360.image")

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "kniffel.bas"
PROGRAM_AREA_8KB = 6558  # program + DIM area on an 8 KB card (docs/stored_format.md §2.4)
PLAYERS = 8


@pytest.fixture(scope="module")
def parsed():
    return tokenizer.parse_program(SOURCE.read_text(encoding="utf-8"))


def test_tokenizes_without_warnings(parsed):
    assert parsed.warnings == []
    assert len(parsed.lines) > 40


def test_every_line_can_be_typed(parsed):
    too_long = [line.number for line in parsed.lines if program.typed_length(line) > program.MAX_TYPED]
    assert too_long == []


def test_source_lines_are_short(parsed):
    # the source itself stays within the 80-character input line, keywords in full
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        assert len(text) <= 80, text


def test_started_with_def_k(parsed):
    labelled = [line.number for line in parsed.lines if line.body.startswith(b'"K"')]
    assert len(labelled) == 1


def test_no_unknown_words(parsed):
    assert long_words(parsed) == []


def test_fixed_letters_are_either_numbers_or_strings(parsed):
    numeric, string = fixed_letter_uses(parsed)
    assert numeric & string == set()


def test_fits_an_8kb_card_with_eight_players(parsed):
    image = parsed.image
    dim = re.search(r"DIM NM\$\(P-1\)\*(\d+),M1\$\(P-1\)\*(\d+),M2\$\(P-1\)\*(\d+),PT\(P-1,(\d+)\)",
                    SOURCE.read_text(encoding="utf-8"))
    assert dim, "the DIM line changed: update this test"
    names, upper, lower, numbers = map(int, dim.groups())
    per_player = names + upper + lower + 8 * (numbers + 1)
    assert per_player == 57  # the program's own MEM check uses 57 bytes a player
    headers = 4 * 7  # measured on the firmware: 7 bytes per array
    used = len(image) + 2 + PLAYERS * per_player + headers  # 0xFF before and after the lines
    assert used <= PROGRAM_AREA_8KB - 500, used  # and room to spare

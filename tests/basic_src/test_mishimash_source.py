"""basic_src/mishimash.bas as source: it tokenizes, every line can be typed, it keeps to its
line range 3000-3999, starts with DEF X and CLEAR, fits an 8 KB card with room for many
players, and keeps the PC-1360's variable rules (no emulator)."""

import re
from pathlib import Path

import pytest

from tests.helpers.basic_source import code_parts, fixed_letter_uses, long_words

tokenizer = pytest.importorskip("pc1360.tokenizer")
program = pytest.importorskip("pc1360.image")

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "mishimash.bas"
DOC = SOURCE.with_suffix(".md")
PROGRAM_AREA_8KB = 6558  # program + DIM area on an 8 KB card (docs/stored_format.md §2.4)
TWO_LETTER_NUMBERS = {"WP", "MC", "MS", "NS", "CP", "RD", "FS", "DL", "MX"}  # 8 bytes each


@pytest.fixture(scope="module")
def parsed():
    return tokenizer.parse_program(SOURCE.read_text(encoding="utf-8"))


def text_lines():
    return SOURCE.read_text(encoding="utf-8").splitlines()


def test_tokenizes_without_warnings(parsed):
    assert parsed.warnings == []
    assert len(parsed.lines) > 60


def test_line_numbers_stay_in_3000_to_3999(parsed):
    assert all(3000 <= line.number <= 3999 for line in parsed.lines)


def test_every_line_can_be_typed(parsed):
    too_long = [line.number for line in parsed.lines
                if program.typed_length(line) > program.MAX_TYPED]
    assert too_long == []


def test_source_lines_are_short():
    for text in text_lines():
        assert len(text) <= 80, text


def test_started_with_def_x_and_clear(parsed):
    labelled = [line for line in parsed.lines if line.body.startswith(b'"X"')]
    assert len(labelled) == 1
    assert labelled[0].body[3:5] == b"\xfe\x2e"  # CLEAR, the first statement
    assert text_lines()[0].startswith("3000 REM MISHIMASH") and "DEF X" in text_lines()[0]


def test_jumps_go_to_existing_code_lines():
    lines = dict(text.split(" ", 1) for text in text_lines())
    for text in text_lines():
        for target in re.findall(r"GO(?:TO|SUB) (\d+)", text):
            assert target in lines, (text, target)
            assert not lines[target].startswith("REM"), (text, target)  # REM costs time


def test_no_unknown_words(parsed):
    assert long_words(parsed) == []


def test_fixed_letters_are_either_numbers_or_strings(parsed):
    numeric, string = fixed_letter_uses(parsed)
    assert numeric & string == set()
    assert string == {"Y"}


def test_two_letter_variables_are_the_documented_ones(parsed):
    names = set()
    for line in parsed.lines:
        code = code_parts(line.body)
        names |= set(re.findall(r"(?<![A-Z0-9])([A-Z][A-Z0-9])(?![A-Z0-9])", code))
    assert names == TWO_LETTER_NUMBERS | {"NM", "SC"}


def test_fits_an_8kb_card_with_many_players(parsed):
    dim = re.search(r"DIM NM\$\(NS-1\)\*(\d+),SC\(NS-1\)", SOURCE.read_text(encoding="utf-8"))
    assert dim, "the DIM line changed: update this test"
    per_player = int(dim.group(1)) + 8
    assert per_player == 10
    assert "NS*10+170>MEM" in SOURCE.read_text(encoding="utf-8")  # per player + per game
    headers = 2 * 7  # 7 bytes per array (measured for Kniffel)
    simple = 16 * len(TWO_LETTER_NUMBERS)  # name entry + 8 bytes, generously
    used = len(parsed.image) + 2 + simple + headers + 20 * per_player
    assert used <= PROGRAM_AREA_8KB - 2000, used


def test_the_documentation_names_the_keys_and_the_layout():
    doc = DOC.read_text(encoding="utf-8")
    for words in ("DEF X", "**B**", "**ENTER**", "MISHIMASH +10", "ONGELDIG", "PECH!",
                  "BEWAARD", "SLOTRONDE", "BESLISSING", "MEM"):
        assert words in doc, words
    header = " ".join(text_lines()[:10])
    for words in ("DEF X", "ENTER", " B:", "1-6"):
        assert words in header, words

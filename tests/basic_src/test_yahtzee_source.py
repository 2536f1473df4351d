"""basic_src/yahtzee.bas as source: it tokenizes, every line can be typed, it keeps to lines
1000-1999 beside kniffel.bas, the high-score REM line has the layout the program pokes,
it fits a 16 KB card together with Kniffel, and it keeps the PC-1360's variable rules
(no emulator)."""

import re
from pathlib import Path

import pytest

from tests.helpers.basic_source import PREFIX, REM_CODE, fixed_letter_uses, long_words

tokenizer = pytest.importorskip("pc1360.tokenizer")
program = pytest.importorskip("pc1360.image")

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "basic_src" / "yahtzee.bas"
KNIFFEL = ROOT / "basic_src" / "kniffel.bas"
PROGRAM_AREA_16KB = 6558 + 8192  # program + DIM area: the 8 KB figure plus 8 KB more
PER_PLAYER = 2 + 24 + 20 + 5 * 8  # NM$ *2, UR$ *24, LR$ *20, PT(.,0..4)


@pytest.fixture(scope="module")
def parsed():
    return tokenizer.parse_program(SOURCE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def both():
    text = KNIFFEL.read_text(encoding="utf-8") + SOURCE.read_text(encoding="utf-8")
    return tokenizer.parse_program(text)


def test_tokenizes_without_warnings(parsed):
    assert parsed.warnings == []
    assert len(parsed.lines) > 80


def test_line_numbers_1000_to_1999(parsed):
    numbers = [line.number for line in parsed.lines]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert 1000 <= numbers[0] and numbers[-1] == 1999


def test_every_line_can_be_typed(parsed):
    assert [line.number for line in parsed.lines
            if program.typed_length(line) > program.MAX_TYPED] == []
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        assert len(text) <= 80, text


def test_started_with_def_j_and_label_y(parsed):
    # DEF works only with the keys A-L, Z-M, = and SPC (not Y): the start label is J
    labels = {line.body[1:2]: line.number for line in parsed.lines if line.body[:1] == b'"'}
    assert set(labels) == {b"J", b"Y"}
    first = next(line for line in parsed.lines if line.number == labels[b"J"])
    assert first.body.startswith(b'"J"\xfe\x2e')  # "J" CLEAR (token FE 2E)


def test_no_unknown_words(parsed):
    assert long_words(parsed) == []


def test_fixed_letters_are_either_numbers_or_strings(parsed):
    numeric, string = fixed_letter_uses(parsed)
    assert numeric & string == set()
    assert string == {"S", "Y"}


def test_hiscore_line_is_the_last_rem_line_of_46_bytes(parsed, both):
    for image in (parsed.image, both.image):
        image = image.rstrip(b"\xff")
        record = image[-46:]
        assert record[:3] == bytes([1999 >> 8, 1999 & 0xFF, 43])
        assert record[3:5] == bytes([PREFIX, REM_CODE]) and record[-1] == 0x0D
        assert record[5:45] == b"--00" * 10  # ten empty entries: name "--", score 0


def test_coexists_with_kniffel(both):
    kniffel = tokenizer.parse_program(KNIFFEL.read_text(encoding="utf-8"))
    assert max(line.number for line in kniffel.lines) < 1000
    assert both.warnings == []
    bodies = {line.number for line in both.lines}
    assert len(bodies) == len(both.lines)


def test_fits_a_16kb_card_with_kniffel(both):
    text = SOURCE.read_text(encoding="utf-8")
    dim = re.search(r"DIM NM\$\(P-1\)\*(\d+),UR\$\(P-1\)\*(\d+),LR\$\(P-1\)\*(\d+),PT\(P-1,(\d+)\)", text)
    assert dim, "the DIM line changed: update this test"
    names, upper, lower, numbers = map(int, dim.groups())
    assert names + upper + lower + 8 * (numbers + 1) == PER_PLAYER
    assert f"P*{PER_PLAYER}+" in text  # the program's own MEM check
    used = len(both.image) + 2 + 8 * PER_PLAYER + 5 * 7 + 7 * 18  # 8 players, CT$(6)*18
    assert used <= PROGRAM_AREA_16KB - 4000, used

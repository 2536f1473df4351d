"""basic_src/mikazee.bas as source (no emulator): it tokenizes, every line can be typed, it
keeps to its line range 2000-2999 and the PC-1360's variable rules, its card records hold
the default rules, and it fits a 32 KB card."""

import re
from pathlib import Path

import pytest

from tests.helpers import mikazee_model as mm
from tests.helpers.basic_source import LINE_REF, fixed_letter_uses, long_words

tokenizer = pytest.importorskip("pc1360.tokenizer")
program = pytest.importorskip("pc1360.image")

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "mikazee.bas"
CARD_32KB_PROGRAM_AREA = 32768 - 1282 - 208 - 144  # as the 8 KB budget (docs/stored_format.md §2.4)


@pytest.fixture(scope="module")
def parsed():
    return tokenizer.parse_program(SOURCE.read_text(encoding="utf-8"))


def test_tokenizes_without_warnings(parsed):
    assert parsed.warnings == []


def test_line_numbers_2000_to_2999_and_sorted(parsed):
    numbers = [line.number for line in parsed.lines]
    assert numbers == sorted(set(numbers))
    assert 2000 <= numbers[0] and numbers[-1] <= 2999


def test_every_line_can_be_typed(parsed):
    too_long = [line.number for line in parsed.lines if program.typed_length(line) > program.MAX_TYPED]
    assert too_long == []
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        assert len(text) <= 80, text


def test_started_with_def_m(parsed):
    labelled = [line for line in parsed.lines if line.body.startswith(b'"')]
    assert [line.body[:3] for line in labelled] == [b'"M"']


def test_no_unknown_words(parsed):
    assert long_words(parsed) == []


def test_fixed_letters_are_either_numbers_or_strings(parsed):
    numeric, string = fixed_letter_uses(parsed)
    assert numeric & string == set()
    assert string == {"F"}


def test_every_goto_target_exists(parsed):
    numbers = {line.number for line in parsed.lines}
    for line in parsed.lines:
        body = line.body
        for i in range(len(body) - 2):
            if body[i] == LINE_REF:
                assert (body[i + 1] << 8 | body[i + 2]) in numbers, line.number
    source = SOURCE.read_text(encoding="utf-8")
    for target in re.findall(r"(?:GOTO|GOSUB|RESTORE) (\d+)", source):
        assert int(target) in numbers, target
    for targets in re.findall(r"ON [^:]* GOTO ([\d,]+)", source):
        assert all(int(t) in numbers for t in targets.split(","))


def data_records():
    rows = {}
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        number, body = text.split(" ", 1)
        if 2900 < int(number) < 2910 and body.startswith("REM "):
            rows[int(number)] = body[4:]
    return rows


def test_card_records_hold_four_default_sets_with_empty_top_tens():
    rows = data_records()
    assert sorted(rows) == list(range(2901, 2909))
    assert {len(text) for text in rows.values()} == {mm.RECORD_CHARS}  # the program's stride
    for slot in range(4):
        name, rules = mm.decode_rules(rows[2901 + 2 * slot])
        assert rules == mm.default_rules()
        assert name == ("MIKAZEE" if slot == 0 else f"SET {slot + 1}  ")
        assert mm.decode_top(rows[2902 + 2 * slot]) == mm.EMPTY_TOP


def test_default_data_line_matches_the_model():
    source = SOURCE.read_text(encoding="utf-8")
    numbers = re.search(r"2950 DATA ([\d,]+)\n2951 DATA ([\d,]+)", source)
    values = [int(v) for v in (numbers.group(1) + "," + numbers.group(2)).split(",")]
    assert values == mm.DEFAULT_VALUES


def test_locator_line_is_the_one_before_the_records(parsed):
    # DEF M finds the records from the firmware's statement pointer in line 2900: the
    # pointer is at the end of "BA=0", 27 bytes before the line's CR (the program checks
    # the CR and scans for it otherwise); the records start 6 bytes after the CR.
    line = next(line for line in parsed.lines if line.number == 2900)
    assert line.body.startswith(b"BA=0:BA=")
    assert len(line.body) - len(b"BA=") == 27  # from the "0" of BA=0 to the CR
    following = [line.number for line in parsed.lines if line.number > 2900][:8]
    assert following == list(range(2901, 2909))


def test_fits_a_32kb_card(parsed):
    variables = 38 * 8 + 7 * 8 + 40 * 8 + 10 * 8 + 19 * 36 + 10 * 4 + 10 * 8 + 38 * 16 + 57
    headers = 10 * 7 + 12 * 15 + 16
    used = len(parsed.image) + 2 + variables + headers
    assert used < CARD_32KB_PROGRAM_AREA - 8000  # kniffel, yahtzee and mishimash share the card
    assert len(parsed.image) < 12000

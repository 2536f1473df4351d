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
    """{line: text after DATA or REM} of the record lines 2901-2920."""
    rows = {}
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        number, body = text.split(" ", 1)
        if 2900 < int(number) <= 2900 + 4 * mm.LINES_PER_SET:
            keyword, text = body.split(" ", 1)
            rows[int(number)] = (keyword, text)
    return rows


def test_card_records_hold_four_default_sets_with_empty_top_tens():
    """Four DATA lines and a REM line a set, of the lengths the program's addresses take
    (set q at BA+305*q: the program POKEs the fields there)."""
    rows = data_records()
    assert sorted(rows) == list(range(2901, 2921))
    for slot in range(4):
        first = 2901 + mm.LINES_PER_SET * slot
        keywords = [rows[first + i][0] for i in range(mm.LINES_PER_SET)]
        assert keywords == ["DATA"] * mm.RULE_LINES + ["REM"]
        texts = [rows[first + i][1] for i in range(mm.LINES_PER_SET)]
        name = "MIKAZEE" if slot == 0 else f"SET {slot + 1}  "
        assert texts[:mm.RULE_LINES] == mm.rule_lines(name, mm.default_rules())
        assert mm.decode_top(texts[mm.RULE_LINES]) == mm.EMPTY_TOP
        stride = sum(3 + 2 + len(text) + 1 for text in texts)  # number, length, keyword, CR
        assert stride == 305


def test_default_data_lines_match_the_model():
    """DATA 2950-2952: the default fields, then what the game start takes from a record."""
    source = SOURCE.read_text(encoding="utf-8")
    numbers = re.search(r"2950 DATA ([\d,]+)\n2951 DATA ([\d,]+)\n2952 DATA (.*)\n", source)
    values = [int(v) for v in (numbers.group(1) + "," + numbers.group(2)).split(",")]
    record = mm.rule_lines("MIKAZEE", mm.default_rules())
    assert values[:38] == mm.DEFAULT_VALUES
    assert values[38:] == [int(v) for v in record[1].split(",")[-3:]]
    assert numbers.group(3) == ",".join(f'"{text[1:-1].rstrip()}"' for text in record[2:])


def test_locator_line_is_the_one_before_the_records(parsed):
    # DEF M finds the records from the firmware's statement pointer in line 2900: the
    # pointer is at the end of "BA=0", 27 bytes before the line's CR (the program checks
    # the CR and scans for it otherwise); the records start 6 bytes after the CR.
    line = next(line for line in parsed.lines if line.number == 2900)
    assert line.body.startswith(b"BA=0:BA=")
    assert len(line.body) - len(b"BA=") == 27  # from the "0" of BA=0 to the CR
    following = [line.number for line in parsed.lines if line.number > 2900][:20]
    assert following == list(range(2901, 2921))


def test_fits_a_32kb_card_with_the_other_games(parsed):
    """All four games on one 32 KB card, with room for Mikazee's variables (the other games'
    variables are gone then: each game starts with CLEAR)."""
    arrays = 38 * 16 + 2 * 57 + 7 * 8 + 10 * 8 + 38 * 8 + 50 * 8 + 19 * 36  # LA$ LB$ HC CF RU CS SL$
    simple = 7 * 7 + 30 * (7 + 16)  # array headers; two-letter variables, generously
    others = sum(len(tokenizer.tokenize((SOURCE.parent / f"{name}.bas").read_text(encoding="utf-8")))
                 for name in ("kniffel", "yahtzee", "mishimash"))
    used = len(parsed.image) + others + 2 + arrays + simple
    assert used <= CARD_32KB_PROGRAM_AREA - 1000, used

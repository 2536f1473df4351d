"""Numbers of thousands of digits in source text (issue 18 item 6): int() refuses more
than 4300 digits, so the tokenizer counts them first and reports the line and column."""

import pytest

from pc1360.errors import FormatError
from pc1360.tokenizer import MAX_WARNINGS, parse_program, tokenize

HUGE = "1" * 5000


def test_a_line_number_of_5000_digits_is_out_of_range_with_its_place():
    with pytest.raises(FormatError) as caught:
        tokenize(f"10 PRINT 1\n{HUGE} PRINT 2\n")
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "(5000 digits) is out of range" in caught.value.message
    assert len(caught.value.message) < 100


@pytest.mark.parametrize("source", [f"10 GOTO {HUGE}", f"10 GOTO 20,{HUGE}", f"10 ON A GOTO 20,{HUGE}:END"])
@pytest.mark.parametrize("long_lines", [False, True])
def test_a_jump_target_of_5000_digits_is_a_line_too_long_not_a_crash(source, long_lines):
    with pytest.raises(FormatError, match="longer than") as caught:
        tokenize(source, long_lines=long_lines)
    assert caught.value.line == 1


def test_leading_zeros_do_not_make_a_line_number_too_long():
    assert tokenize("0000000000010 GOTO 000000000020\n20 END\n") == tokenize("10 GOTO 20\n20 END\n")


def test_thousands_of_repeated_line_numbers_give_a_bounded_number_of_warnings():
    parsed = parse_program("10 PRINT 1\n" * 5000)
    assert len(parsed.warnings) == MAX_WARNINGS + 1
    assert "and 4949 more lines replace earlier ones" in parsed.warnings[-1].message
    assert parsed.warnings[-1].line == MAX_WARNINGS + 2

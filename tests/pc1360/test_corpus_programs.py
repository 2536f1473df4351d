"""Real third-party listings (read from ../shared/corpus at test time, never copied).

The files are PocketTools sources: "'" comment lines and blank lines are not BASIC and are
dropped first. A file that is not typeable PC-1360 BASIC is skipped with the reason; all
of them must still tokenize with long lines allowed (as bas2img and a tape would take
them) and survive the round trip through the listing.
"""

from pathlib import Path

import pytest

from pc1360.errors import FormatError
from pc1360.listing import list_program
from pc1360.tokenizer import parse_program, tokenize

NAMES = sorted(p.name for p in
               (Path(__file__).resolve().parents[3] / "shared" / "corpus").glob("*.bas"))
# These must stay typeable; the others have lines over 80 characters (docs/stored_format.md §1.6).
TYPEABLE = {"MATRIX_1403.bas", "PRNG_1403.bas", "SUBMARIN_1403.bas", "almanac_1403.bas",
            "multi8.bas", "pockemul_test_1350.bas", "pockemul_toolbox_1350.bas",
            "prolly16.bas", "prolly8.bas", "prolly_1360.bas", "sio1360.bas"}


def basic_lines(path):
    text = path.read_bytes().decode("utf-8")
    return "\n".join(line for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith("'"))


@pytest.mark.parametrize("name", NAMES)
def test_typeable_listing_tokenizes_and_round_trips(corpus_dir, name):
    source = basic_lines(corpus_dir / name)
    try:
        parsed = parse_program(source)
    except FormatError as exc:
        assert name not in TYPEABLE, f"{name} should tokenize: {exc}"
        pytest.skip(f"{name} is not typeable PC-1360 BASIC: {exc}")
    image = parsed.image
    assert tokenize(list_program(image)) == image
    assert tokenize(list_program(image, ascii=True)) == image


@pytest.mark.parametrize("name", NAMES)
def test_every_listing_tokenizes_with_long_lines(corpus_dir, name):
    image = tokenize(basic_lines(corpus_dir / name), long_lines=True)
    assert tokenize(list_program(image), long_lines=True) == image


def test_repeated_lines_leave_the_last_copy(corpus_dir):
    # pockemul_test_1350.bas holds the same six lines seven times
    parsed = parse_program(basic_lines(corpus_dir / "pockemul_test_1350.bas"))
    assert len(parsed.lines) == 6 and len(parsed.warnings) == 36


def test_keywords_in_strings_stay_text(corpus_dir):
    image = tokenize(basic_lines(corpus_dir / "pockemul_toolbox_1350.bas"))
    assert b'"CALL"' in image and b'"DATA"' in image


def test_pc1360_loader_addresses(corpus_dir):
    # prolly_1360.bas POKEs its code to 32816 (&8030), the PC-1360 program area
    listing = list_program(tokenize(basic_lines(corpus_dir / "prolly_1360.bas")))
    assert "\n102:POKE 32816," in listing and "\n9000:CALL A: END\n" in listing

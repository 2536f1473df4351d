"""Listing: stored program -> text as LIST shows it, and back (round trip)."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pc1360.errors import FormatError
from pc1360.image import Line, build_image, typed_length
from pc1360.keywords import BY_NAME, KEYWORDS
from pc1360.listing import list_line, list_program
from pc1360.tokenizer import tokenize, tokenize_line

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def listed(source, **options):
    return list_program(tokenize(source), **options)


def test_firmware_list_style():
    # docs/stored_format.md §1.5: PRO mode lists 10 PRINT "HI":GOTO 10 as below
    assert listed('10 PRINT "HI":GOTO 10') == '10:PRINT "HI": GOTO 10\n'


# What the real firmware shows in PRO mode after each line is typed (checked in the emulator
# running the ROM).
@pytest.mark.parametrize("source, text", [
    ("10 A=OPEN$", "10:A= OPEN$"),
    ('10 IF A P."X"', '10:IF APPEND "X"'),
    ("10 DATA A B,C", "10:DATA AB,C"),
    ("10 LF.1", "10:LFILES 1"),
    ("10 GOTO 10,20", "10:GOTO 10,20"),
    ("10 A=LO G", "10:A= LOG"),
    ("10 PRINT .5", "10:PRINT .5"),
    ("10 REM   X", "10:REM X"),
    ("10 DEG.", "10:DEGREE"),
    ("10 CLS:WAIT 0", "10:CLS : WAIT 0"),
    ("10 A=INT(B)+1", "10:A= INT (B)+1"),
    ("10 A$=MID$(B$,1,1)", "10:A$= MID$ (B$,1,1)"),
    ("10 IF A=1 THEN 20", "10:IF A=1 THEN 20"),
    ("10 FOR I=1TO 9:NEXT I", "10:FOR I=1 TO 9: NEXT I"),
    ("10 X=SQR 2", "10:X= SQR 2"),
    ("10 PRINT A;B:END", "10:PRINT A;B: END"),
])
def test_lines_as_the_firmware_lists_them(source, text):
    assert listed(source) == text + "\n"


@pytest.mark.parametrize("source, text", [
    ("40 A=1.5E3:B=&4B8:C$=\"abc\":REM Hello print",
     '40:A=1.5E3:B=&4B8:C$="abc": REM Hello print'),
    ("60 H=INT((A+2)/256):L=A+2-H*256", "60:H= INT ((A+2)/256):L=A+2-H*256"),
    ("70 X=SQR 2+√3+π", "70:X= SQR 2+√3+π"),
    ("80 FOR I=1 TO 10 STEP 2:NEXT I", "80:FOR I=1 TO 10 STEP 2: NEXT I"),
    ("90 PRINT INT A", "90:PRINT INT A"),
    ("10 TOTAL=5", "10:TO TAL=5"),
    ("10 END", "10:END"),
    ("10 REM", "10:REM"),
    ('10 A$="年月日円♠♥♦♣■□ｱ¥‾"', '10:A$="年月日円♠♥♦♣■□ｱ¥‾"'),
])
def test_spacing_and_characters(source, text):
    assert listed(source) == text + "\n"


def test_ascii_listing_escapes_what_is_not_ascii():
    text = listed('10 A$="π¥ｱ~":B=√2', ascii=True)
    assert text == '10:A$="\\xFB\\x5C\\xB1~":B=\\xFC2\n'
    assert text.isascii()
    assert tokenize(text) == tokenize('10 A$="π¥ｱ~":B=√2')


@pytest.mark.parametrize("body, text", [
    (b"A= B", "A=\\x20B"),  # a space outside a string would be dropped
    (b"a=1", "\\x61=1"),  # a lower-case letter would be upper-cased
    (b"\xfe\x59 X", "REM \\x20X"),  # spaces right after REM would be dropped
    (b"\xfe\x38\x35", "\\xFE\\x385"),  # WIDTH's token cannot be typed
    (b'"\x01\x80\xe5"', '"\\x01\\x80\\xE5"'),  # codes without a character
    (b"\xfe\x10\x1f\x00\x0a", "RUN \\x1F\\x00\\x0A"),  # RUN 10 is kept as digits when typed
    (b"GO\xfe\x52A", "\\x47\\x4F TO \\x41"),  # typed, G O TO would be GOTO
])
def test_lines_the_tokenizer_would_not_produce_are_escaped(body, text):
    line = Line(10, body)
    assert list_line(line) == f"10:{text}"
    assert tokenize_line(list_line(line)) == line


def test_last_resort_is_every_byte_escaped():
    line = Line(10, b"\xfe\x73\xfe\x96")  # AS then COS would read back as ASC, OS
    assert list_line(line) == "10:\\xFE\\x73\\xFE\\x96"
    assert tokenize_line(list_line(line)) == line


def test_line_reference_holding_0d_and_ff():
    line = tokenize_line("10 GOTO 13:GOSUB 255:GOTO 65279")
    assert line.body.count(b"\r") == 1 and b"\x1f\xfe\xff" in line.body
    assert list_line(line) == "10:GOTO 13: GOSUB 255: GOTO 65279"
    assert tokenize(list_program(line.to_bytes())) == line.to_bytes()


# -- round trip on generated programs ---------------------------------------------------

_WORDS = [k.name for k in KEYWORDS] + ["P.", "G.", "I.", "GOS.", "DEG.", "OP.$"]
_PIECES = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from(["A", "B$", "X1", "Z", "TAL", "I", "Q"]),
    st.integers(0, 70000).map(str),
    st.sampled_from(["+", "-", "*", "/", "^", "(", ")", ",", ";", ":", "=", "<>", ">=", ".", "&", "$",
                     " ", "  ", "π", "√", "¥", "年", "ｱ", "~", "#", "?", "@", "!", "%", "'"]),
    st.text(alphabet="ABCabc xyz019!?π¥ｱ:", max_size=8).map(lambda s: f'"{s}"'),
    st.sampled_from(["\\x00", "\\xFE", "\\x1F", "\\x20", "\\x61", "\\xFF", "\\x0D", '"']),
)


@st.composite
def sources(draw):
    numbers = draw(st.lists(st.integers(1, 65279), min_size=1, max_size=5, unique=True))
    lines = []
    for number in numbers:
        body = "".join(draw(st.lists(_PIECES, min_size=1, max_size=10)))
        lines.append(f"{number} {body}")
    return "\n".join(lines)


@settings(SETTINGS, max_examples=60)
@given(sources(), st.booleans())
def test_round_trip_generated_programs(source, ascii):
    try:
        image = tokenize(source)
    except FormatError:
        assume(False)
    text = list_program(image, ascii=ascii)
    assert tokenize(text) == image
    if ascii:
        assert text.isascii()


@st.composite
def images(draw):
    numbers = sorted(draw(st.lists(st.integers(1, 65279), min_size=1, max_size=5, unique=True)))
    return [Line(n, draw(st.binary(min_size=1, max_size=60))) for n in numbers]


@SETTINGS
@given(images())
def test_round_trip_any_image(lines):
    """Any sorted image with non-empty bodies: typeable lines round-trip as they are,
    longer ones with long_lines."""
    image = build_image(lines)
    typeable = all(typed_length(line) <= 80 for line in lines)
    assert tokenize(list_program(image), long_lines=not typeable) == image


@SETTINGS
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_tokenize_raises_only_format_error(source):
    try:
        tokenize(source)
    except FormatError:
        pass


@SETTINGS
@given(st.binary(max_size=300), st.booleans())
def test_list_raises_only_format_error(data, ascii):
    try:
        list_program(data, ascii=ascii)
    except FormatError:
        pass
    problems = []
    list_program(data, ascii=ascii, problems=problems)  # salvage never raises


def test_keyword_table_drives_listing_names():
    for keyword in KEYWORDS:
        line = Line(10, keyword.token + b"X")
        text = list_line(line)
        if keyword.typed:
            assert text == f"10:{keyword.name} X"
        assert tokenize_line(text) == line
    assert BY_NAME["REM"].token in tokenize_line(list_line(Line(1, b"\xfe\x59X"))).body

"""Tokenizer: text line -> stored line, as the PC-1360 stores a line typed in PRO mode."""

import pytest

from pc1360.errors import FormatError
from pc1360.keywords import ABBREVIATIONS, KEYWORDS
from pc1360.tokenizer import parse_program, tokenize, tokenize_line


def stored(text, **options):
    return tokenize_line(text, **options).to_bytes().hex(" ")


# Lines typed into the real firmware (PRO mode, capitals) and the bytes it stored.
FIRMWARE = [
    ('10 WIDTH 5', '00 0a 07 57 49 44 54 48 35 0d'),
    ('10 G OTO 10', '00 0a 06 fe 2b 1f 00 0a 0d'),
    ('10 A=OPEN$', '00 0a 05 41 3d fe e8 0d'),
    ('10 A=OP.$', '00 0a 05 41 3d fe e8 0d'),
    ('10 IF A P."X"', '00 0a 08 fe 56 fe 72 22 58 22 0d'),
    ('10 PRINT .5', '00 0a 05 fe 60 2e 35 0d'),
    ('10 GOTO 10,20', '00 0a 0a fe 2b 1f 00 0a 2c 1f 00 14 0d'),
    ('10 GOTO 010', '00 0a 06 fe 2b 1f 00 0a 0d'),
    ('10 GOTO 70000', '00 0a 08 fe 2b 37 30 30 30 30 0d'),
    ('10 LF.1', '00 0a 04 fe 3b 31 0d'),
    ('10 DEG.', '00 0a 03 fe 26 0d'),
    ('10 :A=1', '00 0a 04 41 3d 31 0d'),
    ('10 REM   X', '00 0a 04 fe 59 58 0d'),
    ('10 DATA A B,C', '00 0a 07 fe 5e 41 42 2c 43 0d'),
    ('10 A=LO G', '00 0a 05 41 3d fe 92 0d'),
    ('10 PRINT 10,20', '00 0a 08 fe 60 31 30 2c 32 30 0d'),
    ('10 GOTO A,20', '00 0a 08 fe 2b 41 2c 1f 00 14 0d'),
    ('10 ON A GOTO 10,B,30', '00 0a 0f fe 55 41 fe 2b 1f 00 0a 2c 42 2c 1f 00 1e 0d'),
    ('10 IF A THEN 10,20', '00 0a 0c fe 56 41 fe 54 1f 00 0a 2c 32 30 0d'),
    ('10 ON X(1,2) GOTO 5', '00 0a 0e fe 55 58 28 31 2c 32 29 fe 2b 1f 00 05 0d'),
    ('10 RESTORE 10,20', '00 0a 09 fe 66 1f 00 0a 2c 32 30 0d'),
    ('10 GOTO 10:PRINT 20,30', '00 0a 0e fe 2b 1f 00 0a 3a fe 60 32 30 2c 33 30 0d'),
    ('10 ON A GOSUB 10,20:PRINT 5,6', '00 0a 13 fe 55 41 fe 62 1f 00 0a 2c 1f 00 14 3a fe 60 35 2c 36 0d'),
    ('10 GOTO 5,X(1,2),7', '00 0a 11 fe 2b 1f 00 05 2c 58 28 31 2c 32 29 2c 1f 00 07 0d'),
    ('10 GOTO 5,', '00 0a 07 fe 2b 1f 00 05 2c 0d'),
    ('10 DELETE 10-20', '00 0a 08 fe 1b 31 30 2d 32 30 0d'),
    ('10 LLIST "A",10', '00 0a 09 fe 15 22 41 22 2c 31 30 0d'),
    ('10 WI.', '00 0a 04 57 fe 61 0d'),
    ('10 KL.', '00 0a 04 4b fe 14 0d'),
    ('10 J.', '00 0a 03 4a 2e 0d'),
    ('10 KA.', '00 0a 04 4b fe d0 0d'),
    ('10 KR.', '00 0a 04 4b fe 10 0d'),
    ('10 X=B.5', '00 0a 06 58 3d fe 29 35 0d'),
    ('10 GOTO.', '00 0a 04 fe 2b 2e 0d'),
    ('10 GOSUB (10)', '00 0a 07 fe 62 28 31 30 29 0d'),
    ('10 PRINT A:RUN 10,20', '00 0a 0c fe 60 41 3a fe 10 31 30 2c 32 30 0d'),
    ('10 GOSUB A,20', '00 0a 08 fe 62 41 2c 1f 00 14 0d'),
    ('10 RESTORE A,20', '00 0a 07 fe 66 41 2c 32 30 0d'),
    ('10 CHAIN "X",100,200', '00 0a 0e fe 67 22 58 22 2c 31 30 30 2c 32 30 30 0d'),
    ('10 CHAIN 100', '00 0a 06 fe 67 31 30 30 0d'),
    ('10 LLIST 10,20', '00 0a 08 fe 15 31 30 2c 32 30 0d'),
    ('10 LLIST 10', '00 0a 05 fe 15 31 30 0d'),
    ('10 LIST 10,20', '00 0a 08 fe 14 31 30 2c 32 30 0d'),
    ('10 ARUN 10,20', '00 0a 09 fe 74 1f 00 0a 2c 32 30 0d'),
    ('10 AUTOGOTO 10,20', '00 0a 09 fe 75 1f 00 0a 2c 32 30 0d'),
    ('10 RENUM 10,A,30', '00 0a 0a fe 19 31 30 2c 41 2c 33 30 0d'),
    ('10 DELETE A,20', '00 0a 07 fe 1b 41 2c 32 30 0d'),
    ('10 RUN 10,A', '00 0a 07 fe 10 31 30 2c 41 0d'),
    ('10 IF A THEN A,20', '00 0a 0a fe 56 41 fe 54 41 2c 32 30 0d'),
    ('10 IF A THEN 10 ,20', '00 0a 0c fe 56 41 fe 54 1f 00 0a 2c 32 30 0d'),
    ('10 GOTO 5)', '00 0a 05 fe 2b 35 29 0d'),
    ('10 GOTO 65535', '00 0a 08 fe 2b 36 35 35 33 35 0d'),
    ('10 GOTO 65536', '00 0a 08 fe 2b 36 35 35 33 36 0d'),
    ('10 GOTO 0', '00 0a 04 fe 2b 30 0d'),
    ('10 ON A GOTO 10:GOTO 5,6', '00 0a 13 fe 55 41 fe 2b 1f 00 0a 3a fe 2b 1f 00 05 2c 1f 00 06 0d'),
    ('10 ON A,B GOTO 5', '00 0a 0b fe 55 41 2c 42 fe 2b 1f 00 05 0d'),
    ('10 IF A ON B GOTO 5,6', '00 0a 10 fe 56 41 fe 55 42 fe 2b 1f 00 05 2c 1f 00 06 0d'),
    ('10 GOTO 65279', '00 0a 06 fe 2b 1f fe ff 0d'),
    ('10 GOTO 65280', '00 0a 08 fe 2b 36 35 32 38 30 0d'),
    ('10 DELETE 10', '00 0a 05 fe 1b 31 30 0d'),
    ('10 RENUM 100', '00 0a 06 fe 19 31 30 30 0d'),
    ('10 CHAIN "X",100:BEEP 1', '00 0a 0e fe 67 22 58 22 2c 31 30 30 3a fe 29 31 0d'),
    ('10 GOSUB 5+1,7', '00 0a 0a fe 62 35 2b 31 2c 1f 00 07 0d'),
    ('10 CHAIN A$,100', '00 0a 09 fe 67 41 24 2c 31 30 30 0d'),
    ('10 RENUM 10,20,A', '00 0a 0a fe 19 31 30 2c 32 30 2c 41 0d'),
    ('10 THEN 5', '00 0a 06 fe 54 1f 00 05 0d'),
    ('10 GOTO 00012', '00 0a 06 fe 2b 1f 00 0c 0d'),
    ('10 RENUM 100,10', '00 0a 09 fe 19 31 30 30 2c 31 30 0d'),
    ('10 DELETE 10,20,30', '00 0a 0b fe 1b 31 30 2c 32 30 2c 33 30 0d'),
    ('10 RENUM 1,2,3,4', '00 0a 0a fe 19 31 2c 32 2c 33 2c 34 0d'),
    ('10 CHAIN "X",100:', '00 0a 0b fe 67 22 58 22 2c 31 30 30 3a 0d'),
    ('10 CHAIN "X"+A$,100', '00 0a 0d fe 67 22 58 22 2b 41 24 2c 31 30 30 0d'),
    ('10 DELETE 10,20:BEEP 1', '00 0a 0c fe 1b 31 30 2c 32 30 3a fe 29 31 0d'),
    ('10 RENUM 100,10,5:BEEP 1', '00 0a 0f fe 19 31 30 30 2c 31 30 2c 35 3a fe 29 31 0d'),
    ('10 DELETE ,20', '00 0a 06 fe 1b 2c 32 30 0d'),
    ('10 DELETE 10,', '00 0a 06 fe 1b 31 30 2c 0d'),
    ('440 DELETE 10,20:RENUM 100,10,5', '01 b8 13 fe 1b 31 30 2c 32 30 3a fe 19 31 30 30 2c 31 30 2c 35 0d'),
    ('430 RUN 10:LIST 20:CHAIN "X",100', '01 ae 14 fe 10 31 30 3a fe 14 32 30 3a fe 67 22 58 22 2c 31 30 30 0d'),
    ('10 RUN 10:BEEP 1', '00 0a 09 fe 10 31 30 3a fe 29 31 0d'),
    ('10 PRINT "HI":GOTO 10', '00 0a 0d fe 60 22 48 49 22 3a fe 2b 1f 00 0a 0d'),
    ('10 PRINT 1', '00 0a 04 fe 60 31 0d'),
    ('20 END', '00 14 03 fe 5a 0d'),
]


@pytest.mark.parametrize("source, expected", FIRMWARE)
def test_stored_as_the_firmware_stores_typed_lines(source, expected):
    assert stored(source) == expected


# docs/stored_format.md §1.7 (bas2img --pc=1360, which the firmware matched where it was checked).
# Two rows are given in the form a PC-1360 user types: the PocketTools placeholders [PI] ...
# as the characters themselves, and no bas2img "'" comment (the PC-1360 has none).
WORKED = [
    ('10 PRINT "Hi"', "00 0a 07 fe 60 22 48 69 22 0d"),
    ("20 GOTO 10", "00 14 06 fe 2b 1f 00 0a 0d"),
    ("60 P.A;:I.B", "00 3c 09 fe 60 41 3b 3a fe 61 42 0d"),
    ("70 X=SQR 2+√3+π", "00 46 0b 58 3d fe 94 32 2b fc 33 2b fb 0d"),
    ("80 FOR I=1 TO 10 STEP 2:NEXT I",
     "00 50 11 fe 57 49 3d 31 fe 52 31 30 fe 53 32 3a fe 5b 49 0d"),
    ('40 A=1.5E3:B=&4B8:C$="abc":REM Hello print',
     "00 28 26 41 3d 31 2e 35 45 33 3a 42 3d 26 34 42 38 3a 43 24 3d 22 61 62 63 22 3a fe 59 "
     "48 65 6c 6c 6f 20 70 72 69 6e 74 0d"),
    ('120 A$=INKEY$:IF A$<>"" BEEP 1',
     "00 78 12 41 24 3d fe e9 3a fe 56 41 24 3c 3e 22 22 fe 29 31 0d"),
    ("140 LINE (0,0)-(10,10),PSET",
     "00 8c 13 fe 69 28 30 2c 30 29 2d 28 31 30 2c 31 30 29 2c fe 34 0d"),
    ("10 TOTAL=5:PRINT TOTAL", "00 0a 10 fe 52 54 41 4c 3d 35 3a fe 60 fe 52 54 41 4c 0d"),
    ('100 A$="π√¥□■円"', "00 64 0c 41 24 3d 22 fb fc 5c fa f9 f4 22 0d"),
    ('100 A$="\\xFB\\xFC\\x5C\\xFA\\xF9\\xF4"', "00 64 0c 41 24 3d 22 fb fc 5c fa f9 f4 22 0d"),
    ("60 A=B REM comment", "00 3c 0d 41 3d 42 fe 59 63 6f 6d 6d 65 6e 74 0d"),
    ("10 IF A>=B THEN 100", "00 0a 0c fe 56 41 3e 3d 42 fe 54 1f 00 64 0d"),
    ("10 ON A GOTO 100,200,300", "00 0a 11 fe 55 41 fe 2b 1f 00 64 2c 1f 00 c8 2c 1f 01 2c 0d"),
    ("10 GOSUB 10+1", "00 0a 07 fe 62 31 30 2b 31 0d"),
]


@pytest.mark.parametrize("source, expected", WORKED)
def test_worked_examples(source, expected):
    assert stored(source) == expected


def test_apostrophe_is_an_ordinary_character():
    # bas2img turns ' into REM; the PC-1360 has no such comment, so it is stored as typed
    assert stored("60 A=B' comment") == "00 3c 0c 41 3d 42 27 43 4f 4d 4d 45 4e 54 0d"


def test_hardware_section_9_lines():
    image = tokenize('10 PRINT "HI":GOTO 10\n')
    assert image.hex(" ") == "00 0a 0d fe 60 22 48 49 22 3a fe 2b 1f 00 0a 0d"
    # LIST shows the line with spaces; they are not stored
    assert tokenize('10 PRINT "HI": GOTO 10\n') == image
    assert tokenize("10 PRINT 1\n20 END\n").hex(" ") == "00 0a 04 fe 60 31 0d 00 14 03 fe 5a 0d"
    assert stored("10 REM HI") == stored("10 REM    HI") == "00 0a 05 fe 59 48 49 0d"


@pytest.mark.parametrize("keyword", [k for k in KEYWORDS if k.typed], ids=lambda k: k.name)
def test_every_keyword_alone_and_in_lower_case(keyword):
    line = tokenize_line(f"10 {keyword.name}")
    assert line.body == keyword.token
    assert tokenize_line(f"10 {keyword.name.lower()}").body == keyword.token


@pytest.mark.parametrize("keyword", [k for k in KEYWORDS if not k.typed], ids=lambda k: k.name)
def test_untyped_keywords_are_stored_as_letters(keyword):
    assert keyword.token not in tokenize_line(f"10 A={keyword.name}").body


@pytest.mark.parametrize("form", sorted(ABBREVIATIONS))
def test_every_abbreviation(form):
    assert tokenize_line(f"10 {form}").body == ABBREVIATIONS[form].token


def test_keyword_between_variable_letters_is_found_greedily():
    assert tokenize_line("10 A=ABSB").body == b"A=\xfe\x99B"
    assert tokenize_line("10 A=DEGREE").body == b"A=\xfe\x26"  # DEGREE, not DEG+REE
    assert tokenize_line("10 A$=OPEN$").body == b"A$=\xfe\xe8"


def test_spaces_are_dropped_outside_strings_but_kept_inside():
    assert tokenize_line('10   P R I N T  "A  B" ;  X').body == b'\xfe\x60"A  B";X'
    assert tokenize_line('10 PRINT "open  ').body == b'\xfe\x60"open  '  # unterminated string


def test_letters_are_upper_cased_outside_strings_only():
    assert tokenize_line('10 a$="aB":rem MiXed').body == b'A$="aB":\xfe\x59MiXed'


def test_data_items_are_tokenized_and_spaces_dropped():
    assert tokenize_line("10 DATA PRINT, 1 ,\"X Y\"").body == b'\xfe\x5e\xfe\x60,1,"X Y"'


def test_keywords_in_strings_and_rem_are_text():
    assert tokenize_line('10 PRINT "GOTO 10":REM GOTO 10').body == \
        b'\xfe\x60"GOTO 10":\xfe\x59GOTO 10'


def test_colon_after_line_number_is_a_separator():
    assert tokenize_line("10:PRINT").body == tokenize_line("10 PRINT").body
    assert tokenize_line("10::A=1").body == b":A=1"
    assert tokenize_line("  0010 END").number == 10


@pytest.mark.parametrize("char, code", [
    ("π", 0xFB), ("√", 0xFC), ("¥", 0x5C), ("年", 0xF1), ("月", 0xF2), ("日", 0xF3), ("円", 0xF4),
    ("♠", 0xF5), ("♥", 0xF6), ("♦", 0xF7), ("♣", 0xF8), ("■", 0xF9), ("□", 0xFA), ("ｱ", 0xB1),
    ("｡", 0xA1), ("ﾟ", 0xDF), ("~", 0x7E), ("‾", 0x7E),
])
def test_special_characters(char, code):
    assert tokenize_line(f'10 A$="{char}"').body == b'A$="' + bytes([code]) + b'"'


def test_escapes_store_the_byte_untouched():
    # an escaped letter is not part of a keyword, an escaped space is stored
    assert tokenize_line("10 A=\\x41BS").body == b"A=ABS"
    assert tokenize_line("10 A=\\x20B:C=\\x61").body == b"A= B:C=a"
    assert tokenize_line("10 GOTO \\x310").body == b"\xfe\x2b10"  # not a line reference
    assert tokenize_line('10 A$="\\x22"').body == b'A$="""'


def test_machine_codes_as_source_bytes():
    # not UTF-8, so read as the machine's own codes: 0xFB is pi, 0xB1 katakana A
    image = tokenize(b'10 A=\xfb:B$="\xb1\x5c"\r\n')
    assert image == tokenize('10 A=π:B$="ｱ¥"')
    assert tokenize(b"10 A=1\n\x1a garbage after the end-of-file mark") == tokenize("10 A=1")


def test_utf8_bom_and_line_ends():
    assert tokenize("\ufeff10 A=1\r\n20 B=2\r30 C=3".encode()) == tokenize("10 A=1\n20 B=2\n30 C=3")


def test_program_is_sorted_and_a_later_duplicate_wins_with_a_warning():
    parsed = parse_program("30 C=3\n10 A=1\n\n20 B=2\n10 A=9\n")
    assert [line.number for line in parsed.lines] == [10, 20, 30]
    assert parsed.lines[0].body == b"A=9"
    (warning,) = parsed.warnings
    assert (warning.line, warning.column) == (5, 1) and "line 2" in warning.message


@pytest.mark.parametrize("source, line, column, words", [
    ("PRINT 1", 1, 1, "line number"),
    ("10 A=1\n  PRINT 1", 2, 3, "line number"),
    ("0 PRINT", 1, 1, "out of range"),
    ("65280 PRINT", 1, 1, "out of range"),
    ("10", 1, 3, "nothing after"),
    ("10 :", 1, 5, "nothing after"),
    ("10 A$=\"€\"", 1, 8, "no PC-1360 code"),
    ("10 A=1\t", 1, 7, "no PC-1360 code"),
    ("10 A=\\5", 1, 6, "escape"),
    ("10 A=\\xZZ", 1, 6, "escape"),
    ("10 " + "A=1:" * 20, 1, 81, "longer than 80"),
    ("", 1, 1, "empty program"),
    ("\n \n", 1, 1, "empty program"),
])
def test_errors_name_line_and_column(source, line, column, words):
    with pytest.raises(FormatError) as caught:
        tokenize(source)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in caught.value.message


def test_typed_length_counts_abbreviations_not_the_text():
    # 86 characters as written, but typeable as 10P."AAAA...":P."B" in 80
    text = '10 PRINT "' + "A" * 60 + '":PRINT "B"'
    assert len(text) > 80
    tokenize_line(text)
    with pytest.raises(FormatError):
        tokenize_line('10 PRINT "' + "A" * 70 + '":PRINT "B"')


def test_long_lines_allowed_up_to_255_stored_bytes():
    line = tokenize_line('10 A$="' + "X" * 240 + '"', long_lines=True)
    assert len(line.to_bytes()) == 3 + len('A$="') + 240 + len('"') + 1
    with pytest.raises(FormatError, match="longer than a line can be"):
        tokenize_line('10 A$="' + "X" * 260 + '"', long_lines=True)

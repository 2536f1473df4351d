"""Tokenizer truth test: programs typed into the real firmware in PRO mode are stored
byte for byte as pc1360.tokenizer stores them (where they are not, the firmware wins and
the difference is recorded here)."""

import re

import pytest

from emulator.machine.facade import PC1360
from emulator.machine.key_script import KeyScriptError, parse
from pc1360.image import split_image
from pc1360.keywords import KEYWORDS
from pc1360.tokenizer import tokenize

pytestmark = pytest.mark.rom

# Settled by the firmware: the keywords whose ROM-table flag nibble is 8 or more (the
# Kanji functions of the Japanese model, and WIDTH) are not recognised when typed: the ROM
# stores their letters, with a keyword inside them (LEN, MID$ ...) tokenized.
UNTYPED_KEYWORDS = {  # keyword -> what `A=keyword` stores after "A="
    "AKCNV$": b"AKCNV$", "JIS$": b"JIS$", "KACNV$": b"KACNV$", "KLEN": b"K\xfe\xd2",
    "KMID$": b"K\xfe\xea", "KLEFT$": b"K\xfe\xeb", "KRIGHT$": b"K\xfe\xec", "WIDTH": b"WIDTH",
}
# Settled by the firmware: a line number is compiled to 0x1F hi lo after GOTO, GOSUB, THEN,
# RESTORE, ARUN, AUTOGOTO and in ON ... GOTO/GOSUB lists, but stays digits after RUN, LIST,
# LLIST, CHAIN, DELETE and RENUM (PocketTools compiles those too; pc1360.tokenizer follows
# the firmware).
DIGITS_KEPT = {
    "10 RUN 10": b"\xfe\x1010",
    "20 LIST 10": b"\xfe\x1410",
    "30 LLIST 30,40": b"\xfe\x1530,40",
    '40 CHAIN "X",100': b'\xfe\x67"X",100',
    "50 DELETE 10,20": b"\xfe\x1b10,20",
    "60 RENUM 100,10,5": b"\xfe\x19100,10,5",
}

OWN_PROGRAM = """\
1 GOTO 10
13 GOSUB 13:GOTO 255
255 IF A>=B THEN 100
300 ON A GOTO 100,200,300
310 ON A GOSUB 10,20:RESTORE 50
320 GOTO A:GOSUB 10+1:GOTO 10 :GOTO 20:
330 A=1.5E3:B=&4B8:C$="ABC":D=-.5E-12
340 REM  HELLO PRINT "X"
350 DATA PRINT,1,"X"
360 P.A;:I.B
370 X=SQR 2+PI*(3-1)/4^2
380 FOR I=1 TO 10 STEP 2:NEXT I
390 A$=INKEY$:IF A$<>"" BEEP 1
400 LINE (0,0)-(10,10),PSET
410 TOTAL=5:PRINT TOTAL
420 PRINT "A:B";"GOTO 10":PRINT USING "##.#";A
430 ARUN 10:AUTOGOTO 20:IF A THEN 20
440 IF A GOTO 20:ON A GOTO 1, 2
450 "A" CLS:WAIT 0:CURSOR 4,1:INPUT "N?";N
460 DIM A$(5)*3,B(2,2):A$(1)="!#$%&?@"
65279 END
"""


@pytest.fixture(scope="module")
def ready(rom_dir):
    m = PC1360(rom_dir=rom_dir)
    m.key_wait_ready(5)
    m.type_keys("Y")
    m.key_wait_ready()
    m.type_keys("{MODE}")
    return m, m.snapshot()


def typed_image(ready, lines):
    """Type `lines` into a machine with an empty program; the stored program image."""
    m, snap = ready
    m.restore(snap)
    for line in lines:
        m.type_keys(line + "{ENTER}")
    m.key_wait_ready()
    start, end = m.peek_word(0xFFD7), m.peek_word(0xFFD9)
    return bytes(m.mem[start + 1:end])


def differences(ready, source):
    lines = [line for line in source.splitlines() if line.strip()]
    firmware = {line.number: line.body for line in split_image(typed_image(ready, lines))}
    ours = {line.number: line.body for line in split_image(tokenize(source))}
    assert sorted(firmware) == sorted(ours)
    return {n: (firmware[n], ours[n]) for n in ours if firmware[n] != ours[n]}


def keyword_lines():
    names = [k.name for k in KEYWORDS if k.name not in ("REM", "DATA") and k.name not in UNTYPED_KEYWORDS]
    lines, current = [], []
    for name in names:
        if len(":".join(current + [name])) > 60:
            lines.append(current)
            current = []
        current.append(name)
    return lines + [current]


def test_every_keyword_typed_is_stored_as_its_token(ready):
    source = "".join(f"{10 * (i + 1)} {':'.join(group)}\n" for i, group in enumerate(keyword_lines()))
    assert differences(ready, source) == {}


def test_untyped_keywords_are_those_flagged_8_or_more():
    assert set(UNTYPED_KEYWORDS) == {k.name for k in KEYWORDS if k.flag >= 8}


def test_untyped_keywords_are_stored_as_letters(ready):
    names = sorted(UNTYPED_KEYWORDS)
    image = typed_image(ready, [f"{10 * (i + 1)} A={name}" for i, name in enumerate(names)])
    assert [line.body for line in split_image(image)] == [b"A=" + UNTYPED_KEYWORDS[n] for n in names]


def test_tokenizer_stores_untyped_keywords_as_letters():
    for name, stored in UNTYPED_KEYWORDS.items():
        assert split_image(tokenize(f"10 A={name}"))[0].body == b"A=" + stored


def test_line_numbers_stay_digits_after_run_list_chain_delete_renum(ready):
    image = typed_image(ready, list(DIGITS_KEPT))
    assert [line.body for line in split_image(image)] == list(DIGITS_KEPT.values())


def test_tokenizer_keeps_digits_after_run_list_chain_delete_renum():
    assert [line.body for line in split_image(tokenize("\n".join(DIGITS_KEPT)))] == list(DIGITS_KEPT.values())


def test_own_program_line_numbers_constants_strings_and_abbreviations(ready):
    assert differences(ready, OWN_PROGRAM) == {}


def _typable(line):
    try:
        parse(line)
    except KeyScriptError:
        return False
    return line == line.upper() and "{" not in line


def corpus_sample(path, count=6):
    """A few typable lines (numbered, at most 79 characters, capitals) spread over the file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = [line.rstrip() for line in text.splitlines() if re.match(r"\s*\d+", line)]
    lines = [line for line in lines if len(line) <= 79 and _typable(line)]
    step = max(1, len(lines) // count)
    return lines[::step][:count]


@pytest.mark.parametrize("name", ["alcatraz_1360.bas", "prolly_1360.bas", "sio1360.bas"])
def test_corpus_lines_typed_match_the_tokenizer(ready, corpus_dir, name):
    path = corpus_dir / name
    if not path.exists():
        pytest.skip(f"{name} not in the corpus")
    sample = corpus_sample(path)
    assert sample
    assert differences(ready, "\n".join(sample) + "\n") == {}

"""Every line of the four games fits the calculator's input line in its listed form:
`pc1360 send` transfers a program as its listing, and LOAD cuts a line longer than the
input line (tests/emulator/builtin/test_basic_serial.py loads Kniffel that way). And the
listing reads as the source does: a variable name never runs into the keyword after it
(`IF MG CURSOR 72` is stored, and run, as `IF M GCURSOR 72`)."""

import re
from pathlib import Path

import pytest

from pc1360.image import MAX_TYPED
from pc1360.listing import list_line
from pc1360.tokenizer import parse_program

BASIC_SRC = Path(__file__).resolve().parents[2] / "basic_src"
GAMES = ["kniffel", "yahtzee", "mikazee", "mishimash"]
WORD = re.compile(r"[A-Z][A-Z$]+")  # keywords and two-letter names, strings taken out
STRING = re.compile(r'"[^"]*"')


def program(game):
    return parse_program((BASIC_SRC / f"{game}.bas").read_text(encoding="utf-8"))


def source_bodies(game):
    rows = (BASIC_SRC / f"{game}.bas").read_text(encoding="utf-8").splitlines()
    return dict((int(number), body) for number, body in (row.split(" ", 1) for row in rows))


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_line_fits_the_input_line(game):
    lines = program(game).lines
    assert [text for text in map(list_line, lines) if len(text) > MAX_TYPED] == []


@pytest.mark.parametrize("game", GAMES)
def test_the_listing_has_the_words_of_the_source(game):
    bodies = source_bodies(game)
    merged = []
    for line in program(game).lines:
        body = bodies[line.number]
        if body.startswith(("REM", "DATA")):
            continue
        listed = list_line(line).split(":", 1)[1].replace("#", "")  # PRINT#, INPUT# list apart
        words = set(WORD.findall(STRING.sub("", listed)))
        merged += [(line.number, word) for word in words - set(WORD.findall(STRING.sub("", body)))]
    assert merged == []

"""Kniffel, the program every new card holds, fits the calculator's input line in its
listed form, line by line: `pc1360 send` transfers a program as its listing, and LOAD
cuts a line longer than the input line (tests/emulator/builtin/test_basic_serial.py
loads Kniffel that way). (Mikazee, MISHIMASH and Yahtzee still have such lines.)"""

from pathlib import Path

from pc1360.image import MAX_TYPED
from pc1360.listing import list_line
from pc1360.tokenizer import parse_program

KNIFFEL = Path(__file__).resolve().parents[2] / "basic_src" / "kniffel.bas"


def test_every_listed_line_of_kniffel_fits_the_input_line():
    lines = parse_program(KNIFFEL.read_text()).lines
    assert [text for text in map(list_line, lines) if len(text) > MAX_TYPED] == []

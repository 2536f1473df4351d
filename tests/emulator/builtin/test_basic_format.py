"""How the built-in engine shows numbers (emulator/builtin/bcd.py format_number)."""

from decimal import Decimal as D

import pytest

from emulator.builtin import bcd


@pytest.mark.parametrize("value,text", [
    # the firmware's own screens (docs/basic_language.md §1.2)
    (bcd.add(D(1), D(1)), "2."),
    (bcd.PI, "3.141592654"),
    (bcd.sqr(D(2)), "1.414213562"),
    (bcd.div(D(1), D(3)), "3.333333333E-01"),
    (bcd.sin(D(30), bcd.DEG), "0.5"),
    (bcd.power(D(2), D(10)), "1024."),
    (bcd.exp(D(1)), "2.718281828"),
])
def test_firmware_screens(value, text):
    assert bcd.format_number(value) == text


@pytest.mark.parametrize("value,text", [
    ("0", "0."),
    ("-12.5", "-12.5"),
    ("9999999999", "9999999999."),
    ("0.123456789", "0.123456789"),
    ("-0.001", "-0.001"),
    ("1E-20", "1.E-20"),
    ("-2.5E-30", "-2.5E-30"),
])
def test_formats(value, text):
    assert bcd.format_number(D(value)) == text


def test_large_numbers_use_e_notation():
    # the blank before a positive exponent is assumed (bcd.EXP_PLUS)
    assert bcd.format_number(D("1E10")) == f"1.E{bcd.EXP_PLUS}10"
    assert bcd.format_number(D("-1.5E99")) == f"-1.5E{bcd.EXP_PLUS}99"


def test_str_form_drops_the_trailing_point():
    assert bcd.str_number(D(2)) == "2"
    assert bcd.str_number(D("0.5")) == "0.5"


@pytest.mark.parametrize("text,value", [
    ("1", "1"), ("1.5E3", "1500"), (".5", "0.5"), ("&4B8", "1208"), ("&FF", "255"),
    ("12345678901", "12345678900"), ("1E-100", "0"),
])
def test_parse_number(text, value):
    assert bcd.parse_number(text) == D(value)


@pytest.mark.parametrize("text", ["&", "&G", "&12345", "1E", "abc"])
def test_parse_rejects_non_numbers(text):
    assert bcd.parse_number(text) is None

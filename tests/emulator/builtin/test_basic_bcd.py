"""The built-in engine's numbers: stored bytes, arithmetic, functions (emulator/builtin/bcd.py)."""

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.builtin import bcd
from emulator.builtin.basic_errors import CALC, BasicError

# Fitted machine numbers: 10 significant digits, exponent -99..99.
numbers = st.builds(
    lambda sign, mant, exp: bcd.fit(D(f"{sign}{mant}E{exp}")),
    st.sampled_from(["", "-"]), st.integers(1, 9999999999), st.integers(-99, 90))


def test_stored_bytes_match_the_firmware_for_a_equals_1():
    # docs/stored_format.md §4.1: A=1 leaves 00 00 10 00 00 00 00 00 at 0xFA98
    assert bcd.to_bytes(D(1)) == bytes.fromhex("0000100000000000")


def test_stored_bytes_match_the_firmware_for_minus_12_5():
    # docs/stored_format.md §4.1: Z=-12.5 leaves 00 18 12 50 00 00 00 00 at 0xF9D0
    assert bcd.to_bytes(D("-12.5")) == bytes.fromhex("0018125000000000")


def test_zero_is_all_zero_bytes():
    assert bcd.to_bytes(D(0)) == bytes(8)
    assert bcd.from_bytes(bytes(8)) == 0


@pytest.mark.parametrize("value,stored", [
    # what the firmware engine leaves in RAM for these assignments
    ("0.5", "9990500000000000"), ("-0.00125", "9978125000000000"),
    ("1E-99", "9010100000000000"), ("9.999999999E99", "0990999999999900"),
    ("12345.67891", "0040123456789100"),
])
def test_stored_bytes_match_the_firmware(value, stored):
    assert bcd.to_bytes(D(value)) == bytes.fromhex(stored)


@given(numbers)
def test_bytes_round_trip(value):
    assert bcd.from_bytes(bcd.to_bytes(value)) == value


@given(st.binary(min_size=8, max_size=8))
def test_any_bytes_decode_without_raising(data):
    value = bcd.from_bytes(data)
    assert value == bcd.fit(value)


def test_arithmetic_keeps_two_guard_digits():
    assert bcd.div(D(1), D(3)) == D("0.333333333333")
    assert bcd.div(D(2), D(3)) == D("0.666666666666")          # division cuts
    assert bcd.add(D("1E10"), D("0.4")) == D("10000000000.4")
    assert bcd.mul(D("99999"), D("99999")) == D("9999800001")


@pytest.mark.parametrize("compute,shown", [
    # what the firmware engine shows for these calculations
    (lambda: bcd.sub(bcd.PI, D("3.141592654")), "-4.1E-10"),
    (lambda: bcd.sub(bcd.div(D(2), D(3)), D("0.6666666667")), "-3.4E-11"),
    (lambda: bcd.sub(bcd.add(bcd.add(bcd.div(D(1), D(3)), bcd.div(D(1), D(3))),
                             bcd.div(D(1), D(3))), D(1)), "0."),
    (lambda: bcd.sub(bcd.mul(bcd.div(D(2), D(3)), D(3)), D(2)), "0."),
    (lambda: bcd.sub(bcd.sqr(D(2)), D("1.414213562")), "3.7E-10"),
    (lambda: bcd.sub(bcd.mul(bcd.div(D(7), D(3)), D(1)), D("2.333333333")), "3.3E-10"),
    (lambda: bcd.sub(bcd.from_bytes(bcd.to_bytes(bcd.div(D(2), D(3)))), D("0.6666666667")),
     "0."),
    # SQR and * cut at 12 digits (tests/faithful/cases/MATH_precision_*.toml)
    (lambda: bcd.sub(bcd.sqr(D(5)), D("2.236067977")), "4.9E-10"),
    (lambda: bcd.sub(bcd.sqr(D(3)), D("1.732050808")), "-4.4E-10"),
    (lambda: bcd.sub(bcd.mul(D("1.42"), D("1.234567891")), D("1.753086405")), "2.2E-10"),
    # the smaller addend loses the digits shifted out of the 12-digit window
    (lambda: bcd.sub(bcd.add(D("1.42"), D("1.234567891E-5")), D("1.420012346")), "-3.3E-10"),
    (lambda: bcd.sub(bcd.sub(D("1.42"), D("1.234567891E-5")), D("1.419987654")), "3.3E-10"),
    # a difference below the window's 11th digit is 0; at the 11th it is kept
    (lambda: bcd.sub(bcd.sqr(D("15.12")), D("3.888444419")), "0."),
    (lambda: bcd.sub(bcd.div(D(1), D(3)), D(".3333333333")), "3.3E-11"),
    # LN is LOG / 0.434294481903
    (lambda: bcd.sub(bcd.ln(D("12.38")), D("2.516082267")), "2.4E-10"),
    (lambda: bcd.sub(bcd.log(D("17.86")), D("1.251881454")), "5.5E-10"),
])
def test_guard_digits_match_the_firmware(compute, shown):
    assert bcd.format_number(compute()) == shown


def test_literals_keep_ten_digits_and_stores_round():
    assert bcd.parse_number("0.99999999999") == D("0.9999999999")
    assert bcd.stored(D("0.666666666666")) == D("0.6666666667")


def test_basic_operations():
    assert bcd.add(D(1), D(1)) == 2
    assert bcd.sub(D(1), D(3)) == -2
    assert bcd.mul(D("2.5"), D(4)) == 10
    assert bcd.power(D(2), D(10)) == 1024
    assert bcd.power(D(-2), D(3)) == -8
    assert bcd.power(D(4), D("0.5")) == 2
    assert bcd.power(D(2), D(-1)) == D("0.5")


@pytest.mark.parametrize("call", [
    lambda: bcd.div(D(1), D(0)),
    lambda: bcd.power(D(0), D(0)),
    lambda: bcd.power(D(-8), D("0.5")),
    lambda: bcd.mul(D("1E60"), D("1E60")),
    lambda: bcd.sqr(D(-1)),
    lambda: bcd.ln(D(0)),
    lambda: bcd.log(D(-1)),
    lambda: bcd.exp(D(300)),
    lambda: bcd.asn(D(2), bcd.DEG),
    lambda: bcd.tan(D(90), bcd.DEG),
    lambda: bcd.power(D(10), D("1E20")),
])
def test_calculation_errors_are_error_2(call):
    with pytest.raises(BasicError) as err:
        call()
    assert err.value.code == CALC


def test_underflow_flushes_to_zero():
    assert bcd.mul(D("1E-60"), D("1E-60")) == 0
    assert bcd.exp(D(-1000)) == 0


def test_int_abs_sgn():
    assert bcd.int_(D("2.5")) == 2
    assert bcd.int_(D("-2.5")) == -3
    assert bcd.abs_(D("-3")) == 3
    assert [bcd.sgn(D(x)) for x in (-5, 0, 7)] == [-1, 0, 1]


def test_roots_logs_and_exponentials_match_the_firmware():
    assert bcd.stored(bcd.sqr(D(2))) == D("1.414213562")      # docs/basic_language.md §1.1
    assert bcd.stored(bcd.exp(D(1))) == D("2.718281828")      # docs/basic_language.md §1.1
    assert bcd.stored(bcd.ln(D(10))) == D("2.302585093")
    assert bcd.log(D(1000)) == 3


@pytest.mark.parametrize("func,arg,mode,expected", [
    (bcd.sin, "30", bcd.DEG, "0.5"),               # docs/basic_language.md §1.1
    (bcd.cos, "90", bcd.DEG, "0"),
    (bcd.cos, "60", bcd.DEG, "0.5"),
    (bcd.sin, "-270", bcd.DEG, "1"),
    (bcd.tan, "45", bcd.DEG, "1"),
    (bcd.sin, "100", bcd.GRAD, "1"),
    (bcd.sin, "1", bcd.RAD, "0.8414709848"),
    (bcd.sin, "3.14159265359", bcd.RAD, "0"),      # the machine's PI (TRIG_radian_multiples_of_pi)
    (bcd.atn, "1", bcd.DEG, "45"),
    (bcd.atn, "1", bcd.RAD, "0.7853981634"),
    (bcd.atn, "-1E50", bcd.DEG, "-90"),
    (bcd.asn, "0.5", bcd.DEG, "30"),
    (bcd.asn, "1", bcd.GRAD, "100"),
    (bcd.acs, "0.5", bcd.DEG, "60"),
    (bcd.acs, "-1", bcd.DEG, "180"),
    (bcd.acs, "0", bcd.RAD, "1.570796327"),
])
def test_trigonometry(func, arg, mode, expected):
    assert bcd.stored(func(D(arg), mode)) == D(expected)


def test_huge_angle_is_an_error():
    with pytest.raises(BasicError):
        bcd.sin(D("1E20"), bcd.RAD)


def test_deg_and_dms_convert_sexagesimal():
    assert bcd.deg(D("10.3")) == D("10.5")
    assert bcd.dms(D("10.5")) == D("10.3")
    assert bcd.stored(bcd.deg(D("-1.3030"))) == D("-1.508333333")


@given(numbers, numbers)
def test_operations_never_leak_python_errors(a, b):
    for op in (bcd.add, bcd.sub, bcd.mul, bcd.div, bcd.power):
        try:
            result = op(a, b)
        except BasicError:
            continue
        assert result == bcd.fit(result)

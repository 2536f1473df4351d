"""Variables as bytes in RAM (emulator/builtin/vars.py)."""

from decimal import Decimal as D

import pytest

from emulator.builtin import vars as v
from emulator.builtin.basic_errors import ILLEGAL, MEMORY, OTHER, BasicError


@pytest.fixture
def variables():
    mem = bytearray(65536)
    mem[0xFFD9:0xFFDB] = (0x8031).to_bytes(2, "little")    # empty program's end
    variables = v.Variables(mem)
    variables.clear()
    return variables


def test_fixed_variables_sit_where_the_firmware_keeps_them(variables):
    variables.store(variables.fixed(ord("A"), False), D(1))
    variables.store(variables.fixed(ord("Z"), False), D("-12.5"))
    mem = variables.mem
    # docs/stored_format.md §4.1
    assert mem[0xFA98:0xFAA0] == bytes.fromhex("0000100000000000")
    assert mem[0xF9D0:0xF9D8] == bytes.fromhex("0018125000000000")


def test_a_dollar_and_a_of_1_share_a(variables):
    ref = variables.fixed(ord("A"), False)
    assert variables.fixed_index(1, False) == ref
    assert variables.fixed_index(26, False) == variables.fixed(ord("Z"), False)
    variables.store(variables.fixed(ord("A"), True), b"HELLO")
    assert variables.load(variables.fixed_index(1, True)) == b"HELLO"
    assert variables.mem[0xFA98] == v.STRING_MARK
    with pytest.raises(BasicError) as err:
        variables.load(ref)                       # a string read as a number
    assert err.value.code == OTHER


def test_fixed_strings_hold_seven_characters(variables):
    ref = variables.fixed(ord("B"), True)
    variables.store(ref, b"ABCDEFGHIJ")
    assert variables.load(ref) == b"ABCDEFG"
    assert variables.load(variables.fixed(ord("C"), True)) == b""    # never set


def test_fixed_index_zero_is_an_error(variables):
    with pytest.raises(BasicError) as err:
        variables.fixed_index(0, False)
    assert err.value.code == ILLEGAL


def test_a_of_27_and_up_continue_below_z_like_the_firmware(variables):
    variables.store(variables.fixed_index(27, False), D(5))
    assert variables.fixed_index(27, False)[0] == 0xF9C8
    variables.store(variables.fixed_index(28, False), D(6))
    # the firmware engine's RAM after A(27)=5 and A(28)=6
    assert variables.dim_pointer() == 0xF9B9
    assert variables.mem[0xF9B9:0xF9D0] == bytes.fromhex(
        "40000013000008" "0000600000000000" "0000500000000000")
    assert variables.load(variables.fixed_index(27, False)) == 5


def test_two_character_number_gets_a_header_below_0xf9d0(variables):
    assert variables.simple(b"AB", False, create=False) is None
    ref = variables.simple(b"AB", False, create=True)
    variables.store(ref, D(7))
    header = variables.dim_pointer()
    assert header == 0xF9D0 - 7 - 8
    assert variables.mem[header:header + 7] == bytes([0x41, 0x42, 0, 11, 0, 0, 8])
    assert variables.load(variables.simple(b"AB", False, create=False)) == 7


def test_two_character_string_is_16_long(variables):
    ref = variables.simple(b"N1", True, create=True)
    variables.store(ref, b"X" * 20)
    assert variables.load(ref) == b"X" * 16
    assert variables.mem[variables.dim_pointer() + 1] == ord("1") + 64


def test_arrays(variables):
    variables.dim(b"A", False, [5])
    variables.dim(b"B", True, [2, 3], 4)
    assert variables.element(b"C", False, [0]) is None
    variables.store(variables.element(b"A", False, [5]), D(3))
    variables.store(variables.element(b"B", True, [2, 3]), b"WXYZQ")
    assert variables.load(variables.element(b"A", False, [5])) == 3
    assert variables.load(variables.element(b"B", True, [2, 3])) == b"WXYZ"
    header = variables.dim_pointer()
    # the firmware engine's header: last dimension first (DIM B$(2,3)*4 -> 3, 2, 4)
    assert variables.mem[header:header + 7] == bytes([0x42, 160, 0, 3 + 48, 3, 2, 4])
    with pytest.raises(BasicError):
        variables.element(b"A", False, [6])
    with pytest.raises(BasicError):
        variables.element(b"B", True, [1])


def test_dim_a_dollar_is_separate_from_fixed_a_dollar(variables):
    variables.store(variables.fixed(ord("A"), True), b"FIXED")
    variables.dim(b"A", True, [3])
    variables.store(variables.element(b"A", True, [1]), b"ARRAY")
    assert variables.load(variables.fixed(ord("A"), True)) == b"FIXED"


def test_dim_twice_is_an_error(variables):
    variables.dim(b"XY", False, [3])
    with pytest.raises(BasicError) as err:
        variables.dim(b"XY", False, [3])
    assert err.value.code == ILLEGAL


def test_clear_forgets_dim_variables(variables):
    variables.dim(b"XY", False, [3])
    variables.clear()
    assert variables.element(b"XY", False, [0]) is None
    variables.dim(b"Q", False, [3])           # same header address, new name
    assert variables.element(b"XY", False, [0]) is None
    assert variables.element(b"Q", False, [0]) is not None


def test_memory_overflow(variables):
    with pytest.raises(BasicError) as err:
        variables.dim(b"A", False, [255, 255])
    assert err.value.code == MEMORY


def test_a_damaged_chain_does_not_raise(variables):
    variables.dim(b"XY", False, [3])
    variables.mem[variables.dim_pointer() + 2] = 0xFF
    variables.invalidate()
    assert variables.element(b"QQ", False, [0]) is None

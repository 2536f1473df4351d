"""One test per SC61860 opcode (or more), each through `run_op`: poison memory and
internal RAM with 0xAA, set the inputs, step once, then compare the whole state so
that every change must be expected and nothing else may change (the harness is
tests/helpers/cpu_harness.py)."""

import pytest

from tests.helpers.cpu_harness import ORG, run_op

# ---- loads ------------------------------------------------------------------------

@pytest.mark.parametrize("op, reg", [(0x00, "I"), (0x01, "J"), (0x02, "A"), (0x03, "B")])
def test_lii_lij_lia_lib_load_the_operand(op, reg):
    run_op([op, 0x5A], {reg: 0x5A}, pc=ORG + 2, cycles=4)


def test_lii_loads_i():
    run_op([0x00, 0x07], {"I": 7}, pc=ORG + 2, cycles=4)


def test_lij_loads_j():
    run_op([0x01, 0x00], {"J": 0}, pc=ORG + 2, cycles=4)


def test_lia_loads_a():
    run_op([0x02, 0xFF], {"A": 0xFF}, pc=ORG + 2, cycles=4)


def test_lib_loads_b():
    run_op([0x03, 0x12], {"B": 0x12}, pc=ORG + 2, cycles=4)


def test_lidp_loads_dp_high_byte_first():
    run_op([0x10, 0x12, 0x34], {"dp": 0x1234}, pc=ORG + 3, cycles=8)


def test_lidl_replaces_only_the_low_byte():
    run_op([0x11, 0x34], {"dp": 0x5634}, setup={"dp": 0x5678}, pc=ORG + 2, cycles=5)


def test_lip_masks_to_7_bits():
    run_op([0x12, 0xC5], {"p": 0x45}, pc=ORG + 2, cycles=4)


def test_liq_masks_to_7_bits():
    run_op([0x13, 0xFF], {"q": 0x7F}, pc=ORG + 2, cycles=4)


@pytest.mark.parametrize("op", [0x80, 0x95, 0xBF])
def test_lp_takes_p_from_the_opcode(op):
    run_op([op], {"p": op & 0x3F}, pc=ORG + 1, cycles=2)


def test_ldp_copies_p_to_a():
    run_op([0x20], {"A": 0x7F}, setup={"p": 0x7F}, pc=ORG + 1, cycles=2)


def test_ldq_copies_q_to_a():
    run_op([0x21], {"A": 0x05}, setup={"q": 0x05}, pc=ORG + 1, cycles=2)


def test_ldr_copies_r_to_a():
    run_op([0x22], {"A": 0x5B}, setup={"r": 0x5B}, pc=ORG + 1, cycles=2)


def test_clra_clears_a_without_flags():
    run_op([0x23], {"A": 0}, pc=ORG + 1, cycles=2)


def test_stp_masks_a_to_7_bits():
    run_op([0x30], {"p": 0x01}, setup={"A": 0x81}, pc=ORG + 1, cycles=2)


def test_stq_masks_a_to_7_bits():
    run_op([0x31], {"q": 0x7F}, setup={"A": 0xFF}, pc=ORG + 1, cycles=2)


def test_str_masks_a_to_7_bits():
    run_op([0x32], {"r": 0x5C}, setup={"A": 0xDC}, pc=ORG + 1, cycles=2)


def test_incp_wraps_at_0x7f():
    run_op([0x50], {"p": 0x00}, setup={"p": 0x7F}, pc=ORG + 1, cycles=2)


def test_decp_wraps_at_0x00():
    run_op([0x51], {"p": 0x7F}, setup={"p": 0x00}, pc=ORG + 1, cycles=2)


# ---- X and Y ------------------------------------------------------------------------

def test_ix_increments_x_into_dp_and_sets_q_5():
    run_op([0x04], {"X": 0x1300, "dp": 0x1300, "q": 5}, setup={"X": 0x12FF},
           pc=ORG + 1, cycles=6)


def test_dx_decrements_x_with_16_bit_wrap():
    run_op([0x05], {"X": 0xFFFF, "dp": 0xFFFF, "q": 5}, setup={"X": 0x0000},
           pc=ORG + 1, cycles=6)


def test_iy_increments_y_into_dp_and_sets_q_7():
    run_op([0x06], {"Y": 0x0000, "dp": 0x0000, "q": 7}, setup={"Y": 0xFFFF},
           pc=ORG + 1, cycles=6)


def test_dy_decrements_y():
    run_op([0x07], {"Y": 0x80FF, "dp": 0x80FF, "q": 7}, setup={"Y": 0x8100},
           pc=ORG + 1, cycles=6)


def test_ixl_loads_a_from_the_incremented_x():
    run_op([0x24], {"X": 0x9001, "dp": 0x9001, "q": 5, "A": 0x42},
           setup={"X": 0x9000, "mem": {0x9001: 0x42}}, pc=ORG + 1, cycles=7)


def test_dxl_loads_a_from_the_decremented_x():
    run_op([0x25], {"X": 0x8FFF, "dp": 0x8FFF, "q": 5, "A": 0x17},
           setup={"X": 0x9000, "mem": {0x8FFF: 0x17}}, pc=ORG + 1, cycles=7)


def test_iys_stores_a_at_the_incremented_y():
    run_op([0x26], {"Y": 0x9001, "dp": 0x9001, "q": 7, "mem": {0x9001: 0x33}},
           setup={"Y": 0x9000, "A": 0x33}, pc=ORG + 1, cycles=7)


def test_dys_stores_a_at_the_decremented_y():
    run_op([0x27], {"Y": 0x8FFF, "dp": 0x8FFF, "q": 7, "mem": {0x8FFF: 0x00}},
           setup={"Y": 0x9000, "A": 0x00}, pc=ORG + 1, cycles=7)


def test_iys_below_write_floor_goes_to_the_bus():
    cpu, bus = run_op([0x26], {"Y": 0x2801, "dp": 0x2801, "q": 7},
                      setup={"Y": 0x2800, "A": 0x33, "write_floor": 0x8000},
                      pc=ORG + 1, cycles=7)
    assert bus.calls == [("write", 0x2801, 0x33, 0)]


# ---- single-byte transfers ----------------------------------------------------------

def test_ldm_loads_a_from_p():
    run_op([0x59], {"A": 0x99}, setup={"p": 0x70, "iram": {0x70: 0x99}},
           pc=ORG + 1, cycles=2)


def test_ldd_loads_a_from_dp():
    run_op([0x57], {"A": 0x12}, setup={"dp": 0x1000, "mem": {0x1000: 0x12}},
           pc=ORG + 1, cycles=3)


def test_mvmd_copies_dp_to_p():
    run_op([0x55], {"iram": {0x10: 0x34}}, setup={"p": 0x10, "dp": 0x9000,
                                                   "mem": {0x9000: 0x34}},
           pc=ORG + 1, cycles=3)


def test_std_stores_a_at_dp():
    run_op([0x52], {"mem": {0x9000: 0x56}}, setup={"dp": 0x9000, "A": 0x56},
           pc=ORG + 1, cycles=2)


def test_std_below_write_floor_calls_bus_write():
    cpu, bus = run_op([0x52], setup={"dp": 0x3400, "A": 0x03, "write_floor": 0x8000},
                      pc=ORG + 1, cycles=2)
    assert bus.calls == [("write", 0x3400, 0x03, 0)]


def test_mvdm_stores_p_at_dp():
    run_op([0x53], {"mem": {0x9000: 0x61}}, setup={"dp": 0x9000, "p": 0x21,
                                                    "iram": {0x21: 0x61}},
           pc=ORG + 1, cycles=3)


def test_read_loads_a_from_the_next_byte_and_is_one_byte_long():
    run_op([0x56, 0x4D], {"A": 0x4D}, pc=ORG + 1, cycles=3)


def test_readm_loads_p_from_the_next_byte_and_is_one_byte_long():
    run_op([0x54, 0x4D], {"iram": {0x30: 0x4D}}, setup={"p": 0x30}, pc=ORG + 1, cycles=3)


def test_exab_swaps_a_and_b():
    run_op([0xDA], {"A": 0x02, "B": 0x01}, setup={"A": 0x01, "B": 0x02},
           pc=ORG + 1, cycles=3)


def test_exam_swaps_a_and_p():
    run_op([0xDB], {"A": 0x20, "iram": {0x40: 0x10}},
           setup={"A": 0x10, "p": 0x40, "iram": {0x40: 0x20}}, pc=ORG + 1, cycles=3)


def test_swp_swaps_nibbles():
    run_op([0x58], {"A": 0x21}, setup={"A": 0x12}, pc=ORG + 1, cycles=2)


# ---- stack, calls, jumps --------------------------------------------------------------

def test_push_predecrements_r():
    run_op([0x34], {"r": 0x5B, "iram": {0x5B: 0x77}}, setup={"r": 0x5C, "A": 0x77},
           pc=ORG + 1, cycles=3)


def test_push_wraps_r_below_zero():
    run_op([0x34], {"r": 0x7F, "iram": {0x7F: 0x01}}, setup={"r": 0x00, "A": 0x01},
           pc=ORG + 1, cycles=3)


def test_pop_postincrements_r():
    run_op([0x5B], {"r": 0x5C, "A": 0x77}, setup={"r": 0x5B, "iram": {0x5B: 0x77}},
           pc=ORG + 1, cycles=2)


def test_pop_wraps_r_above_0x7f():
    run_op([0x5B], {"r": 0x00, "A": 0x05}, setup={"r": 0x7F, "iram": {0x7F: 0x05}},
           pc=ORG + 1, cycles=2)


def test_leave_zeroes_the_stack_top():
    run_op([0xD8], {"iram": {0x50: 0}}, setup={"r": 0x50}, pc=ORG + 1, cycles=2)


def test_call_pushes_high_then_low_and_jumps():
    # CALL 0x1234 at 0x8100: return address 0x8103
    run_op([0x78, 0x12, 0x34], {"r": 0x5A, "iram": {0x5B: 0x81, 0x5A: 0x03}},
           setup={"r": 0x5C}, pc=0x1234, cycles=8)


def test_call_wraps_r():
    run_op([0x78, 0x12, 0x34], {"r": 0x7F, "iram": {0x00: 0x81, 0x7F: 0x03}},
           setup={"r": 0x01}, pc=0x1234, cycles=8)


@pytest.mark.parametrize("op, target", [(0xE0, 0x00FE), (0xF5, 0x15FE), (0xFF, 0x1FFE)])
def test_cal_calls_a_13_bit_address(op, target):
    run_op([op, 0xFE], {"r": 0x5A, "iram": {0x5B: 0x81, 0x5A: 0x02}},
           setup={"r": 0x5C}, pc=target, cycles=7)


def test_rtn_pops_low_then_high():
    run_op([0x37], {"r": 0x5C}, setup={"r": 0x5A, "iram": {0x5A: 0x03, 0x5B: 0x81}},
           pc=0x8103, cycles=4)


def test_rtn_wraps_r():
    run_op([0x37], {"r": 0x01}, setup={"r": 0x7F, "iram": {0x7F: 0x34, 0x00: 0x12}},
           pc=0x1234, cycles=4)


def test_jp_jumps():
    run_op([0x79, 0x40, 0x00], pc=0x4000, cycles=6)


@pytest.mark.parametrize("op, flag, value", [
    (0x7C, "z", 0), (0x7E, "z", 1), (0x7D, "c", 0), (0x7F, "c", 1)])
def test_jpnz_jpz_jpnc_jpc_taken_and_not_taken(op, flag, value):
    run_op([op, 0x40, 0x00], setup={flag: value}, pc=0x4000, cycles=6)
    run_op([op, 0x40, 0x00], setup={flag: 1 - value}, pc=ORG + 3, cycles=6)


def test_jpnz_not_taken_when_z():
    run_op([0x7C, 0x40, 0x00], setup={"z": 1}, pc=ORG + 3, cycles=6)


def test_jpz_taken_when_z():
    run_op([0x7E, 0x40, 0x00], setup={"z": 1}, pc=0x4000, cycles=6)


def test_jpnc_taken_when_no_carry():
    run_op([0x7D, 0x40, 0x00], setup={"c": 0}, pc=0x4000, cycles=6)


def test_jpc_not_taken_without_carry():
    run_op([0x7F, 0x40, 0x00], setup={"c": 0}, pc=ORG + 3, cycles=6)


def test_jrp_counts_from_the_offset_byte():
    run_op([0x2C, 0x10], pc=ORG + 1 + 0x10, cycles=7)


def test_jrm_counts_from_the_offset_byte():
    run_op([0x2D, 0x10], pc=ORG + 1 - 0x10, cycles=7)


def test_jrm_one_jumps_to_itself():
    run_op([0x2D, 0x01], pc=ORG, cycles=7)


@pytest.mark.parametrize("op, flag, value, forward", [
    (0x28, "z", 0, True), (0x29, "z", 0, False), (0x38, "z", 1, True), (0x39, "z", 1, False),
    (0x2A, "c", 0, True), (0x2B, "c", 0, False), (0x3A, "c", 1, True), (0x3B, "c", 1, False)])
def test_jr_conditions_taken_7_not_taken_4(op, flag, value, forward):
    target = ORG + 1 + 5 if forward else ORG + 1 - 5
    run_op([op, 5], setup={flag: value}, pc=target, cycles=7)
    run_op([op, 5], setup={flag: 1 - value}, pc=ORG + 2, cycles=4)


def test_jrnzp_taken_without_z():
    run_op([0x28, 0x01], setup={"z": 0}, pc=ORG + 2, cycles=7)


def test_jrnzm_not_taken_with_z():
    run_op([0x29, 0x03], setup={"z": 1}, pc=ORG + 2, cycles=4)


def test_jrzp_taken_with_z():
    run_op([0x38, 0x05], setup={"z": 1}, pc=ORG + 6, cycles=7)


def test_jrzm_taken_with_z():
    run_op([0x39, 0x03], setup={"z": 1}, pc=ORG - 2, cycles=7)


def test_jrncp_not_taken_with_carry():
    run_op([0x2A, 0x01], setup={"c": 1}, pc=ORG + 2, cycles=4)


def test_jrncm_taken_without_carry():
    run_op([0x2B, 0xFF], setup={"c": 0}, pc=ORG + 1 - 0xFF, cycles=7)


def test_jrcp_taken_with_carry():
    run_op([0x3A, 0xFF], setup={"c": 1}, pc=ORG + 1 + 0xFF, cycles=7)


def test_jrcm_not_taken_without_carry():
    run_op([0x3B, 0x07], setup={"c": 0}, pc=ORG + 2, cycles=4)


def test_jrm_wraps_below_0x0000():
    cpu, _ = run_op([0x2D, 0x10], org=0x0004, pc=0xFFF5, cycles=7)


def test_jrp_wraps_above_0xffff():
    run_op([0x2C, 0x10], org=0xFFF8, pc=0x0009, cycles=7)

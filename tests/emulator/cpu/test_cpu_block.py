"""Block, string, BCD and table instructions, LOOP, the Xin waits, and the run loop."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.cpu_harness import ORG, FakeBus, make_cpu, run_op

# ---- internal RAM block moves -------------------------------------------------------

def test_mvw_copies_i_plus_1_bytes_up_from_q_to_p():
    run_op([0x08], {"iram": {0x20: 1, 0x21: 2, 0x22: 3}, "p": 0x23, "q": 0x33},
           setup={"I": 2, "p": 0x20, "q": 0x30, "iram": {0x30: 1, 0x31: 2, 0x32: 3}},
           pc=ORG + 1, cycles=5 + 2 * 2)


def test_mvw_p_and_q_wrap_at_0x7f():
    run_op([0x08], {"iram": {0x7F: 1, 0x00: 2}, "I": 2, "p": 0x01, "q": 0x42},
           setup={"I": 1, "p": 0x7F, "q": 0x40, "iram": {0x40: 1, 0x41: 2}},
           pc=ORG + 1, cycles=5 + 2)


def test_mvw_onto_its_own_source_one_up_repeats_the_first_byte():
    # byte by byte upwards: each byte read was written just before
    run_op([0x08], {"iram": {0x21: 7, 0x22: 7, 0x23: 7}, "p": 0x24, "q": 0x23},
           setup={"I": 2, "p": 0x21, "q": 0x20, "iram": {0x20: 7, 0x21: 8, 0x22: 9}},
           pc=ORG + 1, cycles=5 + 2 * 2)


def test_mvw_onto_its_own_source_one_down_shifts_the_bytes():
    run_op([0x08], {"iram": {0x20: 8, 0x21: 9, 0x22: 6}, "p": 0x23, "q": 0x24},
           setup={"I": 2, "p": 0x20, "q": 0x21, "iram": {0x20: 7, 0x21: 8, 0x22: 9, 0x23: 6}},
           pc=ORG + 1, cycles=5 + 2 * 2)


def test_exw_of_overlapping_blocks_swaps_byte_by_byte():
    # (20,21) <-> (21,22): swap 20/21 gives 2 1 3, then swap 21/22 gives 2 3 1
    run_op([0x09], {"iram": {0x20: 2, 0x21: 3, 0x22: 1}, "p": 0x22, "q": 0x23},
           setup={"I": 1, "p": 0x20, "q": 0x21, "iram": {0x20: 1, 0x21: 2, 0x22: 3}},
           pc=ORG + 1, cycles=6 + 3)


def test_mvb_uses_j():
    run_op([0x0A], {"iram": {0x20: 9, 0x21: 8}, "p": 0x22, "q": 0x32},
           setup={"J": 1, "I": 5, "p": 0x20, "q": 0x30, "iram": {0x30: 9, 0x31: 8}},
           pc=ORG + 1, cycles=5 + 2)


def test_exw_swaps_i_plus_1_bytes():
    run_op([0x09], {"iram": {0x20: 3, 0x21: 4, 0x30: 1, 0x31: 2}, "p": 0x22, "q": 0x32},
           setup={"I": 1, "p": 0x20, "q": 0x30, "iram": {0x20: 1, 0x21: 2, 0x30: 3, 0x31: 4}},
           pc=ORG + 1, cycles=6 + 3)


def test_exb_uses_j():
    run_op([0x0B], {"iram": {0x20: 3, 0x30: 1}, "p": 0x21, "q": 0x31},
           setup={"J": 0, "p": 0x20, "q": 0x30, "iram": {0x20: 1, 0x30: 3}},
           pc=ORG + 1, cycles=6)


# ---- external memory block moves ----------------------------------------------------

def test_mvwd_copies_from_dp_and_leaves_dp_on_the_last_byte():
    run_op([0x18], {"iram": {0x10: 1, 0x11: 2, 0x12: 3}, "p": 0x13, "dp": 0x9002},
           setup={"I": 2, "p": 0x10, "dp": 0x9000, "mem": {0x9000: 1, 0x9001: 2, 0x9002: 3}},
           pc=ORG + 1, cycles=5 + 4 * 2)


def test_mvbd_uses_j():
    run_op([0x1A], {"iram": {0x10: 7}, "p": 0x11, "dp": 0x9000},
           setup={"J": 0, "p": 0x10, "dp": 0x9000, "mem": {0x9000: 7}},
           pc=ORG + 1, cycles=5)


def test_mvwd_dp_wraps_at_0xffff():
    run_op([0x18], {"iram": {0x10: 1, 0x11: 2}, "p": 0x12, "dp": 0x0000},
           setup={"I": 1, "p": 0x10, "dp": 0xFFFF, "mem": {0xFFFF: 1, 0x0000: 2}},
           pc=ORG + 1, cycles=5 + 4)


def test_exwd_swaps_with_dp():
    run_op([0x19], {"iram": {0x10: 5, 0x11: 6}, "mem": {0x9000: 1, 0x9001: 2}, "p": 0x12,
                    "dp": 0x9001},
           setup={"I": 1, "p": 0x10, "dp": 0x9000, "iram": {0x10: 1, 0x11: 2},
                  "mem": {0x9000: 5, 0x9001: 6}},
           pc=ORG + 1, cycles=7 + 6)


def test_exbd_uses_j():
    run_op([0x1B], {"iram": {0x10: 5}, "mem": {0x9000: 1}, "p": 0x11, "dp": 0x9000},
           setup={"J": 0, "I": 9, "p": 0x10, "dp": 0x9000, "iram": {0x10: 1},
                  "mem": {0x9000: 5}},
           pc=ORG + 1, cycles=7)


def test_fild_fills_dp_and_leaves_dp_on_the_last_byte():
    run_op([0x1F], {"mem": {0x9000: 0x20, 0x9001: 0x20, 0x9002: 0x20}, "dp": 0x9002},
           setup={"I": 2, "A": 0x20, "dp": 0x9000}, pc=ORG + 1, cycles=4 + 3 * 2)


def test_fild_below_write_floor_writes_through_the_bus():
    cpu, bus = run_op([0x1F], {"dp": 0x2801},
                      setup={"I": 1, "A": 0, "dp": 0x2800, "write_floor": 0x8000},
                      pc=ORG + 1, cycles=4 + 3)
    assert bus.calls == [("write", 0x2800, 0, 0), ("write", 0x2801, 0, 0)]


def test_film_fills_p_upwards():
    run_op([0x1E], {"iram": {0x7E: 0, 0x7F: 0, 0x00: 0}, "p": 0x01},
           setup={"I": 2, "A": 0, "p": 0x7E}, pc=ORG + 1, cycles=5 + 2)


def test_film_wraps_at_0x7f():
    run_op([0x1E], {"iram": {0x7F: 5, 0x00: 5}, "p": 0x01},
           setup={"I": 1, "A": 5, "p": 0x7F}, pc=ORG + 1, cycles=5 + 1)


def test_film_single_byte():
    run_op([0x1E], {"iram": {0x40: 0x55}, "p": 0x41},
           setup={"I": 0, "A": 0x55, "p": 0x40}, pc=ORG + 1, cycles=5)


# ---- DATA -------------------------------------------------------------------------------

def test_data_copies_from_program_memory_at_ba():
    run_op([0x35], {"iram": {0x20: 0x11, 0x21: 0x22}, "p": 0x22},
           setup={"I": 1, "p": 0x20, "A": 0x00, "B": 0x40, "mem": {0x4000: 0x11, 0x4001: 0x22}},
           pc=ORG + 1, cycles=11 + 4)


def test_data_latches_the_source_when_it_overwrites_a_and_b():
    # LII 01; LP 02; DATA: the ROM's pointer fetch into A,B through A,B
    run_op([0x35], {"A": 0x34, "B": 0x12, "p": 0x04},
           setup={"I": 1, "p": 0x02, "A": 0x10, "B": 0x50, "mem": {0x5010: 0x34, 0x5011: 0x12}},
           pc=ORG + 1, cycles=11 + 4)


def test_data_reads_internal_rom_addresses():
    run_op([0x35], {"iram": {0x30: 0x77}, "p": 0x31},
           setup={"I": 0, "p": 0x30, "A": 0xFF, "B": 0x1F, "mem": {0x1FFF: 0x77}},
           pc=ORG + 1, cycles=11)


# ---- nibble shifts ----------------------------------------------------------------------

def test_srw_shifts_right_by_a_nibble_upwards():
    run_op([0x1C], {"iram": {0x10: 0x01, 0x11: 0x23, 0x12: 0x45}, "p": 0x13},
           setup={"I": 2, "p": 0x10, "iram": {0x10: 0x12, 0x11: 0x34, 0x12: 0x56}},
           pc=ORG + 1, cycles=5 + 2)


def test_slw_shifts_left_by_a_nibble_downwards():
    run_op([0x1D], {"iram": {0x10: 0x23, 0x11: 0x45, 0x12: 0x60}, "p": 0x0F},
           setup={"I": 2, "p": 0x12, "iram": {0x10: 0x12, 0x11: 0x34, 0x12: 0x56}},
           pc=ORG + 1, cycles=5 + 2)


def test_slw_p_wraps_below_zero():
    # P = 0 is I itself: the count (1) is taken before the shift rewrites it
    run_op([0x1D], {"iram": {0x00: 0x10, 0x7F: 0x00}, "p": 0x7E},
           setup={"p": 0x00, "iram": {0x00: 0x01, 0x7F: 0x30}},
           pc=ORG + 1, cycles=5 + 1)


# ---- BCD ----------------------------------------------------------------------------------

def test_adn_adds_a_to_a_bcd_number_downwards():
    # 0x0199 + 1 = 0x0200 ; P points at the low byte
    run_op([0x0C], {"iram": {0x11: 0x00, 0x10: 0x02}, "p": 0x0F, "c": 0, "z": 0},
           setup={"I": 1, "A": 0x01, "p": 0x11, "iram": {0x10: 0x01, 0x11: 0x99}},
           pc=ORG + 1, cycles=7 + 3)


def test_adn_carry_out_and_zero_result():
    run_op([0x0C], {"iram": {0x11: 0x00, 0x10: 0x00}, "p": 0x0F, "c": 1, "z": 1},
           setup={"I": 1, "A": 0x01, "p": 0x11, "iram": {0x10: 0x99, 0x11: 0x99}},
           pc=ORG + 1, cycles=7 + 3)


def test_sbn_subtracts_a_with_borrow_ripple():
    # 0x0200 - 1 = 0x0199
    run_op([0x0D], {"iram": {0x11: 0x99, 0x10: 0x01}, "p": 0x0F, "c": 0, "z": 0},
           setup={"I": 1, "A": 0x01, "p": 0x11, "iram": {0x10: 0x02, 0x11: 0x00}},
           pc=ORG + 1, cycles=7 + 3)


def test_sbn_borrow_out():
    run_op([0x0D], {"iram": {0x10: 0x99}, "p": 0x0F, "c": 1, "z": 0},
           setup={"I": 0, "A": 0x01, "p": 0x10, "iram": {0x10: 0x00}},
           pc=ORG + 1, cycles=7)


def test_adw_adds_q_to_p_and_leaves_q_two_below():
    # 0x1234 + 0x0866 = 0x2100
    run_op([0x0E], {"iram": {0x11: 0x00, 0x10: 0x21}, "p": 0x0F, "q": 0x1E, "c": 0, "z": 0},
           setup={"I": 1, "p": 0x11, "q": 0x21,
                  "iram": {0x10: 0x12, 0x11: 0x34, 0x20: 0x08, 0x21: 0x66}},
           pc=ORG + 1, cycles=7 + 3)


def test_sbw_subtracts_q_from_p():
    # 0x0100 - 0x0001 = 0x0099
    run_op([0x0F], {"iram": {0x11: 0x99, 0x10: 0x00}, "p": 0x0F, "q": 0x1E, "c": 0, "z": 0},
           setup={"I": 1, "p": 0x11, "q": 0x21,
                  "iram": {0x10: 0x01, 0x11: 0x00, 0x20: 0x00, 0x21: 0x01}},
           pc=ORG + 1, cycles=7 + 3)


def test_sbw_borrow_and_zero():
    run_op([0x0F], {"iram": {0x10: 0x00}, "p": 0x0F, "q": 0x1E, "c": 0, "z": 1},
           setup={"I": 0, "p": 0x10, "q": 0x20, "iram": {0x10: 0x42, 0x20: 0x42}},
           pc=ORG + 1, cycles=7)
    run_op([0x0F], {"iram": {0x10: 0x99}, "p": 0x0F, "q": 0x1E, "c": 1, "z": 0},
           setup={"I": 0, "p": 0x10, "q": 0x20, "iram": {0x10: 0x00, 0x20: 0x01}},
           pc=ORG + 1, cycles=7)


# ---- LOOP -----------------------------------------------------------------------------------

def test_loop_decrements_and_jumps_back():
    run_op([0x2F, 0x05], {"iram": {0x50: 0x02}, "c": 0, "z": 0},
           setup={"r": 0x50, "iram": {0x50: 0x03}}, pc=ORG + 1 - 5, cycles=10)


def test_loop_reaching_zero_still_loops():
    run_op([0x2F, 0x05], {"iram": {0x50: 0x00}, "c": 0, "z": 1},
           setup={"r": 0x50, "iram": {0x50: 0x01}}, pc=ORG + 1 - 5, cycles=10)


def test_loop_borrow_pops_the_counter_and_falls_through():
    run_op([0x2F, 0x05], {"iram": {0x50: 0xFF}, "r": 0x51, "c": 1, "z": 0},
           setup={"r": 0x50, "iram": {0x50: 0x00}}, pc=ORG + 2, cycles=7)


def test_loop_runs_the_body_counter_plus_1_times():
    # LIA 2; PUSH; body: INCK; LOOP body
    cpu = make_cpu([0x02, 0x02, 0x34, 0x48, 0x2F, 0x02])
    cpu.r, cpu.iram[8] = 0x5C, 0
    while cpu.pc != ORG + 6:
        cpu.step()
    assert (cpu.iram[8], cpu.r) == (3, 0x5C)


# ---- PTC / DTC --------------------------------------------------------------------------

TABLE = bytes([0x7A, 0x02, 0x90, 0x00,   # PTC 2, 0x9000
               0x69,                     # DTC
               0x41, 0x12, 0x34,         # .CASE 'A', 0x1234
               0x42, 0x56, 0x78,         # .CASE 'B', 0x5678
               0x9A, 0xBC])              # .DEFAULT 0x9ABC


def test_ptc_sets_d_and_pushes_the_return_address():
    run_op(TABLE, {"d": 2, "r": 0x5A, "iram": {0x5B: 0x90, 0x5A: 0x00}},
           setup={"r": 0x5C}, pc=ORG + 4, cycles=9)


def test_dtc_jumps_to_the_matching_case():
    run_op(TABLE[4:], {"z": 1}, setup={"d": 2, "A": 0x42}, pc=0x5678, cycles=5 + 7 * 2)


def test_dtc_jumps_to_the_default_without_a_match():
    run_op(TABLE[4:], {"z": 0}, setup={"d": 2, "A": 0x43}, pc=0x9ABC, cycles=5 + 7 * 2)


def test_dtc_with_no_cases_takes_the_default():
    run_op([0x69, 0x12, 0x34], {"z": 0}, setup={"d": 0, "A": 0x12}, pc=0x1234, cycles=5)


def test_ptc_dtc_case_handler_returns_after_the_table():
    cpu = make_cpu(TABLE)
    cpu.r, cpu.iram[2] = 0x5C, 0x41
    cpu.mem[0x1234] = 0x37   # RTN
    cpu.step(), cpu.step()
    assert cpu.pc == 0x1234
    cpu.step()
    assert (cpu.pc, cpu.r) == (0x9000, 0x5C)


# ---- CUP / CDN ------------------------------------------------------------------------

def test_cup_stops_when_xin_is_1():
    cpu, bus = run_op([0x4F], {"p": 0x11, "z": 0}, setup={"I": 3, "p": 0x10},
                      pc=ORG + 1, cycles=1 + 4 * 2, bus_factory=lambda: FakeBus(xin=[0, 1]))
    assert bus.calls == [("xin", 0), ("xin", 4)]


def test_cup_times_out_after_i_plus_1_polls():
    run_op([0x4F], {"p": 0x12, "z": 1}, setup={"I": 1, "p": 0x10},
           pc=ORG + 1, cycles=5 + 4 * 1)


def test_cdn_stops_when_xin_is_0():
    run_op([0x6F], {"z": 0}, setup={"I": 3, "p": 0x10}, pc=ORG + 1, cycles=5,
           bus_factory=lambda: FakeBus(xin=[0]))


def test_cdn_times_out_with_p_wrapping():
    run_op([0x6F], {"p": 0x01, "z": 1}, setup={"I": 1, "p": 0x7F}, pc=ORG + 1, cycles=9,
           bus_factory=lambda: FakeBus(xin=[1, 1]))


# ---- the run loop ---------------------------------------------------------------------

def test_run_stops_at_the_first_boundary_past_the_budget():
    cpu = make_cpu([0x02, 0x01] * 4)   # LIA 1 (4 cycles each)
    assert cpu.run(5) == 8
    assert (cpu.pc, cpu.cycles) == (ORG + 4, 8)
    assert cpu.run(0) == 0


def test_run_continues_at_0x0000_after_0xffff():
    cpu = make_cpu([0x4D], org=0xFFFF)   # NOPW at the top, then LIA 0x12 at 0x0000
    cpu.mem[0:2] = bytes([0x02, 0x12])
    cpu.run(2 + 4)
    assert (cpu.pc, cpu.iram[2]) == (0x0002, 0x12)


@pytest.mark.parametrize("org", (0xFFF8, 0xFFFC))
def test_a_straight_run_from_translatable_code_continues_past_0xffff(org):
    # the interpreter's straight run from an entry point in code that may be translated
    # runs off the top (NOPWs, then LIDP 0x12xx straddling it at 0xFFFC), as run does
    code = [0x4D] * (0x10000 - org)
    if org == 0xFFFC:
        code[-2:] = [0x10, 0x12]
    cpu = make_cpu(code, org=org)
    cpu.set_code_regions((0xFF00, 0x10000))
    cpu.mem[0:3] = bytes([0x34, 0x02, 0x56])  # (the LIDP's low byte,) LIA 0x56 at 0x0001
    cpu.run(100)
    plain = make_cpu(code, org=org)
    plain.mem[0:3] = bytes([0x34, 0x02, 0x56])
    plain.run(100)
    assert (cpu.pc, cpu.cycles, cpu.dp, cpu.iram[2]) == (plain.pc, plain.cycles, plain.dp,
                                                         plain.iram[2])
    assert cpu.iram[2] == 0x56


def test_operands_straddling_0xffff_are_read_from_0x0000():
    cpu = make_cpu([0x10, 0x12], org=0xFFFE)   # LIDP 0x12xx with the low byte at 0x0000
    cpu.mem[0] = 0x34
    assert cpu.step() == 8
    assert (cpu.pc, cpu.dp) == (0x0001, 0x1234)


def test_call_at_the_top_pushes_the_wrapped_return_address():
    cpu = make_cpu([0x78, 0x12], org=0xFFFE)
    cpu.mem[0] = 0x34
    cpu.r = 0x10
    cpu.step()
    assert (cpu.pc, cpu.iram[0x0F], cpu.iram[0x0E]) == (0x1234, 0x00, 0x01)


def test_reset_clears_registers_and_internal_ram_but_not_cycles():
    cpu = make_cpu([0x02, 0x01])
    cpu.step()
    cpu.reset()
    assert (cpu.pc, cpu.p, cpu.q, cpu.r, cpu.dp, cpu.c, cpu.z, cpu.d) == (0,) * 8
    assert bytes(cpu.iram) == bytes(128)
    assert cpu.cycles == 4


def test_every_opcode_from_poisoned_memory_never_raises():
    cpu = make_cpu()
    for op in range(256):
        cpu.mem[ORG:ORG + 4] = bytes([op, 0xAA, 0xAA, 0xAA])
        cpu.pc = ORG
        for _ in range(3):
            assert cpu.step() >= 2


@pytest.mark.parametrize("value", [0x80, 0xFF])
def test_state_attributes_are_masked(value):
    cpu = make_cpu()
    cpu.p, cpu.q, cpu.r = value, value, value
    cpu.dp = cpu.pc = 0x10000 | value
    assert (cpu.p, cpu.q, cpu.r, cpu.dp, cpu.pc) == (value & 0x7F,) * 3 + (value,) * 2


# ---- more wrap-around and BCD properties -------------------------------------------------

def test_loop_exit_pops_r_across_0x7f():
    run_op([0x2F, 0x05], {"iram": {0x7F: 0xFF}, "r": 0x00, "c": 1, "z": 0},
           setup={"r": 0x7F, "iram": {0x7F: 0x00}}, pc=ORG + 2, cycles=7)


def test_exw_q_wraps_at_0x7f():
    run_op([0x09], {"iram": {0x7F: 0x10, 0x20: 0x01}, "p": 0x21, "q": 0x00},
           setup={"I": 0, "p": 0x20, "q": 0x7F, "iram": {0x20: 0x10, 0x7F: 0x01}},
           pc=ORG + 1, cycles=6)


def test_mvwd_p_wraps_at_0x7f():
    run_op([0x18], {"iram": {0x7F: 1, 0x00: 2}, "p": 0x01, "dp": 0x9001},
           setup={"I": 1, "p": 0x7F, "dp": 0x9000, "mem": {0x9000: 1, 0x9001: 2}},
           pc=ORG + 1, cycles=5 + 4)


def test_adw_q_wraps_below_zero():
    # P = 0x41, Q = 0x00: the second byte comes from (0x7F); Q ends at 0x00-1-2 = 0x7D
    run_op([0x0E], {"iram": {0x41: 0x02, 0x40: 0x02}, "p": 0x3F, "q": 0x7D, "c": 0, "z": 0},
           setup={"I": 1, "p": 0x41, "q": 0x00,
                  "iram": {0x40: 0x01, 0x41: 0x01, 0x00: 0x01, 0x7F: 0x01}},
           pc=ORG + 1, cycles=7 + 3)


def test_data_source_wraps_at_0xffff():
    run_op([0x35], {"iram": {0x30: 0x11, 0x31: 0x22}, "p": 0x32},
           setup={"I": 1, "p": 0x30, "A": 0xFF, "B": 0xFF, "mem": {0xFFFF: 0x11, 0x0000: 0x22}},
           pc=ORG + 1, cycles=11 + 4)


def _bcd_bytes(value, width):
    return bytes.fromhex(f"{value:0{2 * width}d}")


@given(st.integers(0, 10**8 - 1), st.integers(0, 10**8 - 1), st.booleans())
@settings(max_examples=60, deadline=None)
def test_adw_sbw_agree_with_decimal_arithmetic(x, y, subtract):
    # 4-byte (8-digit) BCD numbers, most significant byte at the lowest address
    cpu = make_cpu([0x0F if subtract else 0x0E])
    cpu.iram[0] = 3
    cpu.iram[0x20:0x24] = _bcd_bytes(x, 4)
    cpu.iram[0x30:0x34] = _bcd_bytes(y, 4)
    cpu.p, cpu.q = 0x23, 0x33
    cpu.step()
    result = (x - y) % 10**8 if subtract else (x + y) % 10**8
    carry = x < y if subtract else x + y >= 10**8
    assert bytes(cpu.iram[0x20:0x24]) == _bcd_bytes(result, 4)
    assert (cpu.c, cpu.z) == (int(carry), int(result == 0))


@given(st.integers(0, 9999), st.integers(0, 99), st.booleans())
@settings(max_examples=60, deadline=None)
def test_adn_sbn_agree_with_decimal_arithmetic(x, a, subtract):
    cpu = make_cpu([0x0D if subtract else 0x0C])
    cpu.iram[0], cpu.iram[2] = 1, int(str(a), 16)
    cpu.iram[0x20:0x22] = _bcd_bytes(x, 2)
    cpu.p = 0x21
    cpu.step()
    result = (x - a) % 10**4 if subtract else (x + a) % 10**4
    assert bytes(cpu.iram[0x20:0x22]) == _bcd_bytes(result, 2)
    assert cpu.c == int(x < a if subtract else x + a >= 10**4)


@pytest.mark.parametrize("opcode, result, carry", [
    (0x74, lambda a, n, c: (a + n) & 0xFF, lambda a, n, c: a + n > 0xFF),      # ADIA
    (0x75, lambda a, n, c: (a - n) & 0xFF, lambda a, n, c: a < n),             # SBIA
    (0x67, lambda a, n, c: a, lambda a, n, c: a < n),                          # CPIA
])
def test_adia_sbia_cpia_exhaustive_flags(opcode, result, carry):
    cpu = make_cpu([opcode])
    for a in range(256):
        for n in range(0, 256, 3):
            cpu.mem[ORG + 1] = n
            cpu.iram[2], cpu.pc = a, ORG
            cpu.step()
            want = result(a, n, 0)
            zero = (a == n) if opcode == 0x67 else want == 0
            assert (cpu.iram[2], cpu.c, cpu.z) == (want, int(carry(a, n, 0)), int(zero)), (a, n)


def test_adcm_sbcm_exhaustive_with_carry_in():
    cpu = make_cpu([0xC4])
    cpu.p = 0x20
    for opcode, expect in ((0xC4, lambda x, a, c: x + a + c), (0xC5, lambda x, a, c: x - a - c)):
        cpu.mem[ORG] = opcode
        for x in range(0, 256, 5):
            for a in range(256):
                for c in (0, 1):
                    cpu.iram[0x20], cpu.iram[2], cpu.c, cpu.pc = x, a, c, ORG
                    cpu.step()
                    v = expect(x, a, c)
                    assert (cpu.iram[0x20], cpu.c, cpu.z) == (v & 0xFF, int(not 0 <= v <= 0xFF),
                                                              int(v & 0xFF == 0)), (x, a, c)


def test_run_pc_retry_rules():
    from emulator.cpu.sc61860 import _wrapped_pc
    assert _wrapped_pc(0x10005) == 0x0005        # ran off the top
    assert _wrapped_pc(0xFFFE) == -2             # operands straddle the top
    assert _wrapped_pc(-0x10003) == -3           # a JRM from a negative PC went past -64K
    assert _wrapped_pc(0x1234) is None           # not the PC's fault: re-raise
    assert _wrapped_pc(-5) is None


# ---- block instructions against a byte-by-byte model ---------------------------------
# The core copies whole slices when nothing wraps or overlaps; these compare it with the
# instructions' definition, one byte at a time, over positions chosen near the edges.

WRITE_FLOOR = 0x8000


_IRAM_PAIRS = (0x08, 0x0A, 0x09, 0x0B)  # MVW MVB EXW EXB: P and Q step
_WITH_DP = (0x18, 0x1A, 0x19, 0x1B, 0x1F)  # MVWD MVBD EXWD EXBD FILD: DP steps between bytes


def _model(op, count, p, q, dp, iram, mem, a, ba):
    """(iram, mem, p, q, dp, bus writes) after the block instruction `op`, byte by byte."""
    iram, mem, writes = list(iram), bytearray(mem), []

    def store(addr, value):
        if addr >= WRITE_FLOOR:
            mem[addr] = value
        else:
            writes.append((addr, value))
    for k in range(count + 1):
        if k and op in _WITH_DP:
            dp = (dp + 1) & 0xFFFF
        if op in (0x08, 0x0A):
            iram[p] = iram[q]
        elif op in (0x09, 0x0B):
            iram[p], iram[q] = iram[q], iram[p]
        elif op in (0x18, 0x1A):
            iram[p] = mem[dp]
        elif op in (0x19, 0x1B):
            value = mem[dp]
            store(dp, iram[p])
            iram[p] = value
        elif op == 0x1E:
            iram[p] = a
        elif op == 0x1F:
            store(dp, a)
        else:  # DATA
            iram[p] = mem[(ba + k) & 0xFFFF]
        if op != 0x1F:  # FILD leaves P alone
            p = (p + 1) & 0x7F
        if op in _IRAM_PAIRS:
            q = (q + 1) & 0x7F
    return iram, mem, p, q, dp, writes


_EDGES = st.one_of(st.integers(0, 0x7F), st.sampled_from((0x70, 0x78, 0x7C, 0x7E, 0x7F)))
_ADDRESSES = st.one_of(st.integers(0, 0xFFFF),
                       st.sampled_from((0x7FFC, 0x7FFE, 0x8000, 0xFFF8, 0xFFFD, 0xFFFF)))


@settings(max_examples=300, deadline=None)
@given(op=st.sampled_from((0x08, 0x09, 0x0A, 0x0B, 0x18, 0x19, 0x1A, 0x1B, 0x1E, 0x1F, 0x35)),
       count=st.integers(0, 20), p=_EDGES, q=_EDGES, dp=_ADDRESSES, ba=_ADDRESSES,
       seed=st.integers(0, 2**32))
def test_block_instructions_match_a_byte_by_byte_copy(op, count, p, q, dp, ba, seed):
    rnd = random.Random(seed)
    cpu = make_cpu([op])
    cpu.write_floor = WRITE_FLOOR
    cpu.mem[0x9000:0xA000] = bytes(rnd.randrange(256) for _ in range(0x1000))
    for addr in (dp, ba):  # the bytes around the source and the destination
        for k in range(-2, 24):
            cpu.mem[(addr + k) & 0xFFFF] = rnd.randrange(256)
    cpu.mem[ORG] = op
    cpu.iram[:] = [rnd.randrange(256) for _ in range(128)]
    counter = 1 if op in (0x0A, 0x0B, 0x1A, 0x1B) else 0
    cpu.iram[counter] = count
    cpu.iram[2], cpu.iram[3] = ba & 0xFF, ba >> 8
    cpu.p, cpu.q, cpu.dp = p, q, dp
    iram, mem = list(cpu.iram), bytes(cpu.mem)
    expected = _model(op, count, p, q, dp, iram, mem, iram[2], ba)
    cpu.step()
    writes = [call[1:3] for call in cpu.bus.calls if call[0] == "write"]
    assert (cpu.iram, cpu.mem, cpu.p, cpu.q, cpu.dp, writes) == expected

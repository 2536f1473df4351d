"""One test per SC61860 opcode (or more), part two: INC/DEC, arithmetic, compare and
logic, shifts, no-ops and timing, ports. Each goes through `run_op` as in
test_cpu_ops.py: poison memory and internal RAM with 0xAA, set the inputs, step once,
then compare the whole state (the harness is tests/helpers/cpu_harness.py)."""

import pytest

from tests.helpers.cpu_harness import ORG, REGS, FakeBus, make_cpu, run_op

# ---- INC / DEC ------------------------------------------------------------------------

INCDEC = [("INCI", 0x40, "I"), ("INCJ", 0xC0, "J"), ("INCA", 0x42, "A"), ("INCB", 0xC2, "B"),
          ("INCK", 0x48, "K"), ("INCL", 0xC8, "L"), ("INCM", 0x4A, "M"), ("INCN", 0xCA, "N")]


@pytest.mark.parametrize("name, op, reg", INCDEC)
def test_inc_registers_set_q_and_flags(name, op, reg):
    addr = REGS[reg]
    run_op([op], {reg: 0x11, "q": addr, "c": 0, "z": 0}, setup={reg: 0x10},
           pc=ORG + 1, cycles=4)
    run_op([op], {reg: 0x00, "q": addr, "c": 1, "z": 1}, setup={reg: 0xFF},
           pc=ORG + 1, cycles=4)


@pytest.mark.parametrize("name, op, reg", [(n.replace("INC", "DEC"), op + 1, reg)
                                           for n, op, reg in INCDEC])
def test_dec_registers_set_q_and_flags(name, op, reg):
    addr = REGS[reg]
    run_op([op], {reg: 0x0F, "q": addr, "c": 0, "z": 0}, setup={reg: 0x10},
           pc=ORG + 1, cycles=4)
    run_op([op], {reg: 0x00, "q": addr, "c": 0, "z": 1}, setup={reg: 0x01},
           pc=ORG + 1, cycles=4)
    run_op([op], {reg: 0xFF, "q": addr, "c": 1, "z": 0}, setup={reg: 0x00},
           pc=ORG + 1, cycles=4)


def test_inci_wraps_to_zero():
    run_op([0x40], {"I": 0, "q": 0, "c": 1, "z": 1}, setup={"I": 0xFF}, pc=ORG + 1, cycles=4)


def test_deci_borrows():
    run_op([0x41], {"I": 0xFF, "q": 0, "c": 1, "z": 0}, setup={"I": 0}, pc=ORG + 1, cycles=4)


def test_incj_then_q_is_1():
    run_op([0xC0], {"J": 1, "q": 1, "c": 0, "z": 0}, setup={"J": 0}, pc=ORG + 1, cycles=4)


def test_decj_to_zero():
    run_op([0xC1], {"J": 0, "q": 1, "c": 0, "z": 1}, setup={"J": 1}, pc=ORG + 1, cycles=4)


def test_inca_plain():
    run_op([0x42], {"A": 0x80, "q": 2, "c": 0, "z": 0}, setup={"A": 0x7F}, pc=ORG + 1, cycles=4)


def test_deca_plain():
    run_op([0x43], {"A": 0x7F, "q": 2, "c": 0, "z": 0}, setup={"A": 0x80}, pc=ORG + 1, cycles=4)


def test_incb_wraps():
    run_op([0xC2], {"B": 0, "q": 3, "c": 1, "z": 1}, setup={"B": 0xFF}, pc=ORG + 1, cycles=4)


def test_decb_borrows():
    run_op([0xC3], {"B": 0xFF, "q": 3, "c": 1, "z": 0}, setup={"B": 0}, pc=ORG + 1, cycles=4)


def test_inck_plain():
    run_op([0x48], {"K": 1, "q": 8, "c": 0, "z": 0}, setup={"K": 0}, pc=ORG + 1, cycles=4)


def test_deck_to_zero():
    run_op([0x49], {"K": 0, "q": 8, "c": 0, "z": 1}, setup={"K": 1}, pc=ORG + 1, cycles=4)


def test_incl_plain():
    run_op([0xC8], {"L": 0x10, "q": 9, "c": 0, "z": 0}, setup={"L": 0x0F}, pc=ORG + 1, cycles=4)


def test_decl_borrows():
    run_op([0xC9], {"L": 0xFF, "q": 9, "c": 1, "z": 0}, setup={"L": 0}, pc=ORG + 1, cycles=4)


def test_incm_wraps():
    run_op([0x4A], {"M": 0, "q": 10, "c": 1, "z": 1}, setup={"M": 0xFF}, pc=ORG + 1, cycles=4)


def test_decm_plain():
    run_op([0x4B], {"M": 0x41, "q": 10, "c": 0, "z": 0}, setup={"M": 0x42}, pc=ORG + 1, cycles=4)


def test_incn_plain():
    run_op([0xCA], {"N": 3, "q": 11, "c": 0, "z": 0}, setup={"N": 2}, pc=ORG + 1, cycles=4)


def test_decn_to_zero():
    run_op([0xCB], {"N": 0, "q": 11, "c": 0, "z": 1}, setup={"N": 1}, pc=ORG + 1, cycles=4)


# ---- arithmetic on (P), A and immediates -------------------------------------------

def test_adm_adds_a_to_p():
    run_op([0x44], {"iram": {0x10: 0x30}, "c": 0, "z": 0},
           setup={"p": 0x10, "A": 0x10, "iram": {0x10: 0x20}}, pc=ORG + 1, cycles=3)


def test_adm_carry_out_and_zero():
    run_op([0x44], {"iram": {0x10: 0x00}, "c": 1, "z": 1},
           setup={"p": 0x10, "A": 0x01, "iram": {0x10: 0xFF}}, pc=ORG + 1, cycles=3)


def test_adcm_adds_the_carry():
    run_op([0xC4], {"iram": {0x10: 0x00}, "c": 1, "z": 1},
           setup={"p": 0x10, "A": 0xFF, "c": 1, "iram": {0x10: 0x00}}, pc=ORG + 1, cycles=3)
    run_op([0xC4], {"iram": {0x10: 0x31}, "c": 0, "z": 0},
           setup={"p": 0x10, "A": 0x10, "c": 1, "iram": {0x10: 0x20}}, pc=ORG + 1, cycles=3)


def test_sbm_borrow():
    run_op([0x45], {"iram": {0x10: 0xFF}, "c": 1, "z": 0},
           setup={"p": 0x10, "A": 0x01, "iram": {0x10: 0x00}}, pc=ORG + 1, cycles=3)


def test_sbm_zero():
    run_op([0x45], {"iram": {0x10: 0x00}, "c": 0, "z": 1},
           setup={"p": 0x10, "A": 0x42, "iram": {0x10: 0x42}}, pc=ORG + 1, cycles=3)


def test_sbcm_subtracts_the_carry():
    run_op([0xC5], {"iram": {0x10: 0xFF}, "c": 1, "z": 0},
           setup={"p": 0x10, "A": 0x00, "c": 1, "iram": {0x10: 0x00}}, pc=ORG + 1, cycles=3)
    run_op([0xC5], {"iram": {0x10: 0x00}, "c": 0, "z": 1},
           setup={"p": 0x10, "A": 0x41, "c": 1, "iram": {0x10: 0x42}}, pc=ORG + 1, cycles=3)


def test_adia_carry_and_zero():
    run_op([0x74, 0x01], {"A": 0x00, "c": 1, "z": 1}, setup={"A": 0xFF}, pc=ORG + 2, cycles=4)
    run_op([0x74, 0x03], {"A": 0x13, "c": 0, "z": 0}, setup={"A": 0x10}, pc=ORG + 2, cycles=4)


def test_sbia_borrow():
    run_op([0x75, 0x02], {"A": 0xFF, "c": 1, "z": 0}, setup={"A": 0x01}, pc=ORG + 2, cycles=4)
    run_op([0x75, 0x02], {"A": 0x00, "c": 0, "z": 1}, setup={"A": 0x02}, pc=ORG + 2, cycles=4)


def test_adim_adds_to_p():
    run_op([0x70, 0x04], {"iram": {0x7F: 0x03}, "c": 1, "z": 0},
           setup={"p": 0x7F, "iram": {0x7F: 0xFF}}, pc=ORG + 2, cycles=4)


def test_sbim_subtracts_from_p():
    run_op([0x71, 0x03], {"iram": {0x20: 0x00}, "c": 0, "z": 1},
           setup={"p": 0x20, "iram": {0x20: 0x03}}, pc=ORG + 2, cycles=4)


def test_adb_16_bit_add_and_p_plus_1():
    run_op([0x14], {"iram": {0x10: 0x00, 0x11: 0x13}, "p": 0x11, "c": 0, "z": 0},
           setup={"p": 0x10, "A": 0x01, "B": 0x01, "iram": {0x10: 0xFF, 0x11: 0x11}},
           pc=ORG + 1, cycles=5)


def test_adb_carry_out_of_bit_15_and_zero():
    run_op([0x14], {"iram": {0x10: 0x00, 0x11: 0x00}, "p": 0x11, "c": 1, "z": 1},
           setup={"p": 0x10, "A": 0x01, "B": 0x00, "iram": {0x10: 0xFF, 0x11: 0xFF}},
           pc=ORG + 1, cycles=5)


def test_adb_zero_only_when_both_bytes_are_zero():
    run_op([0x14], {"iram": {0x10: 0x00, 0x11: 0x01}, "p": 0x11, "c": 0, "z": 0},
           setup={"p": 0x10, "A": 0x80, "B": 0x00, "iram": {0x10: 0x80, 0x11: 0x00}},
           pc=ORG + 1, cycles=5)


def test_adb_pair_wraps_at_0x7f():
    run_op([0x14], {"iram": {0x7F: 0x02, 0x00: 0x00}, "p": 0x00, "c": 0, "z": 0},
           setup={"p": 0x7F, "A": 0x01, "B": 0x00, "iram": {0x7F: 0x01, 0x00: 0x00}},
           pc=ORG + 1, cycles=5)


def test_sbb_16_bit_borrow():
    run_op([0x15], {"iram": {0x10: 0xFF, 0x11: 0xFF}, "p": 0x11, "c": 1, "z": 0},
           setup={"p": 0x10, "A": 0x01, "B": 0x00, "iram": {0x10: 0x00, 0x11: 0x00}},
           pc=ORG + 1, cycles=5)


def test_sbb_zero():
    run_op([0x15], {"iram": {0x20: 0x00, 0x21: 0x00}, "p": 0x21, "c": 0, "z": 1},
           setup={"p": 0x20, "A": 0x34, "B": 0x12, "iram": {0x20: 0x34, 0x21: 0x12}},
           pc=ORG + 1, cycles=5)


# ---- compare and logic ----------------------------------------------------------------

@pytest.mark.parametrize("a, n, c, z", [(0x10, 0x20, 1, 0), (0x20, 0x20, 0, 1), (0x30, 0x20, 0, 0)])
def test_cpia_compares_a_with_n(a, n, c, z):
    run_op([0x67, n], {"c": c, "z": z}, setup={"A": a}, pc=ORG + 2, cycles=4)


def test_cpim_compares_p_with_n():
    run_op([0x63, 0x80], {"c": 1, "z": 0}, setup={"p": 0x05, "iram": {0x05: 0x7F}},
           pc=ORG + 2, cycles=4)


def test_cpma_compares_p_with_a():
    run_op([0xC7], {"c": 0, "z": 1}, setup={"p": 0x05, "A": 0x33, "iram": {0x05: 0x33}},
           pc=ORG + 1, cycles=3)
    run_op([0xC7], {"c": 0, "z": 0}, setup={"p": 0x05, "A": 0x32, "iram": {0x05: 0x33}},
           pc=ORG + 1, cycles=3)


def test_ania_ands_and_sets_z_only():
    run_op([0x64, 0x0F], {"A": 0x00, "z": 1}, setup={"A": 0xF0}, pc=ORG + 2, cycles=4)
    run_op([0x64, 0x0F], {"A": 0x03, "z": 0}, setup={"A": 0xF3}, pc=ORG + 2, cycles=4)


def test_oria_ors():
    run_op([0x65, 0x0F], {"A": 0xFF, "z": 0}, setup={"A": 0xF0}, pc=ORG + 2, cycles=4)
    run_op([0x65, 0x00], {"A": 0x00, "z": 1}, setup={"A": 0x00}, pc=ORG + 2, cycles=4)


def test_tsia_tests_without_writing():
    run_op([0x66, 0x01], {"z": 1}, setup={"A": 0xFE}, pc=ORG + 2, cycles=4)
    run_op([0x66, 0x81], {"z": 0}, setup={"A": 0x80}, pc=ORG + 2, cycles=4)


def test_anim_ands_p():
    run_op([0x60, 0xFB], {"iram": {0x5F: 0x01}, "z": 0}, setup={"p": 0x5F, "iram": {0x5F: 0x05}},
           pc=ORG + 2, cycles=4)


def test_orim_ors_p():
    run_op([0x61, 0x04], {"iram": {0x5F: 0x05}, "z": 0}, setup={"p": 0x5F, "iram": {0x5F: 0x01}},
           pc=ORG + 2, cycles=4)


def test_tsim_tests_p():
    run_op([0x62, 0x02], {"z": 1}, setup={"p": 0x5F, "iram": {0x5F: 0x01}},
           pc=ORG + 2, cycles=4)


def test_anma_ands_p_with_a():
    run_op([0x46], {"iram": {0x30: 0x00}, "z": 1}, setup={"p": 0x30, "A": 0x0F,
                                                          "iram": {0x30: 0xF0}},
           pc=ORG + 1, cycles=3)


def test_orma_ors_p_with_a():
    run_op([0x47], {"iram": {0x30: 0xFF}, "z": 0}, setup={"p": 0x30, "A": 0x0F,
                                                          "iram": {0x30: 0xF0}},
           pc=ORG + 1, cycles=3)


def test_tsma_tests_p_with_a():
    run_op([0xC6], {"z": 0}, setup={"p": 0x30, "A": 0x11, "iram": {0x30: 0x10}},
           pc=ORG + 1, cycles=3)
    run_op([0xC6], {"z": 1}, setup={"p": 0x30, "A": 0x01, "iram": {0x30: 0x10}},
           pc=ORG + 1, cycles=3)


def test_anid_ands_dp_and_scratches_r_minus_1():
    run_op([0xD4, 0x0F], {"mem": {0x9000: 0x03}, "z": 0, "iram": {0x4F: 0x33}},
           setup={"dp": 0x9000, "r": 0x50, "mem": {0x9000: 0x33}}, pc=ORG + 2, cycles=6)


def test_orid_ors_dp():
    run_op([0xD5, 0x04], {"mem": {0x9000: 0x05}, "z": 0, "iram": {0x4F: 0x01}},
           setup={"dp": 0x9000, "r": 0x50, "mem": {0x9000: 0x01}}, pc=ORG + 2, cycles=6)


def test_orid_below_write_floor_goes_to_the_bus():
    cpu, bus = run_op([0xD5, 0x04], {"z": 0, "iram": {0x4F: 0x01}},
                      setup={"dp": 0x303D, "r": 0x50, "mem": {0x303D: 0x01},
                             "write_floor": 0x8000}, pc=ORG + 2, cycles=6)
    assert bus.calls == [("write", 0x303D, 0x05, 0)]


def test_tsid_tests_dp():
    run_op([0xD6, 0x80], {"z": 1, "iram": {0x7F: 0x7F}},
           setup={"dp": 0x9000, "r": 0x00, "mem": {0x9000: 0x7F}}, pc=ORG + 2, cycles=6)


def test_sz_undocumented_sets_z_and_is_logged():
    cpu, _ = run_op([0xD7, 0x12], {"z": 1, "iram": {0x4F: 0x99}},
                    setup={"dp": 0x9000, "r": 0x50, "mem": {0x9000: 0x99}},
                    pc=ORG + 2, cycles=6)
    assert cpu.undocumented == {(ORG, 0xD7): 1}


@pytest.mark.parametrize("op", [0x72, 0x73, 0x76, 0x77])
def test_rz_undocumented_two_bytes_clears_z(op):
    cpu, _ = run_op([op, 0x00], {"z": 0}, pc=ORG + 2, cycles=4)
    assert cpu.undocumented == {(ORG, op): 1}


# ---- shifts and flags -----------------------------------------------------------------

def test_sl_rotates_left_through_carry_and_leaves_z():
    run_op([0x5A], {"A": 0x03, "c": 1}, setup={"A": 0x81, "c": 1}, pc=ORG + 1, cycles=2)
    run_op([0x5A], {"A": 0x02, "c": 0}, setup={"A": 0x01, "c": 0}, pc=ORG + 1, cycles=2)
    run_op([0x5A], {"A": 0x00, "c": 1}, setup={"A": 0x80, "c": 0}, pc=ORG + 1, cycles=2)


def test_sr_rotates_right_through_carry_and_leaves_z():
    run_op([0xD2], {"A": 0xC0, "c": 1}, setup={"A": 0x81, "c": 1}, pc=ORG + 1, cycles=2)
    run_op([0xD2], {"A": 0x00, "c": 1}, setup={"A": 0x01, "c": 0}, pc=ORG + 1, cycles=2)


def test_sc_sets_c_and_z():
    run_op([0xD0], {"c": 1, "z": 1}, pc=ORG + 1, cycles=2)


def test_rc_clears_c_and_sets_z():
    run_op([0xD1], {"c": 0, "z": 1}, pc=ORG + 1, cycles=2)


# ---- no-ops and timing ----------------------------------------------------------------

def test_nopw_does_nothing_for_2_cycles():
    run_op([0x4D], pc=ORG + 1, cycles=2)


def test_nopt_does_nothing_for_3_cycles():
    run_op([0xCE], pc=ORG + 1, cycles=3)


def test_wait_costs_6_plus_n():
    run_op([0x4E, 0x00], pc=ORG + 2, cycles=6)
    run_op([0x4E, 0xFF], pc=ORG + 2, cycles=6 + 255)


@pytest.mark.parametrize("op, cycles", [(0x33, 3), (0x68, 3), (0x6A, 3), (0xCD, 2), (0xD3, 2),
                                        (0xD9, 2)])
def test_nopt_nopw_undocumented_variants_are_logged(op, cycles):
    cpu, _ = run_op([op], pc=ORG + 1, cycles=cycles)
    assert cpu.undocumented == {(ORG, op): 1}


@pytest.mark.parametrize("op", [0x16, 0x17, 0x2E, 0x36, 0x3C, 0x3D, 0x3E, 0x3F, 0x5C, 0x5E,
                                0x6C, 0x6D, 0x6E, 0x7B, 0xCF, 0xDC, 0xDE])
def test_undef_opcodes_skip_one_byte_and_are_logged(op):
    cpu, _ = run_op([op], pc=ORG + 1, cycles=2)
    assert cpu.undocumented == {(ORG, op): 1}


# ---- ports ----------------------------------------------------------------------------

def test_ina_reads_port_a_and_sets_z():
    cpu, bus = run_op([0x4C], {"A": 0x00, "z": 1}, pc=ORG + 1, cycles=2,
                      bus_factory=lambda: FakeBus(ina=0))
    run_op([0x4C], {"A": 0x40, "z": 0}, pc=ORG + 1, cycles=2,
           bus_factory=lambda: FakeBus(ina=0x40))
    assert bus.calls == [("ina", 0)]


def test_inb_reads_port_b():
    cpu, bus = run_op([0xCC], {"A": 0x81, "z": 0}, pc=ORG + 1, cycles=2,
                      bus_factory=lambda: FakeBus(inb=0x81))
    assert bus.calls == [("inb", 0)]


@pytest.mark.parametrize("op, latch, method, cycles", [
    (0x5D, 0x5C, "outa", 3), (0xDD, 0x5D, "outb", 2), (0x5F, 0x5E, "outf", 3),
    (0xDF, 0x5F, "outc", 2)])
def test_outa_outb_outf_outc_send_the_latch_and_set_q(op, latch, method, cycles):
    cpu, bus = run_op([op], {"q": latch}, setup={"iram": {latch: 0x15}},
                      pc=ORG + 1, cycles=cycles)
    assert bus.calls == [(method, 0x15, 0)]


def test_outb_sends_ib():
    cpu, bus = run_op([0xDD], {"q": 0x5D}, setup={"iram": {0x5D: 0x80}}, pc=ORG + 1, cycles=2)
    assert bus.calls == [("outb", 0x80, 0)]


def test_outf_sends_fo():
    cpu, bus = run_op([0x5F], {"q": 0x5E}, setup={"iram": {0x5E: 0x04}}, pc=ORG + 1, cycles=3)
    assert bus.calls == [("outf", 0x04, 0)]


def test_outc_sends_the_control_latch():
    cpu, bus = run_op([0xDF], {"q": 0x5F}, setup={"iram": {0x5F: 0x05}}, pc=ORG + 1, cycles=2)
    assert bus.calls == [("outc", 0x05, 0)]


def test_test_passes_the_mask_and_sets_z_from_the_status():
    cpu, bus = run_op([0x6B, 0x0A], {"z": 0}, pc=ORG + 2, cycles=4,
                      bus_factory=lambda: FakeBus(status=0x02))
    assert bus.calls == [("test", 0x0A, 0)]
    run_op([0x6B, 0x08], {"z": 1}, pc=ORG + 2, cycles=4, bus_factory=lambda: FakeBus(status=0x03))


def test_bus_sees_cycles_of_completed_instructions():
    cpu = make_cpu([0x02, 0x01, 0x6B, 0x01, 0x4C])   # LIA 1; TEST 1; INA
    cpu.run(4 + 4 + 2)
    assert cpu.bus.calls == [("test", 1, 4), ("ina", 8)]

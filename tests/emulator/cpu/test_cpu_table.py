"""The opcode table: complete, consistent with the implementation and with the tests."""

import re
from pathlib import Path

import pytest

from emulator.cpu import optable
from emulator.cpu.optable import OPS
from emulator.cpu.sc61860 import SC61860

OPERAND_LENGTH = {"": 1, "lp": 1, "table": 1, "n": 2, "+r": 2, "-r": 2, "cal": 2, "nm": 3,
                  "k,nm": 4}

UNDOCUMENTED = {0x16, 0x17, 0x2E, 0x33, 0x36, 0x3C, 0x3D, 0x3E, 0x3F, 0x5C, 0x5E, 0x68, 0x6A,
                0x6C, 0x6D, 0x6E, 0x72, 0x73, 0x76, 0x77, 0x7B, 0xCD, 0xCF, 0xD3, 0xD7, 0xD9,
                0xDC, 0xDE}


def test_table_has_256_rows_indexed_by_opcode():
    assert [op.opcode for op in OPS] == list(range(256))


def test_table_every_mnemonic_is_implemented_and_every_implementation_used():
    implemented = SC61860(bytearray(0x10000), None).implemented
    assert {op.mnemonic for op in OPS} == implemented


def test_table_length_matches_the_operand_format():
    for op in OPS:
        assert op.length == OPERAND_LENGTH[op.operands], op


def test_table_undocumented_opcodes_are_the_known_gaps():
    assert {op.opcode for op in OPS if not op.documented} == UNDOCUMENTED


def test_table_every_instruction_costs_at_least_two_cycles():
    # step() relies on it: a one-cycle budget runs exactly one instruction
    assert min(min(op.cycles, op.taken) for op in OPS) >= 2


def test_table_block_counters():
    # the CPU takes a block instruction's length from the register its formula names
    assert {op.mnemonic for op in OPS if op.var == "J"} == {"MVB", "EXB", "MVBD", "EXBD"}
    assert {op.mnemonic for op in OPS if op.var == "I"} == {
        "MVW", "EXW", "MVWD", "EXWD", "ADN", "SBN", "ADW", "SBW", "SRW", "SLW", "FILM", "FILD",
        "DATA", "CUP", "CDN"}


def test_table_cycle_formulas_parse():
    assert optable._parse_cycles("4") == (4, 4, 0, "")
    assert optable._parse_cycles("7/4") == (4, 7, 0, "")
    assert optable._parse_cycles("5+2I") == (5, 5, 2, "I")
    with pytest.raises(ValueError):
        optable._parse_cycles("4+I")


def test_table_rejects_a_duplicate_opcode(tmp_path):
    bad = tmp_path / "t.csv"
    bad.write_text("opcode,mnemonic,operands,length,cycles,aliases,status,notes\n"
                   "00,LII,n,2,4,,doc,\n00,LIJ,n,2,4,,doc,\n")
    with pytest.raises(ValueError, match="twice"):
        optable.load(bad)


def test_table_every_mnemonic_has_a_test_named_after_it():
    here = Path(__file__).parent
    names = set()
    for path in here.glob("test_cpu_*.py"):
        names.update(re.findall(r"^def test_([a-z0-9]+)_", path.read_text(), re.M))
    missing = sorted({op.mnemonic for op in OPS} - {n.upper() for n in names})
    assert not missing


TRANSFERS = {"JRP", "JRM", "JRNZP", "JRNZM", "JRZP", "JRZM", "JRNCP", "JRNCM", "JRCP", "JRCM",
             "JP", "JPNZ", "JPZ", "JPNC", "JPC", "CALL", "CAL", "RTN", "DTC", "LOOP"}


def test_table_length_and_fixed_cost_drive_execution():
    from tests.helpers.cpu_harness import ORG, make_cpu
    cpu = make_cpu()
    for op in OPS:
        if op.mnemonic in TRANSFERS:
            continue
        cpu.mem[ORG:ORG + 4] = bytes([op.opcode, 0xAA, 0xAA, 0xAA])
        cpu.pc, cpu.iram[0], cpu.iram[1] = ORG, 0, 0   # I = J = 0: one-byte blocks
        spent = cpu.step()
        assert cpu.pc == ORG + op.length, op
        # with I = J = 0 a block costs its base; WAIT's operand is the 0xAA poison
        assert spent == op.cycles + (op.per * 0xAA if op.var == "n" else 0), op

"""The keyword table: the 132 PC-1360 keywords, their codes, ROM order and abbreviations."""

import csv
from pathlib import Path

import pytest

from pc1360.keywords import (
    ABBREVIATIONS,
    BY_CODE,
    BY_NAME,
    KEYWORDS,
    TYPED,
    resolve_abbreviation,
    shortest_abbreviation,
)

REFERENCE_CSV = Path(__file__).resolve().parents[3] / "shared" / "reference" / "pc1360_keywords.csv"
ROM_TABLE = 0x58E9 - 0x4000  # bank 0, CPU address &58E9 (docs/stored_format.md §1.2)


def test_132_keywords_with_distinct_names_and_codes():
    assert len(KEYWORDS) == 132
    assert len(BY_NAME) == 132 and len(BY_CODE) == 132
    assert [k.rom_index for k in KEYWORDS] == list(range(132))


def test_other_models_keywords_are_not_pc1360_keywords():
    for name in ("HEX$", "XOR", "FACT", "AUTO", "ERROR", "ELSE", "RESUME", "DECI", "HSN", "NCR"):
        assert name not in BY_NAME


@pytest.mark.parametrize("name, code", [
    ("RUN", 0x10), ("PRINT", 0x60), ("GOTO", 0x2B), ("REM", 0x59), ("PEEK", 0xA4), ("ASC", 0xD0),
    ("INKEY$", 0xE9), ("STR$", 0xF1), ("PSET", 0x34), ("WIDTH", 0x38), ("MDF", 0x80),
])
def test_sample_codes(name, code):
    assert BY_NAME[name].code == code
    assert BY_NAME[name].token == bytes((0xFE, code))


def test_the_eight_keywords_the_firmware_does_not_take_when_typed():
    untyped = {k.name for k in KEYWORDS if not k.typed}
    assert untyped == {"WIDTH", "AKCNV$", "KACNV$", "JIS$", "KLEN", "KMID$", "KLEFT$", "KRIGHT$"}
    assert len(TYPED) == 124


@pytest.mark.parametrize("prefix, name", [
    ("A", "ASC"), ("C", "CONT"), ("T", "THEN"), ("R", "RUN"), ("V", "VAL"), ("M", "MEM"),
    ("CL", "CLEAR"), ("CH", "CHR$"), ("CS", "CSAVE"), ("DE", "DEGREE"), ("GR", "GRAD"),
    ("LF", "LFILES"), ("LL", "LLIST"), ("PA", "PASS"), ("SE", "SET"), ("TE", "TEXT"),
    ("P", "PRINT"), ("PR", "PRINT"), ("PRIN", "PRINT"), ("I", "INPUT"), ("G", "GOTO"),
    ("GOS", "GOSUB"), ("L", "LIST"), ("DEG", "DEGREE"), ("AS", "ASC"),
])
def test_abbreviation_rule_first_in_rom_order(prefix, name):
    assert resolve_abbreviation(prefix).name == name
    assert ABBREVIATIONS[prefix + "."].name == name


def test_abbreviations_skip_untyped_keywords():
    # WI. is not WIDTH and KL. not KLEN: the firmware reads W, I. and K, L. instead
    assert "WI." not in ABBREVIATIONS and "KL." not in ABBREVIATIONS and "J." not in ABBREVIATIONS
    assert ABBREVIATIONS["W."].name == "WAIT"


def test_a_full_name_with_a_dot_is_not_an_abbreviation():
    assert "PRINT." not in ABBREVIATIONS  # PRINT .5
    assert "GOTO." not in ABBREVIATIONS


def test_op_dollar_is_open_dollar():
    assert ABBREVIATIONS["OP.$"].name == "OPEN$"
    assert ABBREVIATIONS["OP."].name == "OPEN"


def test_shortest_abbreviations_match_the_reference_table():
    if not REFERENCE_CSV.is_file():
        pytest.skip("reference notes not present")
    with REFERENCE_CSV.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 132
    for row in rows:
        keyword = BY_NAME[row["keyword"]]
        assert keyword.code == int(row["code_hex"][2:], 16)
        assert keyword.rom_index == int(row["rom_table_index"])
        if keyword.typed and row["keyword"] not in ("WIDTH",):
            assert (shortest_abbreviation(keyword) or "") == row["min_abbrev_rom_order"], keyword


def test_table_matches_the_rom(rom_dir):
    """Every entry of the ROM's keyword table: length/flag byte, code, handler, name."""
    rom = (rom_dir / "B0-1360.rom").read_bytes()
    pos = ROM_TABLE
    for keyword in KEYWORDS:
        length, flag = rom[pos] & 0x0F, rom[pos] >> 4
        assert rom[pos + 4:pos + 4 + length].decode("ascii") == keyword.name
        assert (rom[pos + 1], flag) == (keyword.code, keyword.flag)
        pos += 4 + length
    assert pos == 0x5D31 - 0x4000

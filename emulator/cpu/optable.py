"""The SC61860 opcode table (optable.csv) loaded into 256 `Op` records.

The CPU builds its dispatch list from these records and the disassembler formats
from them, so length, cycles and mnemonic live in exactly one place.
"""

import csv
import re
from dataclasses import dataclass
from pathlib import Path

CSV_PATH = Path(__file__).with_name("optable.csv")

# Operand formats, see the header of optable.csv.
OPERAND_FORMATS = ("", "n", "nm", "+r", "-r", "lp", "cal", "k,nm", "table")


@dataclass(frozen=True)
class Op:
    opcode: int
    mnemonic: str
    operands: str
    length: int
    cycles: int          # fixed cost; for branches the not-taken cost; for blocks the base
    taken: int           # cost when a branch is taken (LOOP: when it loops), else == cycles
    per: int             # extra cycles per unit of `var` (block instructions, WAIT, DTC)
    var: str             # "", "I", "J", "n" (operand byte) or "d" (hidden count)
    aliases: tuple
    documented: bool
    notes: str


_CYCLES = re.compile(r"^(\d+)(?:/(\d+)|\+(\d+)([IJnd]))?$")


def _parse_cycles(text):
    """'4' -> (4, 4, 0, ''); '7/4' -> (4, 7, 0, ''); '5+2I' -> (5, 5, 2, 'I')."""
    m = _CYCLES.match(text)
    if not m:
        raise ValueError(f"bad cycle formula {text!r}")
    first, not_taken, per, var = m.groups()
    if not_taken is not None:
        return int(not_taken), int(first), 0, ""
    if per is not None:
        return int(first), int(first), int(per), var
    return int(first), int(first), 0, ""


def _opcodes(text):
    lo, _, hi = text.partition("-")
    return range(int(lo, 16), int(hi or lo, 16) + 1)


def load(path=CSV_PATH):
    """Return the 256-entry list of Op, indexed by opcode; fail loudly on a bad table."""
    table = [None] * 256
    with open(path, newline="") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for row in rows:
            if row["operands"] not in OPERAND_FORMATS:
                raise ValueError(f"unknown operand format {row['operands']!r}")
            cycles, taken, per, var = _parse_cycles(row["cycles"])
            for opcode in _opcodes(row["opcode"]):
                if table[opcode] is not None:
                    raise ValueError(f"opcode {opcode:02X} listed twice")
                table[opcode] = Op(
                    opcode=opcode,
                    mnemonic=row["mnemonic"],
                    operands=row["operands"],
                    length=int(row["length"]),
                    cycles=cycles,
                    taken=taken,
                    per=per,
                    var=var,
                    aliases=tuple(row["aliases"].split()),
                    documented=row["status"] == "doc",
                    notes=row["notes"],
                )
    missing = [f"{i:02X}" for i, op in enumerate(table) if op is None]
    if missing:
        raise ValueError(f"opcodes missing from the table: {' '.join(missing)}")
    return table


OPS = load()

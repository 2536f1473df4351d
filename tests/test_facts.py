"""pc1360/facts.py is the one definition of the machine facts: no other module of the
packages writes one of them as a literal, and the facts agree with the memory map."""

import ast
from pathlib import Path

import pytest

from emulator.machine import memmap
from pc1360 import facts

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pc1360", "emulator", "tools")
# Values distinct enough that the number itself, anywhere in code, restates the fact.
DISTINCT = ("CYCLES_PER_SECOND", "BANK_REGISTER", "LCD_BASE", "LCD_LAST", "SYMBOL_BYTE",
            "KEY_STROBE_ADDR", "START_PTR", "END_PTR", "MERGE_PTR", "DIM_PTR",
            "CARD_BOUNDS_PTR", "FIXED_Z", "DIM_TOP", "SYSTEM_END_COPY", "TEXT_BUFFER",
            "INPUT_BUFFER", "LINE_POINTER",
            "MAX_LINE", "SIO_LATCH", "SIO_LATCH_SHADOW")
# Bytes of a stored line: too common to look for everywhere, so only where a byte is
# compared with one (a hand-written token walk).
TOKEN_BYTES = ("PREFIX", "LINE_REF", "QUOTE")

_FACT_NAMES = {name for name in vars(facts) if name.isupper()}
_BY_VALUE = {getattr(facts, name): name for name in DISTINCT}
_TOKEN_VALUES = {getattr(facts, name): name for name in TOKEN_BYTES}


def _literal(node):
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


def _targets(node):
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        yield from (target.elts if isinstance(target, ast.Tuple) else [target])


def _operands(compare):
    """The compared values, those of a literal tuple or set (`byte in (0x22, 0x0D)`) too."""
    for operand in [compare.left, *compare.comparators]:
        yield from (operand.elts if isinstance(operand, (ast.Tuple, ast.Set, ast.List)) else [operand])


def restated_facts(source):
    """[(line, what)] for each fact the module source writes as a literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value in _BY_VALUE:
            written = ast.get_source_segment(source, node)
            found.append((node.lineno, f"{written} is facts.{_BY_VALUE[node.value]}"))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and _literal(node.value):
            for target in _targets(node):
                name = getattr(target, "id", "").lstrip("_")
                if name in _FACT_NAMES:
                    found.append((node.lineno, f"defines {name} (facts.{name})"))
        elif isinstance(node, ast.Compare):
            for operand in _operands(node):
                value = getattr(operand, "value", None)
                if type(value) is int and value in _TOKEN_VALUES:
                    found.append((node.lineno, f"compares with {value:#x} (facts."
                                               f"{_TOKEN_VALUES[value]})"))
    return found


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name != "pc1360/facts.py":
                yield name, path.read_text(encoding="utf-8")


def test_no_module_restates_a_fact():
    found = [f"{name}:{line}: {what}" for name, source in _modules()
             for line, what in restated_facts(source)]
    assert found == [], "import these from pc1360.facts:\n" + "\n".join(found)


@pytest.mark.parametrize("source, found", [
    ("X = 0x303C\n", [(1, "0x303C is facts.SYMBOL_BYTE")]),
    ("def f(mem):\n    return mem[256_000]\n", [(2, "256_000 is facts.CYCLES_PER_SECOND")]),
    ("_PREFIX = 0xFE\n", [(1, "defines PREFIX (facts.PREFIX)")]),
    ("A, KEYWAIT_STROBE = 1, 0x3F\n", [(1, "defines KEYWAIT_STROBE (facts.KEYWAIT_STROBE)")]),
    ("ok = byte == 0x22\n", [(1, "compares with 0x22 (facts.QUOTE)")]),
    ("ok = mem[pos] not in (0x22, 0x0D)\n", [(1, "compares with 0x22 (facts.QUOTE)")]),
    ("from pc1360.facts import PREFIX\nKEY = PREFIX\nok = byte == PREFIX\n", []),
])
def test_what_counts_as_restating(source, found):
    assert restated_facts(source) == found


def test_facts_agree_with_the_memory_map():
    kinds = {"lcd": (facts.LCD_BASE, facts.LCD_LAST, facts.SYMBOL_BYTE, facts.SYSTEM_END_COPY,
                     facts.SIO_LATCH_SHADOW, *facts.LCD_BLOCK_BASES),
             "strobe": (facts.KEY_STROBE_ADDR,), "io": (facts.SIO_LATCH,),
             "bank": (facts.BANK_REGISTER,),
             "card": (facts.START_PTR, facts.DIM_PTR, facts.CARD_BOUNDS_PTR, facts.FIXED_Z,
                      facts.TEXT_BUFFER, facts.CARD_WINDOW)}
    for kind, addresses in kinds.items():
        assert {memmap.region_of(address) for address in addresses} == {kind}
    assert memmap.region_of(facts.BANK_WINDOW) == "rom"
    assert memmap.region_of(facts.CPU_ROM_SIZE - 1) == "rom"
    assert facts.LCD_BLOCK_BASES == (0x2800, 0x2A00, 0x2C00, 0x2E00, 0x3000)
    assert (facts.LCD_WIDTH, facts.LCD_HEIGHT) == (150, 32)
    last_cell = facts.TEXT_X0 + facts.CELL_PITCH * (facts.TEXT_COLUMNS - 1) + facts.GLYPH_WIDTH
    assert last_cell <= facts.LCD_WIDTH


def test_the_firmware_bit_time_is_near_the_nominal_one():
    assert tuple(facts.SIO_BIT_CYCLES) == facts.SIO_BAUDS
    for baud, cycles in facts.SIO_BIT_CYCLES.items():
        assert abs(cycles * baud / facts.CYCLES_PER_SECOND - 1) < 0.01

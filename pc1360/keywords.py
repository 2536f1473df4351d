"""The PC-1360 keyword table: 132 keywords, each stored as the two bytes 0xFE, code.

keywords.csv lists them in the order of the ROM's own table (bank 0, &58E9), which is the
order the ROM searches when it expands an abbreviation such as "P." (docs/stored_format.md
§1.2). This one table drives the tokenizer and the lister.

The column "typed" is 0 for the eight keywords the firmware does not recognise when a
line is typed (WIDTH and the seven Kanji functions of the Japanese model): it stores
their letters instead, and no abbreviation leads to them ("WI." is W, INPUT). The lister
still knows their tokens. (Lines typed into the real firmware, running in the emulator,
and the bytes it stored are recorded in tests/pc1360/test_tokenizer.py.)
"""

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pc1360.facts import PREFIX


@dataclass(frozen=True)
class Keyword:
    name: str
    code: int  # the byte after 0xFE
    rom_index: int  # position in the ROM table: the abbreviation search order
    flag: int  # high nibble of the ROM length byte (meaning not documented)
    typed: bool  # recognised by the firmware when a line is typed

    @property
    def token(self):
        return bytes((PREFIX, self.code))


def _load():
    # next to this module, as the package installs it (importlib.resources would cost the
    # short commands that tokenize or list a program a tenth of their time)
    text = Path(__file__).with_name("keywords.csv").read_text(encoding="ascii")
    rows = csv.DictReader(io.StringIO(text))
    return tuple(Keyword(r["name"], int(r["code"], 16), int(r["rom_index"]), int(r["flag"], 16),
                         r["typed"] == "1") for r in rows)


KEYWORDS = tuple(sorted(_load(), key=lambda k: k.rom_index))  # ROM search order
BY_NAME = {k.name: k for k in KEYWORDS}
BY_CODE = {k.code: k for k in KEYWORDS}
TYPED = tuple(k for k in KEYWORDS if k.typed)


def resolve_abbreviation(prefix):
    """The keyword that `prefix` followed by "." stands for: the first typed keyword in
    ROM order whose name starts with it, or None."""
    return next((k for k in TYPED if k.name.startswith(prefix)), None)


def shortest_abbreviation(keyword):
    """The shortest "X." form that selects `keyword`, or None when every shorter prefix
    selects an earlier keyword."""
    for length in range(1, len(keyword.name)):
        if resolve_abbreviation(keyword.name[:length]) is keyword:
            return keyword.name[:length] + "."
    return None


def abbreviations():
    """Every typed form "PREFIX." that the ROM expands, mapped to its keyword.

    A prefix equal to the whole name of the keyword it selects is not an abbreviation
    ("PRINT." is PRINT followed by a decimal point, as in PRINT .5). "OP.$" for OPEN$ is
    the one form with a character after the dot: OP. alone selects OPEN (bas2img accepts
    it; docs/stored_format.md §1.2).
    """
    # resolve_abbreviation of every prefix of a typed name, in one pass in ROM order (this
    # runs on every import, which a short command such as tokenize waits for)
    chosen = {}
    for keyword in TYPED:
        for length in range(1, len(keyword.name) + 1):
            chosen.setdefault(keyword.name[:length], keyword)
    table = {}
    for keyword in TYPED:
        for length in range(1, len(keyword.name) + 1):
            prefix = keyword.name[:length]
            if chosen[prefix].name != prefix and prefix.isalpha():
                table[prefix + "."] = chosen[prefix]
    table["OP.$"] = BY_NAME["OPEN$"]
    return table


def typed_costs():
    """keyword code -> the fewest characters that type it: its name or its shortest
    abbreviation."""
    costs = {k.code: len(k.name) for k in KEYWORDS}
    for form, keyword in ABBREVIATIONS.items():
        costs[keyword.code] = min(costs[keyword.code], len(form))
    return costs


ABBREVIATIONS = abbreviations()
TYPED_COST = typed_costs()

# Where the firmware stores a literal line number as 0x1F hi lo. Observed by typing into
# the real firmware (they differ from PocketTools' rules in docs/stored_format.md §1.3): after
# GOTO and GOSUB every comma-separated item of the statement that is a plain number; after
# THEN, RESTORE, ARUN and AUTOGOTO only the first item. Never after RUN, LIST, LLIST,
# CHAIN, DELETE or RENUM. The item must end at ",", ":" or the end of the line, and the
# number be a possible line number (1 to 65279).
LINE_NUMBER_LISTS = frozenset(BY_NAME[n].code for n in ("GOTO", "GOSUB"))
LINE_NUMBER_FIRST = frozenset(BY_NAME[n].code for n in ("THEN", "RESTORE", "ARUN", "AUTOGOTO"))
REM = BY_NAME["REM"].code

"""The built-in engine's cycle figures, loaded from timing.csv (one row per measured
figure, with how it was measured on the firmware engine).

Modules bind the figures they use at import: `KEY_RELEASE = CYCLES["key_release"]`.
"""

import csv
from pathlib import Path

CSV_PATH = Path(__file__).with_name("timing.csv")


def _number(text):
    return float(text) if "." in text else int(text)


def _load(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = [line for line in f if line.strip() and not line.startswith("#")]
    table = {}
    for row in csv.DictReader(rows):
        name = row["name"]
        if name in table:
            raise ValueError(f"{path.name}: {name} is given twice")
        table[name] = _number(row["cycles"])
    return table


CYCLES = _load(CSV_PATH)

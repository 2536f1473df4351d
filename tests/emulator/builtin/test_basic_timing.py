"""The built-in engine's emulated time against the firmware engine's (issue 4).

Short programs (a loop, strings, math functions, PRINT, graphics, jumps, DIM, BEEP) are
timed from the press of ENTER after RUN to the prompt's key wait
(emulator/machine/stopwatch.py), as bench/bench_timing.py times its five benchmarks.
The firmware's cycles are stored in data/timing_reference.json (`python
tests/helpers/program_timing.py` measures them again); the built-in engine must come
within TOLERANCE of each.
"""

import csv
import json
from pathlib import Path

import pytest

from emulator.builtin import timing
from emulator.builtin.statement_table import PRINTER, PRINTER_COMMANDS, statement_table
from emulator.machine import stopwatch
from emulator.machine.facade import KEY_HOLD

HERE = Path(__file__).resolve().parent
REFERENCE = json.loads((HERE / "data" / "timing_reference.json").read_text())["programs"]
TOLERANCE = 0.10


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_builtin_time_is_the_firmwares(name):
    entry = REFERENCE[name]
    machine = stopwatch.boot("builtin", None)
    cycles = stopwatch.time_program(machine, entry["source"])
    assert cycles is not None, f"{name}: the program never got back to the prompt"
    ratio = cycles / entry["cycles"]
    assert abs(ratio - 1) <= TOLERANCE, (
        f"{name}: built-in {cycles} cycles, firmware {entry['cycles']} (x{ratio:.3f})")
    assert machine.engine.internal_errors == []


# Cycles the two executors of before (interpreter and statement compiler) agreed on
# for these programs (jumps' line search, LINE's dots, GPRINT's items); the one
# executor since must charge the same (both end with END, graphics starts with CLS,
# whose figures were measured again since: 451,072 and 742,912 before).
EXECUTOR_CYCLES = {"far_jumps": 459_520, "graphics": 760_576}


@pytest.mark.parametrize("name", EXECUTOR_CYCLES)
def test_statements_take_the_time_they_took(name):
    machine = stopwatch.boot("builtin", None)
    assert stopwatch.time_program(machine, REFERENCE[name]["source"]) == \
        EXECUTOR_CYCLES[name]


def test_every_runtime_figure_says_how_it_was_found():
    """timing.csv's runtime section: a whole number of cycles and a `measured` note
    on every row, and every statement of the statement table has its row."""
    lines = timing.CSV_PATH.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# ==== runtime"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("# ===="))
    rows = list(csv.reader(line for line in lines[start:end] if not line.startswith("#")))
    assert rows and all(len(row) == 3 and row[1].isdigit() and row[2] for row in rows)
    names = {row[0] for row in rows}
    assert {"stmt_" + name for name in ("let", "print", "chain", "open")} <= names
    # a row a statement, but for the printer's statements and commands, which share
    # stmt_printer
    shared = len(PRINTER) + len(PRINTER_COMMANDS)
    assert len(statement_table()) == len([n for n in names if n.startswith("stmt_")]) - 1 + shared


def test_an_endless_program_is_reported_as_such(monkeypatch):
    monkeypatch.setattr(stopwatch, "MAX_SECONDS", 1)
    machine = stopwatch.boot("builtin", None)
    assert stopwatch.time_program(machine, "10 GOTO 10\n") is None


@pytest.mark.rom
@pytest.mark.slow
def test_firmware_time_matches_builtin_live(rom_dir):
    """The stored figure is still what the firmware takes, and the built-in engine
    comes within TOLERANCE of a live firmware run."""
    source = REFERENCE["loop"]["source"]
    firmware = stopwatch.time_program(stopwatch.boot("firmware", rom_dir), source)
    builtin = stopwatch.time_program(stopwatch.boot("builtin", None), source)
    assert abs(firmware - REFERENCE["loop"]["cycles"]) < 2_000
    assert abs(builtin / firmware - 1) <= TOLERANCE


# ENTER on a typed RUN-mode line: cycles from its press to the next key wait, as the
# firmware engine took them (a fresh display, the line on the second row).
TYPED_LINES = {
    "1": 76_432, "12345678901234567890123456789": 104_434, "SIN 30": 123_113,
    "A=SIN 30": 128_527, "A=1": 81_924, "2*3+4*5-6/7": 103_919,
    "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1": 137_552, "1+": 73_571, "CONT": 72_740,
    "GOTO 500": 77_708, "WAIT 0": 86_932, "RADIAN": 86_881, "CLEAR": 86_217,
}


@pytest.mark.parametrize("line", sorted(TYPED_LINES))
def test_typed_line_takes_the_firmwares_time(line):
    """Its length, its expression and its kind (value, error, statement) count."""
    machine = stopwatch.boot("builtin", None)
    machine.type_keys(line)
    machine.key_wait_ready()
    start = machine.cycles
    machine.press("ENTER")
    machine.run_for(KEY_HOLD)
    machine.release("ENTER")
    assert machine.key_wait_ready()
    cycles = machine.cycles - start
    ratio = cycles / TYPED_LINES[line]
    assert abs(ratio - 1) <= 0.03, f"{line}: built-in {cycles} cycles (x{ratio:.3f})"
    assert machine.engine.internal_errors == []

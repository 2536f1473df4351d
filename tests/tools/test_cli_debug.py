"""`pc1360 debug` driven by a script on standard input, on both engines."""

import io
import re

import pytest

from emulator.builtin.vars import fixed_address
from emulator.cpu.optable import OPS
from pc1360.facts import STATEMENT_DISPATCH
from tools.cli import main

ENGINES = [pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"]
LOOP = "10 FOR I=1 TO 3\n20 S=S+I\n30 NEXT I\n40 END\n"
S = fixed_address(ord("S"))


def debug(engine, tmp_path, monkeypatch, capsys, script, rom_dir=None):
    """(exit status, the lines printed) of `pc1360 debug` reading `script`."""
    program = tmp_path / "loop.bas"
    program.write_text(LOOP)
    args = ["debug", "--engine", engine, "--card-file", str(tmp_path / "card.bin"),
            "--load", str(program)]
    if rom_dir is not None:
        args += ["--rom", str(rom_dir)]
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out.splitlines()


def answers(lines, command):
    """The lines printed after each echo of `command`, up to the next command."""
    found = []
    for start, line in enumerate(lines, 1):
        if line == f"(pc1360) {command}":
            end = next((i for i in range(start, len(lines)) if lines[i].startswith("(pc1360) ")),
                       len(lines))
            found.append(lines[start:end])
    return found


def answer(lines, command):
    return answers(lines, command)[0]


@pytest.fixture(params=ENGINES)
def engine(request):
    if request.param == "firmware":
        request.getfixturevalue("rom_dir")
    return request.param


def test_a_line_breakpoint_in_a_loop_and_a_watch(engine, tmp_path, monkeypatch, capsys, request):
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    script = ("break line 20\nkeys RUN{ENTER}\ncontinue\nvars\ncontinue 5\nline\nvars all\n"
              f"delete 1\nwatch {S:04X}-{S + 7:04X}\ncontinue\nquit\n")
    status, lines = debug(engine, tmp_path, monkeypatch, capsys, script, rom_dir)
    assert status == 0
    assert answer(lines, "break line 20") == ["breakpoint 1: line 20 (0 hits)"]
    first = answer(lines, "continue")
    assert first[0] == "breakpoint 1: line 20 (1 hits)"
    assert first[-1].startswith("line 20, statement 1 of 1: 20:S=S+I")
    assert answer(lines, "vars") == [f"I = 1.   ({fixed_address(ord('I')):04X}-{fixed_address(ord('I')) + 7:04X})"]
    assert answer(lines, "continue 5")[0] == "breakpoint 1: line 20 (2 hits)"
    assert answer(lines, "line")[0].startswith("line 20, statement 1 of 1")
    everyone = answer(lines, "vars all")
    assert len(everyone) == 26 and everyone[8].startswith("I = 2.") and everyone[18].startswith("S = 1.")
    watched = answers(lines, "continue")[1]
    assert watched[0].startswith(f"watchpoint 2: {S:04X}-{S + 7:04X} write (1 hits)")
    assert watched[-1].startswith("line 20, statement 1 of 1: 20:S=S+I")


def test_bad_commands_are_told_and_fail_the_script(engine, tmp_path, monkeypatch, capsys, request):
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    script = ("frobnicate\nbreak XYZ\npoke FA00 100\nmem 12345\nstep 0\ncontinue forever\n"
              "watch FA00 sometimes\ndelete 7\nrestore nothing\nkeys {NOPE}\nscreen\n")
    status, lines = debug(engine, tmp_path, monkeypatch, capsys, script, rom_dir)
    assert status == 1
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors[:9] == [
        "error: unknown command 'frobnicate' (help lists the commands)",
        "error: bad address 'XYZ': give it in hex, 0000-FFFF",
        "error: bad byte '100': give it in hex, 00-FF",
        "error: bad address '12345': give it in hex, 0000-FFFF",
        "error: bad count '0': from 1 to 1000000000",
        "error: bad seconds 'forever': give a number",
        "error: bad access 'sometimes': write | read | any",
        "error: no breakpoint or watchpoint 7",
        "error: no snapshot 'nothing'",
    ]
    assert errors[9].startswith("error: unknown key {NOPE}")
    screen = answer(lines, "screen")                      # the session went on
    assert screen[0] == screen[5] == "+" + "-" * 24 + "+" and screen[6].startswith("symbols: ")


def test_cpu_commands_on_the_builtin_engine_say_what_they_need(tmp_path, monkeypatch, capsys):
    status, lines = debug("builtin", tmp_path, monkeypatch, capsys, "regs\nstep\nbreak 5D68\n")
    assert status == 1
    assert answer(lines, "regs") == ["error: regs needs the firmware engine (the built-in engine has no CPU)"]
    assert answer(lines, "step") == ["error: step needs the firmware engine (the built-in engine has no CPU)"]


@pytest.mark.rom
@pytest.mark.slow
def test_firmware_address_breakpoint_step_next_and_trace(rom_dir, tmp_path, monkeypatch, capsys):
    bank, dispatch = STATEMENT_DISPATCH
    trace = tmp_path / "trace.txt"
    script = (f"break {bank}:{dispatch:04X}\nkeys RUN{{ENTER}}\ncontinue\nregs\nstep\n"
              f"trace {trace}\nstep 12\ntrace off\nnext\ndisasm\nquit\n")
    status, lines = debug("firmware", tmp_path, monkeypatch, capsys, script, rom_dir)
    assert status == 0
    stop = answer(lines, "continue")
    assert stop[0] == f"breakpoint 1: {dispatch:04X} in bank {bank} (1 hits)"
    assert stop[1].startswith(f"PC {dispatch:04X}  ")
    assert answer(lines, "regs")[0].startswith(f"PC={dispatch:04X} ")
    step = answer(lines, "step")
    opcode = int(stop[1].split()[2], 16)
    assert step[0] == f"step: 1 instruction, the last {OPS[opcode].cycles} cycles"
    assert answer(lines, "trace off") == [f"trace off: 12 lines in {trace}"]
    traced = trace.read_text().splitlines()
    assert len(traced) == 12 and traced[0][:4] == step[1].split()[1]
    assert answer(lines, "next")[1].startswith("PC ")
    listing = answer(lines, "disasm")
    assert len(listing) == 10 and listing[0].startswith(">")
    assert re.match(r"^>[0-9A-F]{4}  ", listing[0])

"""The debugger at the CPU level on the firmware engine: address breakpoints, step with the
opcode table's cycles, next over a CALL, finish, the instruction trace, read watchpoints;
and the ROM's statement dispatch it follows BASIC with (pc1360.facts.STATEMENT_DISPATCH),
against the built-in engine's statements."""

import re

import pytest

from emulator.builtin.vars import fixed_address
from emulator.cpu.disasm import disassemble
from emulator.cpu.optable import OPS
from emulator.cpu.sc61860 import XH, XL
from emulator.debug.debugger import Debugger
from emulator.machine.facade import PC1360
from pc1360.facts import STATEMENT_DISPATCH
from pc1360.tokenizer import tokenize
from tests.helpers.booting import boot_cleared, booted_machine

pytestmark = [pytest.mark.rom, pytest.mark.slow]

BANK, DISPATCH = STATEMENT_DISPATCH
JUMPS = """10 A=1:B=2
20 GOTO 40
30 C=3
40 IF A=1 LET D=4:E=5
50 GOSUB 70:F=6
60 END
70 "L" G=7:RETURN
"""
# the statements as they begin, line:statement
JUMPS_ORDER = ["10:1", "10:2", "20:1", "40:1", "40:2", "50:1", "70:1", "70:2", "50:2", "60:1"]


@pytest.fixture(scope="module")
def firmware(rom_dir):
    machine = boot_cleared(PC1360(rom_dir=rom_dir))
    return machine, machine.snapshot()


@pytest.fixture
def running(firmware):
    """The firmware running a loop, stopped at its first statement by a new debugger."""
    machine, snap = firmware
    machine.restore(snap)
    machine.load_program(tokenize("10 A=A+1:B=SIN A:GOTO 10\n"))
    debugger = Debugger(machine)
    point = debugger.break_line(10)
    debugger.type_keys("RUN{ENTER}")
    assert debugger.cont() == point.describe()
    debugger.delete()
    return machine, debugger


def test_an_address_breakpoint_stops_there_with_the_registers(running):
    machine, debugger = running
    cpu = machine.engine.cpu
    point = debugger.break_at(DISPATCH, BANK)
    assert debugger.cont() == "breakpoint 2: 5D68 in bank 0 (1 hits)"
    assert cpu.pc == DISPATCH and machine.bus.bank == BANK
    assert debugger.registers() == f"{cpu!r} bank={BANK} cycles={machine.cycles}"
    # at the dispatch X holds the address of the statement's first byte: B=SIN A
    x = cpu.iram[XL] | cpu.iram[XH] << 8
    assert bytes(machine.mem[x:x + 2]) == b"B="
    report = debugger.report(debugger.cont())
    assert report[1] == "PC " + debugger.target.pc_line(DISPATCH)
    assert report[2].startswith("line 10, statement 3 of 3: 10:GOTO 10")
    assert point.hits == 2


def test_a_breakpoint_in_another_bank_does_not_stop(running):
    _machine, debugger = running
    debugger.break_at(DISPATCH, BANK + 1)
    assert debugger.cont(0.3) == "0.3 seconds passed"


def test_step_runs_one_instruction_with_the_cycles_of_the_table(running):
    machine, debugger = running
    cpu = machine.engine.cpu
    checked = 0
    for _ in range(200):
        pc, op = cpu.pc, OPS[machine.mem[cpu.pc]]
        start = machine.cycles
        reason = debugger.step()
        cycles = debugger.target.last_cycles
        assert reason == f"step: 1 instruction, the last {cycles} cycles"
        assert machine.cycles - start == cycles
        if op.per:
            continue            # the cost depends on a count (block moves, WAIT)
        straight = cpu.pc == (pc + op.length) & 0xFFFF
        assert cycles == (op.cycles if straight or op.taken == op.cycles else op.taken), disassemble(machine.mem, pc)
        checked += 1
    assert checked > 100


def test_next_runs_over_a_call_and_finish_out_of_one(running):
    machine, debugger = running
    cpu = machine.engine.cpu
    for _ in range(500):
        if debugger.target.at_call():
            break
        debugger.step()
    back, r = debugger.target.at_call()
    debugger.snapshot("call")
    start = machine.cycles
    assert debugger.next() == "next: over the call"
    assert (cpu.pc, cpu.r) == (back, r)
    assert machine.cycles - start > OPS[0x78].cycles       # the subroutine ran too
    debugger.restore("call")
    debugger.step()                                          # into the call
    assert cpu.r == (r - 2) & 0x7F
    assert debugger.finish().startswith("finish: returned from ")
    assert (cpu.pc, cpu.r) == (back, r)


def test_trace_writes_a_line_per_instruction(running, tmp_path):
    machine, debugger = running
    cpu = machine.engine.cpu
    path = tmp_path / "trace.txt"
    expected = []
    snap = machine.snapshot()
    for _ in range(40):
        expected.append(cpu.pc)
        cpu.step()
    machine.restore(snap)
    debugger.trace(path)
    debugger.step(40)
    assert debugger.trace_off().lines == 40
    lines = path.read_text().splitlines()
    assert [int(line[:4], 16) for line in lines] == expected
    assert all(disassemble(machine.mem, pc)[0] in line for pc, line in zip(expected, lines))


def test_a_read_watchpoint_stops_at_the_instruction_that_reads(running):
    _machine, debugger = running
    a = fixed_address(ord("A"))
    point = debugger.watch(a, a + 7, "read")
    reason = debugger.cont()
    assert reason.startswith(f"{point.describe()}: read ")
    assert debugger.place()[0].line == 10


@pytest.mark.parametrize("engine", ["firmware", "builtin"])
def test_the_statements_begin_in_the_same_order_on_both_engines(engine, firmware, tmp_path):
    if engine == "firmware":
        machine, snap = firmware
        machine.restore(snap)
    else:
        machine = booted_machine((None, None))
    machine.load_program(tokenize(JUMPS))
    debugger = Debugger(machine)
    path = tmp_path / "statements.txt"
    debugger.trace(path, instructions=False)
    debugger.type_keys("RUN{ENTER}")
    assert debugger.cont() == "waiting for a key"
    debugger.trace_off()
    begun = [":".join(re.match(r"line (\d+), statement (\d+) ", line).groups())
             for line in path.read_text().splitlines()]
    assert begun == JUMPS_ORDER


def test_after_an_unwatched_run_the_line_comes_from_the_line_pointer(running):
    machine, debugger = running
    machine.run_for(0.2)
    place, how = debugger.place()
    assert how == "finished last (LINE_POINTER)" and place.line == 10

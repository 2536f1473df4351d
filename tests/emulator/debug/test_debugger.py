"""The debugger object on both engines: BASIC-level stops (line breakpoints, watchpoints,
statement steps), snapshots, and a machine that runs as without it when nothing is set."""

import pytest

from emulator.builtin.vars import fixed_address
from emulator.debug.debugger import DebugError, Debugger
from pc1360.tokenizer import tokenize
from tests.helpers.booting import booted_machine

LOOP = """10 FOR I=1 TO 3
20 S=S+I
30 NEXT I
40 END
"""
S_BYTES = (fixed_address(ord("S")), fixed_address(ord("S")) + 7)


def values(debugger):
    return {v.name: v.value for v in debugger.variables()}


@pytest.fixture
def loop(booted):
    """A machine with LOOP on its card at the RUN-mode prompt, and a new debugger on it."""
    machine = booted_machine(booted)
    machine.load_program(tokenize(LOOP))
    return machine, Debugger(machine)


def test_a_line_breakpoint_in_a_loop_stops_there_each_time(loop):
    _machine, debugger = loop
    point = debugger.break_line(20)
    assert debugger.type_keys("RUN{ENTER}") is None
    for i in (1, 2, 3):
        assert debugger.cont() == point.describe()
        place, _how = debugger.place()
        assert (place.line, place.statement) == (20, 1)
        assert values(debugger)["I"] == f"{i}."
    assert point.hits == 3
    assert debugger.cont() == "waiting for a key"      # the program ended
    assert values(debugger) == {"I": "4.", "S": "6."}


def test_a_watchpoint_stops_at_the_statement_that_writes_the_bytes(loop):
    _machine, debugger = loop
    point = debugger.watch(*S_BYTES)
    debugger.type_keys("RUN{ENTER}")
    assert debugger.cont().startswith(point.describe())
    place, _how = debugger.place()
    assert place.line == 20
    assert point.hits == 1


def test_stmt_runs_to_the_next_statements(loop):
    _machine, debugger = loop
    debugger.break_line(20)
    debugger.type_keys("RUN{ENTER}")
    debugger.cont()
    debugger.delete()
    assert debugger.step_statements() == "stmt: 1 statement"
    assert debugger.place()[0].line == 30
    assert debugger.step_statements(2) == "stmt: 2 statements"
    assert debugger.place()[0].line == 30
    assert values(debugger)["I"] == "2."


def test_restore_puts_the_machine_back_at_the_stop(loop):
    _machine, debugger = loop
    debugger.break_line(20)
    debugger.type_keys("RUN{ENTER}")
    debugger.cont()
    debugger.snapshot("first")
    debugger.delete()
    assert debugger.cont() == "waiting for a key"
    debugger.restore("first")
    assert values(debugger) == {"I": "1."}
    assert debugger.place()[0].line == 20
    debugger.break_line(20)
    debugger.cont()
    assert values(debugger)["I"] == "2."
    with pytest.raises(DebugError, match="no snapshot 'other'"):
        debugger.restore("other")


def test_with_nothing_set_the_machine_runs_as_without_a_debugger(booted):
    machine = booted_machine(booted)
    machine.load_program(tokenize("10 A=A+1:GOTO 10\n"))
    machine.type_keys("RUN{ENTER}")
    twin = machine.snapshot()
    start = machine.cycles
    assert Debugger(machine).cont(0.7) == "0.7 seconds passed"
    ran = machine.cycles - start
    after = machine.snapshot()
    machine.restore(twin)
    machine.run_cycles(ran)
    plain = machine.snapshot()
    assert (after.mem, after.engine, after.cycles) == (plain.mem, plain.engine, plain.cycles)


def test_points_are_numbered_listed_and_deleted(loop):
    _machine, debugger = loop
    first = debugger.break_line(20)
    second = debugger.watch(0xFA00, 0xFA07)
    assert (first.number, second.number) == (1, 2)
    assert second.describe() == "watchpoint 2: FA00-FA07 write (0 hits)"
    debugger.delete(1)
    assert list(debugger.points) == [2]
    with pytest.raises(DebugError, match="no breakpoint or watchpoint 1"):
        debugger.delete(1)
    with pytest.raises(DebugError, match="bad range"):
        debugger.watch(0xFA08, 0xFA00)


def test_cpu_commands_need_the_firmware_engine():
    from emulator.machine.facade import PC1360
    from tests.helpers.booting import boot_cleared

    debugger = boot_cleared(PC1360(engine="builtin")).debugger
    for request in (lambda: debugger.break_at(0x5D68), debugger.step, debugger.next,
                    debugger.finish, debugger.registers, debugger.disassembly,
                    lambda: debugger.watch(0xFA00, access="read"),
                    lambda: debugger.trace("unused.txt", instructions=True)):
        with pytest.raises(DebugError, match="needs the firmware engine"):
            request()


def test_a_line_that_jumps_to_itself_stops_at_each_pass(booted):
    machine = booted_machine(booted)
    machine.load_program(tokenize("10 A=A+1:GOTO 10\n"))
    debugger = Debugger(machine)
    debugger.break_line(10)
    debugger.type_keys("RUN{ENTER}")
    seen = []
    for _ in range(3):
        debugger.cont()
        seen.append(values(debugger).get("A"))
    assert seen == [None, "1.", "2."]       # A is 0 (not shown) before the first pass

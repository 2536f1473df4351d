"""The PC-1360 debugger (`machine.debugger`): breakpoints at addresses and at BASIC lines,
watchpoints on memory, stepping by instruction or by statement, a trace file, the BASIC
statement running and the variables by name, snapshots; the same on both engines wherever
the engine has the thing (the built-in engine has no CPU).

It runs the machine through its facade (run_cycles, type_keys) and stops it from inside a
slice with `machine.halted`. While a breakpoint, watchpoint or trace is set, or a command
waits for an instruction or statement, the engine runs through a target's runner
(firmware_target.py, builtin_target.py) that checks before each instruction or statement;
otherwise the machine runs exactly as it does without a debugger.
"""

import contextlib
import signal
import threading
from dataclasses import dataclass, field

from emulator.debug.basic_text import ProgramText
from emulator.debug.builtin_target import BuiltinTarget
from emulator.debug.firmware_target import WINDOW, FirmwareTarget
from emulator.debug.variables import all_variables, format_variable
from emulator.machine.facade import READY_STROBES
from pc1360.facts import CYCLES_PER_SECOND

CHUNK = CYCLES_PER_SECOND // 10     # cycles per run_cycles call: the stops are looked for between
# a timed run with nothing to check runs its last TAIL cycles watched, so that the stop
# knows the statement the firmware runs (about a hundred instructions each)
TAIL = CYCLES_PER_SECOND // 20
ACCESSES = ("write", "read", "any")
PANEL_CODE = 8          # instructions the window's panel shows from the PC
PANEL_VARIABLES = 10


class DebugError(ValueError):
    """A request the debugger cannot do; the message says why, in one line."""


@dataclass
class Breakpoint:
    number: int
    addr: int | None = None     # an instruction address ...
    bank: int | None = None     # ... in this ROM bank only (None: any)
    line: int | None = None     # ... or a BASIC line
    hits: int = 0

    def describe(self):
        if self.line is not None:
            where = f"line {self.line}"
        else:
            where = f"{self.addr:04X}" + ("" if self.bank is None else f" in bank {self.bank}")
        return f"breakpoint {self.number}: {where} ({self.hits} hits)"


@dataclass
class Watchpoint:
    number: int
    first: int
    last: int
    access: str = "write"
    hits: int = 0

    def describe(self):
        span = f"{self.first:04X}" + (f"-{self.last:04X}" if self.last != self.first else "")
        return f"watchpoint {self.number}: {span} {self.access} ({self.hits} hits)"

    def sees(self, kind, addr):
        return self.first <= addr <= self.last and self.access in (kind, "any")


@dataclass
class Armed:
    """What a target's runner checks: the points, and what the command running waits for."""
    addresses: dict = field(default_factory=dict)   # pc -> banks (None: any)
    watched: frozenset = frozenset()                # the watched addresses
    ranges: tuple = ()                              # (first, last) of the watchpoints
    count: int | None = None        # instructions to run (step)
    until: tuple | None = None      # (pc, R): where `next` returns from its call
    finish_r: int | None = None     # a return that leaves R above this ends `finish`
    statements: int | None = None   # statements to begin (stmt)


class Tracer:
    """The trace file: a line per instruction (firmware) or per statement."""

    def __init__(self, path, instructions):
        self.path = path
        self.instructions = instructions
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - kept until trace off
        self.lines = 0

    def write(self, line):
        self.file.write(line + "\n")
        self.lines += 1

    def close(self):
        self.file.close()


class Debugger:
    def __init__(self, machine):
        self.machine = machine
        self.text = ProgramText(machine.mem)
        name = getattr(machine.engine, "name", None)
        if name == "firmware":
            self.target = FirmwareTarget(self)
        elif name == "builtin":
            self.target = BuiltinTarget(self)
        else:
            raise DebugError(f"the debugger knows the firmware and built-in engines, not {name!r}")
        self.points = {}
        self._numbers = 0
        self.tracer = None
        self.snapshots = {}
        self.armed = None
        self._stop = None
        self.timed_out = False   # the last run ended because its seconds had passed

    # -- points ----------------------------------------------------------------------------
    def _number(self):
        self._numbers += 1
        return self._numbers

    def need_cpu(self, what):
        if not self.target.has_cpu:
            raise DebugError(f"{what} needs the firmware engine (the built-in engine has no CPU)")

    def break_at(self, addr, bank=None):
        self.need_cpu("a breakpoint at an address")
        point = self.points[n] = Breakpoint(n := self._number(), addr=addr & 0xFFFF, bank=bank)
        return point

    def break_line(self, line):
        point = self.points[n] = Breakpoint(n := self._number(), line=line)
        return point

    def watch(self, first, last=None, access="write"):
        last = first if last is None else last
        if not 0 <= first <= last <= 0xFFFF:
            raise DebugError(f"bad range {first:04X}-{last:04X}")
        if access not in ACCESSES:
            raise DebugError(f"a watchpoint watches {', '.join(ACCESSES)}, not {access!r}")
        if access != "write":
            self.need_cpu(f"a {access} watchpoint")
        point = self.points[n] = Watchpoint(n := self._number(), first, last, access)
        return point

    def delete(self, number=None):
        if number is None:
            self.points.clear()
        elif self.points.pop(number, None) is None:
            raise DebugError(f"no breakpoint or watchpoint {number}")

    def _armed(self, **waits):
        """What to check, or None when there is nothing (the machine then runs as ever)."""
        if not (self.points or self.tracer or waits):
            return None
        addresses, ranges, watched = {}, [], set()
        for point in self.points.values():
            if isinstance(point, Watchpoint):
                ranges.append((point.first, point.last))
                watched.update(range(point.first, point.last + 1))
            elif point.addr is not None and point.bank is None:
                addresses[point.addr] = None
            elif point.addr is not None and addresses.get(point.addr, ()) is not None:
                addresses.setdefault(point.addr, set()).add(point.bank)
        return Armed(addresses, frozenset(watched), tuple(ranges), **waits)

    # -- what the targets report -----------------------------------------------------------
    def halt(self, reason):
        self._stop = reason
        self.machine.halted = True

    def passed(self, previous, addr, place):
        """The engine reached the statement `place` at `addr` (`previous`: the (addr,
        place) reached before); returns why to stop, or None. Going on further in the
        same statement (the statement after an IF's condition) begins none."""
        if place is None:
            return None          # a typed line
        if previous is not None and previous[1] is not None and previous[1].key == place.key \
                and addr > previous[0]:
            return None
        return self.statement_begins(place, None if previous is None else previous[1])

    def statement_begins(self, place, previous):
        """A statement begins (`previous`: the one before); returns why to stop, or None."""
        if self.tracer is not None and not self.tracer.instructions:
            self.tracer.write(self.text.describe(place))
        armed = self.armed
        if armed.statements is not None:
            armed.statements -= 1
            if armed.statements <= 0:
                return "stmt"
        # a line is entered unless this statement follows the one before in the same line
        entered = not (previous is not None and previous.line_addr == place.line_addr
                       and place.statement == previous.statement + 1)
        if entered:
            for point in self.points.values():
                if isinstance(point, Breakpoint) and point.line == place.line:
                    point.hits += 1
                    return point.describe()
        return None

    def address_hit(self, pc, bank):
        for point in self.points.values():
            if isinstance(point, Breakpoint) and point.addr == pc \
                    and (point.bank is None or point.bank == bank or pc not in WINDOW):
                point.hits += 1
                return point.describe()
        return f"breakpoint at {pc:04X}"

    def accessed(self, accesses, pc):
        """Accesses (kind, address, value) by the instruction at `pc`: why to stop, or None."""
        for kind, addr, value in accesses:
            for point in self.points.values():
                if isinstance(point, Watchpoint) and point.sees(kind, addr):
                    point.hits += 1
                    return (f"{point.describe()}: {kind} {addr:04X} = {value:02X} by "
                            f"{self.target.pc_line(pc)}")
        return None

    def changed(self, before, after, place):
        """The watched ranges' bytes before and after a statement (built-in engine)."""
        for (first, last), old, new in zip(self.armed.ranges, before, after):
            if old != new:
                for point in self.points.values():
                    if isinstance(point, Watchpoint) and (point.first, point.last) == (first, last):
                        point.hits += 1
                        return (f"{point.describe()}: {old.hex(' ').upper()} -> "
                                f"{new.hex(' ').upper()}")
        return None

    # -- running ---------------------------------------------------------------------------
    def run(self, seconds=None, keys_stop=True, **waits):
        """Run until a stop; returns its reason. Without `seconds` a run also stops when
        the machine waits for a key (`keys_stop`) or is switched off; Ctrl-C stops it at
        the end of the engine's slice."""
        machine = self.machine
        armed = self._armed(**waits)
        deadline = None if seconds is None else machine.cycles + round(seconds * CYCLES_PER_SECOND)
        strobes = machine.bus.keywait_count
        self._stop = None
        self.timed_out = False
        with self._interruptible():
            try:
                while self._stop is None:
                    left = None if deadline is None else deadline - machine.cycles
                    if armed is None and left is not None and left <= TAIL and self.target.has_cpu:
                        armed = Armed()
                    self._arm(armed)
                    if left is not None and left <= 0:
                        self._stop = f"{seconds:g} seconds passed"
                        self.timed_out = True
                        break
                    before = self.target.watched_bytes() if self._outside_watch(armed) else None
                    machine.run_cycles(CHUNK if left is None else min(CHUNK, left))
                    if before is not None and self._stop is None:
                        self._stop = self.changed(before, self.target.watched_bytes(), None)
                    if self._stop is None and deadline is None:
                        if machine.off:
                            self._stop = "the machine is off"
                        elif keys_stop and machine.bus.keywait_count - strobes >= READY_STROBES:
                            self._stop = "waiting for a key"
            finally:
                self._disarm()
        return self._stop

    @contextlib.contextmanager
    def _interruptible(self):
        """Ctrl-C stops the run (rather than breaking off the engine in the middle)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, lambda _signum, _frame: self.halt("interrupted"))
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    def _outside_watch(self, armed):
        """The built-in engine writes RAM outside statements too (INPUT's answer):
        its watched bytes are also compared around each chunk."""
        return armed is not None and armed.ranges and not self.target.has_cpu

    def _arm(self, armed):
        if armed is not None and self.armed is None:
            self.armed = armed
            self.machine.halted = False
            self.target.arm(armed)

    def _disarm(self):
        self.target.disarm()
        self.armed = None
        self.machine.halted = False

    def cont(self, seconds=None):
        return self.run(seconds)

    def step(self, count=1):
        """Run `count` instructions (they stop at breakpoints on the way too)."""
        self.need_cpu("step")
        reason = self.run(count=count)
        if reason == "step":
            target = self.target
            return f"step: {count} instruction{'s' if count != 1 else ''}, the last {target.last_cycles} cycles"
        return reason

    def next(self):
        """One instruction; a call runs until it returns."""
        self.need_cpu("next")
        call = self.target.at_call()
        if call is None:
            return self.step()
        return self.run(until=call)

    def finish(self):
        """Run until the subroutine running returns."""
        self.need_cpu("finish")
        return self.run(finish_r=self.target.stack_pointer())

    def step_statements(self, count=1):
        """Run until `count` BASIC statements have begun."""
        reason = self.run(statements=count)
        return f"stmt: {count} statement{'s' if count != 1 else ''}" if reason == "stmt" else reason

    def type_keys(self, script):
        """Type a key script, the points checked on the way (a stop ends it there)."""
        self._stop = None
        with self._interruptible():
            try:
                self._arm(self._armed())
                self.machine.type_keys(script)
            finally:
                self._disarm()
        return self._stop

    # -- state -----------------------------------------------------------------------------
    def place(self):
        return self.target.place()

    def where(self):
        """The statement running, as a line of text."""
        place, how = self.place()
        if place is None:
            return f"no BASIC statement ({how})"
        return f"{self.text.describe(place)}  [{how}]"

    def report(self, reason):
        """The lines that tell a stop: why, the PC and its instruction, the statement."""
        lines = [reason] if reason else []
        if self.target.has_cpu:
            lines.append("PC " + self.target.pc_line())
        lines.append(self.where())
        return lines

    def registers(self):
        self.need_cpu("regs")
        return self.target.registers()

    def disassembly(self, addr=None, count=10):
        self.need_cpu("disasm")
        from emulator.cpu.disasm import listing

        pc = self.machine.engine.cpu.pc
        start = pc if addr is None else addr
        lines = []
        for where, _length, _text in listing(self.machine.mem, start, 0x10003):
            if len(lines) >= count:
                break
            lines.append((">" if where == pc else " ") + self.target.pc_line(where & 0xFFFF))
        return lines

    def panel_lines(self, variables=PANEL_VARIABLES):
        """What the window's panel shows: registers, the code around the PC, the BASIC
        statement and the first variables."""
        lines = []
        if self.target.has_cpu:
            registers = self.registers().split()
            lines += [" ".join(registers[:5]), " ".join(registers[5:12]),
                      " ".join(registers[12:]), ""]
            lines += self.disassembly(count=PANEL_CODE) + [""]
        else:
            lines += ["built-in engine: no CPU", ""]
        place, how = self.place()
        lines += ["no BASIC statement" if place is None else self.text.describe(place), f"[{how}]", ""]
        found = self.variables()
        lines += [format_variable(v) for v in found[:variables]]
        if len(found) > variables:
            lines.append(f"... {len(found) - variables} more")
        return lines

    def variables(self, everyone=False):
        return all_variables(self.machine.mem, everyone)

    def snapshot(self, name):
        self.snapshots[name] = (self.machine.snapshot(), self.target.state())

    def restore(self, name):
        if name not in self.snapshots:
            raise DebugError(f"no snapshot {name!r}")
        snap, state = self.snapshots[name]
        self.machine.restore(snap)
        self.target.set_state(state)

    def trace(self, path, instructions=None):
        """Trace to `path`: each instruction (default on the firmware engine) or each
        statement."""
        if instructions is None:
            instructions = self.target.has_cpu
        if instructions:
            self.need_cpu("an instruction trace")
        self.trace_off()
        try:
            self.tracer = Tracer(path, instructions)
        except OSError as exc:
            raise DebugError(f"cannot write {path}: {exc.strerror or exc}") from None
        return self.tracer

    def trace_off(self):
        tracer, self.tracer = self.tracer, None
        if tracer is not None:
            tracer.close()
        return tracer

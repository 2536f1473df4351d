"""The debugger's hold on the firmware engine: the CPU run one instruction at a time while
there is something to check, and the BASIC statement the ROM's interpreter runs.

With nothing to check the engine runs as it always does (its translated blocks, `run`
with the whole budget). Armed, the engine's `execute` is this module's runner: before each
instruction it looks the PC up in a set (address breakpoints, the interpreter's statement
dispatch, the return address `next` waits for), then executes it with `step()`. For
watchpoints the CPU's memory is a view that notes the accesses to watched bytes, and the
bus's write is wrapped the same way (writes below the CPU's write floor go there); both are
put in place only while watchpoints exist.

The statement the interpreter runs: each statement passes the ROM's statement dispatch
(pc1360.facts.STATEMENT_DISPATCH) with X holding the address of its first byte
(docs/hardware.md §3). The runner notes it there; after the machine ran unwatched the
last one noted is stale, and the pointer the ROM leaves after each statement
(LINE_POINTER) names the statement that finished last instead.
"""

from emulator.cpu.disasm import disassemble, format_line
from emulator.cpu.optable import OPS
from emulator.cpu.sc61860 import SEMS, XH, XL, YH, YL, A, B
from pc1360.facts import BANK_SIZE, BANK_WINDOW, LINE_POINTER, STATEMENT_DISPATCH

DISPATCH_BANK, DISPATCH_ADDR = STATEMENT_DISPATCH
WINDOW = range(BANK_WINDOW, BANK_WINDOW + BANK_SIZE)
TRACE_REGISTERS = "A={a:02X} B={b:02X} X={x:04X} Y={y:04X} DP={dp:04X} P={p:02X} R={r:02X} C={c} Z={z}"


class WatchedMemory:
    """The 64 KiB memory as the CPU sees it, noting each access to a watched address in
    `accesses` as (kind, address, value); `fetch` is the range of the instruction's own
    bytes, whose reads are fetches, not data reads."""

    def __init__(self, mem, watched):
        self.mem = mem
        self.watched = watched
        self.accesses = []
        self.fetch = range(0)

    def __getitem__(self, addr):
        value = self.mem[addr]
        if type(addr) is int:
            addr &= 0xFFFF
            if addr in self.watched and addr not in self.fetch:
                self.accesses.append(("read", addr, value))
        return value

    def __setitem__(self, addr, value):
        self.mem[addr] = value
        if type(addr) is int and addr & 0xFFFF in self.watched:
            self.accesses.append(("write", addr & 0xFFFF, value))

    def __len__(self):
        return len(self.mem)


class FirmwareTarget:
    name = "firmware"
    has_cpu = True

    def __init__(self, debugger):
        self.debugger = debugger
        self.machine = machine = debugger.machine
        self.engine = machine.engine
        self.cpu = machine.engine.cpu
        self.plain_execute = self.engine.execute
        self.armed = None
        self.memory = None
        self.plain_write = None
        self.current = None          # (address, basic_text.Place) dispatched last
        self.tracked_until = None    # the cycle count at which `current` was last true
        self.last_cycles = 0         # the cycles of the instruction run last
        self.resuming = False        # the first instruction of a run is not stopped at
        self.held = None             # the PC a stop before its instruction left us at

    # -- arming --------------------------------------------------------------------------
    def arm(self, armed):
        machine, cpu = self.machine, self.cpu
        if machine.cycles != self.tracked_until:
            self.current = self.held = None      # the machine ran unwatched since
        self.armed = armed
        self.resuming = True
        if armed.watched:
            self.memory = WatchedMemory(machine.mem, armed.watched)
            cpu.watch_memory(self.memory)
            bus = machine.bus
            self.plain_write = bus.write
            memory = self.memory

            def write(addr, value):
                self.plain_write(addr, value)
                if addr & 0xFFFF in memory.watched:
                    memory.accesses.append(("write", addr & 0xFFFF, value))
            bus.write = write
        self.engine.execute = self.run

    def disarm(self):
        if self.armed is None:
            return
        if self.memory is not None:
            self.cpu.watch_memory(None)
            self.machine.bus.write = self.plain_write
            self.memory = self.plain_write = None
        self.engine.execute = self.plain_execute
        self.armed = None
        self.tracked_until = self.machine.cycles

    # -- the runner ----------------------------------------------------------------------
    def run(self, budget):
        """The engine's `execute` while armed: as cpu.run(budget), one instruction at a
        time; it returns early, with machine.halted set, when something stops it."""
        cpu, armed, debugger = self.cpu, self.armed, self.debugger
        bus, mem, iram = self.machine.bus, self.machine.mem, self.cpu.iram
        addresses, memory, tracer = armed.addresses, self.memory, debugger.tracer
        start = cpu.cycles
        end = start + budget
        while cpu.cycles < end:
            pc = cpu.pc
            # the instruction the machine stands at is run, not stopped at again; its
            # statement counts unless a stop for it left the machine here
            resuming, self.resuming = self.resuming, False
            if pc == DISPATCH_ADDR and bus.bank == DISPATCH_BANK and pc != self.held:
                reason = self._dispatched(iram[XL] | iram[XH] << 8)
                if reason:
                    return self._halt(reason, start, pc)
            self.held = None
            if not resuming:
                if pc in addresses:
                    banks = addresses[pc]
                    if banks is None or pc not in WINDOW or bus.bank in banks:
                        return self._halt(debugger.address_hit(pc, bus.bank), start, pc)
                if armed.until is not None and (pc, cpu.r) == armed.until:
                    return self._halt("next: over the call", start, pc)
            if tracer is not None and tracer.instructions:
                tracer.write(self.trace_line(pc))
            opcode = mem[pc]
            before = cpu.cycles
            if memory is not None:
                memory.accesses.clear()
                memory.fetch = range(pc, pc + OPS[opcode].length)
            cpu.step()
            self.last_cycles = cpu.cycles - before
            if memory is not None and memory.accesses:
                reason = debugger.accessed(memory.accesses, pc)
                if reason:
                    return self._halt(reason, start)
            if armed.finish_r is not None and SEMS[opcode].ret and cpu.r > armed.finish_r:
                return self._halt(f"finish: returned from {pc:04X}", start)
            if armed.count is not None:
                armed.count -= 1
                if armed.count <= 0:
                    return self._halt("step", start)
        return cpu.cycles - start

    def _halt(self, reason, start, held=None):
        """Stop the machine (before the instruction at `held`, or after the last one)."""
        self.held = held
        self.debugger.halt(reason)
        return self.cpu.cycles - start

    def _dispatched(self, addr):
        place = self.debugger.text.cached_place(addr)
        previous, self.current = self.current, (addr, place)
        return self.debugger.passed(previous, addr, place)

    # -- what the machine shows ------------------------------------------------------------
    def place(self):
        """(Place or None, how it is known): the statement dispatched last, when the
        runner saw it; else the one LINE_POINTER says finished last."""
        if self.current is not None and self.machine.cycles == self.tracked_until:
            return self.current[1], "begun last"
        mem = self.machine.mem
        pointer = mem[LINE_POINTER] | mem[LINE_POINTER + 1] << 8
        return self.debugger.text.place(pointer), "finished last (LINE_POINTER)"

    def registers(self):
        bus = self.machine.bus
        return f"{self.cpu!r} bank={bus.bank} cycles={self.machine.cycles}"

    def pc_line(self, pc=None):
        mem = self.machine.mem
        pc = self.cpu.pc if pc is None else pc
        text, length = disassemble(mem, pc)
        return format_line(mem, pc, length, text)

    def trace_line(self, pc):
        cpu, i = self.cpu, self.cpu.iram
        regs = TRACE_REGISTERS.format(a=i[A], b=i[B], x=i[XL] | i[XH] << 8, y=i[YL] | i[YH] << 8,
                                      dp=cpu.dp, p=cpu.p, r=cpu.r, c=cpu.c, z=cpu.z)
        return f"{self.pc_line(pc):<40} {regs}"

    def at_call(self):
        """(return address, R after the return) if the instruction at PC is a call."""
        pc = self.cpu.pc
        opcode = self.machine.mem[pc]
        if not SEMS[opcode].call:
            return None
        return (pc + OPS[opcode].length) & 0xFFFF, self.cpu.r

    def stack_pointer(self):
        return self.cpu.r

    def state(self):
        return self.current, self.tracked_until

    def set_state(self, state):
        self.current, self.tracked_until = state

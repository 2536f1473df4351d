"""Translated blocks (emulator/cpu/translator.py) against the interpreter: same state, same
cycles at every bus call, same stopping point for every budget."""

import random

import pytest

from emulator.cpu import sc61860
from emulator.cpu.codegen import block_source_text, flatten
from emulator.cpu.dead_stores import drop_dead_stores
from emulator.cpu.sc61860 import SC61860

FIXED = (0x0000, 0x1000)
WINDOW = (0x4000, 0x5000)
BANK_REGISTER = 0x3400
WRITE_FLOOR = 0x8000
MIRRORED = (0x2000, 0x2FFF, 0x100)  # writes the CPU makes itself, with their mirror


class Bus:
    """Ports that answer from the cycle count (so a wrong count shows), a write log, ROM
    that drops writes, and a bank register that swaps the window (as memmap.Bus does)."""

    def __init__(self, mem, banks):
        self.mem, self.banks, self.cpu, self.log, self.bank = mem, banks, None, [], 0

    def call(self, *what):
        self.log.append((self.cpu.cycles,) + what)

    def write(self, addr, value):
        self.call("write", addr, value)
        if addr == BANK_REGISTER:
            self.bank = value & 1
            self.mem[WINDOW[0]:WINDOW[1]] = self.banks[self.bank]
            self.cpu.set_code_bank(self.bank)
        elif not (FIXED[0] <= addr < FIXED[1] or WINDOW[0] <= addr < WINDOW[1]):
            self.mem[addr] = value

    def ina(self):
        self.call("ina")
        return self.cpu.cycles & 0xFF

    def inb(self):
        self.call("inb")
        return (self.cpu.cycles >> 3) & 0xFF

    def test(self, n):
        self.call("test", n)
        return (self.cpu.cycles >> 2) & 0xFF

    def xin(self):
        self.call("xin")
        return (self.cpu.cycles >> 4) & 1

    def __getattr__(self, name):  # outa outb outc outf
        return lambda value: self.call(name, value)


def machine(seed, translate):
    rnd = random.Random(seed)
    mem = bytearray(rnd.randrange(256) for _ in range(0x10000))
    banks = [bytes(rnd.randrange(256) for _ in range(WINDOW[1] - WINDOW[0])) for _ in range(2)]
    # Steer the code towards the regions: many short jumps and calls back into them.
    for _ in range(300):
        addr = rnd.randrange(*rnd.choice((FIXED, WINDOW, (0x8000, 0x10000))))
        target = rnd.randrange(*rnd.choice((FIXED, WINDOW)))
        mem[addr:addr + 3] = bytes([rnd.choice((0x78, 0x79)), target >> 8, target & 0xFF])
    mem[BANK_REGISTER] = 0
    mem[WINDOW[0]:WINDOW[1]] = banks[0]
    bus = Bus(mem, banks)
    cpu = SC61860(mem, bus)
    bus.cpu = cpu
    cpu.write_floor = WRITE_FLOOR
    cpu.mirror_writes(*MIRRORED)
    if translate:
        cpu.set_code_regions(FIXED, WINDOW)
        cpu.set_code_bank(0)
    cpu.pc = rnd.randrange(*FIXED)
    return cpu, bus


def state(cpu, bus):
    return (cpu.pc, cpu.p, cpu.q, cpu.r, cpu.dp, cpu.c, cpu.z, cpu.d, cpu.cycles,
            bytes(cpu.iram), bytes(cpu.mem), tuple(bus.log), dict(cpu.undocumented))


@pytest.mark.parametrize("seed", range(12))
def test_blocks_run_as_the_interpreter(seed, monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)  # translate almost at once
    plain, plain_bus = machine(seed, False)
    fast, fast_bus = machine(seed, True)
    budgets = random.Random(seed + 1000)
    for step in range(400):
        budget = budgets.choice((1, 2, 3, 5, 8, 13, 40, 100, 700))
        assert plain.run(budget) == fast.run(budget), step
        assert state(plain, plain_bus) == state(fast, fast_bus), step


def test_blocks_are_made_and_used(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    mem = bytearray(0x10000)
    # 0x0100: LII 3; LP 0x10; loop: INCP; DECI; JRNCM loop; JP 0x0100
    mem[0x100:0x10A] = bytes([0x00, 0x03, 0x90, 0x50, 0x41, 0x2B, 0x03, 0x79, 0x01, 0x00])
    cpu = SC61860(mem, None)
    cpu.set_code_regions((0x0000, 0x0200))
    cpu.pc = 0x100
    cpu.run(10_000)
    pages = dict(zip(cpu._run.__code__.co_freevars, cpu._run.__closure__))["pages"].cell_contents
    # the loop at 0x0103 got hot first; its block follows JP 0x0100 round to itself
    assert pages[0x01][0x03].__name__ == "block_0103"
    assert cpu.cycles >= 10_000


def test_a_run_resumed_inside_a_straight_run_makes_no_block_there(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    mem = bytearray(0x10000)
    # 0x0100: 20 x INCP (2 cycles each); JP 0x0100 (6 cycles)
    mem[0x100:0x117] = bytes([0x50] * 20 + [0x79, 0x01, 0x00])
    cpu = SC61860(mem, None)
    cpu.set_code_regions((0x0000, 0x0200))
    cpu.pc = 0x100
    stops = set()
    for _ in range(300):  # budgets that end runs all over the straight run
        cpu.run(7)
        stops.add(cpu.pc)
    pages = dict(zip(cpu._run.__code__.co_freevars, cpu._run.__closure__))["pages"].cell_contents
    blocks = {pc for pc in range(0x100, 0x117) if callable(pages[0x01][pc & 0xFF])
              and pages[0x01][pc & 0xFF].__name__.startswith("block_")}
    assert len(stops) > 10 and blocks == {0x100}


@pytest.mark.parametrize("translate", [False, True])
def test_a_write_to_the_mirrored_range_stores_both_bytes_without_the_bus(translate, monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    mem = bytearray(0x10000)
    # 0x0100: LIDP 0x2E80; LIA 0x5A; STD; LIDP 0x3000; STD; JP 0x0100
    mem[0x100:0x10D] = bytes([0x10, 0x2E, 0x80, 0x02, 0x5A, 0x52, 0x10, 0x30, 0x00, 0x52,
                              0x79, 0x01, 0x00])
    bus = Bus(mem, [bytes(WINDOW[1] - WINDOW[0])] * 2)
    cpu = bus.cpu = SC61860(mem, bus)
    cpu.write_floor = WRITE_FLOOR
    cpu.mirror_writes(*MIRRORED)
    if translate:
        cpu.set_code_regions((0x0000, 0x0200))
    cpu.pc = 0x100
    for _ in range(20):
        cpu.run(50)
    assert mem[0x2E80] == mem[0x2F80] == 0x5A
    # only the write outside the range reached the bus
    assert {entry[1:] for entry in bus.log} == {("write", 0x3000, 0x5A)}
    bus.log.clear()
    cpu.watch_memory(memoryview(mem))  # a debugger's view: every write goes to the bus again
    cpu.run(50)
    assert ("write", 0x2E80, 0x5A) in {entry[1:] for entry in bus.log}


def test_dead_register_stores_are_dropped_only_when_overwritten_unread():
    nodes = [["while True:", [
        ["c = z = v == 0", []],  # both overwritten below before any read
        ["q = 3", []],  # read by the next line
        ["x = q", []],
        ["c = x < 2", []],
        ["if c == 0:", [["return 5", []]]],  # an exit reads everything: z stays
        ["z = x == 2", []],
        ["return 7", []]]]]
    out = flatten(drop_dead_stores(nodes), 0)
    assert "    c = z = v == 0" not in out and "    z = v == 0" in out
    assert "    q = 3" in out


class StoppingBus:
    """OUTC ends the run `after` cycles later, as the machine's OFF does (SC61860.stop_at)."""

    def __init__(self, after):
        self.cpu, self.after, self.calls = None, after, []

    def outc(self, value):
        self.calls.append(self.cpu.cycles)
        self.cpu.stop_at(self.cpu.cycles + self.after)


@pytest.mark.parametrize("after", [0, 1, 5, 17, 60])
def test_stop_at_ends_the_run_at_the_first_boundary_there_translated_or_not(after, monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    # 0x0100: 20 x INCP (2 cycles each); OUTC (2); 10 x INCP; JP 0x0100 (6)
    program = bytes([0x50] * 20 + [0xDF] + [0x50] * 10 + [0x79, 0x01, 0x00])
    runs = []
    for translate in (False, True):
        mem = bytearray(0x10000)
        mem[0x100:0x100 + len(program)] = program
        bus = StoppingBus(after)
        cpu = SC61860(mem, bus)
        bus.cpu = cpu
        if translate:
            cpu.set_code_regions((0x0000, 0x0200))
        cpu.pc = 0x100
        for _ in range(30):  # the first runs make the blocks, later ones use them
            ran = cpu.run(10_000)
            stop = bus.calls[-1] + after
            # stopped at the first instruction boundary at or past the stop (INCP: 2 cycles)
            assert stop <= cpu.cycles <= stop + 6 and ran < 10_000
        runs.append((cpu.pc, cpu.cycles, bus.calls))
    assert runs[0] == runs[1]


# (times taken, times not, taken side translated, not-taken side translated): a side taken
# less than a quarter of the runs leaves the block
@pytest.mark.parametrize("taken, not_taken, followed, fell_through", [
    (0, 12, False, True), (2, 10, False, True), (3, 9, True, True), (12, 0, True, False)])
def test_a_branch_side_the_interpreter_took_rarely_leaves_the_block(taken, not_taken, followed,
                                                                    fell_through):
    from emulator.cpu.translator import block_source, sides_seen

    mem = bytearray(0x10000)
    # 0x0100: JRZP +4 (to 0x0105); INCP; INCP; RTN;  0x0105: DECP; DECP; RTN
    mem[0x100:0x108] = bytes([0x38, 0x04, 0x50, 0x50, 0x37, 0x51, 0x51, 0x37])
    lines = block_source(mem, 0x100, lambda addr: addr < 0x200, sc61860.OPS, sc61860.SEMS,
                         False, seen=lambda addr: sides_seen(taken, not_taken))
    source = "\n".join(lines)
    assert ("0105  DECP" in source) == followed
    assert ("0102  INCP" in source) == fell_through


def _leaf_program():
    mem = bytearray(0x10000)
    # 0x0100: CALL 0x0110; JP 0x0100 (skipped); INCP; JP 0x0100
    mem[0x100:0x10A] = bytes([0x78, 0x01, 0x10, 0x79, 0x01, 0x00, 0x50, 0x79, 0x01, 0x00])
    # 0x0110, a leaf that moves its own return address on by 3: LDR; STP; ADIM 3; RTN
    mem[0x110:0x115] = bytes([0x22, 0x30, 0x70, 0x03, 0x37])
    return mem


def test_a_leaf_is_followed_into_and_a_return_it_moved_goes_where_the_stack_says(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    runs = []
    for translate in (False, True):
        cpu = SC61860(_leaf_program(), None)
        if translate:
            cpu.set_code_regions((0x0000, 0x0200))
        cpu.pc, cpu.r = 0x100, 0x50
        trace = []
        for budget in [7, 13, 40, 3, 100, 1, 29] * 20:
            cpu.run(budget)
            trace.append((cpu.pc, cpu.p, cpu.r, cpu.cycles, bytes(cpu.iram)))
        runs.append(trace)
        if translate:
            pages = dict(zip(cpu._run.__code__.co_freevars,
                             cpu._run.__closure__))["pages"].cell_contents
            block = pages[0x01][0x00]
            source = block_source_text(block.__code__)
            # the leaf's code is in the caller's block, and its moved return leaves it
            assert "0110  LDR" in source and "if npc != 0x0103:" in source
    assert runs[0] == runs[1]
    assert runs[0][-1][1] > 0  # the INCP after the moved return ran

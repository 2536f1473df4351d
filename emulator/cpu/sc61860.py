"""Sharp SC61860 CPU core (the contract is in docs/interfaces.md).

Speed shapes the design. All CPU state lives in variables of one builder function,
`_build`, and every instruction handler is a closure over them, so a handler reads
P or the carry with a single cell load instead of an attribute or list lookup.
A handler takes the address of its opcode and returns the next PC; it adds its
own cycles to the shared `cycles` counter as its last action, after any bus call,
so the bus always sees the cycles of completed instructions only.

What each opcode does is written once, per family, in emulator/cpu/ops_*.py, as source
templates keyed by the mnemonics of optable.csv; emulator/cpu/codegen.py generates the
256 handlers from them (compiled once per process, bound to each CPU's cells), and
emulator/cpu/translator.py, for code in ROM, translated blocks: straight runs of
instructions compiled into one function with the operands and the fixed cycle costs
folded in. Only code the engine declares
immutable is translated (`set_code_regions`): the fixed internal ROM and a banked window
whose contents the engine names with `code_bank`. Blocks are made for entry points (the
PCs that a jump, a taken branch, a call or a return arrives at) that have run HOT times,
following the branch sides the interpreter took there often enough; a block runs only if
every instruction in it would start before the budget is used up, so `run` stops at the
same instruction boundary either way.

The `SC61860` class is a thin shell: its attributes p, q, r, dp, pc, c, z, d,
cycles, write_floor and bus read and write the builder's cells directly.

PC handling: handlers do not mask the PC. A JRM near 0x0000 may return a negative
PC, which indexes `mem` from the end, i.e. correctly modulo 64 KiB; running past
0xFFFF (or reading an operand beyond it) raises IndexError, which `run` turns into
the wrapped PC and then retries. For the retry to be safe every handler reads its
operand bytes before it changes any state. The PC is masked whenever it leaves the
core (pushed on the stack, stored after `run`, logged).

Choices where the sources disagree follow docs/hardware.md §1.3; the others are
noted where they are made and in optable.csv.
"""

import hashlib
from collections import Counter

from emulator.cpu import ops_alu as cpu_ops_alu
from emulator.cpu import ops_block as cpu_ops_block
from emulator.cpu import ops_flow as cpu_ops_flow
from emulator.cpu import ops_move as cpu_ops_move
from emulator.cpu.codegen import bind, handler_codes
from emulator.cpu.optable import OPS
from emulator.cpu.translator import block_code, block_source, sides_seen

# Internal RAM addresses of the registers.
I, J, A, B, XL, XH, YL, YH, K, L, M, N = range(12)
IA, IB, FO, CTRL = 0x5C, 0x5D, 0x5E, 0x5F

# mnemonic -> function(Op) -> Sem, from the family modules.
IMPLEMENTATIONS = {**cpu_ops_move.SEMS, **cpu_ops_flow.SEMS, **cpu_ops_alu.SEMS,
                   **cpu_ops_block.SEMS}
SEMS = [IMPLEMENTATIONS[o.mnemonic](o) for o in OPS]
_HANDLER_CODES = handler_codes(OPS, SEMS)
# runs of an entry point in ROM before it is translated into a block (with a translation
# cache, a kept block is used from the first run); 128 translated fewer blocks than 64 in
# the first seconds of a BASIC program for the same speed after them
HOT = 128
# (contents of the regions, bank, entry) -> block code, shared by the CPUs of a process: a
# machine booted after another with the same ROM uses its blocks from the first run.
_TRANSLATED = {}

# State cells exposed as attributes, with the mask applied on assignment.
_STATE = {"p": 0x7F, "q": 0x7F, "r": 0x7F, "dp": 0xFFFF, "pc": 0xFFFF, "c": 1, "z": 1,
          "d": 0xFF, "cycles": None, "write_floor": None, "bus": None}
_NO_CODE = (None,) * 256  # a page nothing is translated in
_LENGTHS = [o.length for o in OPS]
# what a straight run compares the next PC with: the length, and for a conditional branch
# an offset no PC reaches, so that every branch is looked at (and its side recorded)
_STRIDES = [0x20000 if s.kind == "branch" else o.length for o, s in zip(OPS, SEMS)]
_BRANCHES = [s.kind == "branch" for s in SEMS]

MISSING = object()  # no block known for an entry point yet
# a branch's count in `sides`: the times taken, in units of TAKEN_COUNT, plus the times not
TAKEN_COUNT = 1 << 32
_NO_MIRROR = (1, 0, 0)  # (first, last, xor) of a range no address is in


def _wrapped_pc(pc):
    """The PC to retry with after an IndexError at `pc`, or None if the PC was not the cause.

    Past the top the PC continues at the bottom; an instruction whose operands straddle
    0xFFFF is retried from the equivalent negative PC, whose operand reads then index
    0xFFFE, 0xFFFF, 0x0000 ... in order."""
    if pc >= 0xFFFD:
        return pc - 0x10000
    if pc < -0x10000:
        return pc + 0x10000
    return None


def _build(cpu, mem, iram, bus):
    """Create the state cells, the handlers and the block cache; return the shell's hooks."""
    p = q = r = 0
    dp = 0
    reg_pc = 0
    c = z = 0
    d = 0
    cycles = 0
    write_floor = 0
    end = 0  # the running budget's end, which a block's guard compares with
    stopped = -1  # the PC the last run stopped at
    bank = None  # the bank named for the code window (a block checks it after a bus write)
    mirror_first, mirror_last, mirror_xor = _NO_MIRROR  # see SC61860.mirror_writes
    undocumented = cpu.undocumented

    def cells():
        # Only its closure matters: it holds every state cell for the shell's properties
        # and for the generated functions.
        return (p, q, r, dp, reg_pc, c, z, d, cycles, write_floor, end, bus, mem, iram,
                undocumented, bank, mirror_first, mirror_last, mirror_xor)

    cellmap = dict(zip(cells.__code__.co_freevars, cells.__closure__))
    dispatch = [bind(code, cellmap) for code in _HANDLER_CODES]

    # Block cache: pages[addr >> 8][addr & 0xFF] is a block, `cold` (not hot yet) or None
    # (interpret); counts has the same shape and holds the runs of each cold entry point,
    # sides how often each branch went either way when interpreted (TAKEN_COUNT). The
    # window's pages are swapped per bank.
    pages = [_NO_CODE] * 256
    counts = [None] * 256
    sides = [None] * 256
    code = {"fixed": (0, 0), "window": (0, 0), "bank": None, "banks": {},
            "fixed_id": None, "window_ids": {}, "store": None}

    def cold(pc):
        """Count a run of the entry point `pc` and, below HOT, interpret the straight run
        from it (the instructions of that run are not entry points of their own: only the
        PC that code arrives at is counted); at HOT, translate it. Returns the next PC, or
        None if the budget is used up or a block's guard refuses the rest of it."""
        if cycles >= end:
            return None
        row = counts[pc >> 8]
        n = row[pc & 0xFF] = row[pc & 0xFF] + 1
        if n == 1 or n >= HOT:
            block_code_ = known(pc)
            if block_code_ is MISSING and n >= HOT:
                block_code_ = translate(pc)
            if block_code_ is not MISSING:
                block = bind(block_code_, cellmap) if block_code_ else None
                pages[pc >> 8][pc & 0xFF] = block
                return block(pc) if block else dispatch[mem[pc]](pc)
        return straight(pc)

    def straight(pc):
        """Interpret from `pc` up to the next jump, taken branch, call or return, or until
        the budget is used up; return the next PC."""
        ops, m, strides = dispatch, mem, _STRIDES
        try:
            while True:
                op = m[pc]
                npc = ops[op](pc)
                if npc != pc + strides[op] or cycles >= end:
                    if not _BRANCHES[op]:
                        return npc
                    # the translator follows only the sides of a branch that were seen
                    row = sides[pc >> 8]
                    if row is not None:
                        if npc != pc + _LENGTHS[op]:
                            row[pc & 0xFF] += TAKEN_COUNT
                            return npc
                        row[pc & 0xFF] += 1
                    if npc != pc + _LENGTHS[op] or cycles >= end:
                        return npc
                pc = npc
        except IndexError:  # the run went past 0xFFFF: on from the wrapped PC, as in `run`
            retry = _wrapped_pc(pc)
            if retry is None:
                raise
            return retry

    def where(pc):
        """(key of _TRANSLATED, key of the translation cache) of the entry point `pc`."""
        window = code["window"]
        in_window = window[0] <= pc < window[1]
        return ((code["fixed_id"], code["window_ids"][bank] if in_window else None, pc),
                (bank if in_window else None, pc))

    def known(pc):
        """The block code (None: interpret) made for `pc` by this process or kept by the
        translation cache; MISSING if there is none yet."""
        key, kept = where(pc)
        if key in _TRANSLATED:
            return _TRANSLATED[key]
        store = code["store"]
        if store is not None:
            block_code_ = store.get(kept)
            if block_code_ is not store.MISSING:
                _TRANSLATED[key] = block_code_
                return block_code_
        return MISSING

    def translate(pc):
        key, kept = where(pc)
        fixed, window = code["fixed"], code["window"]
        in_window = window[0] <= pc < window[1]
        if in_window:
            def allowed(addr):
                return fixed[0] <= addr < fixed[1] or window[0] <= addr < window[1]
        else:
            def allowed(addr):
                return fixed[0] <= addr < fixed[1]
        def seen(addr):
            row = sides[addr >> 8]
            count = row[addr & 0xFF] if row is not None else 0
            return sides_seen(count // TAKEN_COUNT, count % TAKEN_COUNT)
        lines = block_source(mem, pc, allowed, OPS, SEMS, in_window, bank, seen)
        block_code_ = _TRANSLATED[key] = block_code(lines) if lines else None
        store = code["store"]
        if store is not None:
            store.put(kept, block_code_)
        return block_code_

    def region_id(first, stop, *more):
        return (first, stop, hashlib.blake2b(mem[first:stop]).digest()) + more

    def fresh(first, stop, fill):
        return [[fill] * 256 for _ in range(first >> 8, (stop + 0xFF) >> 8)]

    def set_code_regions(fixed, window, store):
        nonlocal bank
        bank = None
        code.update(fixed=fixed, window=window, bank=None, banks={},
                    fixed_id=region_id(*fixed), window_ids={}, store=store)
        pages[:] = [_NO_CODE] * 256
        sides[:] = [None] * 256
        pages[fixed[0] >> 8:(fixed[1] + 0xFF) >> 8] = fresh(*fixed, cold)
        counts[fixed[0] >> 8:(fixed[1] + 0xFF) >> 8] = fresh(*fixed, 0)
        sides[fixed[0] >> 8:(fixed[1] + 0xFF) >> 8] = fresh(*fixed, 0)

    def set_code_bank(new):
        nonlocal bank
        if new != bank:
            bank = code["bank"] = new
            first, stop = code["window"]
            banks = code["banks"]
            if new not in banks:
                banks[new] = (fresh(first, stop, cold), fresh(first, stop, 0),
                              fresh(first, stop, 0))
                code["window_ids"][new] = region_id(first, stop, new, code["fixed_id"])
            at = slice(first >> 8, (stop + 0xFF) >> 8)
            pages[at], counts[at], sides[at] = banks[new]

    def run(budget):
        nonlocal reg_pc, end, stopped
        ops, m, pg = dispatch, mem, pages
        pc = reg_pc
        start = cycles
        end = start + budget
        if pc == stopped and pg[pc >> 8][pc & 0xFF] is cold:
            # the last run stopped inside a straight run (a budget ends at any instruction):
            # it goes on uncounted, or every PC a run happened to end at would become hot
            pc = straight(pc)
        while True:
            try:
                while True:  # a block's guard compares the cycles with the end itself
                    block = pg[pc >> 8][pc & 0xFF]
                    if block is None:
                        if cycles >= end:
                            break
                        pc = ops[m[pc]](pc)
                        continue
                    npc = block(pc)
                    if npc is None:
                        # the guard: the budget ends within this block's cycles, whose
                        # few instructions are interpreted without looking for blocks
                        while cycles < end:
                            pc = ops[m[pc]](pc)
                        break
                    pc = npc
                break
            except IndexError:
                retry = _wrapped_pc(pc)
                if retry is None:
                    raise
                pc = retry
        reg_pc = stopped = pc & 0xFFFF
        return cycles - start

    def stop_at(cycle):
        nonlocal end
        end = min(end, cycle)

    hooks = {"run": run, "set_code_regions": set_code_regions, "set_code_bank": set_code_bank,
             "code": code, "stop_at": stop_at}
    return cellmap, hooks


def _cell_property(name, mask):
    if mask is None:
        def get(self):
            return self._cells[name].cell_contents

        def set_(self, value):
            self._cells[name].cell_contents = value
    elif mask == 1:
        def get(self):
            return int(self._cells[name].cell_contents)

        def set_(self, value):
            self._cells[name].cell_contents = int(bool(value))
    else:
        def get(self):
            return self._cells[name].cell_contents & mask

        def set_(self, value):
            self._cells[name].cell_contents = value & mask
    return property(get, set_)


class SC61860:
    """The CPU: `mem` is the 64 KiB address space, `bus` the ports and the write hook."""

    def __init__(self, mem, bus):
        self.mem = mem
        # Internal RAM: a list of 128 byte values, not a bytearray: CPython indexes a list
        # with an int about twice as fast, and the generated code does so on almost every
        # instruction. Every value stored is masked to 0-255 by the code that stores it.
        self.iram = [0] * 128
        # (address, opcode) -> executions of an undocumented opcode, for the machine to log.
        self.undocumented = Counter()
        cellmap, hooks = _build(self, mem, self.iram, bus)
        self._run = hooks["run"]
        self._code = hooks
        # set_code_bank(bank): name the bank in the window (see set_code_regions)
        self.set_code_bank = hooks["set_code_bank"]
        self.implemented = frozenset(IMPLEMENTATIONS)
        self._mirror = _NO_MIRROR
        renamed = {"reg_pc": "pc"}
        self._cells = {renamed.get(n, n): cell for n, cell in cellmap.items()}

    def set_code_regions(self, fixed, window=(0, 0), store=None):
        """Declare where code never changes, so it may be translated into blocks: `fixed`
        (start, stop) holds the same bytes for good; `window` (start, stop) holds one of
        several banks, and `code_bank` must name the one mapped whenever the CPU runs.
        Forgets every block made so far. `store`: a translation cache for exactly this
        code (get(where) -> code object, None or store.MISSING; put(where, code)), `where`
        being (the bank, or None in `fixed`; the entry address)."""
        self._code["set_code_regions"](fixed, window, store)

    @property
    def code_bank(self):
        return self._code["code"]["bank"]

    @code_bank.setter
    def code_bank(self, bank):
        self._code["set_code_bank"](bank)

    def cycle_counter(self):
        """The cell that holds `cycles` (its cell_contents), for a caller that reads the
        count once a run and wants no property call for it."""
        return self._cells["cycles"]

    def reset(self):
        """Power-on state: PC 0, registers and internal RAM cleared. `cycles` keeps
        counting, since the machine's timers are measured against it."""
        self.iram[:] = [0] * 128
        self.p = self.q = self.r = self.dp = self.pc = self.c = self.z = self.d = 0

    def mirror_writes(self, first, last, xor):
        """Declare that the bus does nothing with a write to `first`..`last` (below the
        write floor) but store the value at the address and at the address ^ `xor`: the
        CPU then makes those two stores itself, without calling bus.write."""
        self._mirror = (first, last, xor)
        if self._cells["mem"].cell_contents is self.mem:
            self._set_mirror(*self._mirror)

    def _set_mirror(self, first, last, xor):
        cells = self._cells
        cells["mirror_first"].cell_contents = first
        cells["mirror_last"].cell_contents = last
        cells["mirror_xor"].cell_contents = xor

    def watch_memory(self, view):
        """Read and write memory through `view` instead of `mem` (a debugger's object
        that notes accesses, emulator/debug/firmware_target.py); None: `mem` again.
        While a view is in place every write below the write floor goes to bus.write,
        the mirrored ones too (the debugger notes them there)."""
        self._cells["mem"].cell_contents = self.mem if view is None else view
        self._set_mirror(*(self._mirror if view is None else _NO_MIRROR))

    def stop_at(self, cycle):
        """End the current `run` at the first instruction boundary at or past `cycle`, if
        that comes before the end of its budget. For a bus method: the instruction that
        calls it must end its block (OUTC does), so that no block runs past the new end."""
        self._code["stop_at"](cycle)

    def step(self):
        """Execute one instruction; return its cycles. Every instruction costs at least
        two cycles, so a one-cycle budget stops after exactly one."""
        return self._run(1)

    def run(self, budget):
        """Execute until at least `budget` cycles have passed; return the cycles run."""
        return self._run(budget)

    def __repr__(self):
        i = self.iram
        return (f"PC={self.pc:04X} DP={self.dp:04X} P={self.p:02X} Q={self.q:02X} "
                f"R={self.r:02X} I={i[I]:02X} J={i[J]:02X} A={i[A]:02X} B={i[B]:02X} "
                f"X={i[XH]:02X}{i[XL]:02X} Y={i[YH]:02X}{i[YL]:02X} "
                f"K={i[K]:02X} L={i[L]:02X} M={i[M]:02X} N={i[N]:02X} "
                f"C={self.c} Z={self.z} d={self.d:02X}")


for _name, _mask in _STATE.items():
    setattr(SC61860, _name, _cell_property(_name, _mask))
del _name, _mask

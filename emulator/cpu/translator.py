"""SC61860 translated blocks: ROM code from one entry point as one Python function.

Built from the opcodes' templates (emulator/cpu/codegen.py explains them), with the
operands folded in as constants and the fixed cycle costs summed at generation time. A
block follows jumps and the sides of conditional branches that the interpreter took often
enough (a tree of paths, MAX_INSTRUCTIONS in all), ends a path at a call (the callee is a
block of its own, but for a short leaf, which is followed into) or a return, and loops
back to its entry inside the function. Along a path, P, Q and DP are read as the constant
an instruction set them to (`specialized`), and stores to registers that the path
overwrites unread are dropped (dead_stores.py, over the tree of nodes the block is built
as). A block (and each pass of its loop) runs only when all of its instructions would
start before the run's budget is used up (its guard), so `run` stops at exactly the
instruction boundary the interpreter would, and the bus sees the same calls at the same
cycle counts.

A block lists each instruction's address and disassembly above its code, with its
addresses and operands written in hex (values computed at translation time in decimal).
"""

import hashlib
import importlib.util
import re
from pathlib import Path

from emulator.cpu.codegen import ASSIGNED, _emit, _subst, compile_functions, flatten
from emulator.cpu.dead_stores import drop_dead_stores
from emulator.cpu.disasm import disassemble

_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")

# computes what depends only on its instruction's bytes and address at translation time
_FOLDERS = {}


def _folder(expression):
    fold = _FOLDERS.get(expression)
    if fold is None:
        fold = _FOLDERS[expression] = eval(f"lambda n1, n2, n3, PC, NEXT: ({expression})", {})
    return fold


# template line -> (what is left of " = ", the right side) when that side depends on the
# operands only (a constant in a block), else None
_FOLDABLE = {}


def _foldable(line):
    if line not in _FOLDABLE:
        left, eq, right = line.partition(" = ")
        ok = (eq and not line.lstrip().startswith("@") and "=" not in right.replace("==", "")
              and set(_IDENT.findall(right)) <= _OPERANDS)
        _FOLDABLE[line] = (left, right) if ok else None
    return _FOLDABLE[line]


_OPERANDS = frozenset(("n1", "n2", "n3", "PC", "NEXT"))

# Registers whose value a path knows after an instruction sets them to a constant (LP,
# LIQ, LIDP ...): the instructions after it read the constant instead of the cell, which
# folds their addresses (iram[p] -> iram[16]) and lets the dead-store pass drop the store.
_TRACKED = frozenset(("p", "q", "dp"))
_TRACKED_NAME = re.compile(r"\b(p|q|dp)\b")
_LITERAL = re.compile(r"^-?(?:\d+|True|False)$")


def _tracked_use(line):
    """(tracked registers the line assigns, the line as a format string with each of its
    reads of them as a {name} field, or None if it reads none), found once per line."""
    use = _USES.get(line)
    if use is None:
        body = line.lstrip()
        pieces = body.split(" = ") if not body.startswith(("if ", "for ", "while ", "@")) \
            else [body]
        targets, parts = set(), []
        for piece in pieces[:-1]:
            elements = piece.split(", ")
            targets.update(e for e in elements if e in _TRACKED)
            parts.append(", ".join(e if e in _TRACKED else _fields(e) for e in elements))
        parts.append(_fields(pieces[-1]))
        form = line[:len(line) - len(body)] + " = ".join(parts)
        use = _USES[line] = (frozenset(targets), form if "{" in form else None)
    return use


_USES = {}


def _fields(text):
    return _TRACKED_NAME.sub(lambda m: "{" + m.group(1) + "}", text.replace("{", "{{").replace("}", "}}"))


# Generated code is built as a tree of nodes, [text without indentation, child nodes],

# ---- translated blocks ------------------------------------------------------------------

def _address(value):
    """An address as a literal in a block; a jump off either end of memory gives one
    below 0 or above 0xFFFF."""
    return f"0x{value:04X}" if value >= 0 else f"-0x{-value:04X}"


class _Reads(dict):
    """The fields of a _tracked_use form: a known register's value, else its name."""

    def __missing__(self, name):
        return name


# per block, over all its paths. Measured in instruction counts (callgrind, 10 emulated
# seconds of a BASIC loop; a Kniffel game): with the sides taken rarely left out
# (SIDE_SHARE), 40 runs the steady state 4% and a game 1% faster than 24 (and than 16, 32,
# 48); the first seconds with an empty cache cost 2% more, translating longer blocks
# (measured before calls to leaves were followed)
MAX_INSTRUCTIONS = 40
TAKEN_SHARE = 2  # a taken branch's path gets at most 1/TAKEN_SHARE of what is left
# A call to a leaf, a subroutine that returns within LEAF instructions and calls nothing,
# is followed into it, its return checked against the address the call pushed: the
# firmware's hottest subroutines are such (the next program byte: LIDP, TSID, JRZP, IXL,
# RTN). Measured (bench_instructions, bench_firmware): the steady state 11% fewer
# instructions and 9% faster than a call ending every path; with an empty cache the
# first 10 s 2% more instructions, a Kniffel game 0.5% more (but 5% slower: more to
# compile). Following every call: steady 17% fewer, but 13-16% more with an empty cache;
# leaves of 8 or 12 instructions: a little faster steady, more to translate.
LEAF = 5
# what `seen(addr)` says of a branch: the sides the interpreter saw it take (0: none known)
TAKEN_SIDE, NOT_TAKEN_SIDE = 2, 1
BOTH_SIDES = TAKEN_SIDE | NOT_TAKEN_SIDE
# A side the interpreter took less than 1/SIDE_SHARE of the times it ran the branch leaves
# the block like a side never taken. Measured in instruction counts (callgrind): 4 gives 3%
# less than following every side seen, in the steady state, in the first 10 s of a program
# with an empty cache (less to translate) and in a Kniffel game; 2, 3, 8 and 16 less so.
SIDE_SHARE = 4


def sides_seen(taken, not_taken):
    """What `seen` says of a branch the interpreter ran `taken` + `not_taken` times."""
    least = (taken + not_taken) // SIDE_SHARE
    return ((TAKEN_SIDE if taken and taken >= least else 0)
            | (NOT_TAKEN_SIDE if not_taken and not_taken >= least else 0))


class _Translation:
    """One block: a tree of paths from `entry`, each path following jumps and both sides
    of branches until it leaves (at a call, a return or the end of its budget). A
    path back to the entry loops inside the block; every pass starts with the guard."""

    def __init__(self, mem, entry, allowed, ops, sems, stop_on_bus_write, bank, seen):
        self.mem, self.entry, self.allowed, self.seen = mem, entry, allowed, seen
        self.ops, self.sems, self.stop_on_bus_write = ops, sems, stop_on_bus_write
        self.bank = bank
        self.left = MAX_INSTRUCTIONS
        self.guards = []  # the tests of the passes' guard, given their text at the end

    def usable(self, pc, seen):
        if not 0 <= pc <= 0xFFFF or pc in seen or self.left <= 0:
            return False
        o, sem = self.ops[self.mem[pc]], self.sems[self.mem[pc]]
        return (o.documented and sem.block != "no"
                and all(self.allowed(pc + k) for k in range(o.length)))

    def leaf(self, pc):
        """Whether the subroutine at `pc` returns within LEAF instructions on its straight
        path, with no call, jump or table of its own (its branches may leave it)."""
        for _ in range(LEAF):
            if not (0 <= pc <= 0xFFFF and self.allowed(pc)):
                return False
            sem = self.sems[self.mem[pc]]
            if sem.ret:
                return True
            if sem.call or sem.kind in ("jump", "dynamic") or sem.block != "seq":
                return False
            pc += self.ops[self.mem[pc]].length
        return False

    @staticmethod
    def specialized(lines, operands, known):
        """An instruction's template lines with the registers `known` (name -> value on
        this path) read as constants and each right side that then depends on the operands
        only computed now; `known` is updated for what the lines assign."""
        # a register the template assigns inside a loop or branch of its own is read there
        # again after it changed: it is left alone, and unknown afterwards
        inner = set()
        for line in lines:
            if line.startswith(" "):
                inner |= _tracked_use(line)[0]
        for name in inner:
            known.pop(name, None)
        out = []
        for line in lines:
            targets, form = _tracked_use(line)
            if form is not None and known:
                line = form.format_map(_Reads(known))
            parts = _foldable(line)
            if parts is not None:
                line = f"{parts[0]} = {_folder(parts[1])(*operands)!r}"
            for name in targets:
                value = line.partition(" = ")[2]
                if line.startswith(f"{name} = ") and _LITERAL.match(value) and name not in inner:
                    known[name] = value
                else:
                    known.pop(name, None)
            out.append(line)
        return out

    def leave(self, out, pending, pc):
        if pending:
            out.append([f"cycles += {pending}", []])
        where = pc if pc == "npc" else _address(pc)
        if pc == self.entry:  # another pass, if the guard allows it
            test = ["", [[f"return {where}", []]]]  # its text once the guard is known
            self.guards.append(test)
            out += [test, ["continue", []]]
        else:
            out.append([f"return {where}", []])

    def path(self, out, pc, pending, seen, budget, known, returns=None):
        """Emit the code of the path from `pc`, `pending` fixed cycles not yet added,
        `known` the registers of _TRACKED holding a constant there (name -> literal);
        return the largest `pending` at which one of its instructions starts (None if it
        runs none), which the guard before it must allow for."""
        guard = None
        stop = self.left - budget
        while True:
            if self.left <= stop or not self.usable(pc, seen):
                self.leave(out, pending, pc)
                return guard
            op_ = self.mem[pc]
            o, sem = self.ops[op_], self.sems[op_]
            seen = seen | {pc}
            self.left -= 1
            guard = pending if guard is None else max(guard, pending)
            # the instruction as a listing shows it, so that a traceback's line can be placed
            out.append([f"# {pc:04X}  {disassemble(self.mem, pc)[0]}", []])
            nxt = pc + o.length
            values = {"PC": _address(pc), "NEXT": _address(nxt)}
            operands = [self.mem[pc + k] if k < o.length else None for k in (1, 2, 3)]
            for k, n in enumerate(operands, 1):
                values[f"n{k}"] = "None" if n is None else f"0x{n:02X}"
            operands += (pc, nxt)
            code = self.specialized(sem.code, operands, known)
            # A write that ends the instruction may switch the ROM bank: the path goes on
            # only while the bank it was translated for is still mapped.
            bank_check = (self.stop_on_bus_write and sem.kind == "seq" and not sem.selfcycles
                          and sem.code and sem.code[-1].lstrip().startswith("@bus.write"))
            after_bus = (lambda: [[f"if bank != {self.bank!r}:",
                                   [[f"cycles += {pending + o.cycles}", []],
                                    [f"return {nxt}", []]]]]) if bank_check else None
            _emit(out, code, values, pending, after_bus)
            if sem.kind == "branch":
                target = _folder(sem.target)(*operands)
                branch = [f"if {_subst(sem.cond, values)}:", []]
                out.append(branch)
                taken = dict(known)
                _emit(branch[1], self.specialized(sem.then, operands, taken), values, pending)
                # a side the interpreter never saw this branch take leaves the block (if
                # it gets hot, the run loop makes a block of its own there)
                sides = self.seen(pc) or BOTH_SIDES
                if sides & TAKEN_SIDE:
                    share = max(1, (self.left - stop) // TAKEN_SHARE) \
                        if sides & NOT_TAKEN_SIDE else self.left - stop
                    g = self.path(branch[1], target, pending + o.taken, seen, share, taken,
                                  returns)
                    if g is not None:
                        guard = max(guard, g)
                else:
                    self.leave(branch[1], pending + o.taken, target)
                _emit(out, self.specialized(sem.orelse, operands, known), values, pending)
                pending += o.cycles
                pc = nxt
                if not sides & NOT_TAKEN_SIDE:
                    self.leave(out, pending, pc)
                    return guard
                continue
            if not sem.selfcycles:
                pending += o.taken if sem.kind == "jump" else o.cycles
            if sem.kind == "jump":
                target = _folder(sem.target)(*operands)
                if sem.call:
                    if returns is not None or not self.leaf(target):
                        # the callee is a block of its own: inlined, the firmware's many
                        # subroutines would be translated again into every caller's block
                        self.leave(out, pending, target)
                        return guard
                    returns = nxt
                pc = target
                continue
            if sem.ret and returns is not None:
                # the leaf returns where its call pushed, unless it changed the stack: then
                # the block leaves for where the stack says
                out.append([f"if npc != {_address(returns)}:",
                            [[f"cycles += {pending}", []], ["return npc", []]]])
                pc, returns = returns, None
                continue
            if sem.kind == "dynamic":
                if pending:
                    out.append([f"cycles += {pending}", []])
                out.append(["return npc", []])
                return guard
            pc = nxt
            ends = sem.block == "end" or (self.stop_on_bus_write and sem.writes_bus()
                                          and not bank_check)
            if ends and not sem.selfcycles:
                self.leave(out, pending, pc)
                return guard
            if sem.selfcycles:
                # cycles has grown by an amount only known now: the rest gets its own guard
                rest = []
                g = self.path(rest, pc, pending, seen, self.left - stop, known, returns) \
                    if not ends else None
                if g is None:
                    self.leave(out, pending, pc)
                else:
                    late = [f"if cycles + {g} >= end:", []]
                    out.append(late)
                    self.leave(late[1], pending, pc)
                    out += rest
                return guard


def block_source(mem, entry, allowed, ops, sems, stop_on_bus_write, bank=None,
                 seen=lambda addr: BOTH_SIDES):
    """Source lines of a block function running from `entry`, or None if the instruction
    there cannot start one. `allowed(addr)` says whether an address holds immutable code
    this block may include (checked for every byte of every instruction).
    `stop_on_bus_write`: a bus write may change the code the block runs (a ROM bank
    switch): a path ends after an instruction that may make one, or for a write that
    ends its instruction, checks that `bank` (the cell the engine names the bank in)
    still holds the given value."""
    t = _Translation(mem, entry, allowed, ops, sems, stop_on_bus_write, bank, seen)
    if not t.usable(entry, frozenset()):
        return None
    body = []
    guard = t.path(body, entry, 0, frozenset(), MAX_INSTRUCTIONS, {})
    for test in t.guards:
        test[0] = f"if cycles + {guard} >= end:"
    # None: not even the first pass fits, the run loop interprets the entry instruction
    function = drop_dead_stores([[f"if cycles + {guard} >= end:", [["return None", []]]],
                                 ["while True:", body]])
    # every cell a block may assign (finding the ones it does would cost a scan of its lines)
    return [f"def block_{entry:04X}(pc):", f"    nonlocal {', '.join(ASSIGNED)}"] + \
        flatten(function, 1)


# digest of the source -> code object, shared by every CPU of the process (same ROM); the
# source itself is kept once, by linecache
_block_cache = {}


def block_code(lines):
    key = hashlib.blake2b("\n".join(lines).encode(), digest_size=16).digest()
    code = _block_cache.get(key)
    if code is None:
        # named by its digest: a name of its own, the same in every run (a block kept by
        # the translation cache must not share its name with another one compiled later)
        filename = f"<sc61860 block {key.hex()}>"
        code = next(iter(compile_functions([lines], filename).values()))
        _block_cache[key] = code
    return code


def translator_version():
    """A digest of everything a block's code depends on besides the ROM: this package's
    sources (the templates, the translator, the cells' layout) and the bytecode format."""
    digest = hashlib.sha1(importlib.util.MAGIC_NUMBER)
    for path in sorted(Path(__file__).parent.iterdir()):
        if path.suffix in (".py", ".csv"):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()

"""SC61860 code generation: one semantic description per opcode, two kinds of code from it.

Each opcode family (emulator/cpu_ops_*.py) describes an instruction as a `Sem`: Python
source lines over the CPU's state cells plus how control leaves it. From that one
description this module generates

- the interpreter handler of every opcode (`handler_codes`, compiled once per process),
  a function `op(pc) -> next pc` that adds its own cycles last, exactly as a hand-written
  closure would;
- translated blocks (`block_source`): a run of ROM instructions as one function, with the
  operands folded in as constants, the fixed cycle costs summed at generation time and
  unconditional jumps and calls followed. A block runs only when all of its instructions
  would start before the run's budget is used up (its guard), so `run` stops at exactly
  the instruction boundary the interpreter would.

Template placeholders: n1 n2 n3 are the operand bytes after the opcode, PC is the
instruction's address and NEXT the address after it. A line whose code starts with `@`
calls the bus: in a block, where fixed cycles are summed up, `cycles` is made exact
around it. Generated functions are bound to the builder's cells with `bind`.
"""

import re
import types
from dataclasses import dataclass

# The state cells a generated function may assign (declared nonlocal when they appear).
ASSIGNED = ("p", "q", "r", "dp", "c", "z", "d", "cycles")
# Every name the factory defines: the builder must provide a cell for each one used.
CELLS = ASSIGNED + ("mem", "iram", "bus", "write_floor", "end", "undocumented")
_PLACEHOLDER = re.compile(r"\b(n1|n2|n3|PC|NEXT)\b")
_WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")


@dataclass(frozen=True)
class Sem:
    """What one instruction does. kind: "seq" (goes on at NEXT), "jump" (to `target`,
    a constant in a block), "branch" (to `target` when `cond`, running `then` first, else
    `orelse` and on at NEXT), "dynamic" (the code leaves the next PC in `npc`).
    `selfcycles`: the code adds all of its cycles itself (block lengths, DTC, WAIT).
    `block`: "seq" may be followed by more instructions in a translated block, "end" ends
    one, "no" is never translated."""
    code: tuple = ()
    kind: str = "seq"
    target: str = ""
    cond: str = ""
    then: tuple = ()
    orelse: tuple = ()
    selfcycles: bool = False
    block: str = "seq"
    call: bool = False  # a jump that pushes a return address (followed like a jump)

    def lines(self):
        return self.code + self.then + self.orelse + (self.cond, self.target)

    def writes_bus(self):
        return any("bus.write" in line for line in self.code)


def seq(*code, **kw):
    return Sem(code=code, **kw)


def _names(lines):
    found = set()
    for line in lines:
        found.update(_WORD.findall(line))
    return found


def _subst(text, values):
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def _emit_lines(out, lines, values, indent, pending=0):
    pad = " " * indent
    for line in lines:
        body = line.lstrip()
        lead = " " * (len(line) - len(body))
        if body.startswith("@"):
            body = body[1:]
            if pending:
                out.append(f"{pad}{lead}cycles += {pending}")
                out.append(f"{pad}{lead}{_subst(body, values)}")
                out.append(f"{pad}{lead}cycles -= {pending}")
                continue
        out.append(f"{pad}{lead}{_subst(body, values)}")


def _nonlocals(out_lines):
    used = _names(out_lines)
    return [name for name in ASSIGNED if name in used]


# ---- interpreter handlers -------------------------------------------------------------

def handler_source(o, sem, name):
    """The interpreter handler of opcode `o` as source (a function of pc)."""
    values = {"PC": "pc", "NEXT": f"(pc + {o.length})", "n1": "n1", "n2": "n2", "n3": "n3"}
    used = _names(sem.lines())
    body = []
    for k in (1, 2, 3):  # every operand is read before any state changes (see run's retry)
        if f"n{k}" in used:
            body.append(f"n{k} = mem[pc + {k}]")
    if not o.documented:
        body.append(f"undocumented[(pc & 0xFFFF, {o.opcode})] += 1")
    _emit_lines(body, sem.code, values, 0)
    fixed = "" if sem.selfcycles else f"cycles += {o.cycles}"
    if sem.kind == "seq":
        body += [fixed, f"return pc + {o.length}"]
    elif sem.kind == "dynamic":
        body += [fixed, "return npc"]
    elif sem.kind == "jump":
        body += [f"target = {_subst(sem.target, values)}", f"cycles += {o.taken}", "return target"]
    else:
        body.append(f"if {_subst(sem.cond, values)}:")
        _emit_lines(body, sem.then, values, 4)
        body += [f"    target = {_subst(sem.target, values)}", f"    cycles += {o.taken}",
                 "    return target"]
        _emit_lines(body, sem.orelse, values, 0)
        body += [f"cycles += {o.cycles}", f"return pc + {o.length}"]
    body = [line for line in body if line]
    head = [f"def {name}(pc):"]
    nl = _nonlocals(body)
    if nl:
        head.append(f"    nonlocal {', '.join(nl)}")
    return head + ["    " + line for line in body]


def _factory_source(functions):
    lines = ["def _factory():", f"    {' = '.join(CELLS)} = None"]
    for fn in functions:
        lines += ["    " + line for line in fn]
    return "\n".join(lines) + "\n"


def compile_functions(functions, filename):
    """Compile function sources (lists of lines) inside a factory whose locals are the CPU's
    cells; return {name: code object} for `bind`."""
    namespace = {}
    exec(compile(_factory_source(functions), filename, "exec"), namespace)
    return {const.co_name: const for const in namespace["_factory"].__code__.co_consts
            if isinstance(const, types.CodeType)}


def bind(code, cells):
    """A function of `code` whose free variables are the builder's cells (a name -> cell map)."""
    return types.FunctionType(code, _GLOBALS, code.co_name, None,
                              tuple(cells[name] for name in code.co_freevars))


_GLOBALS = {"__builtins__": __builtins__}


def handler_codes(ops, sems):
    """{opcode: code object} of the 256 interpreter handlers."""
    functions = [handler_source(o, sems[o.opcode], f"op_{o.opcode:02X}") for o in ops]
    codes = compile_functions(functions, "<sc61860 handlers>")
    return [codes[f"op_{o.opcode:02X}"] for o in ops]


# ---- translated blocks ------------------------------------------------------------------

MAX_INSTRUCTIONS = 48  # per block: long enough for the ROM's straight runs, short to compile


def block_source(mem, entry, allowed, ops, sems, stop_on_bus_write):
    """Source lines of a block function running from `entry`, or None if the instruction
    there cannot start one. `allowed(addr)` says whether an address holds immutable code
    this block may include (checked for every byte of every instruction).
    `stop_on_bus_write`: a bus write may change the code the block runs (a ROM bank
    switch), so the block ends after an instruction that may make one."""
    body = []
    pending = 0  # fixed cycles of the instructions so far on the straight path
    guard = 0  # pending when the last instruction started: the block's guard
    seen = set()
    pc = entry
    count = 0
    while True:
        op_ = mem[pc]
        o, sem = ops[op_], sems[op_]
        if (not o.documented or sem.block == "no" or pc in seen or count >= MAX_INSTRUCTIONS
                or not all(allowed(pc + k) for k in range(o.length))):
            if count == 0:
                return None
            body.append(f"cycles += {pending}")
            body.append(f"return {pc}")
            break
        seen.add(pc)
        count += 1
        guard = pending
        values = {"PC": str(pc), "NEXT": str(pc + o.length)}
        for k in (1, 2, 3):
            values[f"n{k}"] = str(mem[pc + k]) if k < o.length else "None"
        _emit_lines(body, sem.code, values, 0, pending)
        ends = (sem.block == "end" or sem.selfcycles
                or (stop_on_bus_write and sem.writes_bus()))
        if sem.kind == "seq":
            if not sem.selfcycles:
                pending += o.cycles
            nxt = pc + o.length
            if ends:
                body += [f"cycles += {pending}" if pending else "", f"return {nxt}"]
                break
            pc = nxt
        elif sem.kind == "dynamic":
            if not sem.selfcycles:
                pending += o.cycles
            body += [f"cycles += {pending}" if pending else "", "return npc"]
            break
        elif sem.kind == "jump":
            target = eval(_subst(sem.target, values), {})  # constants only: fold here
            pending += o.taken
            if ends or not isinstance(target, int) or not 0 <= target <= 0xFFFF:
                body += [f"cycles += {pending}", f"return {target}"]
                break
            pc = target
        else:  # branch: leave when taken, go on straight when not
            target = eval(_subst(sem.target, values), {})
            body.append(f"if {_subst(sem.cond, values)}:")
            _emit_lines(body, sem.then, values, 4, pending)
            body += [f"    cycles += {pending + o.taken}", f"    return {target}"]
            _emit_lines(body, sem.orelse, values, 0, pending)
            pending += o.cycles
            nxt = pc + o.length
            if ends:
                body += [f"cycles += {pending}", f"return {nxt}"]
                break
            pc = nxt
    body = [line for line in body if line]
    name = f"block_{entry:04X}"
    head = [f"def {name}(pc):"]
    nl = _nonlocals(body + ["cycles"])
    head.append(f"    nonlocal {', '.join(nl)}")
    head.append(f"    if cycles + {guard} >= end:")
    head.append("        return None")
    return head + ["    " + line for line in body]


_block_cache = {}  # source -> code object, shared by every CPU of the process (same ROM)


def block_code(lines):
    key = "\n".join(lines)
    code = _block_cache.get(key)
    if code is None:
        code = next(iter(compile_functions([lines], "<sc61860 block>").values()))
        _block_cache[key] = code
    return code

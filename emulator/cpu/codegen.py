"""SC61860 code generation: one semantic description per opcode, two kinds of code from it.

Each opcode family (emulator/cpu/ops_*.py) describes an instruction as a `Sem`: Python
source lines over the CPU's state cells plus how control leaves it. From that one
description this module generates the interpreter handler of every opcode
(`handler_codes`, compiled once per process), a function `op(pc) -> next pc` that adds its
own cycles last, exactly as a hand-written closure would; emulator/cpu/translator.py
builds translated blocks from the same templates.

Template placeholders: n1 n2 n3 are the operand bytes after the opcode, PC is the
instruction's address and NEXT the address after it. A line whose code starts with `@`
calls the bus: in a block, where fixed cycles are summed up, `cycles` is made exact
around it. Generated functions are bound to the builder's cells with `bind`.

Each compilation registers its source with linecache under a pseudo-filename of its own
(`<sc61860 handlers>`, `<sc61860 block DIGEST>`): tracebacks formatted by the traceback
module (pytest, logging), pdb and inspect.getsource show the generated lines; before
Python 3.13 the interpreter's own report of an uncaught exception reads only real files.
"""

import linecache
import re
import sys
import types
from dataclasses import dataclass

from emulator.cpu.dead_stores import WORD

# The state cells a generated function may assign (declared nonlocal when they appear).
ASSIGNED = ("p", "q", "r", "dp", "c", "z", "d", "cycles")
# Every name the factory defines: the builder must provide a cell for each one used.
CELLS = ASSIGNED + ("mem", "iram", "bus", "write_floor", "end", "undocumented", "bank",
                    "mirror_first", "mirror_last", "mirror_xor")
_PLACEHOLDER = re.compile(r"\b(n1|n2|n3|PC|NEXT)\b")


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
    call: bool = False  # a jump that pushes a return address (ends a block's path)
    ret: bool = False  # "dynamic" that pops the return address a call pushed (for a debugger)

    def lines(self):
        return self.code + self.then + self.orelse + (self.cond, self.target)

    def writes_bus(self):
        return any("bus.write" in line for line in self.code)


def seq(*code, **kw):
    return Sem(code=code, **kw)


def _names(lines):
    found = set()
    for line in lines:
        found.update(WORD.findall(line))
    return found


# template -> the same text as a format string: substitution is then one format_map call
_FORMATS = {}


def _subst(text, values):
    form = _FORMATS.get(text)
    if form is None:
        escaped = text.replace("{", "{{").replace("}", "}}")
        form = _FORMATS[text] = _PLACEHOLDER.sub(lambda m: "{" + m.group(1) + "}", escaped)
    return form.format_map(values)


# template expression -> a function of the operands, compiled once per process: a block
# so that the dead-store pass walks it as it is and indentation is added once, at the end.

def _emit(nodes, lines, values, pending=0, after_bus=()):
    """Append template `lines` (nested by their own indentation) to `nodes`, with the
    operands substituted; a bus call (`@`) gets `pending` cycles around it and is
    followed by `after_bus` (a function making the nodes that go after it)."""
    stack = [(-1, nodes)]  # (indentation of the line that owns them, child nodes)
    for line in lines:
        body = line.lstrip()
        lead = len(line) - len(body)
        while stack[-1][0] >= lead:
            stack.pop()
        into = stack[-1][1]
        if body.startswith("@"):
            call = [_subst(body[1:], values), []]
            into += [[f"cycles += {pending}", []], call, [f"cycles -= {pending}", []]] \
                if pending else [call]
            if after_bus:
                into += after_bus()
            continue
        node = [_subst(body, values), []]
        into.append(node)
        if body.endswith(":"):
            stack.append((lead, node[1]))


def flatten(nodes, depth, out=None):
    """The lines of a tree of nodes, indented four spaces a level from `depth`."""
    out = [] if out is None else out
    pad = "    " * depth
    for text, children in nodes:
        out.append(pad + text)
        if children:
            flatten(children, depth + 1, out)
        elif text.endswith(":"):
            out.append(pad + "    pass")
    return out


def _emitted(lines, values, depth):
    nodes = []
    _emit(nodes, lines, values)
    return flatten(nodes, depth)


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
    body += _emitted(sem.code, values, 0)
    fixed = "" if sem.selfcycles else f"cycles += {o.cycles}"
    if sem.kind == "seq":
        body += [fixed, f"return pc + {o.length}"]
    elif sem.kind == "dynamic":
        body += [fixed, "return npc"]
    elif sem.kind == "jump":
        body += [f"target = {_subst(sem.target, values)}", f"cycles += {o.taken}", "return target"]
    else:
        body.append(f"if {_subst(sem.cond, values)}:")
        body += _emitted(sem.then, values, 1)
        body += [f"    target = {_subst(sem.target, values)}", f"    cycles += {o.taken}",
                 "    return target"]
        body += _emitted(sem.orelse, values, 0)
        body += [f"cycles += {o.cycles}", f"return pc + {o.length}"]
    body = [line for line in body if line]
    head = [f"def {name}(pc):  # {o.mnemonic}"]
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
    cells; return {name: code object} for `bind`. The source is registered with linecache
    under `filename` (a name of its own per compilation), so tracebacks, pdb and
    inspect.getsource show the generated lines."""
    source = _factory_source(functions)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    register_source(filename, source)
    return {const.co_name: const for const in namespace["_factory"].__code__.co_consts
            if isinstance(const, types.CodeType)}


def register_source(filename, source):
    """Make `source` the text linecache gives for `filename` (also for a block's code
    object that a translation cache kept from an earlier run)."""
    # No mtime: linecache.checkcache keeps an entry that has no file to compare with.
    # Interned: the blocks repeat the same lines, which are then stored once.
    lines = [sys.intern(line) for line in source.splitlines(True)]
    linecache.cache[filename] = (len(source), None, lines, filename)


def block_source_text(code):
    """The source a block's code object was compiled from, as register_source keeps it;
    None if linecache no longer has it (linecache.clearcache() forgets every entry)."""
    entry = linecache.cache.get(code.co_filename)
    return "".join(entry[2]) if entry and len(entry) == 4 else None


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

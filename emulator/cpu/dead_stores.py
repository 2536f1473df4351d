"""The dead-store pass over a translated block's source (emulator/cpu/translator.py).

A block's paths often set a register cell that a later instruction sets again before
anything reads it: INCx then CPIA never shows the INCx flags, LP then LP leaves only the
second P. Backward liveness over the block's tree of nodes drops those stores; every exit,
bus call and loop of a template counts as reading every register. What the pass needs
of a line is found once per distinct line and kept (_facts).
"""

import re

WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")  # a lower-case name: the cells and the locals of templates

_REGISTERS = frozenset(("p", "q", "r", "dp", "c", "z", "d"))
_STORE = re.compile(r"^((?:[a-z_][a-z0-9_]* = )+)(.*)$")
_EXIT = re.compile(r"^(return|continue|break)\b")
_CALL = re.compile(r"[A-Za-z_0-9]\(")


def _facts(body, nested):
    """What the dead-store pass needs of one line (stripped; `nested`: it has children),
    found once per distinct line: ("keep",) a listing comment, ("all",) reads every
    register, ("pass",) the block or its passes, ("else",), ("if", reads),
    ("store", targets, reads), ("read", reads)."""
    key = (body, nested)
    facts = _FACTS.get(key)
    if facts is None:
        if body.startswith("#"):
            facts = ("keep",)
        elif nested and body.startswith(("def ", "while True:")):
            facts = ("pass",)
        elif nested and body == "else:":
            facts = ("else",)
        elif _EXIT.match(body) or _CALL.search(body) or (
                nested and body.startswith(("for ", "while "))):
            facts = ("all",)  # an exit, a call (the bus may look at anything), a template loop
        elif nested:
            facts = ("if", _REGISTERS & set(WORD.findall(body)))
        elif (m := _STORE.match(body)):
            facts = ("store", m.group(1).split(" = ")[:-1], m.group(2),
                     _REGISTERS & set(WORD.findall(m.group(2))))
        else:
            facts = ("read", _REGISTERS & set(WORD.findall(body)))
        _FACTS[key] = facts
    return facts


_FACTS = {}


def _prune(nodes, live):
    """Backward liveness of the register cells over `nodes`, which run on to code needing
    `live`: drop the stores nothing reads. Returns (nodes kept, registers live before)."""
    kept = []
    else_live = None
    for text, children in reversed(nodes):
        facts = _facts(text, bool(children))
        kind = facts[0]
        if kind == "keep":
            pass
        elif kind == "all":
            live = _REGISTERS
        elif kind == "pass":
            children = _prune(children, _REGISTERS)[0]
            live = _REGISTERS
        elif kind == "else":
            children, else_live = _prune(children, live)
            kept.append([text, children])
            continue
        elif kind == "if":  # either branch may run
            children, body_live = _prune(children, live)
            live = body_live | (live if else_live is None else else_live) | facts[1]
        elif kind == "store":
            targets, right, reads = facts[1:]
            wanted = [t for t in targets if t not in _REGISTERS or t in live]
            if not wanted:
                continue
            live = (live - set(targets)) | reads
            if len(wanted) < len(targets):
                text = "".join(t + " = " for t in wanted) + right
        else:
            live = live | facts[1]
        if children:
            else_live = None
        kept.append([text, children])
    kept.reverse()
    return kept, live


def drop_dead_stores(nodes):
    """A block's tree of nodes ([text, children], codegen's form) without its dead register
    stores. The nodes run on to an exit, which reads every register."""
    return _prune(nodes, _REGISTERS)[0]

"""SC61860 semantics: loads, pointer registers, single-byte transfers, the stack.

Each entry maps a mnemonic of optable.csv to a function of its `Op` returning the
instruction's `Sem` (emulator/cpu/codegen.py explains the template language)."""

from emulator.cpu.codegen import seq

I, J, A, B, XL, XH, YL, YH, K, L, M, N = range(12)


def _store(addr, value):
    """A data write: straight into mem above the write floor; below it into mem and its
    mirror for the range the bus only mirrors (SC61860.mirror_writes), else through the bus."""
    return (f"if {addr} >= write_floor:", f"    mem[{addr}] = {value}", "else:",
            f"    if mirror_first <= {addr} <= mirror_last:",
            f"        mem[{addr}] = {value}", f"        mem[{addr} ^ mirror_xor] = {value}",
            "    else:", f"        @bus.write({addr}, {value})")


def _xy_step(low, delta, access):
    """IX DX IY DY (access None), IXL DXL (A <- (DP)), IYS DYS ((DP) <- A).
    The pair is stepped, DP follows it, and Q is left at the high byte's address."""
    high = low + 1
    code = (f"v = (iram[{high}] << 8 | iram[{low}]) + {delta} & 0xFFFF",
            f"iram[{low}] = v & 0xFF", f"iram[{high}] = v >> 8", "dp = v", f"q = {high}")
    if access == "load":
        code += (f"iram[{A}] = mem[v]",)
    elif access == "store":
        code += _store("v", f"iram[{A}]")
    return lambda o: seq(*code)


def _fixed(*code):
    return lambda o: seq(*code)


SEMS = {
    # LII LIJ LIA LIB: register <- n
    "LII": _fixed(f"iram[{I}] = n1"), "LIJ": _fixed(f"iram[{J}] = n1"),
    "LIA": _fixed(f"iram[{A}] = n1"), "LIB": _fixed(f"iram[{B}] = n1"),
    "LIDP": _fixed("dp = n1 << 8 | n2"),
    "LIDL": _fixed("dp = (dp & 0xFF00) | n1"),
    "LIP": _fixed("p = n1 & 0x7F"), "LIQ": _fixed("q = n1 & 0x7F"),
    # LP n: P <- the low six bits of the opcode
    "LP": lambda o: seq(f"p = {o.opcode & 0x3F}"),
    "LDP": _fixed(f"iram[{A}] = p"), "LDQ": _fixed(f"iram[{A}] = q"),
    "LDR": _fixed(f"iram[{A}] = r"),
    # STP STQ STR: P, Q or R <- A (7 bits)
    "STP": _fixed(f"p = iram[{A}] & 0x7F"), "STQ": _fixed(f"q = iram[{A}] & 0x7F"),
    "STR": _fixed(f"r = iram[{A}] & 0x7F"),
    # INCP DECP: no flags
    "INCP": _fixed("p = (p + 1) & 0x7F"), "DECP": _fixed("p = (p - 1) & 0x7F"),
    "IX": _xy_step(XL, 1, None), "DX": _xy_step(XL, -1, None),
    "IY": _xy_step(YL, 1, None), "DY": _xy_step(YL, -1, None),
    "IXL": _xy_step(XL, 1, "load"), "DXL": _xy_step(XL, -1, "load"),
    "IYS": _xy_step(YL, 1, "store"), "DYS": _xy_step(YL, -1, "store"),
    "CLRA": _fixed(f"iram[{A}] = 0"),
    "LDM": _fixed(f"iram[{A}] = iram[p]"),
    "LDD": _fixed(f"iram[{A}] = mem[dp]"),
    "MVMD": _fixed("iram[p] = mem[dp]"),
    "STD": _fixed(*_store("dp", f"iram[{A}]")),
    "MVDM": _fixed(*_store("dp", "iram[p]")),
    # READ (A), READM ((P)) <- the byte after the opcode. One byte long (the majority of
    # the sources): that byte is then executed as the next opcode.
    "READ": _fixed(f"iram[{A}] = mem[PC + 1]"), "READM": _fixed("iram[p] = mem[PC + 1]"),
    "EXAB": _fixed(f"iram[{A}], iram[{B}] = iram[{B}], iram[{A}]"),
    "EXAM": _fixed(f"iram[{A}], iram[p] = iram[p], iram[{A}]"),
    "SWP": _fixed(f"v = iram[{A}]", f"iram[{A}] = (v << 4 | v >> 4) & 0xFF"),
    "PUSH": _fixed("r = (r - 1) & 0x7F", f"iram[r] = iram[{A}]"),
    "POP": _fixed(f"iram[{A}] = iram[r]", "r = (r + 1) & 0x7F"),
    # LEAVE: (R) <- 0, so the next LOOP exits
    "LEAVE": _fixed("iram[r] = 0"),
}

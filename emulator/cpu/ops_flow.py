"""SC61860 semantics: jumps, calls, returns, the PTC/DTC case table, LOOP.

Relative offsets count from the offset byte. A call pushes the return address high byte
first, so (R) holds the low byte."""

from emulator.cpu.codegen import Sem, seq

A = 2


def _jr(cond, forward):
    target = "PC + 1 + n1" if forward else "PC + 1 - n1"
    if cond is None:
        return lambda o: Sem(kind="jump", target=target)
    return lambda o: Sem(kind="branch", cond=cond, target=target)


def _jp(cond):
    if cond is None:
        return lambda o: Sem(kind="jump", target="n1 << 8 | n2")
    return lambda o: Sem(kind="branch", cond=cond, target="n1 << 8 | n2")


# R's neighbours in the 128 bytes of internal RAM, wrapped as the chip wraps them: R is
# 0-127, so R-1 (-1 is 127) and R-127 (R+1, 128 is 0) index the list without a mask
_PUSH_NEXT = ("iram[r - 1] = (NEXT >> 8) & 0xFF", "r = (r - 2) & 0x7F",
              "iram[r] = NEXT & 0xFF")


def _cal(o):
    """CAL: a two-byte call into 0x0000-0x1FFF, the high five bits in the opcode."""
    return Sem(code=_PUSH_NEXT, kind="jump", target=f"{(o.opcode & 0x1F) << 8} | n1", call=True)


def _dtc(o):
    """DTC: scan d entries (value, high, low) for A; jump to the match or the default
    address after the table. Z <- 1 on a match, 0 on the default (the last compare)."""
    return Sem(code=(
        f"a = iram[{A}]",
        "entry = PC + 1",
        "for _ in range(d):",
        "    if mem[entry & 0xFFFF] == a:",
        "        found = 1",
        "        break",
        "    entry += 3",
        "else:",
        "    found = 0",
        "    entry -= 1",  # the default address sits where the next value would be
        "npc = mem[(entry + 1) & 0xFFFF] << 8 | mem[(entry + 2) & 0xFFFF]",
        "z = found",
        f"cycles += {o.cycles} + {o.per} * d",
    ), kind="dynamic", selfcycles=True, block="end")


def _loop(o):
    """LOOP n: decrement (R); jump back unless it borrowed, in which case pop it."""
    return Sem(code=("v = iram[r] - 1",), kind="branch", cond="v >= 0", target="PC + 1 - n1",
               then=("iram[r] = v", "c = 0", "z = v == 0"),
               orelse=("iram[r] = 0xFF", "c = 1", "z = 0", "r = (r + 1) & 0x7F"))


SEMS = {
    "JRP": _jr(None, True), "JRM": _jr(None, False),
    # the flags only ever hold 0 or 1 (True or False): tested as they are, which CPython
    # does faster than a comparison with a bool
    "JRNZP": _jr("not z", True), "JRNZM": _jr("not z", False),
    "JRZP": _jr("z", True), "JRZM": _jr("z", False),
    "JRNCP": _jr("not c", True), "JRNCM": _jr("not c", False),
    "JRCP": _jr("c", True), "JRCM": _jr("c", False),
    # JP and the conditional JP: the cost is the same whether taken or not
    "JP": _jp(None), "JPNZ": _jp("not z"), "JPZ": _jp("z"),
    "JPNC": _jp("not c"), "JPC": _jp("c"),
    "CALL": lambda o: Sem(code=_PUSH_NEXT, kind="jump", target="n1 << 8 | n2", call=True),
    "CAL": _cal,
    "RTN": lambda o: Sem(code=("npc = iram[r - 127] << 8 | iram[r]", "r = (r + 2) & 0x7F"),
                         kind="dynamic", ret=True),
    # PTC k,nm: d <- k and push nm as the return address of the DTC that follows
    "PTC": lambda o: seq("d = n1", "iram[r - 1] = n2", "r = (r - 2) & 0x7F",
                         "iram[r] = n3"),
    "DTC": _dtc,
    "LOOP": _loop,
}

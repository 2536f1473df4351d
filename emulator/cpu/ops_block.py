"""SC61860 semantics: block and string instructions, BCD, ports, timing, the no-ops.

A block instruction's length comes from I or J (the table's cycle formula names it); it
adds base + per * count cycles itself (a translated block checks its budget anew after it)."""

from emulator.cpu.codegen import Sem, seq
from emulator.cpu.ops_move import _store

I, J, A, B = range(4)
IA, IB, FO, CTRL = 0x5C, 0x5D, 0x5E, 0x5F
COUNTERS = {"I": I, "J": J}


def _blk(o, *code):
    return Sem(code=code + (f"cycles += {o.cycles} + {o.per} * n",), selfcycles=True)


def _block_move(o):
    """MVW, MVB: (P) <- (Q), I+1 or J+1 bytes upwards; P and Q end past the block. The
    count is taken first, so the block may overwrite I or J."""
    return _blk(o, f"n = iram[{COUNTERS[o.var]}]", "pp, qq = p, q",
                "for _ in range(n + 1):",
                "    iram[pp] = iram[qq]", "    pp = (pp + 1) & 0x7F", "    qq = (qq + 1) & 0x7F",
                "p, q = pp, qq")


def _block_exchange(o):
    """EXW, EXB: (P) <-> (Q), I+1 or J+1 bytes upwards."""
    return _blk(o, f"n = iram[{COUNTERS[o.var]}]", "pp, qq = p, q",
                "for _ in range(n + 1):",
                "    iram[pp], iram[qq] = iram[qq], iram[pp]", "    pp = (pp + 1) & 0x7F",
                "    qq = (qq + 1) & 0x7F",
                "p, q = pp, qq")


def _block_move_dp(o):
    """MVWD, MVBD: (P) <- (DP), I+1 or J+1 bytes; DP ends on the last byte read."""
    return _blk(o, f"n = iram[{COUNTERS[o.var]}]", "pp, addr = p, dp",
                "for _ in range(n):",
                "    iram[pp] = mem[addr]", "    pp = (pp + 1) & 0x7F", "    addr = (addr + 1) & 0xFFFF",
                "iram[pp] = mem[addr]",
                "p, dp = (pp + 1) & 0x7F, addr")


def _block_exchange_dp(o):
    """EXWD, EXBD: (P) <-> (DP), I+1 or J+1 bytes; DP ends on the last byte."""
    return _blk(o, f"n = iram[{COUNTERS[o.var]}]", "pp, addr = p, dp",
                "for k in range(n + 1):",
                "    if k:", "        addr = (addr + 1) & 0xFFFF",
                "    v = mem[addr]",
                *("    " + line for line in _store("addr", "iram[pp]")),
                "    iram[pp] = v", "    pp = (pp + 1) & 0x7F",
                "p, dp = pp, addr")


def _film(o):
    """FILM: (P)..(P+I) <- A; P ends past the block."""
    return _blk(o, f"n, a, pp = iram[{I}], iram[{A}], p",
                "for _ in range(n + 1):", "    iram[pp] = a", "    pp = (pp + 1) & 0x7F",
                "p = pp")


def _fild(o):
    """FILD: (DP)..(DP+I) <- A; DP ends on the last byte written."""
    return _blk(o, f"n, a, addr = iram[{I}], iram[{A}], dp",
                "for k in range(n + 1):",
                "    if k:", "        addr = (addr + 1) & 0xFFFF",
                *("    " + line for line in _store("addr", "a")),
                "dp = addr")


def _data(o):
    """DATA: (P)..(P+I) <- program memory from B:A. The source address is latched first, so
    a destination overlapping A/B (the ROM's LP 2 idiom) reads on from the original
    address; A and B are not written back."""
    return _blk(o, f"n = iram[{I}]", f"src = iram[{B}] << 8 | iram[{A}]", "pp = p",
                "for _ in range(n + 1):",
                "    iram[pp] = mem[src]", "    pp = (pp + 1) & 0x7F", "    src = (src + 1) & 0xFFFF",
                "p = pp")


def _nibble_shift(left):
    """SRW: (P)..(P+I) right by a nibble, the lowest address most significant, P ends
    past the block. SLW: (P)..(P-I) left by a nibble, downwards, P ends below it."""
    if left:
        loop = ("    iram[pp] = (v << 4 & 0xFF) | carry", "    carry = v >> 4",
                "    pp = (pp - 1) & 0x7F")
    else:
        loop = ("    iram[pp] = v >> 4 | carry", "    carry = (v & 15) << 4",
                "    pp = (pp + 1) & 0x7F")
    return lambda o: _blk(o, f"n, pp, carry = iram[{I}], p, 0", "for _ in range(n + 1):",
                          "    v = iram[pp]", *loop, "p = pp")


def _bcd(subtract, with_q):
    """ADN SBN (operand A, then only the carry ripples) and ADW SBW (operand (Q)):
    I+1 bytes from (P) downwards, low nibble first, each nibble adjusted by 10.
    P ends at P-I-1; ADW/SBW leave Q at Q-I-2. Z <- every result byte is 0;
    C <- the final carry or borrow. Nibbles above 9 follow the same rule, cut to 4 bits
    (the chip's result is unknown)."""
    if subtract:
        digit = ("    lo = (x & 15) - (y & 15) - carry", "    hi = (x >> 4) - (y >> 4)",
                 "    if lo < 0:", "        lo += 10", "        hi -= 1",
                 "    carry = hi < 0", "    if carry:", "        hi += 10")
    else:
        digit = ("    lo = (x & 15) + (y & 15) + carry", "    hi = (x >> 4) + (y >> 4)",
                 "    if lo > 9:", "        lo -= 10", "        hi += 1",
                 "    carry = hi > 9", "    if carry:", "        hi -= 10")
    fetch = ("    y = iram[qq]", "    qq = (qq - 1) & 0x7F") if with_q else ()
    return lambda o: _blk(
        o, f"n, pp, qq = iram[{I}], p, q", "carry = nonzero = 0", f"y = iram[{A}]",
        "for _ in range(n + 1):", *fetch, "    x = iram[pp]", *digit,
        "    v = (hi & 15) << 4 | (lo & 15)", "    iram[pp] = v", "    nonzero |= v", "    y = 0",
        "    pp = (pp - 1) & 0x7F",
        "p = pp", *(("q = (qq - 1) & 0x7F",) if with_q else ()), "c = carry", "z = not nonzero")


def _port_in(method):
    """INA, INB: A <- the port, Z <- (A == 0)."""
    return lambda o: seq(f"@v = bus.{method}() & 0xFF", f"iram[{A}] = v", "z = v == 0")


def _port_out(method, latch, block="seq"):
    """OUTA OUTB OUTF OUTC: send the latch byte to the port, Q <- the latch address."""
    return lambda o: seq(f"q = {latch}", f"@bus.{method}(iram[{latch}])", block=block)


def _xin_wait(level):
    """CUP (waits for Xin = 1), CDN (Xin = 0): up to I+1 polls, P++ after each miss.
    Z <- 0 when the level was seen, 1 on timeout. Each poll costs `per` cycles and the
    counter grows with them, so the bus sees time pass while the CPU waits."""
    return lambda o: Sem(code=(
        "found = 0",
        f"for _ in range(iram[{I}] + 1):",
        "    seen = bus.xin()",
        f"    cycles += {o.per}",
        f"    if seen == {level}:",
        "        found = 1",
        "        break",
        "    p = (p + 1) & 0x7F",
        "z = not found",
        f"cycles += {o.cycles - o.per}"), selfcycles=True, block="no")


SEMS = {
    "MVW": _block_move, "MVB": _block_move, "EXW": _block_exchange, "EXB": _block_exchange,
    "MVWD": _block_move_dp, "MVBD": _block_move_dp,
    "EXWD": _block_exchange_dp, "EXBD": _block_exchange_dp,
    "FILM": _film, "FILD": _fild, "DATA": _data,
    "SRW": _nibble_shift(False), "SLW": _nibble_shift(True),
    "ADN": _bcd(False, False), "SBN": _bcd(True, False),
    "ADW": _bcd(False, True), "SBW": _bcd(True, True),
    "INA": _port_in("ina"), "INB": _port_in("inb"),
    "OUTA": _port_out("outa", IA), "OUTB": _port_out("outb", IB),
    # OUTC ends a block: with its OFF bit the machine ends the run (SC61860.stop_at)
    "OUTF": _port_out("outf", FO), "OUTC": _port_out("outc", CTRL, block="end"),
    # TEST n: the bus builds the status byte (and clears the timer flags it reports)
    "TEST": lambda o: seq("@z = not bus.test(n1) & n1"),
    "CUP": _xin_wait(1), "CDN": _xin_wait(0),
    # WAIT n: only time passes
    "WAIT": lambda o: Sem(code=(f"cycles += {o.cycles} + {o.per} * n1",), selfcycles=True),
    # NOPW, NOPT, and the opcodes nothing is known about (UNDEF)
    "NOPW": lambda o: seq(), "NOPT": lambda o: seq(), "UNDEF": lambda o: seq(),
    # Undocumented 0x72/0x73/0x76/0x77: Z <- 0, the operand byte skipped
    "RZ": lambda o: seq("z = 0"),
}

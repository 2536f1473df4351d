"""SC61860 semantics: increment/decrement, add/subtract, compare, logic, shifts, flags."""

from emulator.cpu.codegen import seq
from emulator.cpu.ops_move import _store

I, J, A, B, XL, XH, YL, YH, K, L, M, N = range(12)
# Where an operand comes from: A, the immediate byte, (P).
_SRC = {"a": f"iram[{A}]", "n": "n1", "p": "iram[p]"}


def _incdec(reg, delta):
    """INCx / DECx: C and Z from the result, Q <- the register's address."""
    if delta == 1:
        code = (f"v = (iram[{reg}] + 1) & 0xFF", f"iram[{reg}] = v", "c = z = v == 0", f"q = {reg}")
    else:
        code = (f"v = (iram[{reg}] - 1) & 0xFF", f"iram[{reg}] = v", "z = v == 0", "c = v == 0xFF",
                f"q = {reg}")
    return lambda o: seq(*code)


def _add(dst, src, carry=False):
    """ADM ADCM ADIA ADIM: dst <- dst + src (+ C)."""
    d = _SRC[dst]
    extra = " + c" if carry else ""
    return lambda o: seq(f"v = {d} + {_SRC[src]}{extra}", "c = v >> 8", "v &= 0xFF", "z = v == 0",
                         f"{d} = v")


def _sub(dst, src, carry=False):
    """SBM SBCM SBIA SBIM: dst <- dst - src (- C); C is the borrow."""
    d = _SRC[dst]
    extra = " - c" if carry else ""
    return lambda o: seq(f"v = {d} - {_SRC[src]}{extra}", "c = v < 0", "v &= 0xFF", "z = v == 0",
                         f"{d} = v")


def _compare(first, second):
    """CPIA (A, n), CPIM ((P), n), CPMA ((P), A): C <- first < second, Z <- equal."""
    # each flag reads its operands itself, not through x, y: the dead-store pass often
    # drops one of the two (measured in instruction counts)
    a, b = _SRC[first], _SRC[second]
    return lambda o: seq(f"c = {a} < {b}", f"z = {a} == {b}")


def _logic(kind, dst, src):
    """AND / OR / TEST of A with n, (P) with n or (P) with A; only Z changes."""
    d, s = _SRC[dst], _SRC[src]
    if kind == "test":
        return lambda o: seq(f"z = not {d} & {s}")
    sym = "&" if kind == "and" else "|"
    return lambda o: seq(f"v = {d} {sym} {s}", f"{d} = v", "z = v == 0")


def _logic_dp(kind):
    """ANID ORID TSID, and the undocumented 0xD7 (kind 'sz': Z <- 1).
    Side effect shared by all four: (R-1) <- (DP) as read; R itself does not move."""
    code = ("v = mem[dp]", "iram[r - 1] = v")
    if kind in ("and", "or"):
        code += (f"v {'&' if kind == 'and' else '|'}= n1", "z = v == 0") + _store("dp", "v")
    elif kind == "test":
        code += ("z = not v & n1",)
    else:
        code += ("z = 1",)
    return lambda o: seq(*code)


def _adb_sbb(subtract):
    """ADB, SBB: 16-bit (P+1,P) +/-= (B,A); Z from all 16 bits; P ends at P+1."""
    return lambda o: seq(
        "hi = (p + 1) & 0x7F",
        "x = iram[hi] << 8 | iram[p]",
        f"y = iram[{B}] << 8 | iram[{A}]",
        f"v = x {'-' if subtract else '+'} y",
        "c = v < 0" if subtract else "c = v > 0xFFFF",
        "v &= 0xFFFF",
        "z = v == 0",
        "iram[p] = v & 0xFF",
        "iram[hi] = v >> 8",
        "p = hi")


SEMS = {
    "INCI": _incdec(I, 1), "DECI": _incdec(I, -1), "INCJ": _incdec(J, 1), "DECJ": _incdec(J, -1),
    "INCA": _incdec(A, 1), "DECA": _incdec(A, -1), "INCB": _incdec(B, 1), "DECB": _incdec(B, -1),
    "INCK": _incdec(K, 1), "DECK": _incdec(K, -1), "INCL": _incdec(L, 1), "DECL": _incdec(L, -1),
    "INCM": _incdec(M, 1), "DECM": _incdec(M, -1), "INCN": _incdec(N, 1), "DECN": _incdec(N, -1),
    "ADM": _add("p", "a"), "ADCM": _add("p", "a", True),
    "SBM": _sub("p", "a"), "SBCM": _sub("p", "a", True),
    "ADIA": _add("a", "n"), "ADIM": _add("p", "n"),
    "SBIA": _sub("a", "n"), "SBIM": _sub("p", "n"),
    "CPIA": _compare("a", "n"), "CPIM": _compare("p", "n"), "CPMA": _compare("p", "a"),
    "ANIA": _logic("and", "a", "n"), "ORIA": _logic("or", "a", "n"),
    "TSIA": _logic("test", "a", "n"),
    "ANIM": _logic("and", "p", "n"), "ORIM": _logic("or", "p", "n"),
    "TSIM": _logic("test", "p", "n"),
    "ANMA": _logic("and", "p", "a"), "ORMA": _logic("or", "p", "a"),
    "TSMA": _logic("test", "p", "a"),
    "ANID": _logic_dp("and"), "ORID": _logic_dp("or"), "TSID": _logic_dp("test"),
    "SZ": _logic_dp("sz"),
    "ADB": _adb_sbb(False), "SBB": _adb_sbb(True),
    # SL, SR: rotate A through the carry; Z is left alone
    "SL": lambda o: seq(f"v = iram[{A}]", f"iram[{A}] = (v << 1 & 0xFF) | c", "c = v >> 7"),
    "SR": lambda o: seq(f"v = iram[{A}]", f"iram[{A}] = v >> 1 | c << 7", "c = v & 1"),
    # SC, RC: C <- 1 / 0 and Z <- 1
    "SC": lambda o: seq("c = 1", "z = 1"), "RC": lambda o: seq("c = 0", "z = 1"),
}

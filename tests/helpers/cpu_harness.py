"""The SC61860 opcode harness of the CPU tests: `make_cpu` poisons memory and internal
RAM with 0xAA, `FakeBus` records every port call, `run_op` steps one instruction and
compares the whole state, so that every change must be expected and nothing else may
change."""

from emulator.cpu.sc61860 import SC61860

ORG = 0x8100
POISON = 0xAA
REGS = {"I": 0, "J": 1, "A": 2, "B": 3, "XL": 4, "XH": 5, "YL": 6, "YH": 7,
        "K": 8, "L": 9, "M": 10, "N": 11}
POINTERS = ("p", "q", "r", "dp", "c", "z", "d")
# Each open flag is tried at 0 and at 1, and C and Z differ in both runs: a flag that the
# instruction should leave alone is caught if it is set, cleared or swapped with the other.
FLAG_DEFAULTS = ((0, 1), (1, 0))


class FakeBus:
    """Records every port call with the CPU's cycle count at that moment."""

    def __init__(self, ina=0, inb=0, status=0, xin=()):
        self.cpu = None
        self.calls = []
        self._ina, self._inb, self._status = ina, inb, status
        self._xin = list(xin)

    def _log(self, *call):
        self.calls.append(call + (self.cpu.cycles,))

    def write(self, addr, value):
        self._log("write", addr, value)

    def ina(self):
        self._log("ina")
        return self._ina

    def inb(self):
        self._log("inb")
        return self._inb

    def outa(self, v):
        self._log("outa", v)

    def outb(self, v):
        self._log("outb", v)

    def outf(self, v):
        self._log("outf", v)

    def outc(self, v):
        self._log("outc", v)

    def test(self, n):
        self._log("test", n)
        return self._status

    def xin(self):
        self._log("xin")
        return self._xin.pop(0) if self._xin else 0


def make_cpu(code=b"", org=ORG, bus=None):
    bus = bus or FakeBus()
    mem = bytearray([POISON]) * 0x10000
    mem[org:org + len(code)] = bytes(code)
    cpu = SC61860(mem, bus)
    bus.cpu = cpu
    cpu.iram[:] = bytes([POISON]) * 128
    cpu.p = cpu.q = cpu.r = POISON & 0x7F
    cpu.dp = POISON * 0x101
    cpu.d = POISON
    cpu.pc = org
    return cpu


def _apply(cpu, state):
    for key, value in state.items():
        if key in REGS:
            cpu.iram[REGS[key]] = value
        elif key == "X":
            cpu.iram[4], cpu.iram[5] = value & 0xFF, value >> 8
        elif key == "Y":
            cpu.iram[6], cpu.iram[7] = value & 0xFF, value >> 8
        elif key == "iram":
            for addr, v in value.items():
                cpu.iram[addr] = v
        elif key == "mem":
            for addr, v in value.items():
                cpu.mem[addr] = v
        elif key in POINTERS or key == "write_floor":
            setattr(cpu, key, value)
        else:
            raise KeyError(key)


def _snapshot(cpu):
    state = {name: getattr(cpu, name) for name in POINTERS}
    state.update((("iram", a), v) for a, v in enumerate(cpu.iram))
    state["mem"] = bytes(cpu.mem)
    return state


def _expected(before, expect):
    want = dict(before)
    mem = bytearray(before["mem"])
    for key, value in expect.items():
        if key in REGS:
            want[("iram", REGS[key])] = value
        elif key in ("X", "Y"):
            low = 4 if key == "X" else 6
            want[("iram", low)], want[("iram", low + 1)] = value & 0xFF, value >> 8
        elif key == "iram":
            want.update((("iram", a), v) for a, v in value.items())
        elif key == "mem":
            for addr, v in value.items():
                mem[addr] = v
        else:
            want[key] = value
    want["mem"] = bytes(mem)
    return want


def _name(key):
    if isinstance(key, tuple):
        names = {v: k for k, v in REGS.items()}
        return names.get(key[1], f"iram[{key[1]:02X}]")
    return key


def _differences(want, got):
    lines = []
    for key in want:
        if key == "mem":
            if want["mem"] == got["mem"]:
                continue
            for addr, (w, g) in enumerate(zip(want["mem"], got["mem"])):
                if w != g:
                    lines.append(f"mem[{addr:04X}] expected {w:02X}, got {g:02X}")
        elif want[key] != got[key]:
            lines.append(f"{_name(key)} expected {want[key]:#x}, got {got[key]:#x}")
    return lines


def run_op(code, expect=(), *, pc, cycles, setup=(), org=ORG, bus_factory=FakeBus):
    """Execute `code` at `org` from each FLAG_DEFAULTS state of the flags `setup` leaves open,
    and assert the new PC, the cycles and the complete state (`expect` lists every
    change: register names, "X"/"Y", p q r dp c z d, iram={addr: v}, mem={addr: v}).
    Returns the CPU and bus of the last run."""
    setup, expect = dict(setup), dict(expect)
    combos = dict.fromkeys((setup.get("c", c), setup.get("z", z)) for c, z in FLAG_DEFAULTS)
    for c, z in combos:
        bus = bus_factory()
        cpu = make_cpu(code, org, bus)
        cpu.c, cpu.z = c, z
        _apply(cpu, setup)
        before = _snapshot(cpu)
        ran = cpu.step()
        got = _snapshot(cpu)
        want = _expected(before, expect)
        problems = _differences(want, got)
        if cpu.pc != pc & 0xFFFF:
            problems.append(f"pc expected {pc & 0xFFFF:04X}, got {cpu.pc:04X}")
        if ran != cycles or cpu.cycles != cycles:
            problems.append(f"cycles expected {cycles}, step returned {ran}, counter {cpu.cycles}")
        assert not problems, f"{bytes(code).hex(' ')} (C={c} Z={z}): " + "; ".join(problems)
    return cpu, bus

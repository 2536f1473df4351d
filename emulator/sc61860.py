"""Sharp SC61860 CPU core (the contract is in docs/interfaces.md).

Speed shapes the design. All CPU state lives in variables of one builder function,
`_build`, and every instruction handler is a closure over them, so a handler reads
P or the carry with a single cell load instead of an attribute or list lookup.
A handler takes the address of its opcode and returns the next PC; it adds its
own cycles to the shared `cycles` counter as its last action, after any bus call,
so the bus always sees the cycles of completed instructions only.

The `SC61860` class is a thin shell: its attributes p, q, r, dp, pc, c, z, d,
cycles, write_floor and bus read and write the builder's cells directly.

PC handling: handlers do not mask the PC. A JRM near 0x0000 may return a negative
PC, which indexes `mem` from the end, i.e. correctly modulo 64 KiB; running past
0xFFFF (or reading an operand beyond it) raises IndexError, which `run` turns into
the wrapped PC and then retries. For the retry to be safe every handler reads its
operand bytes before it changes any state. The PC is masked whenever it leaves the
core (pushed on the stack, stored after `run`, logged).

Choices where the sources disagree follow hardware.md section 2.4; the others are
noted where they are made and in optable.csv.
"""

from collections import Counter

from emulator.optable import OPS

# Internal RAM addresses of the registers.
I, J, A, B, XL, XH, YL, YH, K, L, M, N = range(12)
IA, IB, FO, CTRL = 0x5C, 0x5D, 0x5E, 0x5F
# The register a block instruction's length comes from, named by the table's cycle formula.
COUNTERS = {"I": I, "J": J}

# State cells exposed as attributes, with the mask applied on assignment.
_STATE = {"p": 0x7F, "q": 0x7F, "r": 0x7F, "dp": 0xFFFF, "pc": 0xFFFF, "c": 1, "z": 1,
          "d": 0xFF, "cycles": None, "write_floor": None, "bus": None}


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
    """Create the state cells and one handler per opcode; return the shell's hooks."""
    p = q = r = 0
    dp = 0
    reg_pc = 0
    c = z = 0
    d = 0
    cycles = 0
    write_floor = 0
    undocumented = cpu.undocumented

    def cells():
        # Only its closure matters: it holds every state cell for the shell's properties.
        return p, q, r, dp, reg_pc, c, z, d, cycles, write_floor, bus

    def write(addr, value):
        if addr >= write_floor:
            mem[addr] = value
        else:
            bus.write(addr, value)

    # ---- loads and pointer registers -----------------------------------------------

    def load_imm(o, reg):
        """LII LIJ LIA LIB: register <- n."""
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[reg] = mem[pc + 1]
            cycles += cyc
            return pc + 2
        return op

    def lidp(o):
        cyc = o.cycles

        def op(pc):
            nonlocal dp, cycles
            dp = mem[pc + 1] << 8 | mem[pc + 2]
            cycles += cyc
            return pc + 3
        return op

    def lidl(o):
        cyc = o.cycles

        def op(pc):
            nonlocal dp, cycles
            dp = (dp & 0xFF00) | mem[pc + 1]
            cycles += cyc
            return pc + 2
        return op

    def lip(o):
        cyc = o.cycles

        def op(pc):
            nonlocal p, cycles
            p = mem[pc + 1] & 0x7F
            cycles += cyc
            return pc + 2
        return op

    def liq(o):
        cyc = o.cycles

        def op(pc):
            nonlocal q, cycles
            q = mem[pc + 1] & 0x7F
            cycles += cyc
            return pc + 2
        return op

    def lp(o):
        """LP n: P <- the low six bits of the opcode."""
        cyc, value = o.cycles, o.opcode & 0x3F

        def op(pc):
            nonlocal p, cycles
            p = value
            cycles += cyc
            return pc + 1
        return op

    def ld_pointer(o, which):
        """LDP LDQ LDR: A <- P, Q or R."""
        cyc = o.cycles
        if which == "p":
            def op(pc):
                nonlocal cycles
                iram[A] = p
                cycles += cyc
                return pc + 1
        elif which == "q":
            def op(pc):
                nonlocal cycles
                iram[A] = q
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal cycles
                iram[A] = r
                cycles += cyc
                return pc + 1
        return op

    def st_pointer(o, which):
        """STP STQ STR: P, Q or R <- A (7 bits)."""
        cyc = o.cycles
        if which == "p":
            def op(pc):
                nonlocal p, cycles
                p = iram[A] & 0x7F
                cycles += cyc
                return pc + 1
        elif which == "q":
            def op(pc):
                nonlocal q, cycles
                q = iram[A] & 0x7F
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal r, cycles
                r = iram[A] & 0x7F
                cycles += cyc
                return pc + 1
        return op

    def step_p(o, delta):
        """INCP DECP: no flags."""
        cyc = o.cycles

        def op(pc):
            nonlocal p, cycles
            p = (p + delta) & 0x7F
            cycles += cyc
            return pc + 1
        return op

    def xy_step(o, low, delta, access):
        """IX DX IY DY (access None), IXL DXL (A <- (DP)), IYS DYS ((DP) <- A).
        The pair is stepped, DP follows it, and Q is left at the high byte's address."""
        cyc, high = o.cycles, low + 1
        if access is None:
            def op(pc):
                nonlocal dp, q, cycles
                v = (iram[high] << 8 | iram[low]) + delta & 0xFFFF
                iram[low] = v & 0xFF
                iram[high] = v >> 8
                dp = v
                q = high
                cycles += cyc
                return pc + 1
        elif access == "load":
            def op(pc):
                nonlocal dp, q, cycles
                v = (iram[high] << 8 | iram[low]) + delta & 0xFFFF
                iram[low] = v & 0xFF
                iram[high] = v >> 8
                dp = v
                q = high
                iram[A] = mem[v]
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal dp, q, cycles
                v = (iram[high] << 8 | iram[low]) + delta & 0xFFFF
                iram[low] = v & 0xFF
                iram[high] = v >> 8
                dp = v
                q = high
                if v >= write_floor:
                    mem[v] = iram[A]
                else:
                    bus.write(v, iram[A])
                cycles += cyc
                return pc + 1
        return op

    # ---- single-byte transfers ------------------------------------------------------

    def clra(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[A] = 0
            cycles += cyc
            return pc + 1
        return op

    def ldm(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[A] = iram[p]
            cycles += cyc
            return pc + 1
        return op

    def ldd(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[A] = mem[dp]
            cycles += cyc
            return pc + 1
        return op

    def mvmd(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[p] = mem[dp]
            cycles += cyc
            return pc + 1
        return op

    def std(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            if dp >= write_floor:
                mem[dp] = iram[A]
            else:
                bus.write(dp, iram[A])
            cycles += cyc
            return pc + 1
        return op

    def mvdm(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            if dp >= write_floor:
                mem[dp] = iram[p]
            else:
                bus.write(dp, iram[p])
            cycles += cyc
            return pc + 1
        return op

    def read(o, to_a):
        """READ (A) and READM ((P)) <- the byte after the opcode. One byte long (the
        majority of the sources): that byte is then executed as the next opcode."""
        cyc = o.cycles
        if to_a:
            def op(pc):
                nonlocal cycles
                iram[A] = mem[pc + 1]
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal cycles
                iram[p] = mem[pc + 1]
                cycles += cyc
                return pc + 1
        return op

    def exab(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[A], iram[B] = iram[B], iram[A]
            cycles += cyc
            return pc + 1
        return op

    def exam(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[A], iram[p] = iram[p], iram[A]
            cycles += cyc
            return pc + 1
        return op

    def swp(o):
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            v = iram[A]
            iram[A] = (v << 4 | v >> 4) & 0xFF
            cycles += cyc
            return pc + 1
        return op

    # ---- stack -----------------------------------------------------------------------

    def push(o):
        cyc = o.cycles

        def op(pc):
            nonlocal r, cycles
            r = (r - 1) & 0x7F
            iram[r] = iram[A]
            cycles += cyc
            return pc + 1
        return op

    def pop(o):
        cyc = o.cycles

        def op(pc):
            nonlocal r, cycles
            iram[A] = iram[r]
            r = (r + 1) & 0x7F
            cycles += cyc
            return pc + 1
        return op

    def leave(o):
        """LEAVE: (R) <- 0, so the next LOOP exits."""
        cyc = o.cycles

        def op(pc):
            nonlocal cycles
            iram[r] = 0
            cycles += cyc
            return pc + 1
        return op

    # ---- jumps, calls ----------------------------------------------------------------

    def jr(o, flag, want, forward):
        """JRP JRM and the conditional JR: the offset counts from the offset byte."""
        taken, skip = o.taken, o.cycles
        if flag is None and forward:
            def op(pc):
                nonlocal cycles
                target = pc + 1 + mem[pc + 1]
                cycles += taken
                return target
        elif flag is None:
            def op(pc):
                nonlocal cycles
                target = pc + 1 - mem[pc + 1]
                cycles += taken
                return target
        elif flag == "z" and forward:
            def op(pc):
                nonlocal cycles
                if z == want:
                    target = pc + 1 + mem[pc + 1]
                    cycles += taken
                    return target
                cycles += skip
                return pc + 2
        elif flag == "z":
            def op(pc):
                nonlocal cycles
                if z == want:
                    target = pc + 1 - mem[pc + 1]
                    cycles += taken
                    return target
                cycles += skip
                return pc + 2
        elif forward:
            def op(pc):
                nonlocal cycles
                if c == want:
                    target = pc + 1 + mem[pc + 1]
                    cycles += taken
                    return target
                cycles += skip
                return pc + 2
        else:
            def op(pc):
                nonlocal cycles
                if c == want:
                    target = pc + 1 - mem[pc + 1]
                    cycles += taken
                    return target
                cycles += skip
                return pc + 2
        return op

    def jp(o, flag, want):
        """JP and the conditional JP; the cost is the same whether taken or not."""
        cyc = o.cycles
        if flag is None:
            def op(pc):
                nonlocal cycles
                target = mem[pc + 1] << 8 | mem[pc + 2]
                cycles += cyc
                return target
        elif flag == "z":
            def op(pc):
                nonlocal cycles
                target = mem[pc + 1] << 8 | mem[pc + 2] if z == want else pc + 3
                cycles += cyc
                return target
        else:
            def op(pc):
                nonlocal cycles
                target = mem[pc + 1] << 8 | mem[pc + 2] if c == want else pc + 3
                cycles += cyc
                return target
        return op

    def call(o):
        """CALL nm: push the return address, high byte first (so (R) holds the low byte)."""
        cyc = o.cycles

        def op(pc):
            nonlocal r, cycles
            target = mem[pc + 1] << 8 | mem[pc + 2]
            ret = pc + 3
            iram[(r - 1) & 0x7F] = (ret >> 8) & 0xFF
            r = (r - 2) & 0x7F
            iram[r] = ret & 0xFF
            cycles += cyc
            return target
        return op

    def cal(o):
        """CAL: a two-byte call into 0x0000-0x1FFF, the high five bits in the opcode."""
        cyc, high = o.cycles, (o.opcode & 0x1F) << 8

        def op(pc):
            nonlocal r, cycles
            target = high | mem[pc + 1]
            ret = pc + 2
            iram[(r - 1) & 0x7F] = (ret >> 8) & 0xFF
            r = (r - 2) & 0x7F
            iram[r] = ret & 0xFF
            cycles += cyc
            return target
        return op

    def rtn(o):
        cyc = o.cycles

        def op(pc):
            nonlocal r, cycles
            target = iram[(r + 1) & 0x7F] << 8 | iram[r]
            r = (r + 2) & 0x7F
            cycles += cyc
            return target
        return op

    def ptc(o):
        """PTC k,nm: d <- k and push nm as the return address of the DTC that follows."""
        cyc = o.cycles

        def op(pc):
            nonlocal r, d, cycles
            k, hi, lo = mem[pc + 1], mem[pc + 2], mem[pc + 3]
            d = k
            iram[(r - 1) & 0x7F] = hi
            r = (r - 2) & 0x7F
            iram[r] = lo
            cycles += cyc
            return pc + 4
        return op

    def dtc(o):
        """DTC: scan d entries (value, high, low) for A; jump to the match or the default
        address after the table. Z <- 1 on a match, 0 on the default (the last compare)."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal z, cycles
            a = iram[A]
            entry = pc + 1
            for _ in range(d):
                if mem[entry & 0xFFFF] == a:
                    found = 1
                    break
                entry += 3
            else:
                found = 0
                entry -= 1   # the default address sits where the next value would be
            target = mem[(entry + 1) & 0xFFFF] << 8 | mem[(entry + 2) & 0xFFFF]
            z = found
            cycles += base + per * d
            return target
        return op

    def loop(o):
        """LOOP n: decrement (R); jump back unless it borrowed, in which case pop it."""
        taken, exit_ = o.taken, o.cycles

        def op(pc):
            nonlocal r, c, z, cycles
            back = pc + 1 - mem[pc + 1]
            v = iram[r] - 1
            if v >= 0:
                iram[r] = v
                c = 0
                z = v == 0
                cycles += taken
                return back
            iram[r] = 0xFF
            c = 1
            z = 0
            r = (r + 1) & 0x7F
            cycles += exit_
            return pc + 2
        return op

    # ---- arithmetic and logic ----------------------------------------------------------

    def incdec(o, reg, delta):
        """INCx / DECx: C and Z from the result, Q <- the register's address."""
        cyc = o.cycles
        if delta == 1:
            def op(pc):
                nonlocal c, z, q, cycles
                v = (iram[reg] + 1) & 0xFF
                iram[reg] = v
                c = z = v == 0
                q = reg
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal c, z, q, cycles
                v = (iram[reg] - 1) & 0xFF
                iram[reg] = v
                z = v == 0
                c = v == 0xFF
                q = reg
                cycles += cyc
                return pc + 1
        return op

    def add_pm(o, with_carry):
        """ADM, ADCM: (P) <- (P) + A (+ C)."""
        cyc = o.cycles
        if with_carry:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] + iram[A] + c
                c = v >> 8
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] + iram[A]
                c = v >> 8
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 1
        return op

    def sub_pm(o, with_carry):
        """SBM, SBCM: (P) <- (P) - A (- C); C is the borrow."""
        cyc = o.cycles
        if with_carry:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] - iram[A] - c
                c = v < 0
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] - iram[A]
                c = v < 0
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 1
        return op

    def add_imm(o, to_a):
        """ADIA, ADIM: A or (P) <- itself + n."""
        cyc = o.cycles
        if to_a:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[A] + mem[pc + 1]
                c = v >> 8
                v &= 0xFF
                z = v == 0
                iram[A] = v
                cycles += cyc
                return pc + 2
        else:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] + mem[pc + 1]
                c = v >> 8
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 2
        return op

    def sub_imm(o, to_a):
        """SBIA, SBIM: A or (P) <- itself - n."""
        cyc = o.cycles
        if to_a:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[A] - mem[pc + 1]
                c = v < 0
                v &= 0xFF
                z = v == 0
                iram[A] = v
                cycles += cyc
                return pc + 2
        else:
            def op(pc):
                nonlocal c, z, cycles
                v = iram[p] - mem[pc + 1]
                c = v < 0
                v &= 0xFF
                z = v == 0
                iram[p] = v
                cycles += cyc
                return pc + 2
        return op

    def compare(o, mode):
        """CPIA (A, n), CPIM ((P), n), CPMA ((P), A): C <- first < second, Z <- equal."""
        cyc = o.cycles
        if mode == "an":
            def op(pc):
                nonlocal c, z, cycles
                x, y = iram[A], mem[pc + 1]
                c = x < y
                z = x == y
                cycles += cyc
                return pc + 2
        elif mode == "pn":
            def op(pc):
                nonlocal c, z, cycles
                x, y = iram[p], mem[pc + 1]
                c = x < y
                z = x == y
                cycles += cyc
                return pc + 2
        else:
            def op(pc):
                nonlocal c, z, cycles
                x, y = iram[p], iram[A]
                c = x < y
                z = x == y
                cycles += cyc
                return pc + 1
        return op

    def logic(o, kind, mode):
        """AND / OR / TEST of A with n, (P) with n or (P) with A; only Z changes.
        kind: 'and', 'or', 'test'; mode: 'an' (A,n), 'pn' ((P),n), 'pa' ((P),A)."""
        cyc = o.cycles
        if kind == "test":
            if mode == "an":
                def op(pc):
                    nonlocal z, cycles
                    z = not iram[A] & mem[pc + 1]
                    cycles += cyc
                    return pc + 2
            elif mode == "pn":
                def op(pc):
                    nonlocal z, cycles
                    z = not iram[p] & mem[pc + 1]
                    cycles += cyc
                    return pc + 2
            else:
                def op(pc):
                    nonlocal z, cycles
                    z = not iram[p] & iram[A]
                    cycles += cyc
                    return pc + 1
            return op
        if kind == "and" and mode == "an":
            def op(pc):
                nonlocal z, cycles
                v = iram[A] & mem[pc + 1]
                iram[A] = v
                z = v == 0
                cycles += cyc
                return pc + 2
        elif kind == "and" and mode == "pn":
            def op(pc):
                nonlocal z, cycles
                v = iram[p] & mem[pc + 1]
                iram[p] = v
                z = v == 0
                cycles += cyc
                return pc + 2
        elif kind == "and":
            def op(pc):
                nonlocal z, cycles
                v = iram[p] & iram[A]
                iram[p] = v
                z = v == 0
                cycles += cyc
                return pc + 1
        elif mode == "an":
            def op(pc):
                nonlocal z, cycles
                v = iram[A] | mem[pc + 1]
                iram[A] = v
                z = v == 0
                cycles += cyc
                return pc + 2
        elif mode == "pn":
            def op(pc):
                nonlocal z, cycles
                v = iram[p] | mem[pc + 1]
                iram[p] = v
                z = v == 0
                cycles += cyc
                return pc + 2
        else:
            def op(pc):
                nonlocal z, cycles
                v = iram[p] | iram[A]
                iram[p] = v
                z = v == 0
                cycles += cyc
                return pc + 1
        return op

    def logic_dp(o, kind):
        """ANID ORID TSID, and the undocumented 0xD7 (kind 'sz': Z <- 1).
        Side effect shared by all four: (R-1) <- (DP) as read; R itself does not move."""
        cyc = o.cycles

        def op(pc):
            nonlocal z, cycles
            n = mem[pc + 1]
            v = mem[dp]
            iram[(r - 1) & 0x7F] = v
            if kind == "and":
                v &= n
                z = v == 0
                write(dp, v)
            elif kind == "or":
                v |= n
                z = v == 0
                write(dp, v)
            elif kind == "test":
                z = not v & n
            else:
                z = 1
            cycles += cyc
            return pc + 2
        return op

    def adb_sbb(o, subtract):
        """ADB, SBB: 16-bit (P+1,P) +/-= (B,A); Z from all 16 bits; P ends at P+1."""
        cyc = o.cycles

        def op(pc):
            nonlocal p, c, z, cycles
            hi = (p + 1) & 0x7F
            x = iram[hi] << 8 | iram[p]
            y = iram[B] << 8 | iram[A]
            v = x - y if subtract else x + y
            c = v < 0 if subtract else v > 0xFFFF
            v &= 0xFFFF
            z = v == 0
            iram[p] = v & 0xFF
            iram[hi] = v >> 8
            p = hi
            cycles += cyc
            return pc + 1
        return op

    def shift_a(o, left):
        """SL, SR: rotate A through the carry; Z is left alone."""
        cyc = o.cycles
        if left:
            def op(pc):
                nonlocal c, cycles
                v = iram[A]
                iram[A] = (v << 1 & 0xFF) | c
                c = v >> 7
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal c, cycles
                v = iram[A]
                iram[A] = v >> 1 | c << 7
                c = v & 1
                cycles += cyc
                return pc + 1
        return op

    def set_carry(o, value):
        """SC, RC: C <- value and Z <- 1."""
        cyc = o.cycles

        def op(pc):
            nonlocal c, z, cycles
            c = value
            z = 1
            cycles += cyc
            return pc + 1
        return op

    # ---- block and string instructions ----------------------------------------------

    def block_move(o):
        """MVW, MVB: (P) <- (Q), I+1 or J+1 bytes (the table's counter) upwards; P and Q end
        past the block. The count is taken first, so the block may overwrite I or J."""
        base, per, counter = o.cycles, o.per, COUNTERS[o.var]

        def op(pc):
            nonlocal p, q, cycles
            n = iram[counter]
            pp, qq = p, q
            for _ in range(n + 1):
                iram[pp] = iram[qq]
                pp = (pp + 1) & 0x7F
                qq = (qq + 1) & 0x7F
            p, q = pp, qq
            cycles += base + per * n
            return pc + 1
        return op

    def block_exchange(o):
        """EXW, EXB: (P) <-> (Q), I+1 or J+1 bytes upwards."""
        base, per, counter = o.cycles, o.per, COUNTERS[o.var]

        def op(pc):
            nonlocal p, q, cycles
            n = iram[counter]
            pp, qq = p, q
            for _ in range(n + 1):
                iram[pp], iram[qq] = iram[qq], iram[pp]
                pp = (pp + 1) & 0x7F
                qq = (qq + 1) & 0x7F
            p, q = pp, qq
            cycles += base + per * n
            return pc + 1
        return op

    def block_move_dp(o):
        """MVWD, MVBD: (P) <- (DP), I+1 or J+1 bytes; DP ends on the last byte read."""
        base, per, counter = o.cycles, o.per, COUNTERS[o.var]

        def op(pc):
            nonlocal p, dp, cycles
            n = iram[counter]
            pp, addr = p, dp
            for _ in range(n):
                iram[pp] = mem[addr]
                pp = (pp + 1) & 0x7F
                addr = (addr + 1) & 0xFFFF
            iram[pp] = mem[addr]
            p, dp = (pp + 1) & 0x7F, addr
            cycles += base + per * n
            return pc + 1
        return op

    def block_exchange_dp(o):
        """EXWD, EXBD: (P) <-> (DP), I+1 or J+1 bytes; DP ends on the last byte."""
        base, per, counter = o.cycles, o.per, COUNTERS[o.var]

        def op(pc):
            nonlocal p, dp, cycles
            n = iram[counter]
            pp, addr = p, dp
            for k in range(n + 1):
                if k:
                    addr = (addr + 1) & 0xFFFF
                v = mem[addr]
                if addr >= write_floor:
                    mem[addr] = iram[pp]
                else:
                    bus.write(addr, iram[pp])
                iram[pp] = v
                pp = (pp + 1) & 0x7F
            p, dp = pp, addr
            cycles += base + per * n
            return pc + 1
        return op

    def film(o):
        """FILM: (P)..(P+I) <- A; P ends past the block."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal p, cycles
            n, a, pp = iram[I], iram[A], p
            for _ in range(n + 1):
                iram[pp] = a
                pp = (pp + 1) & 0x7F
            p = pp
            cycles += base + per * n
            return pc + 1
        return op

    def fild(o):
        """FILD: (DP)..(DP+I) <- A; DP ends on the last byte written."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal dp, cycles
            n, a, addr = iram[I], iram[A], dp
            for k in range(n + 1):
                if k:
                    addr = (addr + 1) & 0xFFFF
                if addr >= write_floor:
                    mem[addr] = a
                else:
                    bus.write(addr, a)
            dp = addr
            cycles += base + per * n
            return pc + 1
        return op

    def data(o):
        """DATA: (P)..(P+I) <- program memory from B:A. The source address is latched
        first, so a destination overlapping A/B (the ROM's LP 2 idiom) reads on from the
        original address; A and B are not written back."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal p, cycles
            n = iram[I]
            src = iram[B] << 8 | iram[A]
            pp = p
            for _ in range(n + 1):
                iram[pp] = mem[src]
                pp = (pp + 1) & 0x7F
                src = (src + 1) & 0xFFFF
            p = pp
            cycles += base + per * n
            return pc + 1
        return op

    def nibble_shift(o, left):
        """SRW: (P)..(P+I) right by a nibble, the lowest address most significant, P ends
        past the block. SLW: (P)..(P-I) left by a nibble, downwards, P ends below it."""
        base, per = o.cycles, o.per
        if left:
            def op(pc):
                nonlocal p, cycles
                n, pp, carry = iram[I], p, 0
                for _ in range(n + 1):
                    v = iram[pp]
                    iram[pp] = (v << 4 & 0xFF) | carry
                    carry = v >> 4
                    pp = (pp - 1) & 0x7F
                p = pp
                cycles += base + per * n
                return pc + 1
        else:
            def op(pc):
                nonlocal p, cycles
                n, pp, carry = iram[I], p, 0
                for _ in range(n + 1):
                    v = iram[pp]
                    iram[pp] = v >> 4 | carry
                    carry = (v & 15) << 4
                    pp = (pp + 1) & 0x7F
                p = pp
                cycles += base + per * n
                return pc + 1
        return op

    def bcd(o, subtract, with_q):
        """ADN SBN (operand A, then only the carry ripples) and ADW SBW (operand (Q)):
        I+1 bytes from (P) downwards, low nibble first, each nibble adjusted by 10.
        P ends at P-I-1; ADW/SBW leave Q at Q-I-2. Z <- every result byte is 0;
        C <- the final carry or borrow. Nibbles above 9 follow the same rule, cut to
        4 bits (the chip's result is unknown). The arithmetic is inline: BCD runs
        byte by byte in the firmware's number crunching, a call per byte would show."""
        base, per = o.cycles, o.per
        if subtract:
            def op(pc):
                nonlocal p, q, c, z, cycles
                n, pp, qq = iram[I], p, q
                borrow = nonzero = 0
                y = iram[A]
                for _ in range(n + 1):
                    if with_q:
                        y = iram[qq]
                        qq = (qq - 1) & 0x7F
                    x = iram[pp]
                    lo = (x & 15) - (y & 15) - borrow
                    hi = (x >> 4) - (y >> 4)
                    if lo < 0:
                        lo += 10
                        hi -= 1
                    borrow = hi < 0
                    if borrow:
                        hi += 10
                    v = (hi & 15) << 4 | (lo & 15)
                    iram[pp] = v
                    nonzero |= v
                    y = 0
                    pp = (pp - 1) & 0x7F
                p = pp
                if with_q:
                    q = (qq - 1) & 0x7F
                c = borrow
                z = not nonzero
                cycles += base + per * n
                return pc + 1
        else:
            def op(pc):
                nonlocal p, q, c, z, cycles
                n, pp, qq = iram[I], p, q
                carry = nonzero = 0
                y = iram[A]
                for _ in range(n + 1):
                    if with_q:
                        y = iram[qq]
                        qq = (qq - 1) & 0x7F
                    x = iram[pp]
                    lo = (x & 15) + (y & 15) + carry
                    hi = (x >> 4) + (y >> 4)
                    if lo > 9:
                        lo -= 10
                        hi += 1
                    carry = hi > 9
                    if carry:
                        hi -= 10
                    v = (hi & 15) << 4 | (lo & 15)
                    iram[pp] = v
                    nonzero |= v
                    y = 0
                    pp = (pp - 1) & 0x7F
                p = pp
                if with_q:
                    q = (qq - 1) & 0x7F
                c = carry
                z = not nonzero
                cycles += base + per * n
                return pc + 1
        return op

    # ---- ports, timing ---------------------------------------------------------------

    def port_in(o, port):
        """INA, INB: A <- the port, Z <- (A == 0)."""
        cyc = o.cycles
        if port == "a":
            def op(pc):
                nonlocal z, cycles
                v = bus.ina() & 0xFF
                iram[A] = v
                z = v == 0
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal z, cycles
                v = bus.inb() & 0xFF
                iram[A] = v
                z = v == 0
                cycles += cyc
                return pc + 1
        return op

    def port_out(o, latch):
        """OUTA OUTB OUTF OUTC: send the latch byte to the port, Q <- the latch address.
        One closure per port keeps the keyboard-scan OUTA free of a method lookup by name."""
        cyc = o.cycles
        if latch == IA:
            def op(pc):
                nonlocal q, cycles
                q = IA
                bus.outa(iram[IA])
                cycles += cyc
                return pc + 1
        elif latch == IB:
            def op(pc):
                nonlocal q, cycles
                q = IB
                bus.outb(iram[IB])
                cycles += cyc
                return pc + 1
        elif latch == FO:
            def op(pc):
                nonlocal q, cycles
                q = FO
                bus.outf(iram[FO])
                cycles += cyc
                return pc + 1
        else:
            def op(pc):
                nonlocal q, cycles
                q = CTRL
                bus.outc(iram[CTRL])
                cycles += cyc
                return pc + 1
        return op

    def test(o):
        """TEST n: the bus builds the status byte (and clears the timer flags it reports)."""
        cyc = o.cycles

        def op(pc):
            nonlocal z, cycles
            n = mem[pc + 1]
            z = not bus.test(n) & n
            cycles += cyc
            return pc + 2
        return op

    def xin_wait(o, level):
        """CUP (waits for Xin = 1), CDN (Xin = 0): up to I+1 polls, P++ after each miss.
        Z <- 0 when the level was seen, 1 on timeout. Each poll costs `per` cycles and
        the counter grows with them, so the bus sees time pass while the CPU waits."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal p, z, cycles
            found = 0
            for _ in range(iram[I] + 1):
                seen = bus.xin()
                cycles += per
                if seen == level:
                    found = 1
                    break
                p = (p + 1) & 0x7F
            z = not found
            cycles += base - per
            return pc + 1
        return op

    def wait(o):
        """WAIT n: only time passes."""
        base, per = o.cycles, o.per

        def op(pc):
            nonlocal cycles
            cycles += base + per * mem[pc + 1]
            return pc + 2
        return op

    def nop(o):
        """NOPW, NOPT, and the opcodes nothing is known about (UNDEF)."""
        cyc, length = o.cycles, o.length

        def op(pc):
            nonlocal cycles
            cycles += cyc
            return pc + length
        return op

    def rz(o):
        """Undocumented 0x72/0x73/0x76/0x77: Z <- 0, the operand byte skipped."""
        cyc = o.cycles

        def op(pc):
            nonlocal z, cycles
            z = 0
            cycles += cyc
            return pc + 2
        return op

    implementations = {
        "LII": lambda o: load_imm(o, I), "LIJ": lambda o: load_imm(o, J),
        "LIA": lambda o: load_imm(o, A), "LIB": lambda o: load_imm(o, B),
        "LIDP": lidp, "LIDL": lidl, "LIP": lip, "LIQ": liq, "LP": lp,
        "LDP": lambda o: ld_pointer(o, "p"), "LDQ": lambda o: ld_pointer(o, "q"),
        "LDR": lambda o: ld_pointer(o, "r"),
        "STP": lambda o: st_pointer(o, "p"), "STQ": lambda o: st_pointer(o, "q"),
        "STR": lambda o: st_pointer(o, "r"),
        "INCP": lambda o: step_p(o, 1), "DECP": lambda o: step_p(o, -1),
        "IX": lambda o: xy_step(o, XL, 1, None), "DX": lambda o: xy_step(o, XL, -1, None),
        "IY": lambda o: xy_step(o, YL, 1, None), "DY": lambda o: xy_step(o, YL, -1, None),
        "IXL": lambda o: xy_step(o, XL, 1, "load"), "DXL": lambda o: xy_step(o, XL, -1, "load"),
        "IYS": lambda o: xy_step(o, YL, 1, "store"), "DYS": lambda o: xy_step(o, YL, -1, "store"),
        "CLRA": clra, "LDM": ldm, "LDD": ldd, "MVMD": mvmd, "STD": std, "MVDM": mvdm,
        "READ": lambda o: read(o, True), "READM": lambda o: read(o, False),
        "EXAB": exab, "EXAM": exam, "SWP": swp,
        "PUSH": push, "POP": pop, "LEAVE": leave,
        "JRP": lambda o: jr(o, None, 0, True), "JRM": lambda o: jr(o, None, 0, False),
        "JRNZP": lambda o: jr(o, "z", 0, True), "JRNZM": lambda o: jr(o, "z", 0, False),
        "JRZP": lambda o: jr(o, "z", 1, True), "JRZM": lambda o: jr(o, "z", 1, False),
        "JRNCP": lambda o: jr(o, "c", 0, True), "JRNCM": lambda o: jr(o, "c", 0, False),
        "JRCP": lambda o: jr(o, "c", 1, True), "JRCM": lambda o: jr(o, "c", 1, False),
        "JP": lambda o: jp(o, None, 0),
        "JPNZ": lambda o: jp(o, "z", 0), "JPZ": lambda o: jp(o, "z", 1),
        "JPNC": lambda o: jp(o, "c", 0), "JPC": lambda o: jp(o, "c", 1),
        "CALL": call, "CAL": cal, "RTN": rtn, "PTC": ptc, "DTC": dtc, "LOOP": loop,
        "INCI": lambda o: incdec(o, I, 1), "DECI": lambda o: incdec(o, I, -1),
        "INCJ": lambda o: incdec(o, J, 1), "DECJ": lambda o: incdec(o, J, -1),
        "INCA": lambda o: incdec(o, A, 1), "DECA": lambda o: incdec(o, A, -1),
        "INCB": lambda o: incdec(o, B, 1), "DECB": lambda o: incdec(o, B, -1),
        "INCK": lambda o: incdec(o, K, 1), "DECK": lambda o: incdec(o, K, -1),
        "INCL": lambda o: incdec(o, L, 1), "DECL": lambda o: incdec(o, L, -1),
        "INCM": lambda o: incdec(o, M, 1), "DECM": lambda o: incdec(o, M, -1),
        "INCN": lambda o: incdec(o, N, 1), "DECN": lambda o: incdec(o, N, -1),
        "ADM": lambda o: add_pm(o, False), "ADCM": lambda o: add_pm(o, True),
        "SBM": lambda o: sub_pm(o, False), "SBCM": lambda o: sub_pm(o, True),
        "ADIA": lambda o: add_imm(o, True), "ADIM": lambda o: add_imm(o, False),
        "SBIA": lambda o: sub_imm(o, True), "SBIM": lambda o: sub_imm(o, False),
        "CPIA": lambda o: compare(o, "an"), "CPIM": lambda o: compare(o, "pn"),
        "CPMA": lambda o: compare(o, "pa"),
        "ANIA": lambda o: logic(o, "and", "an"), "ORIA": lambda o: logic(o, "or", "an"),
        "TSIA": lambda o: logic(o, "test", "an"),
        "ANIM": lambda o: logic(o, "and", "pn"), "ORIM": lambda o: logic(o, "or", "pn"),
        "TSIM": lambda o: logic(o, "test", "pn"),
        "ANMA": lambda o: logic(o, "and", "pa"), "ORMA": lambda o: logic(o, "or", "pa"),
        "TSMA": lambda o: logic(o, "test", "pa"),
        "ANID": lambda o: logic_dp(o, "and"), "ORID": lambda o: logic_dp(o, "or"),
        "TSID": lambda o: logic_dp(o, "test"), "SZ": lambda o: logic_dp(o, "sz"),
        "ADB": lambda o: adb_sbb(o, False), "SBB": lambda o: adb_sbb(o, True),
        "SL": lambda o: shift_a(o, True), "SR": lambda o: shift_a(o, False),
        "SC": lambda o: set_carry(o, 1), "RC": lambda o: set_carry(o, 0),
        "MVW": block_move, "MVB": block_move, "EXW": block_exchange, "EXB": block_exchange,
        "MVWD": block_move_dp, "MVBD": block_move_dp,
        "EXWD": block_exchange_dp, "EXBD": block_exchange_dp,
        "FILM": film, "FILD": fild, "DATA": data,
        "SRW": lambda o: nibble_shift(o, False), "SLW": lambda o: nibble_shift(o, True),
        "ADN": lambda o: bcd(o, False, False), "SBN": lambda o: bcd(o, True, False),
        "ADW": lambda o: bcd(o, False, True), "SBW": lambda o: bcd(o, True, True),
        "INA": lambda o: port_in(o, "a"), "INB": lambda o: port_in(o, "b"),
        "OUTA": lambda o: port_out(o, IA), "OUTB": lambda o: port_out(o, IB),
        "OUTF": lambda o: port_out(o, FO), "OUTC": lambda o: port_out(o, CTRL),
        "TEST": test, "CUP": lambda o: xin_wait(o, 1), "CDN": lambda o: xin_wait(o, 0),
        "WAIT": wait, "NOPW": nop, "NOPT": nop, "UNDEF": nop, "RZ": rz,
    }

    def logged(opcode, handler):
        """Count each execution of an undocumented opcode, keyed (address, opcode), for the
        machine to log; documented opcodes pay nothing for it."""
        def op(pc):
            undocumented[(pc & 0xFFFF, opcode)] += 1
            return handler(pc)
        return op

    dispatch = []
    for o in OPS:
        handler = implementations[o.mnemonic](o)
        dispatch.append(handler if o.documented else logged(o.opcode, handler))

    def run(budget):
        nonlocal reg_pc
        ops, m = dispatch, mem
        pc = reg_pc
        start = cycles
        end = start + budget
        while True:
            try:
                while cycles < end:
                    pc = ops[m[pc]](pc)
                break
            except IndexError:
                retry = _wrapped_pc(pc)
                if retry is None:
                    raise
                pc = retry
        reg_pc = pc & 0xFFFF
        return cycles - start

    return cells.__closure__, cells.__code__.co_freevars, run, frozenset(implementations)


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
        self.iram = bytearray(128)
        # (address, opcode) -> executions of an undocumented opcode, for the machine to log.
        self.undocumented = Counter()
        closure, names, self._run, self.implemented = _build(self, mem, self.iram, bus)
        renamed = {"reg_pc": "pc"}
        self._cells = {renamed.get(n, n): cell for n, cell in zip(names, closure)}

    def reset(self):
        """Power-on state: PC 0, registers and internal RAM cleared. `cycles` keeps
        counting, since the machine's timers are measured against it."""
        self.iram[:] = bytes(128)
        self.p = self.q = self.r = self.dp = self.pc = self.c = self.z = self.d = 0

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

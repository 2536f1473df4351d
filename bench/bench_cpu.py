"""Synthetic SC61860 benchmark: a loop mixing the instruction families the firmware uses
most (loads, ALU on A and (P), X/Y walks, short branches, CALL/RTN, PUSH/LOOP) with a
little block work (FILD, MVW, ADW). Prints instructions and cycles per CPU second and
the speed relative to the real machine (256,000 cycles/s).

    python3 bench/bench_cpu.py [--seconds S] [--translate]

By default the program runs in the interpreter (it sits in RAM); --translate declares it
immutable code, as the firmware engine does for the ROM, so that it runs as blocks.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from emulator.cpu.sc61860 import SC61860  # noqa: E402

REAL_HZ = 256_000
ORG = 0x8000

PROGRAM = bytes.fromhex(" ".join([
    "10 90 00",      # 8000 start: LIDP 0x9000
    "00 07",         # 8003 LII 7
    "02 20",         # 8005 LIA 0x20
    "1F",            # 8007 FILD          8 bytes at 0x9000
    "13 20 12 28",   # 8008 LIQ 0x20; LIP 0x28
    "08",            # 800C MVW           8 bytes 0x20 -> 0x28
    "13 1F 12 2F",   # 800D LIQ 0x1F; LIP 0x2F
    "0E",            # 8011 ADW           8-byte BCD add
    "02 90 87 DB",   # 8012 LIA 0x90; LP 7; EXAM       YH = 0x90
    "02 40 86 DB",   # 8016 LIA 0x40; LP 6; EXAM       YL = 0x40
    "02 63 34",      # 801A LIA 99; PUSH               100 iterations
    "90 59",         # 801D body: LP 0x10; LDM
    "74 01 DB",      # 801F ADIA 1; EXAM
    "24 26",         # 8022 IXL; IYS
    "66 80 28 01",   # 8024 TSIA 0x80; JRNZP 0x8028
    "4D",            # 8028 NOPW
    "78 80 40",      # 8029 CALL sub
    "67 30 3A 01",   # 802C CPIA 0x30; JRCP 0x8030
    "48",            # 8030 INCK
    "C9",            # 8031 DECL
    "2F 16",         # 8032 LOOP body
    "79 80 00",      # 8034 JP start
    "00" * 9,        # 8037 padding
    "03 03 DA 37",   # 8040 sub: LIB 3; EXAB; RTN
]))


class NullBus:
    def write(self, addr, value):
        pass


def make_cpu(translate=False):
    mem = bytearray(0x10000)
    mem[ORG:ORG + len(PROGRAM)] = PROGRAM
    cpu = SC61860(mem, NullBus())
    if translate:
        cpu.set_code_regions((ORG, ORG + len(PROGRAM)))
    cpu.pc, cpu.r = ORG, 0x5C
    return cpu


def per_iteration(cpu):
    """Instructions and cycles of one outer iteration (from `start` back to it)."""
    steps = cycles = 0
    while True:
        cycles += cpu.step()
        steps += 1
        if cpu.pc == ORG:
            return steps, cycles


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time to measure")
    parser.add_argument("--translate", action="store_true", help="run the program as blocks")
    args = parser.parse_args(argv)
    cpu = make_cpu(args.translate)
    steps, cycles = per_iteration(cpu)
    chunk = 256_000
    ran, start, wall = 0, time.process_time(), time.perf_counter()
    while (elapsed := time.process_time() - start) < args.seconds:
        ran += cpu.run(chunk)
    wall = time.perf_counter() - wall
    instructions = ran * steps / cycles
    print(f"mix: {steps} instructions, {cycles} cycles per iteration "
          f"({cycles / steps:.2f} cycles/instruction)")
    # CPU time, so that other processes on a shared machine disturb the figure less.
    print(f"{instructions / elapsed / 1e6:.2f} M instructions/s, "
          f"{ran / elapsed / 1e6:.2f} M cycles/s, {ran / elapsed / REAL_HZ:.1f}x real time "
          f"(per CPU second; {ran / wall / REAL_HZ:.1f}x per wall second)")


if __name__ == "__main__":
    main()

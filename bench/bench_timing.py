"""Emulated time of five BASIC programs on the built-in engine against the firmware engine.

    python bench/bench_timing.py [ROM_DIR] [--only NAME ...]
    python bench/bench_timing.py [ROM_DIR] --probe "A=SIN 30" ["PRINT A" ...]

Each program is loaded on a freshly booted machine (blank card cleared with Y, RUN mode)
and started by typing RUN and ENTER on the keyboard, the same keys for both engines. The
time counted is from the press of ENTER to the program's end: the first key-wait strobe
of the quiet spell after it (the engine is back at the prompt), exact to a few hundred
cycles. Prints the emulated seconds on each engine, built-in / firmware, and the wall
time each took. Without a ROM set (default ../shared/roms/pc1360 next to the repo) only
the built-in column is shown.

--probe measures statements one by one, the way costs.py's figures were found: cycles
of `WAIT 0:FOR I=1 TO n:<statement>:NEXT I` less the empty loop, divided by n, on each engine.

The faithfulness cases' step times against the firmware's are reported by
`python tests/faithful/report.py --timing`; the firmware's cycles that
test_basic_timing.py holds the built-in engine to are measured by
`python tests/helpers/program_timing.py` (the same measurement as this script's).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from emulator.machine.romset import RomError  # noqa: E402
from emulator.machine.stopwatch import boot, time_program  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
PROBE_LOOPS = 20        # passes of a probed statement

# Each a realistic short program of its kind, 5-30 emulated seconds on the firmware.
PROGRAMS = {
    "for loop": """
10 S=0
20 FOR I=1 TO 150
30 S=S+I*I/2-1:J=I-INT(I/7)*7
40 NEXT I
50 END
""",
    "strings": """
10 A$="":B$="PC-1360 POCKET"
20 FOR I=1 TO 60
30 C$=MID$(B$,I-INT((I-1)/14)*14,1)
40 A$=RIGHT$(A$+C$+STR$ I,12)
50 N=VAL LEFT$(STR$(I*3),2)+LEN A$
60 NEXT I
70 END
""",
    "math": """
10 DEGREE:T=0
20 FOR I=1 TO 15
30 X=SIN(I*11)+COS(I*7)+TAN(I)
40 Y=LOG I+LN(I+1)+SQR I+EXP(I/30)+I^1.5
50 T=T+X+Y+ATN(I/10)
60 NEXT I
70 END
""",
    "print scroll": """
10 WAIT 0:CLS
20 FOR I=1 TO 60
30 PRINT "LINE";I;" ";I*I
40 PRINT "X=";STR$(I/3)
50 NEXT I
60 END
""",
    "graphics": """
10 WAIT 0:CLS
20 FOR I=0 TO 30 STEP 2
30 LINE (I*4,0)-(149-I*4,31)
40 LINE (I,I/2)-(I+20,I/2+8),B
50 PSET (I*4+2,16):PSET (I*4+3,17),X
60 GCURSOR (I*4,31):GPRINT "3C7E";I
70 NEXT I
80 CLS
90 END
""",
}


def measure(engine, rom_dir, names):
    """{name: (emulated seconds or None, wall seconds)} for the programs `names`."""
    results = {}
    for name in names:
        machine = boot(engine, rom_dir)
        wall = time.perf_counter()
        cycles = time_program(machine, PROGRAMS[name])
        wall = time.perf_counter() - wall
        seconds = None if cycles is None else cycles / machine.CYCLES_PER_SECOND
        results[name] = (seconds, wall)
    return results


def probe(engine, rom_dir, statements, loops=PROBE_LOOPS):
    """{statement: cycles of one pass} on `engine` (None where a run did not end)."""
    def loop(body):
        machine = boot(engine, rom_dir)
        return time_program(machine, f"10 WAIT 0:FOR I=1 TO {loops}{body}:NEXT I\n")
    empty = loop("")
    results = {}
    for text in statements:
        cycles = loop(":" + text)
        results[text] = None if cycles is None or empty is None else (cycles - empty) / loops
    results["(empty loop)"] = empty
    return results


def print_probe(statements, rom_dir):
    builtin = probe("builtin", None, statements)
    try:
        firmware = probe("firmware", rom_dir, statements)
    except RomError as exc:
        print(f"no firmware column: {exc}", file=sys.stderr)
        firmware = dict.fromkeys(statements)
    print(f"{'statement':30s} {'built-in':>9s} {'firmware':>9s} {'ratio':>6s}   (cycles a pass)")
    for text in ["(empty loop)"] + list(statements):
        b, f = builtin[text], firmware.get(text)
        ratio = f"{b / f:6.3f}" if b and f else f"{'-':>6s}"
        b_text, f_text = ("-" if v is None else f"{v:.0f}" for v in (b, f))
        print(f"{text:30s} {b_text:>9s} {f_text:>9s} {ratio}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rom", nargs="?", type=Path, default=DEFAULT_ROM, help="ROM directory")
    parser.add_argument("--only", nargs="+", choices=sorted(PROGRAMS), help="programs to run")
    parser.add_argument("--probe", nargs="+", metavar="STATEMENT",
                        help="statements to time one by one")
    args = parser.parse_args(argv)
    if args.probe:
        print_probe(args.probe, args.rom)
        return 0
    names = args.only or list(PROGRAMS)
    builtin = measure("builtin", None, names)
    try:
        firmware = measure("firmware", args.rom, names)
    except RomError as exc:
        print(f"no firmware column: {exc}", file=sys.stderr)
        firmware = None

    def cell(seconds):
        return f"{seconds:9.3f}" if seconds is not None else f"{'(no end)':>9s}"

    print(f"{'program':14s} {'built-in s':>10s} {'firmware s':>10s} {'ratio':>6s}"
          f" {'wall b-in':>9s} {'wall fw':>8s}")
    for name in names:
        b_sec, b_wall = builtin[name]
        line = f"{name:14s} {cell(b_sec):>10s}"
        if firmware is not None:
            f_sec, f_wall = firmware[name]
            ratio = f"{b_sec / f_sec:6.3f}" if b_sec and f_sec else f"{'-':>6s}"
            line += f" {cell(f_sec):>10s} {ratio} {b_wall:8.2f}s {f_wall:7.2f}s"
        else:
            line += f" {'-':>10s} {'-':>6s} {b_wall:8.2f}s"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

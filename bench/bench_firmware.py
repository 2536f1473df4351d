"""Emulated speed of the firmware engine, as a multiple of the real PC-1360.

    python bench/bench_firmware.py [--rom DIR] [--seconds N]

Measures N emulated seconds idle at the RUN-mode prompt (the key-wait loop) and N seconds
running `10 A=A+1:GOTO 10`, and reports how many loop iterations BASIC made.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from emulator.machine import PC1360  # noqa: E402
from emulator.romset import RomError  # noqa: E402

DEFAULT_ROM = Path(__file__).resolve().parent.parent.parent / "shared" / "roms" / "pc1360"


def timed(machine, seconds):
    start = time.perf_counter()
    machine.run_for(seconds)
    wall = time.perf_counter() - start
    return seconds / wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    try:
        machine = PC1360(rom_dir=args.rom)
    except RomError as exc:
        print(exc, file=sys.stderr)
        return 1
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    idle = timed(machine, args.seconds)
    machine.type_keys("{MODE}10 A=A+1:GOTO 10{ENTER}{MODE}RUN{ENTER}")
    loop = timed(machine, args.seconds)
    machine.type_keys("{BRK}A{ENTER}")
    machine.key_wait_ready()
    count = machine.screen_text()[-1].strip()
    print(f"idle at the prompt: {idle:6.1f} x real time")
    print(f"BASIC loop:         {loop:6.1f} x real time ({count} iterations in about {args.seconds:g} emulated s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Emulated speed of the firmware engine, as a multiple of the real PC-1360.

    python bench/bench_firmware.py [--rom DIR] [--seconds N] [--repeat R]

Measures N emulated seconds idle at the RUN-mode prompt (the key-wait loop) and N seconds
running `10 A=A+1:GOTO 10`, each R times from the same snapshot, and reports the best run
in CPU time (time.process_time: other processes on a shared machine disturb it less than
wall time) as x real time (256,000 cycles/s = 1x). The first run of each also pays for
translating the ROM's hot code into blocks (emulator/cpu/codegen.py); it is shown apart.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from emulator.machine.facade import PC1360  # noqa: E402
from emulator.machine.romset import RomError  # noqa: E402

DEFAULT_ROM = Path(__file__).resolve().parent.parent.parent / "shared" / "roms" / "pc1360"


def timed(machine, snapshot, seconds, repeat):
    """(first, best) speeds in x real time over `repeat` runs from `snapshot`."""
    speeds = []
    for _ in range(repeat):
        machine.restore(snapshot)
        start = time.process_time()
        machine.run_for(seconds)
        speeds.append(seconds / max(time.process_time() - start, 1e-9))
    return speeds[0], max(speeds)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM)
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="emulated seconds per run (short runs mostly measure the restore and block set-up)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each; the best counts")
    args = parser.parse_args(argv)
    try:
        machine = PC1360(rom_dir=args.rom)
    except RomError as exc:
        print(exc, file=sys.stderr)
        return 1
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    idle = timed(machine, machine.snapshot(), args.seconds, args.repeat)
    machine.type_keys("{MODE}10 A=A+1:GOTO 10{ENTER}{MODE}RUN{ENTER}")
    loop = timed(machine, machine.snapshot(), args.seconds, args.repeat)
    machine.type_keys("{BRK}A{ENTER}")
    machine.key_wait_ready()
    count = machine.screen_text()[-1].strip()
    print(f"idle at the prompt: {idle[1]:6.1f} x real time (first run {idle[0]:.1f}x)")
    print(f"BASIC loop:         {loop[1]:6.1f} x real time (first run {loop[0]:.1f}x; "
          f"A = {count} after the last run of {args.seconds:g} emulated s)")
    print(f"best of {args.repeat} runs, CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())

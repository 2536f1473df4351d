"""How long a BASIC program runs in emulated time: cycles from the press of ENTER after
RUN until the program is back at the prompt, on either engine.

test_basic_timing.py checks the built-in engine against the firmware's cycles stored in
tests/emulator/builtin/data/timing_reference.json; this module measures them again:

    python tests/helpers/program_timing.py [ROM_DIR]

(the measurement is emulator/machine/stopwatch.py's, which bench/bench_timing.py uses too).
"""

import argparse
import json
import sys
from pathlib import Path

from emulator.machine.facade import PC1360
from emulator.machine.romset import RomError
from emulator.machine.stopwatch import boot, time_program

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
REFERENCE = ROOT / "tests" / "emulator" / "builtin" / "data" / "timing_reference.json"
def capture(rom_dir, path=REFERENCE):
    """Measure the reference programs on the firmware engine and store their cycles."""
    data = json.loads(path.read_text())
    for name, entry in data["programs"].items():
        cycles = time_program(boot("firmware", rom_dir), entry["source"])
        if cycles is None:
            raise SystemExit(f"{name}: the program did not get back to the prompt")
        entry["cycles"] = cycles
        print(f"{name:10s} {cycles:9d} cycles  {cycles / PC1360.CYCLES_PER_SECOND:7.3f} s")
    path.write_text(json.dumps(data, indent=1) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description="measure " + str(REFERENCE.name) + " again")
    parser.add_argument("rom", nargs="?", type=Path, default=DEFAULT_ROM, help="ROM directory")
    args = parser.parse_args(argv)
    try:
        capture(args.rom)
    except RomError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How long a BASIC program runs in emulated time: cycles from the press of ENTER after
RUN until the program is back at the prompt, on either engine.

test_basic_timing.py checks the built-in engine against the firmware's cycles stored in
tests/emulator/builtin/data/timing_reference.json; this module measures them again:

    python tests/helpers/program_timing.py [ROM_DIR]

(the same measurement as bench/bench_timing.py's, which times its own programs).
"""

import argparse
import json
import sys
from pathlib import Path

from emulator.machine.facade import KEY_HOLD, PC1360
from emulator.machine.romset import RomError
from pc1360.tokenizer import tokenize

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
REFERENCE = ROOT / "tests" / "emulator" / "builtin" / "data" / "timing_reference.json"
POLL = 256              # cycles between looks at the key-wait strobe
QUIET_GAP = 8_000       # cycles: strobes closer than this belong to one key-wait spell
SPELL = 3               # strobes that make a spell (machine.READY_STROBES)
MAX_SECONDS = 120       # emulated seconds a program may run before the measurement gives up


def boot(engine, rom_dir):
    """A machine at the RUN-mode prompt with a cleared card."""
    machine = PC1360(engine=engine, rom_dir=rom_dir if engine == "firmware" else None)
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    return machine


def time_program(machine, source):
    """Emulated cycles from the press of ENTER after RUN until the program is back at
    the prompt (None if it never gets there within MAX_SECONDS)."""
    machine.load_program(tokenize(source))
    machine.type_keys("RUN")
    machine.key_wait_ready()
    start = machine.cycles
    machine.press("ENTER")
    hold_end = start + round(KEY_HOLD * machine.CYCLES_PER_SECOND)
    bus = machine.bus
    count, spell = bus.keywait_count, []
    deadline = start + MAX_SECONDS * machine.CYCLES_PER_SECOND
    while machine.cycles < deadline:
        machine.run_cycles(POLL)
        if "ENTER" in machine.keyboard.pressed and machine.cycles >= hold_end:
            machine.release("ENTER")
        if bus.keywait_count != count:
            count = bus.keywait_count
            cycle = bus.keywait_cycle
            if spell and cycle - spell[-1] > QUIET_GAP:
                spell = []
            spell.append(cycle)
            if len(spell) >= SPELL and "ENTER" not in machine.keyboard.pressed:
                return spell[0] - start
    return None


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

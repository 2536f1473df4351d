"""Machine instructions the firmware engine spends on a scenario, counted by valgrind's
callgrind: the same count for the same code and inputs whatever else the machine is doing,
so that two versions can be compared to a fraction of a per cent where CPU-time figures
(bench/bench_firmware.py) move by several per cent with the load. Instructions are not
time: a change that saves calls saves more time than its count shows.

    python bench/bench_instructions.py [--rom DIR] [--only SCENARIO ...]

Scenarios (bench_firmware's workloads; only the part named is counted):
- steady: 10 emulated seconds of the queens program, after a whole run of it in the same
  process and 20 seconds of a second one (every hot block exists);
- first: the first 10 emulated seconds of queens after RUN, empty translation cache;
- kniffel: the scripted Kniffel game from DEF K to its end, empty translation cache.

Each scenario is a child process under `valgrind --tool=callgrind --instr-atstart=no`: it
prepares uncounted, then the parent switches counting on (callgrind_control) for the part
that counts. Needs valgrind (Debian's package).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_firmware  # noqa: E402

SCENARIOS = ("steady", "first", "kniffel")
STEADY_SECONDS = 10.0


def prepare(scenario, rom):
    """Run the uncounted part; return (the machine, the part to count)."""
    from emulator.machine.facade import KEY_HOLD
    from pc1360.tokenizer import tokenize

    if scenario == "kniffel":
        machine = bench_firmware.kniffel_loaded(rom)
        return machine, lambda: bench_firmware.kniffel_game(machine)
    machine = bench_firmware.booted(rom)
    machine.load_program(tokenize(bench_firmware.QUEENS))
    snapshot = machine.snapshot()
    if scenario == "steady":
        bench_firmware.queens_run(machine)
        machine.restore(snapshot)
    machine.type_keys("RUN")
    machine.key_wait_ready()
    machine.press("ENTER")
    machine.run_for(KEY_HOLD)
    machine.release("ENTER")
    if scenario == "steady":
        machine.run_for(20.0)
        return machine, lambda: machine.run_for(STEADY_SECONDS)
    return machine, lambda: machine.run_for(bench_firmware.FIRST_SECONDS - KEY_HOLD)


def child(scenario, rom):
    _machine, counted = prepare(scenario, rom)
    print("ready", flush=True)
    sys.stdin.readline()  # the parent has switched counting on
    counted()
    print("done", flush=True)
    sys.stdin.readline()  # and off again


def count(scenario, rom):
    """Instructions of the counted part, in millions."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(work) / "cache"))
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--rom", str(rom), "--child", scenario],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=env)
        # at "ready": counting on; at "done": off, and the counts written (a dump)
        for commands in ([["-i", "on"]], [["-i", "off"], ["-d"]]):
            while (line := proc.stdout.readline()) and line.strip() not in ("ready", "done"):
                pass
            if not line:
                raise SystemExit(f"{scenario}: the child ended early (exit {proc.wait()})")
            for command in commands:
                subprocess.run(["callgrind_control", *command, str(proc.pid)],
                               check=True, capture_output=True)
            proc.stdin.write("\n")
            proc.stdin.flush()
        proc.wait()
        totals = [int(m.group(1)) for path in Path(work).glob("callgrind.out*")
                  for m in re.finditer(r"^(?:summary|totals): (\d+)", path.read_text(), re.M)]
        return max(totals) / 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=bench_firmware.DEFAULT_ROM)
    parser.add_argument("--only", nargs="+", choices=SCENARIOS, default=list(SCENARIOS))
    parser.add_argument("--child", choices=SCENARIOS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.rom)
        return 0
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    for scenario in args.only:
        print(f"{scenario:8s} {count(scenario, args.rom):9.1f} M instructions", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

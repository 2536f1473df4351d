"""Emulated speed of the firmware engine, as a multiple of the real PC-1360 (256,000 cycles/s).

    python bench/bench_firmware.py [--rom DIR] [--repeat N] [--only FIGURE ...]

Figures (each the median of N runs, in CPU time of the process that runs the machine:
time.process_time, which other processes on a shared machine disturb less than wall time):

- queens, empty cache: an 8-queens search in BASIC (the first solution, about 540 emulated
  seconds) from the press of ENTER after RUN to the result, in a new process whose
  translation cache (emulator/machine/translation_cache.py) is empty; `first 10 s` is the first 10
  emulated seconds of the same run;
- queens, warm cache: the same in new processes sharing a cache an earlier run filled;
- steady state: the same run again in a process that has already run it once;
- kniffel: a scripted whole one-player Kniffel game (basic_src/kniffel.bas: 13 turns, each
  scored after its first roll with the next method key, every key given the time the
  game needs to answer), from DEF K to the final screen, with an empty and a warm cache.

Each run is a child process (`--child FIGURE`) whose cache directory is chosen through
XDG_CACHE_HOME, so that one run's blocks never leak into another's figure.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
QUEENS = """\
10 R=8:DIM QU(R):K=1:QU(1)=0
20 QU(K)=QU(K)+1:IF QU(K)>R THEN 90
30 J=1
40 IF J>=K THEN 70
50 D=QU(J)-QU(K):IF D=0 OR ABS D=K-J THEN 20
60 J=J+1:GOTO 40
70 IF K=R THEN 100
80 K=K+1:QU(K)=0:GOTO 20
90 K=K-1:IF K>0 THEN 20
100 S=0:FOR J=1 TO R:S=S*10+QU(J):NEXT J:PRINT S
110 END
"""
QUEENS_RESULT = "15863724."
FIRST_SECONDS = 10.0
CHUNK = 0.25  # emulated seconds between looks for the end of the program
# the keys that score a Kniffel turn, one of each (basic_src/kniffel.md), and the emulated
# seconds the bench lets the program answer a key (the game needs at most 3.3: a method
# key until the keys are read again, with the key row on line 4)
KNIFFEL_METHODS = "123456DVFSGKC"
KNIFFEL_WAIT = 3.5


def booted(rom):
    from emulator.machine.facade import PC1360

    machine = PC1360(rom_dir=rom)
    machine.run_for(1.5)
    machine.type_keys("Y")
    machine.run_for(1.0)
    return machine


def queens_run(machine):
    """Run the loaded program from ENTER to its result: (x real time over the first 10 s,
    x real time over the whole run)."""
    from emulator.machine.facade import KEY_HOLD

    machine.type_keys("RUN")
    machine.key_wait_ready()
    strobes = machine.bus.keywait_count
    machine.press("ENTER")
    start, cpu = machine.emulated_seconds, time.process_time()
    machine.run_for(KEY_HOLD)
    machine.release("ENTER")
    machine.run_for(FIRST_SECONDS - KEY_HOLD)
    first = FIRST_SECONDS / (time.process_time() - cpu)
    while machine.bus.keywait_count - strobes < 3:
        machine.run_for(CHUNK)
    whole = (machine.emulated_seconds - start) / (time.process_time() - cpu)
    if machine.screen_text()[2].strip() != QUEENS_RESULT:
        raise SystemExit(f"queens: unexpected screen {machine.screen_text()}")
    return first, whole


def child_queens(rom, again):
    from pc1360.tokenizer import tokenize

    machine = booted(rom)
    machine.load_program(tokenize(QUEENS))
    snapshot = machine.snapshot()
    first, whole = queens_run(machine)
    if again:  # steady state: every hot block of the run exists already
        machine.restore(snapshot)
        first, whole = queens_run(machine)
    return {"first": first, "whole": whole}


def press(machine, key, then):
    """Press `key` for 0.1 s, then let the program run `then` emulated seconds."""
    machine.press(key)
    machine.run_for(0.1)
    machine.release(key)
    machine.run_for(then)


def kniffel_loaded(rom):
    from pc1360.tokenizer import tokenize

    machine = booted(rom)
    machine.load_program(tokenize((ROOT / "basic_src" / "kniffel.bas").read_text(encoding="utf-8")))
    return machine


def kniffel_game(machine):
    start, cpu = machine.emulated_seconds, time.process_time()
    machine.type_keys("{DEF}K")
    machine.key_wait_ready()
    machine.type_keys("1{ENTER}")
    machine.key_wait_ready()
    machine.type_keys("AB{ENTER}")
    machine.run_for(KNIFFEL_WAIT)
    for method in KNIFFEL_METHODS:  # each turn scored after its first roll
        press(machine, "ENTER", KNIFFEL_WAIT)  # no die chosen: the "?" prompt
        press(machine, method, KNIFFEL_WAIT)  # the next turn's first roll, or the end
    whole = (machine.emulated_seconds - start) / (time.process_time() - cpu)
    rows = machine.screen_text()
    if not (rows[0].startswith("AB") and rows[3].startswith("SIEGER: AB")):
        raise SystemExit(f"kniffel: unexpected final screen {rows}")
    return {"whole": whole}


def child_kniffel(rom):
    return kniffel_game(kniffel_loaded(rom))


def child(figure, rom):
    if figure == "kniffel":
        return child_kniffel(rom)
    return child_queens(rom, again=figure == "steady")


def spawn(figure, rom, cache_home):
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    out = subprocess.run([sys.executable, __file__, "--rom", str(rom), "--child", figure],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{figure} run failed:\n{out.stderr}")
    return json.loads(out.stdout.splitlines()[-1])


def medians(figure, rom, repeat, warm):
    """Medians over `repeat` child runs, each with a new empty cache or (warm) one shared
    cache that a first, uncounted run filled."""
    runs = []
    with tempfile.TemporaryDirectory() as shared:
        if warm:
            spawn(figure, rom, shared)
        for _ in range(repeat):
            if warm:
                runs.append(spawn(figure, rom, shared))
            else:
                with tempfile.TemporaryDirectory() as empty:
                    runs.append(spawn(figure, rom, empty))
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


# name -> (child figure, warm cache, what is shown, target: x real time)
FIGURES = {
    "queens-empty": ("queens", False, "queens RUN to result, empty cache", 200),
    "queens-warm": ("queens", True, "queens RUN to result, warm cache", 300),
    "steady": ("steady", True, "steady state (queens, second run)", 300),
    "kniffel-empty": ("kniffel", False, "scripted Kniffel game, empty cache", 150),
    "kniffel-warm": ("kniffel", True, "scripted Kniffel game, warm cache", 150),
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each figure; the median counts")
    parser.add_argument("--only", nargs="+", choices=sorted(FIGURES), default=sorted(FIGURES))
    parser.add_argument("--child", choices=("queens", "steady", "kniffel"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.rom)))
        return 0
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.repeat} runs, CPU time")
    for name in (n for n in FIGURES if n in args.only):
        figure, warm, label, target = FIGURES[name]
        result = medians(figure, args.rom, args.repeat, warm)
        extra = (f"; first {FIRST_SECONDS:g} s {result['first']:6.1f}x (target 100x)"
                 if "first" in result else "")
        print(f"{label:38s} {result['whole']:6.1f}x (target {target}x){extra}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

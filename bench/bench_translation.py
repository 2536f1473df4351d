"""Where the firmware engine's time goes while it translates: the share of block translation.

    python bench/bench_translation.py [--rom DIR] [--repeat N] [--only SCENARIO ...]

For bench_firmware's workloads with an empty translation cache (each run a new process
whose cache directory is new, as bench_firmware does it), the median over N runs of:
the CPU time of the part that counts; the blocks translated in it and the time they took,
split into making a block's source (emulator/cpu/translator.block_source) and compiling
it (block_code); and what the part would cost if translation were free, as a multiple
of real time. That last figure bounds every speed-up that only makes translation cheaper.

Scenarios (bench_instructions.prepare's): `first`, the first 10 emulated seconds of the
queens program after RUN; `kniffel`, the scripted Kniffel game from DEF K to its end;
`steady`, 10 emulated seconds of queens after a whole run in the same process (nothing
left to translate: the floor).
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_firmware  # noqa: E402
import bench_instructions  # noqa: E402

SCENARIOS = ("first", "kniffel", "steady")


def timed_translation():
    """Count the CPU's translations from now on: {blocks, source, compile} (seconds)."""
    from emulator.cpu import sc61860

    spent = {"blocks": 0, "source": 0.0, "compile": 0.0}

    def timed(function, part):
        def run(*args):
            start = time.process_time()
            result = function(*args)
            spent[part] += time.process_time() - start
            spent["blocks"] += part == "compile"
            return result
        return run

    sc61860.block_source = timed(sc61860.block_source, "source")
    sc61860.block_code = timed(sc61860.block_code, "compile")
    return spent


def child(scenario, rom):
    machine, part = bench_instructions.prepare(scenario, rom)
    spent = timed_translation()
    start, cpu = machine.emulated_seconds, time.process_time()
    part()
    return dict(spent, cpu=time.process_time() - cpu, emulated=machine.emulated_seconds - start)


def spawn(scenario, rom):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        out = subprocess.run([sys.executable, __file__, "--rom", str(rom), "--child", scenario],
                             env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{scenario} run failed:\n{out.stderr}")
    return json.loads(out.stdout.splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=bench_firmware.DEFAULT_ROM)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each scenario; the median counts")
    parser.add_argument("--only", nargs="+", choices=SCENARIOS, default=list(SCENARIOS))
    parser.add_argument("--child", choices=SCENARIOS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.rom)))
        return 0
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.repeat} runs, CPU time")
    for scenario in args.only:
        runs = [spawn(scenario, args.rom) for _ in range(args.repeat)]
        for run in runs:
            run["speed"] = run["emulated"] / run["cpu"]
            run["free"] = run["emulated"] / (run["cpu"] - run["source"] - run["compile"])
        m = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"{scenario:8s} {m['emulated']:5.1f} s emulated in {m['cpu']:.3f} s "
              f"({m['speed']:5.1f}x); {m['blocks']:.0f} blocks translated in "
              f"{m['source'] + m['compile']:.3f} s (source {m['source']:.3f}, compile "
              f"{m['compile']:.3f}); translation free: {m['free']:5.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Whole-process time of short `pc1360` commands against a bare `python3 -c pass`.

    python bench/bench_startup.py [--repeat N]

Runs each command N times as a new process (the interpreter running this script, so the
same Python and installed packages) and prints the median wall time and its ratio to
the bare interpreter's: `pc1360 --help` (target within 2.5x) and `pc1360 tokenize` of a
5,000-line program (bench_tokenize.py's generator; target within 4x). Wall time is what a
user waits for; CPU time (user + system of the child) is shown too, since on a busy
machine it varies much less. The load average is printed with them.

The children may write bytecode caches (PYTHONDONTWRITEBYTECODE is dropped from their
environment) and each command runs once uncounted first, so that the figures are those of
an installed program, whose modules are compiled once, not on every start.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_tokenize import program  # noqa: E402

LINES = 5_000
# the installed console script when there is one (what a user runs), else its equivalent
SCRIPT = Path(sys.executable).with_name("pc1360")
CLI = (str(SCRIPT),) if SCRIPT.exists() else (
    "-c", "import sys; from tools.cli import main; sys.exit(main())")


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(args, repeat):
    """Medians of (wall time, CPU time) of `repeat` runs as a new process, after one
    uncounted run."""
    subprocess.run([sys.executable, *args], cwd=ROOT, check=True, env=ENV,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, check=True, env=ENV,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "long.bas"
        source.write_text("\n".join(program().splitlines()[:LINES]) + "\n", encoding="ascii")
        commands = {
            "python3 -c pass": (("-c", "pass"), None),
            "pc1360 --help": ((*CLI, "--help"), 2.5),
            f"pc1360 tokenize ({LINES:,} lines)": (
                (*CLI, "tokenize", str(source), "-o", str(Path(tmp) / "long.img")), 4.0),
        }
        print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.repeat} runs: "
              "wall time, and CPU time (user + system: less disturbed by other processes)")
        base = None
        for label, (command, target) in commands.items():
            wall, cpu = timed(command, args.repeat)
            base = base or (wall, cpu)
            goal = f" (target {target}x)" if target else ""
            print(f"{label:32s} wall {wall * 1000:6.1f} ms {wall / base[0]:5.2f}x   "
                  f"CPU {cpu * 1000:6.1f} ms {cpu / base[1]:5.2f}x{goal}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

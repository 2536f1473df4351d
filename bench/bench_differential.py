"""Generated programs on both engines (issue 15): how many show the same, how many take
the same emulated time (within 10%), and the differences by area. A measurement, not a
test: CI runs a small fixed-seed sample (tests/faithful/test_differential.py).

    python bench/bench_differential.py [--count N] [--seed S] [--chunk C] [--jobs J] [-v]

The generator and the runner live with the faithfulness suite (tests/faithful/generator.py,
differential.py), which bench/ must not import (tests/test_layout.py): this script runs
`tests/faithful/differential.py --json` as a command, a chunk of cases at a time (in J
processes side by side), and adds up what the chunks print. A screen difference in a
known class (tests/faithful/difference_classes.toml: each class a stored known failure)
counts as known; the rest are unexplained. Needs the ROM set in ../shared/roms/pc1360.
Default: 2,000 cases of seed 1.
"""

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "faithful" / "differential.py"


def run_chunk(seed, start, count):
    out = subprocess.run([sys.executable, str(RUNNER), "--seed", str(seed), "--start", str(start),
                          "--count", str(count), "--json"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"chunk {start}..{start + count - 1} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])["areas"]


def add(total, areas):
    for area, row in areas.items():
        into = total.setdefault(area, {"cases": 0, "identical": 0, "timing_ok": 0, "differences": []})
        for key in ("cases", "identical", "timing_ok"):
            into[key] += row[key]
        into["differences"] += row["differences"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="list every difference")
    args = parser.parse_args(argv)
    chunks = [(s, min(args.chunk, args.count - s)) for s in range(0, args.count, args.chunk)]
    wall = time.perf_counter()
    total = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for areas in pool.map(lambda c: run_chunk(args.seed, *c), chunks):
            add(total, areas)
    wall = time.perf_counter() - wall
    cases = sum(r["cases"] for r in total.values())
    same = sum(r["identical"] for r in total.values())
    timed = sum(r["timing_ok"] for r in total.values())
    screens = [d for r in total.values() for d in r["differences"] if d[1] == "screen"]
    known = sum(bool(d[3]) for d in screens)
    print(f"{cases} cases, {same} identical, timing within 10%: {timed}")
    print(f"screen differences: {len(screens)}, in known classes: {known}, "
          f"unexplained: {len(screens) - known}")
    print(f"seed {args.seed}, {wall:.0f} s wall")
    print(f"{'area':<9} {'cases':>6} {'identical':>10} {'timing ok':>10} {'screen diff':>12} "
          f"{'known':>6} {'timing diff':>12}")
    for area in sorted(total):
        r = total[area]
        area_screens = [d for d in r["differences"] if d[1] == "screen"]
        area_known = sum(bool(d[3]) for d in area_screens)
        timing = sum(d[1] == "timing" for d in r["differences"])
        print(f"{area:<9} {r['cases']:>6} {r['identical']:>10} {r['timing_ok']:>10} "
              f"{len(area_screens):>12} {area_known:>6} {timing:>12}")
    if args.verbose:
        for area in sorted(total):
            for ident, kind, what, explained in total[area]["differences"]:
                known_text = f" [known: {explained}]" if explained else ""
                print(f"  {ident:>10} {area:<9} {kind:<6} {what}{known_text}")


if __name__ == "__main__":
    main()

"""Capture the faithfulness references: run cases on the FIRMWARE engine (the real ROM)
and write reference/<NAME>.json (screens and symbols at every step, emulated seconds).

    python tests/faithful/capture.py                 # every case
    python tests/faithful/capture.py PRINT_ USING_   # cases whose names start so (or exact)
    python tests/faithful/capture.py --stale         # only cases without a current reference
    python tests/faithful/capture.py --show NAME     # print the screens, write nothing
    python tests/faithful/capture.py --engine builtin --show NAME   # the same on the built-in engine
    python tests/faithful/capture.py --corpus [NAME]  # show the corpus runs (never stored)

A step that does not settle (the machine never waits for a key again within the step's
settle_timeout) is reported: its screen may depend on exact timing, which a case should
avoid unless it says so (settle = false).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.faithful import faithful_harness as harness  # noqa: E402


def select(patterns, stale=False):
    names = harness.case_names()
    if patterns:
        chosen = [n for n in names if any(n == p or n.startswith(p) for p in patterns)]
        missing = [p for p in patterns if not any(n == p or n.startswith(p) for n in names)]
        if missing:
            sys.exit(f"no case matches {missing}")
        names = chosen
    cases = [harness.load_case(harness.CASES_DIR / f"{n}.toml") for n in names]
    if stale:
        cases = [c for c in cases
                 if (harness.read_reference(c.name) or {}).get("case_digest") != c.digest()]
    return cases


def show(case, steps):
    print(f"== {case.name}: {case.description}")
    for i, obs in enumerate(steps):
        blink = "  (blinks)" if obs["blink"] else ""
        print(f"-- step {i} {obs['keys']!r}  {obs['seconds']} s  ready={obs['ready']}  "
              f"{obs['symbols']}{blink}")
        for line in obs["text"]:
            print(f"   |{line}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="case names or name prefixes (default: all)")
    parser.add_argument("--engine", default="firmware", choices=("firmware", "builtin"))
    parser.add_argument("--show", action="store_true", help="print the screens, write nothing")
    parser.add_argument("--stale", action="store_true",
                        help="only cases whose reference is missing or from another version")
    parser.add_argument("--corpus", action="store_true",
                        help="show the corpus.toml entries (never stored: no reference is written)")
    args = parser.parse_args(argv)
    if args.corpus:
        prefixes = [harness.CORPUS_PREFIX + p for p in args.names] + args.names
        names = [n for n in harness.corpus_entries()
                 if not args.names or any(n.startswith(p) for p in prefixes)]
        for name in names:
            case = harness.load_corpus_case(name)
            start = time.perf_counter()
            show(case, harness.run_case(case, args.engine))
            print(f"{name}: {time.perf_counter() - start:.1f} s wall")
        return
    if args.engine != "firmware" and not args.show:
        parser.error("references come from the firmware engine; use --show with --engine builtin")
    cases = select(args.names, args.stale)
    total_wall = total_emulated = 0.0
    unsettled = []
    for case in cases:
        start = time.perf_counter()
        steps = harness.run_case(case, args.engine)
        wall = time.perf_counter() - start
        emulated = sum(s["seconds"] for s in steps)
        total_wall += wall
        total_emulated += emulated
        loose = [i for i, s in enumerate(steps) if s["ready"] is False or s.get("unstable")]
        if loose:
            unsettled.append((case.name, loose))
        if args.show:
            show(case, steps)
        else:
            harness.write_reference(case, steps, args.engine)
        flag = f"  NOT SETTLED at steps {loose}" if loose else ""
        print(f"{case.name:<40} {len(steps):2} steps {emulated:7.2f} s emulated {wall:6.2f} s wall{flag}",
              flush=True)
    print(f"{len(cases)} cases, {total_emulated:.1f} s emulated in {total_wall:.1f} s wall")
    if unsettled:
        print("not settled:", ", ".join(f"{n} {s}" for n, s in unsettled))


if __name__ == "__main__":
    main()

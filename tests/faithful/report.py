"""Run every faithfulness case on the built-in engine and summarise (no pytest needed).

    python tests/faithful/report.py                  # summary: cases, passing, known failures
    python tests/faithful/report.py -v               # and the first difference of each failure
    python tests/faithful/report.py --update-known   # rewrite known_failures.txt from this run
    python tests/faithful/report.py --corpus         # also the corpus runs (needs the ROM)
    python tests/faithful/report.py --timing [--min-seconds S]

known_failures.txt keeps the reason already written for a case that still fails; a new
failure gets the first difference as its reason; a case that passes is dropped.

--timing sets each step's emulated seconds on the built-in engine against the firmware's
in the case's reference (recorded there, not compared by the suite): the distribution of
the ratios, and the steps furthest off. Steps shorter than --min-seconds on the firmware
are left out (typing and settling dominate them).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.faithful import faithful_harness as harness  # noqa: E402

HEADER = """\
# Faithfulness cases the built-in engine does not pass yet: `NAME  reason`, one a line.
# test_faithful.py reports these as xfail(strict=True): a case that starts to pass fails
# the run until its line is removed here. Regenerate from a real run with
#     python tests/faithful/report.py --update-known
# (reasons already written are kept; a new entry gets the first difference seen).
"""


def first_difference(expected, observed, machine):
    """A one-line reason: where the first step differs and how."""
    errors = getattr(machine.engine, "internal_errors", None)
    if errors:
        return f"internal error {errors[0][:60]}"
    if len(expected) != len(observed):
        return f"{len(observed)} steps, {len(expected)} expected"
    for i, (exp, act) in enumerate(zip(expected, observed)):
        if exp["symbols"] != act["symbols"]:
            return f"step {i}: symbols {act['symbols']}, firmware {exp['symbols']}"
        if not harness.screens_match(exp, act):
            for row, (e, a) in enumerate(zip(exp["text"], act["text"])):
                if e != a:
                    if e.strip() == a.strip():
                        return f"step {i} row {row}: {a!r}, firmware {e!r} (position)"
                    return f"step {i} row {row}: {a.strip()!r}, firmware {e.strip()!r}"
            if bool(exp["blink"]) != bool(act["blink"]):
                return f"step {i}: " + ("no blinking cursor" if exp["blink"] else "blinks, firmware does not")
            return f"step {i}: pixels differ (same text)"
    return "passes"


def run(names, corpus=False, verbose=False):
    results = {}
    for name in names:
        if name.startswith(harness.CORPUS_PREFIX):
            case = harness.load_corpus_case(name)
            expected = harness.run_case(case, "firmware")
        else:
            case = harness.load_case(harness.CASES_DIR / f"{name}.toml")
            reference = harness.read_reference(name)
            if reference is None or reference["case_digest"] != case.digest():
                results[name] = "no current reference"
                continue
            expected = reference["steps"]
        try:
            observed, machine = harness.run_case(case, "builtin", keep_machine=True)
        except Exception as exc:  # noqa: BLE001 - reported, not hidden
            results[name] = f"harness error {exc!r:.60}"
            continue
        problems = harness.compare(expected, observed)
        if getattr(machine.engine, "internal_errors", None):
            problems.append("internal errors")
        results[name] = first_difference(expected, observed, machine) if problems else None
        if verbose and problems:
            print(f"FAIL {name}: {results[name]}")
    return results


def write_known(results, known):
    lines = [HEADER]
    for name in sorted(results):
        reason = results[name]
        if reason is None:
            continue
        lines.append(f"{name}  {known.get(name) or reason}")
    harness.KNOWN_FAILURES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timing_ratios(min_seconds):
    """[(ratio, case, step, firmware s, built-in s)] over the faithfulness cases whose
    reference is current and whose screens the built-in engine matches at that step."""
    rows = []
    for name in harness.case_names():
        case = harness.load_case(harness.CASES_DIR / f"{name}.toml")
        reference = harness.read_reference(name)
        if reference is None or reference["case_digest"] != case.digest():
            continue
        observed = harness.run_case(case, "builtin")
        for index, (want, got) in enumerate(zip(reference["steps"], observed)):
            if want["seconds"] < min_seconds or harness.compare([want], [got]):
                continue
            ratio = got["seconds"] / want["seconds"]
            rows.append((ratio, name, index, want["seconds"], got["seconds"]))
    return rows


def print_timing(min_seconds):
    rows = sorted(timing_ratios(min_seconds))
    if not rows:
        print("no steps to compare")
        return
    ratios = [row[0] for row in rows]
    count = len(ratios)
    print(f"{count} steps of at least {min_seconds:g} firmware s, built-in / firmware seconds:")
    print(f"  min {ratios[0]:.3f}  10% {ratios[count // 10]:.3f}  median {ratios[count // 2]:.3f}"
          f"  90% {ratios[count * 9 // 10]:.3f}  max {ratios[-1]:.3f}")
    for limit in (0.02, 0.05, 0.10, 0.20):
        within = sum(abs(r - 1) <= limit for r in ratios)
        print(f"  within {limit:4.0%}: {within:4d} ({within / count:.0%})")
    print("furthest off:")
    for ratio, name, index, want, got in sorted(rows, key=lambda r: -abs(r[0] - 1))[:12]:
        print(f"  {ratio:6.3f}  {name} step {index}: firmware {want:.3f} s, built-in {got:.3f} s")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--update-known", action="store_true")
    parser.add_argument("--corpus", action="store_true")
    parser.add_argument("--timing", action="store_true",
                        help="compare the cases' step times with their references")
    parser.add_argument("--min-seconds", type=float, default=0.3,
                        help="with --timing: the shortest firmware step counted")
    args = parser.parse_args(argv)
    if args.timing:
        print_timing(args.min_seconds)
        return
    names = harness.case_names()
    if args.corpus:
        names += list(harness.corpus_entries())
    start = time.perf_counter()
    results = run(names, args.corpus, args.verbose)
    wall = time.perf_counter() - start
    known = harness.read_known_failures()
    passing = sorted(n for n, r in results.items() if r is None)
    failing = sorted(n for n, r in results.items() if r is not None)
    newly_passing = [n for n in passing if n in known]
    new_failures = [n for n in failing if n not in known]
    print(f"{len(results)} cases, {len(passing)} pass on the built-in engine, "
          f"{len(failing)} fail ({len(failing) - len(new_failures)} known), {wall:.1f} s")
    if newly_passing:
        print("now passing (remove from known_failures.txt):", " ".join(newly_passing))
    if new_failures:
        print("failing and not listed:", " ".join(new_failures))
    if args.update_known:
        if not args.corpus:   # keep the corpus entries of a run that did not check them
            for name, reason in known.items():
                if name.startswith(harness.CORPUS_PREFIX):
                    results.setdefault(name, reason)
        write_known(results, known)
        print(f"wrote {harness.KNOWN_FAILURES}")


if __name__ == "__main__":
    main()

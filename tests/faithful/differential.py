"""The differential runner (issue 15): generated cases on both engines, compared.

    python tests/faithful/differential.py --seed 1 --count 200          # summary by area
    python tests/faithful/differential.py --seed 1 --count 200 -v       # and every difference
    python tests/faithful/differential.py --seed 1 --index 37 --shrink  # shrink one case
    python tests/faithful/differential.py --seed 1 --index 37 --save    # shrink, store as a case
    python tests/faithful/differential.py --seed 1 --count 200 --json   # the figures as JSON

A generated case (generator.py) runs as a faithfulness case does (faithful_harness.run_case:
a freshly booted machine, the program on the card, each key typed when the machine waits
for one, settling after every step) on the firmware engine and on the built-in engine.
What is compared is what the suite compares (faithful_harness.compare: text cells by
character code, every other pixel exactly, the symbols, at every step), plus the emulated
time of the whole case: the built-in engine's total of step seconds must be within 10% of
the firmware's. A screen difference is then looked up in the known classes
(difference_classes.py): a case a class describes is *explained* by a stored known
failure; the others are what is left to find and fix.

A difference is shrunk (shrink): lines, then statements of a line, then steps, then keys of
a step are deleted one at a time while the shrunk case still differs in the same way
(Outcome.signature: a text difference stays one, so do pixels, symbols, timing ...;
the error numbers shown stay the same). --save stores the
shrunk case as cases/GEN_<area>_<n>.toml with its firmware reference (the harness's
run_case and write_reference, as capture.py writes them) and lists it in known_failures.txt
with the measured difference as its reason. Only screen differences are stored: the
suite's test compares screens, so a case that differs only in time would pass there.
"""

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.faithful import difference_classes  # noqa: E402
from tests.faithful import faithful_harness as harness  # noqa: E402
from tests.faithful import generator  # noqa: E402
from tests.faithful.report import first_difference  # noqa: E402

TIMING_TOLERANCE = 0.10
GEN_PREFIX = "GEN_"


@dataclass(frozen=True)
class Outcome:
    screens: list          # the differences of screens and symbols (faithful_harness.compare)
    reason: str            # first_difference of them, or "" when the screens agree
    firmware_seconds: float
    builtin_seconds: float
    explained: str = ""    # the known class of a screen difference (difference_classes)

    @property
    def timing_ok(self):
        return timing_within(self.firmware_seconds, self.builtin_seconds)

    @property
    def identical(self):
        return not self.screens

    @property
    def kind(self):
        """"screen", "timing" or "" (no difference)."""
        if self.screens:
            return "screen"
        return "" if self.timing_ok else "timing"

    @property
    def signature(self):
        """What kind of difference, finer than `kind`: what the shrinker keeps."""
        if not self.screens:
            return self.kind
        reason = self.reason
        errors = "".join(f":E{n}" for n in sorted(set(re.findall(r"ERROR (\d+)", reason))))
        for word in ("internal error", "steps", "symbols", "pixels differ", "blink", "position"):
            if word in reason:
                return "screen:" + word + errors
        return "screen:text" + errors

    def timing_text(self):
        return f"{self.builtin_seconds:.3f} s, firmware {self.firmware_seconds:.3f} s"


def timing_within(firmware, builtin, tolerance=TIMING_TOLERANCE):
    if firmware <= 0:
        return builtin <= 0
    return abs(builtin - firmware) <= tolerance * firmware + 1e-9   # 1.1 vs 1.0 is within


def as_case(lines, steps, name="generated", description=""):
    """A faithful_harness.Case of program lines and key steps (scripts or tables)."""
    parsed = tuple(harness._step(raw, f"{name} step {i}") for i, raw in enumerate(steps))
    return harness.Case(name, description, 32, "\n".join(lines), parsed)


def run_pair(lines, steps):
    """Run the case on both engines; the Outcome."""
    case = as_case(lines, steps)
    firmware = harness.run_case(case, "firmware")
    builtin, machine = harness.run_case(case, "builtin", keep_machine=True)
    problems = harness.compare(firmware, builtin)
    errors = getattr(machine.engine, "internal_errors", None)
    if errors:
        problems.append(f"built-in engine internal errors: {errors[:3]}")
    reason = first_difference(firmware, builtin, machine) if problems else ""
    typed = difference_classes.typed_text(lines, [s.keys for s in case.steps])
    explained = difference_classes.classify(typed, firmware, builtin) if problems else ""
    return Outcome(problems, reason, sum(s["seconds"] for s in firmware),
                   sum(s["seconds"] for s in builtin), explained)


# ---------------------------------------------------------------- shrinking

def split_statements(body):
    """A line body's statements, split at the colons outside string quotes."""
    parts, current, quoted = [], "", False
    for char in body:
        if char == '"':
            quoted = not quoted
        if char == ":" and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


KEY_TOKEN = re.compile(r"\{[A-Z]+(?: [0-9]+)?\}|.", re.S)


def key_tokens(script):
    return KEY_TOKEN.findall(script)


def _step_keys(step):
    return step if isinstance(step, str) else step["keys"]


def _with_keys(step, keys):
    return keys if isinstance(step, str) else {**step, "keys": keys}


def candidates(lines, steps):
    """Smaller versions of (lines, steps), each one deletion away, biggest cuts first."""
    lines, steps = list(lines), list(steps)
    for i in range(len(lines)):
        if len(lines) > 1:
            yield lines[:i] + lines[i + 1:], steps
    for i, line in enumerate(lines):
        number, _, body = line.partition(" ")
        parts = split_statements(body)
        for j in range(len(parts)):
            if len(parts) > 1:
                rest = ":".join(parts[:j] + parts[j + 1:])
                yield lines[:i] + [f"{number} {rest}"] + lines[i + 1:], steps
    for i in range(len(steps)):
        if len(steps) > 1:
            yield lines, steps[:i] + steps[i + 1:]
    for i, step in enumerate(steps):
        tokens = key_tokens(_step_keys(step))
        for j in range(len(tokens)):
            if len(tokens) > 1:
                keys = "".join(tokens[:j] + tokens[j + 1:])
                yield lines, steps[:i] + [_with_keys(step, keys)] + steps[i + 1:]


def _valid(lines, steps):
    if not generator.program_fits(lines):
        return False
    try:
        as_case(lines, steps)
    except harness.CaseError:
        return False
    return True


def shrink(lines, steps, signature, run=run_pair, budget=300):
    """The smallest (lines, steps, outcome) found that still differs as before (the same
    Outcome.signature: text, pixels, symbols ... or timing): greedy deletion until no
    single deletion keeps it."""
    lines, steps = list(lines), list(steps)
    outcome = run(lines, steps)
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for smaller_lines, smaller_steps in candidates(lines, steps):
            if not _valid(smaller_lines, smaller_steps):
                continue
            tries += 1
            result = run(smaller_lines, smaller_steps)
            if result.signature == signature:
                lines, steps, outcome = list(smaller_lines), list(smaller_steps), result
                progress = True
                break
            if tries >= budget:
                break
    return lines, steps, outcome


# ---------------------------------------------------------------- storing

def next_name(area):
    taken = {p.stem for p in harness.CASES_DIR.glob(f"{GEN_PREFIX}{area}_*.toml")}
    n = 1
    while f"{GEN_PREFIX}{area}_{n}" in taken:
        n += 1
    return f"{GEN_PREFIX}{area}_{n}"


def _toml_string(text):
    return "'''\n" + text + "\n'''" if "'''" not in text else json.dumps(text)


def _toml_step(step):
    if isinstance(step, str):
        return json.dumps(step)
    return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in step.items()) + " }"


def case_text(description, lines, steps):
    return (f"description = {json.dumps(description)}\n"
            f"program = {_toml_string(chr(10).join(lines))}\n"
            "steps = [\n" + "".join(f"    {_toml_step(s)},\n" for s in steps) + "]\n")


def save(name, description, lines, steps, reason):
    """Write cases/NAME.toml, its firmware reference, and its known_failures.txt line."""
    path = harness.CASES_DIR / f"{name}.toml"
    path.write_text(case_text(description, lines, steps), encoding="utf-8")
    case = harness.load_case(path)
    harness.write_reference(case, harness.run_case(case, "firmware"))
    known = harness.read_known_failures()
    if name not in known:
        with open(harness.KNOWN_FAILURES, "a", encoding="utf-8") as fh:
            fh.write(f"{name}  {reason}\n")
    return path


# ---------------------------------------------------------------- measuring

def measure(seed, count, start=0, areas=None, verbose=False, progress=None):
    """{area: {"cases", "identical", "timing_ok", "differences": [(ident, kind, reason,
    class)]}}: class is the known class a screen difference is in, "" when none is."""
    figures = {}
    for gen in generator.sample(seed, count, start, areas):
        outcome = run_pair(gen.lines, gen.steps)
        row = figures.setdefault(gen.area, {"cases": 0, "identical": 0, "timing_ok": 0,
                                            "differences": []})
        row["cases"] += 1
        row["identical"] += outcome.identical
        row["timing_ok"] += outcome.timing_ok
        if outcome.kind:
            what = outcome.reason if outcome.kind == "screen" else outcome.timing_text()
            row["differences"].append((gen.ident, outcome.kind, what, outcome.explained))
            if verbose:
                known = f" [known: {outcome.explained}]" if outcome.explained else ""
                print(f"{gen.ident:>10} {gen.area:<9} {outcome.kind:<6} {what}{known}")
                print("           " + " | ".join(gen.lines) + "   keys " + " ".join(map(str, gen.steps)))
        if progress:
            progress(gen, outcome)
    return figures


def screen_counts(differences):
    """(screen differences, those in a known class) of a list of measure()'s entries."""
    screens = [d for d in differences if d[1] == "screen"]
    return len(screens), sum(bool(d[3]) for d in screens)


def summary(figures):
    total = sum(r["cases"] for r in figures.values())
    same = sum(r["identical"] for r in figures.values())
    timed = sum(r["timing_ok"] for r in figures.values())
    screens, known = screen_counts([d for r in figures.values() for d in r["differences"]])
    lines = [f"{total} cases, {same} identical, timing within 10%: {timed}",
             f"screen differences: {screens}, in known classes: {known}, "
             f"unexplained: {screens - known}"]
    lines.append(f"  {'area':<9} {'cases':>6} {'identical':>10} {'timing ok':>10}  "
                 "screen (known)/timing differences")
    for area in generator.AREA_NAMES:
        if area in figures:
            r = figures[area]
            screens, known = screen_counts(r["differences"])
            timing = sum(d[1] == "timing" for d in r["differences"])
            lines.append(f"  {area:<9} {r['cases']:>6} {r['identical']:>10} {r['timing_ok']:>10}  "
                         f"{screens} ({known})/{timing}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--area", action="append", choices=generator.AREA_NAMES)
    parser.add_argument("--index", type=int, help="one case: shrink it (--shrink) or store it (--save)")
    parser.add_argument("--shrink", action="store_true")
    parser.add_argument("--save", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.index is not None:
        gen = generator.generate(args.seed, args.index)
        outcome = run_pair(gen.lines, gen.steps)
        known = f" [known: {outcome.explained}]" if outcome.explained else ""
        print(f"{gen.ident} {gen.area}: {outcome.kind or 'identical'} {outcome.reason} "
              f"({outcome.timing_text()}){known}")
        if not outcome.kind or not (args.shrink or args.save):
            return
        lines, steps, small = shrink(gen.lines, gen.steps, outcome.signature)
        print("shrunk to:\n  " + "\n  ".join(lines) + f"\n  keys {steps}\n  {small.reason} "
              f"({small.timing_text()})")
        if args.save:
            if small.kind != "screen":
                sys.exit("a timing difference is not stored: the suite compares screens")
            name = next_name(gen.area)
            description = f"generated (seed {args.seed}, case {args.index}, area {gen.area}), shrunk"
            print("wrote", save(name, description, lines, steps, small.reason))
        return
    start = time.perf_counter()
    figures = measure(args.seed, args.count, args.start, args.area, args.verbose)
    wall = time.perf_counter() - start
    if args.json:
        print(json.dumps({"seed": args.seed, "start": args.start, "wall": round(wall, 1),
                          "areas": figures}))
    else:
        print(summary(figures))
        print(f"seed {args.seed}, cases {args.start}..{args.start + args.count - 1}, {wall:.1f} s wall")


if __name__ == "__main__":
    main()

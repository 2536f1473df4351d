"""A seeded generator of PC-1360 BASIC programs and key sequences (issue 15).

    from tests.faithful.generator import generate, sample
    case = generate(seed=1, index=7)      # one GenCase, always the same for (seed, index)
    cases = sample(seed=1, count=200)     # the first `count` cases of a seed

Each case is drawn from one *area* of the language (AREAS: operators and functions on
edge values, logical operators on non-booleans, PRINT with ; and ,, USING, strings up to
80 characters, arrays, FOR/NEXT, GOSUB and ON ... GOTO/GOSUB, DATA/READ/RESTORE,
graphics with text, INPUT answers and editing keys, PAUSE/WAIT, LIST, RND, angle modes,
errors, statement mixes that take time, FOR and GOSUB nesting, CURSOR and GCURSOR at the
edges, small programs mixing all of these, RUN mode as a calculator, PRO-mode editing of
lines, labels and DEF keys, INKEY$ polling, typed lines that are often refused and are
brought back after their error, RENUM and DELETE) and carries that area as its tag. The area of
case `index` is AREAS[index % len(AREAS)], so any run of len(AREAS) consecutive cases
covers every area; what is drawn inside it comes from random.Random seeded by
(seed, index) alone, so a case does not depend on which other cases were drawn.

A generated program always tokenizes (pc1360.tokenizer, typeable lines of at most 80
characters) and stays small (a few lines, far below the smallest card): a drawing that
does not is drawn again (with the next attempt number in the seed). The steps are key
scripts as the faithfulness cases take them (faithful_harness.Step); the program is
bounded in time (loops of at most a hundred turns; the time-taking mixes get a 40 s
settle limit), so nearly every step settles within its limit. One that does not (a loop
that prints and scrolls 50 times, for example) is observed where its limit stops it, on
both engines alike, and its difference then is one of time.
"""

import random
from dataclasses import dataclass, field

from pc1360.tokenizer import FormatError, parse_program
from tests.faithful import gen_areas_language as language
from tests.faithful import gen_areas_terminal as terminal

MAX_PROGRAM_BYTES = 1500      # far below a 32 KB card's free memory: never a memory error
MAX_ATTEMPTS = 20
TIMING_SETTLE = language.TIMING_SETTLE


@dataclass(frozen=True)
class GenCase:
    seed: int
    index: int
    area: str
    lines: tuple          # program lines, each "NUMBER BODY"
    steps: tuple          # key scripts (str) or step tables (dict), as in a case file
    notes: dict = field(default_factory=dict, compare=False)

    @property
    def program(self):
        return "\n".join(self.lines)

    @property
    def ident(self):
        return f"{self.seed}:{self.index}"


LISTED_AREAS = ("arith", "val", "logic", "print", "using", "strings", "arrays", "for", "gosub",
                "data", "graphics", "wait", "rnd", "angle", "errors", "timing")


def area_list(rng):
    """LIST (in PRO mode) of a program drawn from another area, then UP/DOWN through it."""
    bodies, _ = AREAS[rng.choice(LISTED_AREAS)](rng)
    last = 10 * len(bodies)
    start = rng.choice(["", " 10", f" {last}", f" {last // 2 + 5}", f" {last + 5}", " 1"])
    steps = ["{MODE}", f"LIST{start}{{ENTER}}"]
    steps += [rng.choice(["{DOWN}", "{UP}", "{DOWN}{DOWN}"]) for _ in range(rng.randint(0, 3))]
    return bodies, steps


# area name -> its function, in the order cases cycle through them (case `index` has
# area AREA_NAMES[index % len(AREA_NAMES)]): the order of before stays, new areas go last
AREAS = {
    "arith": language.area_arith, "val": language.area_val, "logic": language.area_logic,
    "print": language.area_print, "using": language.area_using,
    "strings": language.area_strings, "arrays": language.area_arrays, "for": language.area_for,
    "gosub": language.area_gosub, "data": language.area_data,
    "graphics": language.area_graphics, "input": terminal.area_input,
    "wait": language.area_wait, "list": area_list, "rnd": language.area_rnd,
    "angle": language.area_angle, "errors": language.area_errors,
    "timing": language.area_timing, "strcmp": language.area_strcmp,
    "nesting": terminal.area_nesting, "cursor": terminal.area_cursor,
    "mixed": terminal.area_mixed, "calc": terminal.area_calc, "edit": terminal.area_edit,
    "labels": terminal.area_labels, "inkey": terminal.area_inkey,
    "recall": terminal.area_recall, "renumber": terminal.area_renumber,
}
AREA_NAMES = tuple(AREAS)


def number(bodies):
    return tuple(f"{10 * (i + 1)} {body}" for i, body in enumerate(bodies))


def program_fits(lines):
    """The program tokenizes (each line typeable, at most 80 characters) and its image
    is small."""
    if any(len(line) > 80 for line in lines):
        return False
    if not lines:
        return True             # typed lines only (area calc)
    try:
        image = parse_program("\n".join(lines)).image
    except FormatError:
        return False
    return len(image) <= MAX_PROGRAM_BYTES


def generate(seed, index, area=None):
    """Case `index` of `seed` (its area AREA_NAMES[index % n] unless `area` is given)."""
    area = area or AREA_NAMES[index % len(AREA_NAMES)]
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{seed}/{index}/{attempt}")
        bodies, steps = AREAS[area](rng)
        lines = number(bodies)
        if program_fits(lines):
            return GenCase(seed, index, area, lines, tuple(steps))
    raise RuntimeError(f"area {area}: no program that tokenizes in {MAX_ATTEMPTS} attempts")


def sample(seed, count, start=0, areas=None):
    """Cases start .. start+count-1 of `seed`; with `areas`, only those areas' cases."""
    out = []
    index = start
    while len(out) < count:
        area = AREA_NAMES[index % len(AREA_NAMES)]
        if areas is None or area in areas:
            out.append(generate(seed, index))
        index += 1
    return out

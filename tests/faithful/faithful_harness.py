"""The faithfulness harness: cases as data, run on either engine, observed as the LCD shows.

A case is `cases/<NAME>.toml` (one case per behaviour: docs/architecture.md, "The firmware is the judge"):

    description = "PRINT a;b joins the items"       # what behaviour it pins down
    card_kb = 32                                     # optional (8, 16 or 32 ...), default 32
    program = '''
    10 PRINT "A";"B"
    '''                                              # optional; loaded with load_program
    steps = [
        "RUN{ENTER}",                                # a key script (emulator/machine/key_script.py syntax)
        { keys = "{ENTER}", run = 0.5 },             # or a table with options, see Step
    ]

Every case starts from a freshly booted machine (blank card, `Y` to the CLEAR question,
RUN mode, `>` prompt) with the program on the card. After each step the harness lets
the machine settle (runs until it waits for a key again) and records what a person
would see: the 150 x 32 LCD pixels (and the other frame of a blinking cursor), the
character codes of the text cells, the lit status symbols, and (for timing
calibration and for reading) the emulated seconds the step took and the text readout.
Screens and symbols are what the tests compare (see compare); seconds and text are not.

The reference files (`reference/<NAME>.json`) hold these observations made on the
firmware engine, the real ROM. They are recordings of screens, not ROM bytes.
"""

import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from emulator.machine import key_script as keys
from emulator.machine.facade import KEY_HOLD, PC1360
from pc1360.facts import CELL_PITCH, GLYPH_WIDTH
from pc1360.facts import LCD_WIDTH as WIDTH
from pc1360.facts import TEXT_COLUMNS as COLUMNS
from pc1360.facts import TEXT_ROWS as LINES
from pc1360.facts import TEXT_X0 as CELL_X0
from tests.helpers import rom_set

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
REFERENCE_DIR = HERE / "reference"
KNOWN_FAILURES = HERE / "known_failures.txt"
ROOT = HERE.parent.parent
ROM_DIR = rom_set.find()[0] or rom_set.SHARED  # the set the tests use (tests/conftest.py)
CORPUS_DIR = ROOT.parent / "shared" / "corpus"

# Two samples 0.3 s apart after the settle point: a blink phase (~0.5 s) cannot hide both.
BLINK_WINDOW = 0.6
BLINK_SAMPLES = 2
# Part of every case digest: bump it when the way cases run or are observed changes,
# so that every reference must be captured again.
HARNESS_VERSION = 2
SETTLE_TIMEOUT = 6.0      # emulated seconds a step may take before it counts as not settled
KEY_TIMEOUT = 3.0         # emulated seconds to wait for the key-wait loop before each key
CASE_KEYS = {"description", "card_kb", "program", "steps", "long_lines"}
STEP_KEYS = {"keys", "run", "settle", "timeout", "hold", "settle_timeout"}


class CaseError(ValueError):
    """A case file that does not follow the format above."""


@dataclass(frozen=True)
class Step:
    keys: str                      # key script typed in this step
    run: float = 0.0               # emulated seconds to run after the keys, before settling
    settle: bool = True            # then run until the machine waits for a key
    timeout: float = KEY_TIMEOUT   # per key: how long to wait for the key-wait loop first
    hold: float = KEY_HOLD         # per key: how long it is held down
    settle_timeout: float = SETTLE_TIMEOUT

    def as_data(self):
        return {name: getattr(self, name) for name in Step.__dataclass_fields__}


@dataclass(frozen=True)
class Case:
    name: str
    description: str
    card_kb: int
    program: str
    steps: tuple
    long_lines: bool = False

    def digest(self):
        """A hash of what the case does (not of its comments): a reference captured
        from another version of the case is stale."""
        data = {"harness": HARNESS_VERSION, "card_kb": self.card_kb, "program": self.program.strip(),
                "steps": [s.as_data() for s in self.steps], "long_lines": self.long_lines}
        blob = json.dumps(data, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def _step(raw, where):
    if isinstance(raw, str):
        raw = {"keys": raw}
    if not isinstance(raw, dict) or "keys" not in raw:
        raise CaseError(f"{where}: a step is a key script or a table with `keys`")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown step option(s) {sorted(unknown)}")
    try:
        keys.parse(raw["keys"])
    except keys.KeyScriptError as exc:
        raise CaseError(f"{where}: {exc}") from None
    return Step(**raw)


def load_case(path):
    path = Path(path)
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    unknown = set(data) - CASE_KEYS
    if unknown:
        raise CaseError(f"{path.name}: unknown key(s) {sorted(unknown)}")
    if not data.get("steps"):
        raise CaseError(f"{path.name}: no steps")
    steps = tuple(_step(raw, f"{path.name} step {i}") for i, raw in enumerate(data["steps"]))
    return Case(path.stem, data.get("description", ""), data.get("card_kb", 32),
                data.get("program", ""), steps, data.get("long_lines", False))


def case_names():
    return sorted(p.stem for p in CASES_DIR.glob("*.toml"))


def load_all():
    return [load_case(CASES_DIR / f"{name}.toml") for name in case_names()]


CORPUS_LIST = HERE / "corpus.toml"
CORPUS_PREFIX = "corpus_"


def corpus_source(path):
    """A corpus listing as BASIC lines: `'` comment lines and blank lines dropped."""
    text = Path(path).read_bytes().decode("utf-8")
    return "\n".join(line for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith("'"))


def corpus_entries():
    """{case name: entry table} of corpus.toml (names get the corpus_ prefix)."""
    with open(CORPUS_LIST, "rb") as fh:
        return {CORPUS_PREFIX + key: value for key, value in tomllib.load(fh).items()}


def load_corpus_case(name, corpus_dir=CORPUS_DIR):
    """The corpus entry `name` as a Case, its program read from `corpus_dir` now."""
    entry = dict(corpus_entries()[name])
    entry.pop("sample", None)
    path = Path(corpus_dir) / entry.pop("file")
    steps = tuple(_step(raw, f"{name} step {i}") for i, raw in enumerate(entry.pop("steps")))
    return Case(name, entry.get("description", ""), entry.get("card_kb", 32),
                corpus_source(path), steps, long_lines=True)


# ---------------------------------------------------------------- observations

def pixels_hex(rows):
    """32 rows of 150 pixels as hex strings (leftmost pixel = top bit, padded to 152)."""
    out = []
    for row in rows:
        value = 0
        for bit in row:
            value = value << 1 | bit
        value <<= 2
        out.append(f"{value:038x}")
    return out


def observe(machine, blink=True):
    """What the LCD shows now. With `blink`, the machine runs on BLINK_WINDOW seconds
    to catch the other phase of a blinking cursor: the firmware blinks the block
    cursor over a character every ~0.5 s, so one snapshot would depend on the exact
    key timing. The other frame, if any, is kept as `blink` (with `blink_codes`);
    comparisons take the frames as a set.

    `codes` are the character codes of the 4 x 24 text cells, read with the engine's
    own font (None where no glyph matches): the built-in engine draws text with its
    own glyphs (the ROM font must not be copied), so a glyph compares by its code."""
    obs = {"pixels": pixels_hex(machine.pixels()),
           "codes": machine.lcd.cell_codes(),
           "symbols": sorted(machine.symbols()),
           "text": [line.rstrip() for line in machine.screen_text()],
           "blink": None, "blink_codes": None}
    if blink:
        seen = [obs["pixels"]]
        for _ in range(BLINK_SAMPLES):
            machine.run_for(BLINK_WINDOW / BLINK_SAMPLES)
            frame = pixels_hex(machine.pixels())
            if frame not in seen:
                seen.append(frame)
                if len(seen) == 2:
                    obs["blink"], obs["blink_codes"] = frame, machine.lcd.cell_codes()
        if len(seen) > 2:
            obs["unstable"] = True   # more than a blink: the screen still changes
    return obs


# ---------------------------------------------------------------- machines

_ROMS = None
_BOOTED = {}


def firmware_roms():
    global _ROMS
    if _ROMS is None:
        from emulator.machine.romset import load
        _ROMS = load(ROM_DIR)
    return _ROMS


def builtin_factory():
    from emulator.builtin.engine import BuiltinEngine
    return BuiltinEngine


def new_machine(engine, card_kb):
    """A booted machine: blank card cleared with Y, RUN mode, `>` prompt.

    The firmware machine is booted once per card size and then put back with
    restore() for every case: the same state and the same cycle count as a fresh boot,
    without paying for the boot (and for the CPU core's warm-up) again."""
    if engine == "firmware":
        booted = _BOOTED.get(card_kb)
        if booted is None:
            m = _boot(PC1360(roms=firmware_roms(), card_kb=card_kb), engine)
            booted = _BOOTED[card_kb] = (m, m.snapshot())
        m, snap = booted
        m.restore(snap)
        return m
    if engine == "builtin":
        return _boot(PC1360(engine=builtin_factory(), card_kb=card_kb), engine)
    raise ValueError(f"unknown engine {engine!r}")


def _boot(m, engine):
    if not m.key_wait_ready(5):
        raise RuntimeError(f"{engine}: no key-wait loop after power-on")
    m.type_keys("Y")
    if not m.key_wait_ready(5):
        raise RuntimeError(f"{engine}: no key-wait loop after the CLEAR question")
    return m


def program_image(case):
    from pc1360.tokenizer import tokenize
    return tokenize(case.program, long_lines=case.long_lines)


def run_case(case, engine, trace=None, keep_machine=False, until_differs=None, glyphs=True):
    """Run `case` on a fresh machine with `engine` ("firmware" or "builtin"); returns
    the list of step observations (dicts with pixels, blink, symbols, text, seconds,
    ready), and the machine too with keep_machine. With `until_differs` (the expected
    observations) it stops after the first step that differs from them: a known
    failure need not run to its end."""
    m = new_machine(engine, case.card_kb)
    if case.program.strip():
        m.load_program(program_image(case))
    steps = run_steps(m, case.steps, trace, until_differs, glyphs)
    return (steps, m) if keep_machine else steps


def run_steps(m, steps, trace=None, until_differs=None, glyphs=True):
    results = []
    for index, step in enumerate(steps):
        if until_differs is not None and results:
            if compare(until_differs[index - 1:index], results[-1:], glyphs):
                break
        start = m.cycles
        m.type_keys(step.keys, hold=step.hold, timeout=step.timeout)
        if step.run:
            m.run_for(step.run)
        ready = m.key_wait_ready(step.settle_timeout) if step.settle else None
        seconds = (m.cycles - start) / m.CYCLES_PER_SECOND
        obs = observe(m)
        obs["seconds"] = round(seconds, 4)
        obs["ready"] = ready
        obs["keys"] = step.keys
        results.append(obs)
        if trace:
            trace(index, step, obs)
    return results


# ---------------------------------------------------------------- references

def reference_path(name):
    return REFERENCE_DIR / f"{name}.json"


def write_reference(case, steps, engine="firmware"):
    REFERENCE_DIR.mkdir(exist_ok=True)
    data = {"case": case.name, "engine": engine, "case_digest": case.digest(),
            "description": case.description, "steps": steps}
    text = json.dumps(data, indent=1, ensure_ascii=False)
    reference_path(case.name).write_text(text + "\n", encoding="utf-8")


def read_reference(name):
    path = reference_path(name)
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def compare(expected_steps, actual_steps, glyphs=True):
    """The differences (a list of strings, empty when equal): symbols and screens at
    every step, and the number of steps. Screens compare pixel by pixel, except (with
    `glyphs`) that a text cell showing the same character code in both counts as equal
    whatever the glyph's dots (see observe)."""
    problems = []
    if len(expected_steps) != len(actual_steps):
        problems.append(f"{len(actual_steps)} steps observed, {len(expected_steps)} expected")
    for i, (exp, act) in enumerate(zip(expected_steps, actual_steps)):
        where = f"step {i} ({exp.get('keys', '')!r})"
        if exp["symbols"] != act["symbols"]:
            problems.append(f"{where}: symbols {act['symbols']} != expected {exp['symbols']}")
        if not screens_match(exp, act, glyphs):
            rows = [r for r in range(len(exp["pixels"])) if exp["pixels"][r] != act["pixels"][r]]
            if not rows:
                what = "the blinking differs"
            elif exp["text"] == act["text"]:
                what = f"pixels differ in rows {rows} (same text)"
            else:
                what = f"pixels differ in rows {rows}"
            problems.append(f"{where}: {what}\n" + side_by_side(exp["text"], act["text"]))
    return problems


def frames(obs):
    """The frames (pixels, codes) a step showed, whatever blink phase it was caught in."""
    first = (obs["pixels"], obs.get("codes"))
    return [first] if not obs.get("blink") else [first, (obs["blink"], obs.get("blink_codes"))]


def screens_match(exp, act, glyphs=True):
    """Every frame of one step matches a frame of the other, both ways."""
    a, b = frames(exp), frames(act)
    return (all(any(frame_matches(x, y, glyphs) for y in b) for x in a)
            and all(any(frame_matches(x, y, glyphs) for x in a) for y in b))


def _column_bytes(rows, line):
    """The 150 column bytes of text line `line` (bit 0 = top dot) from hex pixel rows."""
    values = [int(rows[8 * line + bit], 16) >> 2 for bit in range(8)]
    return [sum(((values[bit] >> (WIDTH - 1 - x)) & 1) << bit for bit in range(8))
            for x in range(WIDTH)]


def frame_matches(exp, act, glyphs=True):
    (exp_rows, exp_codes), (act_rows, act_codes) = exp, act
    if exp_rows == act_rows:
        return True
    if not glyphs or exp_codes is None or act_codes is None:
        return False
    for line in range(LINES):
        if exp_rows[8 * line:8 * line + 8] == act_rows[8 * line:8 * line + 8]:
            continue
        e, a = _column_bytes(exp_rows, line), _column_bytes(act_rows, line)
        same_code = [exp_codes[line][c] is not None and exp_codes[line][c] == act_codes[line][c]
                     for c in range(COLUMNS)]
        for x in range(WIDTH):
            if e[x] != a[x]:
                cell, offset = divmod(x - CELL_X0, CELL_PITCH)
                if x < CELL_X0 or offset >= GLYPH_WIDTH or not same_code[cell]:
                    return False
    return True


def side_by_side(expected, actual):
    lines = ["    expected (firmware)         | actual"]
    for e, a in zip(expected, actual):
        mark = " " if e == a else "*"
        lines.append(f"  {mark} {e:<24.24}    | {a}")
    return "\n".join(lines)


def read_known_failures():
    """{case name: reason} from known_failures.txt (`NAME  reason`, # comments)."""
    known = {}
    if KNOWN_FAILURES.is_file():
        for line in KNOWN_FAILURES.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
            if not line:
                continue
            name, _, reason = line.partition(" ")
            known[name] = reason.strip() or "known failure"
    return known

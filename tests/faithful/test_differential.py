"""The generator and the differential runner (issue 15), and a fixed-seed sample of
generated cases run on both engines.

- the generator: reproducible per (seed, index), every area covered, every program
  tokenizes and every step is a valid key script;
- the shrinker and the case writer, on a stand-in for the engines;
- test_sample_engines_agree (rom): CI_COUNT cases of CI_SEED on both engines; a screen
  difference must be in a known class (difference_classes.toml, each class a stored known
  failure), a timing difference must be listed in differential_known.toml, and a listed
  one that no longer differs fails too (strict, as the known failures are);
- test_sample_runs_on_builtin: without the ROM, the same sample runs on the built-in
  engine alone without an internal error.
"""

import tomllib

import pytest

from tests.faithful import differential, generator
from tests.faithful import faithful_harness as harness

CI_SEED = 15
CI_COUNT = 2 * len(generator.AREA_NAMES)    # two cases of each area
KNOWN_PATH = harness.HERE / "differential_known.toml"


def timing_known():
    with open(KNOWN_PATH, "rb") as fh:
        return tomllib.load(fh).get("timing", {})


TIMING_KNOWN = timing_known()
SAMPLE = generator.sample(CI_SEED, CI_COUNT)


# ---------------------------------------------------------------- the generator

def test_same_seed_same_cases():
    assert generator.sample(3, 40) == generator.sample(3, 40)
    assert generator.generate(3, 17) == generator.sample(3, 18)[17]


def test_other_seed_other_cases():
    assert [c.lines for c in generator.sample(3, 40)] != [c.lines for c in generator.sample(4, 40)]


def test_every_area_in_each_run_of_areas():
    for start in (0, 5, 100):
        cases = generator.sample(9, len(generator.AREA_NAMES), start=start)
        assert sorted(c.area for c in cases) == sorted(generator.AREA_NAMES)


def test_area_filter():
    cases = generator.sample(2, 10, areas={"input", "list"})
    assert len(cases) == 10 and {c.area for c in cases} == {"input", "list"}


@pytest.mark.parametrize("seed", [1, 2, 15])
def test_generated_programs_tokenize_and_steps_parse(seed):
    for case in generator.sample(seed, 180):
        assert generator.program_fits(case.lines), case
        assert all(len(line) <= 80 for line in case.lines), case
        differential.as_case(case.lines, case.steps)      # raises on a bad key script


def test_program_fits_rejects_what_does_not_tokenize():
    assert generator.program_fits(("10 PRINT 1",))
    assert not generator.program_fits(("10 PRINT " + "1" * 90,))
    assert not generator.program_fits(("PRINT 1",))


# ---------------------------------------------------------------- shrinking and storing

def test_split_statements_keeps_quoted_colons():
    assert differential.split_statements('A=1:PRINT "X:Y":B=2') == ["A=1", 'PRINT "X:Y"', "B=2"]


def test_key_tokens():
    assert differential.key_tokens("AB{ENTER}{WAIT 5}C") == ["A", "B", "{ENTER}", "{WAIT 5}", "C"]


def _fake_run(lines, steps):
    """A stand-in for the engines: the screens differ while line 20's BAD statement and
    a step with the key Z are both there."""
    bad = any("BAD" in line for line in lines) and any("Z" in str(step) for step in steps)
    return differential.Outcome(["differs"] if bad else [], "step 0 row 1: 'A', firmware 'B'"
                                if bad else "", 1.0, 1.0)


def test_shrink_keeps_only_what_makes_the_difference():
    lines = ["10 A=1:B=2", "20 C=3:BAD:D=4", "30 PRINT A"]
    steps = ["RUN{ENTER}", "XZY", {"keys": "{ENTER}", "run": 0.5}]
    small_lines, small_steps, outcome = differential.shrink(lines, steps, "screen:text", run=_fake_run)
    assert small_lines == ["20 BAD"]
    assert small_steps == ["Z"]
    assert outcome.kind == "screen"


def test_timing_tolerance():
    assert differential.timing_within(1.0, 1.1)
    assert differential.timing_within(1.0, 0.9)
    assert not differential.timing_within(1.0, 1.11)
    assert not differential.timing_within(1.0, 0.85)


def test_case_text_loads_as_a_case(tmp_path):
    lines = ['10 PRINT "A:B"', "20 INPUT X"]
    steps = ["RUN{ENTER}", {"keys": "5{ENTER}", "run": 0.5}]
    path = tmp_path / "GEN_x_1.toml"
    path.write_text(differential.case_text("d", lines, steps), encoding="utf-8")
    case = harness.load_case(path)
    assert case.program.strip() == "\n".join(lines)
    assert [s.keys for s in case.steps] == ["RUN{ENTER}", "5{ENTER}"]
    assert case.steps[1].run == 0.5


# ---------------------------------------------------------------- the sample

def test_known_sample_timing_differences_are_in_the_sample():
    assert set(TIMING_KNOWN) <= {c.ident for c in SAMPLE}


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: f"{c.ident}-{c.area}")
def test_sample_runs_on_builtin(case):
    observed, machine = harness.run_case(differential.as_case(case.lines, case.steps), "builtin",
                                         keep_machine=True)
    assert len(observed) == len(case.steps)
    assert not getattr(machine.engine, "internal_errors", None)


@pytest.mark.rom
@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: f"{c.ident}-{c.area}")
def test_sample_engines_agree(rom_dir, case):
    outcome = differential.run_pair(case.lines, case.steps)
    program = " | ".join(case.lines) + f"   keys {list(case.steps)}"
    if outcome.kind == "screen":
        assert outcome.explained, f"new difference {outcome.reason}\n{program}\n" + \
            "\n".join(outcome.screens)
        return         # the runs part at the difference: their times say nothing more
    if case.ident in TIMING_KNOWN:
        assert not outcome.timing_ok, \
            f"{case.ident}'s timing agrees now: remove it from differential_known.toml"
    else:
        assert outcome.timing_ok, f"new timing difference {outcome.timing_text()}\n{program}"


def test_save_writes_case_reference_and_known_failure(tmp_path, monkeypatch):
    """save() on a stand-in firmware: the case file loads, the reference is current for
    it, and known_failures.txt gets one line (kept once when saved again)."""
    (tmp_path / "cases").mkdir()
    known = tmp_path / "known_failures.txt"
    known.write_text("# header\n", encoding="utf-8")
    monkeypatch.setattr(harness, "CASES_DIR", tmp_path / "cases")
    monkeypatch.setattr(harness, "REFERENCE_DIR", tmp_path / "reference")
    monkeypatch.setattr(harness, "KNOWN_FAILURES", known)
    seen = {"symbols": [], "pixels": ["0" * 38] * 32, "codes": None, "text": ["A"],
            "blink": None, "blink_codes": None, "seconds": 0.5, "ready": True}
    monkeypatch.setattr(harness, "run_case",
                        lambda case, engine: [dict(seen, keys=s.keys) for s in case.steps])
    assert differential.next_name("val") == "GEN_val_1"
    for _ in range(2):
        differential.save("GEN_val_1", "d", ['10 PRINT VAL "1 2"'], ["RUN{ENTER}"], "why")
    case = harness.load_case(tmp_path / "cases" / "GEN_val_1.toml")
    reference = harness.read_reference("GEN_val_1")
    assert reference["case_digest"] == case.digest() and reference["engine"] == "firmware"
    assert harness.read_known_failures() == {"GEN_val_1": "why"}
    assert differential.next_name("val") == "GEN_val_2"

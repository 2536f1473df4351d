"""The known classes of difference (difference_classes.py): how a screen difference is
read, and that each class describes the stored known failures it names (their firmware
references against the built-in engine's run, so no ROM is needed)."""

import pytest

from tests.faithful import difference_classes as classes
from tests.faithful import faithful_harness as harness

CLASSES = classes.load_classes()


def step(*rows, symbols=("RUN",), pixels="p"):
    return {"text": list(rows), "symbols": list(symbols), "pixels": pixels, "codes": None}


def test_touching_numbers_are_read_every_way_they_can_be():
    (run,) = [p for p in classes.pieces("1.338690211.565240828") if not isinstance(p, str)]
    assert run[0] == "1.338690211.565240828"
    readings = [[text for text, _ in reading] for reading in run[1]]
    assert ["1.33869021", "1.565240828"] in readings
    assert ["1.338690211", ".565240828"] in readings


def test_exponents_and_signs_end_numbers():
    parts = classes.pieces("-8.011526357E-01-5.98460")
    runs = [p for p in parts if not isinstance(p, str)]
    assert [[t for t, _ in r] for r in runs[0][1]] == [["-8.011526357E-01", "-5.98460"]]


def test_last_digits_with_a_form_change_and_a_scroll():
    firmware = step("RUN MODE", "RUN", "-0.801152632-0.598460074", ">")
    builtin = step("RUN", "-8.011526357E-01-5.98460", "0691E-01", ">")
    assert classes.last_digits_only(firmware, builtin)


def test_last_digits_in_place():
    assert classes.last_digits_only(step("1.3386901931.565240828"), step("1.338690211.565240828"))


@pytest.mark.parametrize("firmware, builtin", [
    ("0.1", "1.E-01"),                    # the same value in another form
    ("6.313136278E-010.", "6.313136278E-015.E-12"),   # 0 against 5E-12: not a last digit
    ("1.234567", "1.234568"),             # the 7th digit
    ("ERROR 2 IN 20", "6.313136278E-01"),
    ("AB 1.000000001", "AC 1.000000002"),  # text around the numbers differs
])
def test_not_last_digits(firmware, builtin):
    assert not classes.last_digits_only(step(firmware), step(builtin))


def test_a_scroll_alone_is_not_last_digits():
    assert not classes.last_digits_only(step("0.", "1.", "2.", ">"), step("1.", "2.", ">", ""))


def test_symbols_must_agree():
    assert not classes.last_digits_only(step("1.000000001"), step("1.000000002", symbols=()))


def test_pixels_kind_needs_the_same_text():
    assert classes.same_text(step("A"), step("A", pixels="q"))
    assert not classes.same_text(step("A"), step("B"))


def test_a_class_needs_its_program_pattern():
    (digits,) = [c for c in CLASSES if c.name.startswith("last digits of the transcendental")]
    differs = [step("1.000000001")], [step("1.000000002", pixels="q")]
    assert digits.explains("10 PRINT SIN 1", *differs)
    assert digits.explains(classes.typed_text([], ["SIN 1{ENTER}"]), *differs)
    assert not digits.explains("10 PRINT 1/3", *differs)


def test_classes_name_stored_known_failures():
    known = harness.read_known_failures()
    assert CLASSES
    for entry in CLASSES:
        assert entry.cases, entry.name
        for name in entry.cases:
            assert (harness.CASES_DIR / f"{name}.toml").is_file(), f"{entry.name}: no case {name}"
            assert name in known, f"{entry.name}: {name} is not in known_failures.txt"


@pytest.mark.parametrize("name, entry", [(n, c) for c in CLASSES for n in c.cases],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_each_class_describes_its_stored_cases(name, entry):
    case = harness.load_case(harness.CASES_DIR / f"{name}.toml")
    firmware = harness.read_reference(name)["steps"]
    builtin = harness.run_case(case, "builtin")
    assert harness.compare(firmware, builtin), f"{name} passes now"
    typed = classes.typed_text(case.program.strip().splitlines(), [s.keys for s in case.steps])
    assert entry.explains(typed, firmware, builtin), f"{entry.name} does not describe {name}"


def test_cursor_kind_needs_the_same_characters():
    assert classes.cursor_only(step("A=\u25a0"), step('A="_'))
    assert classes.cursor_only(step("0\u25a0"), step("\u25a0T"))
    assert not classes.cursor_only(step("A=\u25a0"), step("B=1_"))
    assert not classes.cursor_only(step("AB"), step("AC"))

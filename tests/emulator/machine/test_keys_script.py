"""Key scripts: emulator/machine/key_script.py."""

import pytest

from emulator.machine.key_script import Hold, KeyScriptError, Tap, Wait, parse


def taps(*names):
    return [Tap(n) for n in names]


def test_printable_characters_type_themselves():
    assert parse("1+1") == taps("1", "+", "1")
    assert parse("a b") == taps("A", "SPACE", "B")


def test_named_keys_and_wait():
    assert parse("{MODE}{ENTER}{WAIT 5}{BRK}") == taps("MODE", "ENTER") + [Wait(0.5)] + taps("BRK")


@pytest.mark.parametrize("char, key", [("!", "Q"), ('"', "W"), ("#", "E"), ("$", "R"), ("%", "T"),
                                       ("&", "Y"), ("?", "U"), ("@", "P"), ("<", "("), (">", ")"),
                                       ("\\", "*"), ("^", "-")])
def test_shifted_characters_press_shift_first(char, key):
    assert parse(char) == taps("SHIFT", key)


def test_newline_is_enter():
    assert parse("RUN\n") == taps("R", "U", "N", "ENTER")


def test_quoted_program_line():
    assert parse('10 PRINT "HI"') == taps("1", "0", "SPACE", "P", "R", "I", "N", "T", "SPACE",
                                          "SHIFT", "W", "H", "I", "SHIFT", "W")


@pytest.mark.parametrize("script", ["{FOO}", "{ENTER", "{WAIT}", "{ENTER 3}", "[", "\u00e9"])
def test_bad_scripts_name_the_problem(script):
    with pytest.raises(KeyScriptError):
        parse(script)


@pytest.mark.parametrize("digits", ["1" * 5000, "36001", "0" * 4000 + "36001"])
def test_a_wait_too_long_is_refused_by_name(digits):
    with pytest.raises(KeyScriptError, match=r"at most 36000 tenths"):
        parse(f"{{WAIT {digits}}}")


def test_a_wait_with_leading_zeros_is_its_value():
    assert parse("{WAIT " + "0" * 5000 + "36000}") == [Wait(3600.0)]


def test_hold_sets_how_long_the_later_keys_are_held():
    assert parse("A{HOLD 300}B") == [Tap("A"), Hold(0.3), Tap("B")]
    for bad in ("{HOLD 0}", "{HOLD 10001}", "{HOLD}"):
        with pytest.raises(KeyScriptError):
            parse(bad)


def test_ready_waits_a_minute_or_the_tenths_it_is_given():
    from emulator.machine.key_script import READY_LIMIT, Ready, next_key

    steps = parse("A{READY}{HOLD 300}B{READY 25}")
    assert steps == [Tap("A"), Ready(READY_LIMIT, "{READY}", 1), Hold(0.3), Tap("B"),
                     Ready(2.5, "{READY 25}", 19)]
    assert READY_LIMIT == 60
    assert [next_key(steps, i) for i in (1, 4)] == ["B", None]
    for bad, message in (("{READY 0}", "1 to 36000 tenths"), ("{READY 36001}", "at most 36000")):
        with pytest.raises(KeyScriptError, match=message):
            parse(bad)

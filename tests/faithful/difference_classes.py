"""Known classes of difference between the engines, and which class a difference is in.

A generated case that differs on screen (differential.py) is *explained* when a class of
difference_classes.toml describes it: its program or the keys it types match the class's
`program` pattern
and the two engines' screens differ only in the class's way (`difference`):

- "last-digits": numbers show other last digits, nothing else differs. The screens are
  read as text (a full row goes on into the next, so a wrapped number is one), cut into
  numbers and the text between; after dropping up to two top rows of either side (a
  longer number scrolls the screen one row further), both must have the same text
  pieces (up to spaces and row ends: a number of another length ends its row elsewhere)
  and numbers that differ only after the 7th significant digit. A number shown
  differently with the same value (0.1 / 1.E-01) is not a last digit and does not count.
- "pixels": the text of every step is the same; only dots differ.
- "cursor": only the cursor is elsewhere: row by row the same characters, where the block
  cursor (which hides the character under it) or the line-end cursor `_` may stand on
  one side only.
- "text": any difference of the screens (for a class whose program pattern says enough).

Each class names the stored faithfulness cases that show it (`cases`), all of them
known failures (known_failures.txt), so every explained difference points at a case
kept in the suite with its measured reason; test_difference_classes.py checks that each
class describes its own cases.
"""

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tests.faithful import faithful_harness as harness

CLASSES_PATH = Path(__file__).resolve().parent / "difference_classes.toml"
ROW_CELLS = 24
DIGITS_AGREE = 1e-7          # relative difference of numbers that differ after 7 digits
SCROLL_ROWS = 2
MANTISSA_DIGITS = 10         # a shown number has at most 10 digits: where two touch
LONG_DIGITS = 8              # the digits a number has before it may end inside a run
EXPONENT = re.compile(r"E[ -]\d\d")
KINDS = ("last-digits", "pixels", "cursor", "text")
BLOCK, LINE_END = "\u25a0", "_"


@dataclass(frozen=True)
class DifferenceClass:
    name: str
    cases: tuple
    program: re.Pattern
    difference: str
    tolerance: float = DIGITS_AGREE     # last-digits: how far the numbers may be apart

    def explains(self, typed, firmware_steps, builtin_steps):
        """`typed`: the program and the steps' keys, as one text."""
        if not self.program.search(typed):
            return False
        if len(firmware_steps) != len(builtin_steps):
            return False
        test = {"last-digits": lambda a, b: last_digits_only(a, b, self.tolerance),
                "pixels": same_text,
                "cursor": cursor_only, "text": lambda a, b: True}[self.difference]
        return all(test(a, b) for a, b in zip(firmware_steps, builtin_steps)
                   if a["symbols"] != b["symbols"] or not harness.screens_match(a, b))


def load_classes(path=CLASSES_PATH):
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    classes = []
    for entry in data.get("class", []):
        if entry["difference"] not in KINDS:
            raise ValueError(f"{path}: class {entry['name']!r}: difference must be one of {KINDS}")
        classes.append(DifferenceClass(entry["name"], tuple(entry["cases"]),
                                       re.compile(entry["program"]), entry["difference"],
                                       float(entry.get("tolerance", DIGITS_AGREE))))
    return classes


def typed_text(program_lines, step_keys):
    """What a case types: its program's lines and its steps' keys, one a line."""
    return "\n".join([*program_lines, *step_keys])


def classify(typed, firmware_steps, builtin_steps, classes=None):
    """The name of the first class that explains the difference, or ""."""
    for known in load_classes() if classes is None else classes:
        if known.explains(typed, firmware_steps, builtin_steps):
            return known.name
    return ""


# ---------------------------------------------------------------- the kinds

def same_text(firmware, builtin):
    return firmware["text"] == builtin["text"] and firmware["symbols"] == builtin["symbols"]


def cursor_only(firmware, builtin):
    if firmware["symbols"] != builtin["symbols"] or firmware["text"] == builtin["text"]:
        return False
    for a, b in zip(firmware["text"], builtin["text"]):
        if a == b:
            continue
        a, b = a.removesuffix(LINE_END), b.removesuffix(LINE_END)
        if len(a) != len(b) or BLOCK not in a + b:
            return False
        if any(x != y and BLOCK not in (x, y) for x, y in zip(a, b)):
            return False
    return True


def screen_text(rows):
    """The rows as one text: a full row runs on into the next (a wrapped number stays
    whole), a shorter one ends with a line break."""
    return "".join(row if len(row) >= ROW_CELLS else row + "\n" for row in rows)


def _number_ends(text, start, end=None):
    """Where a number starting at text[start] can end, before `end`: an optional minus,
    at most 10 digits with at most one point, an exponent after a point (the PC-1360
    shows 5.E-12, never 5E-12). Numbers printed side
    by side touch ("1.338690211.565240828" is 1.33869021 and 1.565240828, or 1.338690211
    and .565240828), so a number may end inside a run of digits, but only once it has
    LONG_DIGITS of them (a shorter one would have the same digits on both engines)."""
    end = len(text) if end is None else end
    ends, at = [], start + (start < end and text[start] == "-")
    digits, point = 0, False
    while at < end:
        char = text[at]
        if char.isdigit() and digits < MANTISSA_DIGITS:
            digits += 1
        elif char == "." and not point:
            point = True
        else:
            break
        at += 1
        exponent = EXPONENT.match(text[:end], at) if digits and point else None
        if exponent:
            return ends + [at, exponent.end()] if digits >= LONG_DIGITS else [exponent.end()]
        if digits >= LONG_DIGITS:
            ends.append(at)
    if digits and (at == end or not text[at].isdigit() or not ends):
        ends.append(at)
    return sorted(set(ends))


def _readings(text, start, end):
    """The ways text[start:end] splits into touching numbers: lists of (text, float)."""
    if start == end:
        return [[]]
    out = []
    for stop in _number_ends(text, start, end):
        number = text[start:stop]
        head = (number, float(number.replace("E ", "E+")))
        out += [[head] + rest for rest in _readings(text, stop, end)]
    return out


def pieces(text):
    """The text cut into the strings between numbers and runs of touching numbers (each
    run as its text and the list of its readings)."""
    out, at, plain = [], 0, 0
    while at < len(text):
        end = at
        while True:
            ends = _number_ends(text, end)
            if not ends:
                break
            end = max(ends)
        if end == at:
            at += 1
            continue
        out += [text[plain:at], (text[at:end], _readings(text, at, end))]
        at = plain = end
    out.append(text[plain:])
    return out


def _numbers_agree(a, b, tolerance):
    (text_a, value_a), (text_b, value_b) = a, b
    if text_a == text_b:
        return True
    if value_a == value_b:
        return False          # the same value shown otherwise: a format difference
    return abs(value_a - value_b) <= tolerance * max(abs(value_a), abs(value_b))


def _agree(a, b, tolerance):
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a.split() == b.split()
    return any(len(x) == len(y) and all(_numbers_agree(p, q, tolerance) for p, q in zip(x, y))
               for x in a[1] for y in b[1])


def last_digits_only(firmware, builtin, tolerance=DIGITS_AGREE):
    if firmware["symbols"] != builtin["symbols"]:
        return False
    for drop_f in range(SCROLL_ROWS + 1):
        for drop_b in range(SCROLL_ROWS + 1):
            if drop_f and drop_b:
                continue
            a = pieces(screen_text(firmware["text"][drop_f:]))
            b = pieces(screen_text(builtin["text"][drop_b:]))
            if len(a) == len(b) and all(_agree(x, y, tolerance) for x, y in zip(a, b)):
                # a number shown with other digits, not a scroll or a space alone
                return any(x[0] != y[0] for x, y in zip(a, b) if not isinstance(x, str))
    return False

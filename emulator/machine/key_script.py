"""Key scripts: text that types itself, with {NAME} for named keys, {WAIT n} for pauses,
{READY} to wait until the program reads the keyboard and {HOLD n} for how long the keys
after it are held.

`1+1{ENTER}`, `10 PRINT "HELLO"{ENTER}`, `{MODE}`, `{WAIT 5}` (half a second), `{READY}`
(until the machine waits for a key or a program polls INKEY$; an error after READY_LIMIT,
or after n tenths of a second with `{READY n}`), `{HOLD 300}` (each later key held exactly
300 ms; by default a key is held until the program has read it). Letters type as their
keys whatever their case; a newline is ENTER; the characters on shifted keycaps
(`! " # $ % & ? @ < > \\ ^`) are typed as SHIFT then the key, as the firmware latches SHIFT.
"""

import re
from dataclasses import dataclass

from emulator.machine.key_matrix import KEY_BY_NAME, SHIFTED_CHARS
from pc1360.digits import bounded_int, shown

NAMED_KEYS = ("ENTER", "DEF", "SHIFT", "SML", "MODE", "BRK", "CLS", "UP", "DOWN", "LEFT",
              "RIGHT", "INS", "DEL", "OFF", "SPACE", "KANA")
_BRACE = re.compile(r"\{([A-Z]+)(?: ([0-9]+))?\}")
MAX_WAIT = 36_000  # tenths of a second: an hour's pause is the longest a script may ask
MAX_HOLD = 10_000  # milliseconds: longer, a key would be a held key, not a typed one
READY_LIMIT = 60.0  # seconds {READY} waits by default


class KeyScriptError(ValueError):
    """A key script that cannot be typed; the message says where."""


@dataclass(frozen=True)
class Tap:
    key: str  # a key name of docs/interfaces.md


@dataclass(frozen=True)
class Wait:
    seconds: float


@dataclass(frozen=True)
class Hold:
    """The keys after it are held this long (by default a key is held until it is read)."""

    seconds: float


@dataclass(frozen=True)
class Ready:
    """Wait until the program reads the keyboard, at most `seconds`; then it is an error."""

    seconds: float
    text: str = "{READY}"  # as written, and where: for the error message
    position: int = 0


def next_key(steps, index):
    """The key of the first Tap after steps[index], or None."""
    return next((step.key for step in steps[index + 1:] if isinstance(step, Tap)), None)


def _char_steps(char):
    if char == " ":
        return [Tap("SPACE")]
    if char == "\n":
        return [Tap("ENTER")]
    if char in SHIFTED_CHARS:
        return [Tap("SHIFT"), Tap(SHIFTED_CHARS[char])]
    if char.upper() in KEY_BY_NAME:
        return [Tap(char.upper())]
    return None


def _tenths(digits, pos, name="WAIT"):
    value = bounded_int(digits, MAX_WAIT)
    if value is None:
        raise KeyScriptError(f"{{{name} {shown(digits)}}} at position {pos}: at most {MAX_WAIT} "
                             "tenths of a second")
    return value


def _milliseconds(digits, pos):
    value = bounded_int(digits, MAX_HOLD)
    if not value:
        raise KeyScriptError(f"{{HOLD {shown(digits)}}} at position {pos}: 1 to {MAX_HOLD} "
                             "milliseconds")
    return value


def parse(script):
    """The steps of `script`: a list of Tap, Wait, Ready and Hold."""
    steps = []
    pos = 0
    while pos < len(script):
        char = script[pos]
        if char == "{":
            match = _BRACE.match(script, pos)
            if not match:
                raise KeyScriptError(f"unterminated or malformed {{...}} at position {pos}: {script[pos:pos + 12]!r}")
            name, number = match.groups()
            if name == "WAIT" and number is not None:
                steps.append(Wait(_tenths(number, pos) / 10))
            elif name == "HOLD" and number is not None:
                steps.append(Hold(_milliseconds(number, pos) / 1000))
            elif name == "READY":
                seconds = READY_LIMIT if number is None else _tenths(number, pos, "READY") / 10
                if not seconds:
                    raise KeyScriptError(f"{{READY 0}} at position {pos}: give 1 to {MAX_WAIT} "
                                         "tenths of a second, or none")
                steps.append(Ready(seconds, match.group(0), pos))
            elif name in NAMED_KEYS and number is None:
                steps.append(Tap(name))
            else:
                raise KeyScriptError(f"unknown key {match.group(0)} at position {pos}")
            pos = match.end()
            continue
        char_steps = _char_steps(char)
        if char_steps is None:
            raise KeyScriptError(f"no key types {char!r} (position {pos})")
        steps.extend(char_steps)
        pos += 1
    return steps

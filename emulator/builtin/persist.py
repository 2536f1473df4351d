"""The built-in engine's power-off state as bytes (PC1360.power_state keeps it in the
card file, emulator/machine/card_file.py): its attributes as tagged JSON. Everything else the
engine knows lives in the machine's memory (program, variables, display, symbols),
which the machine keeps itself."""

import json
from decimal import Decimal

from emulator.builtin.interp import FORLoop, Return

MAGIC = "pc1360-builtin-1"
_TUPLES = {"FORLoop": FORLoop, "Return": Return}


def _encode(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"f": repr(value)}
    if isinstance(value, Decimal):
        return {"d": str(value)}
    if isinstance(value, bytes):
        return {"b": value.hex()}
    if isinstance(value, bytearray):
        return {"a": value.hex()}
    if isinstance(value, (set, frozenset)):
        return {"s": sorted((_encode(v) for v in value), key=repr)}
    if isinstance(value, tuple):
        name = type(value).__name__
        if name in _TUPLES:
            return {"n": name, "v": [_encode(v) for v in value]}
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    raise TypeError(f"cannot keep a {type(value).__name__} in the power-off state")


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "n" in value:
        return _TUPLES[value["n"]](*(_decode(v) for v in value["v"]))
    (tag, data), = value.items()
    if tag == "f":
        return float(data)
    if tag == "d":
        return Decimal(data)
    if tag == "b":
        return bytes.fromhex(data)
    if tag == "a":
        return bytearray.fromhex(data)
    if tag == "s":
        return frozenset(_decode(v) for v in data)
    if tag == "t":
        return tuple(_decode(v) for v in data)
    raise ValueError(f"unknown tag {tag!r}")


def _encoded(attrs):
    out = {}
    for name, value in attrs.items():
        try:
            out[name] = _encode(value)
        except TypeError:
            pass                # not kept: it starts afresh, as after a reset
    return out


def dump(groups):
    """`groups`: {name: {attribute: value}} -> bytes."""
    data = {"magic": MAGIC, "groups": {g: _encoded(attrs) for g, attrs in groups.items()}}
    return json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")


def load(blob):
    """The groups dump() wrote; ValueError for anything else."""
    try:
        data = json.loads(bytes(blob).decode("utf-8"))
        if data.get("magic") != MAGIC:
            raise ValueError("not a built-in engine state")
        return {g: {k: _decode(v) for k, v in attrs.items()}
                for g, attrs in data["groups"].items()}
    except (UnicodeDecodeError, json.JSONDecodeError, AttributeError, KeyError, TypeError,
            ArithmeticError) as exc:
        raise ValueError(f"built-in engine state unreadable: {exc}") from None

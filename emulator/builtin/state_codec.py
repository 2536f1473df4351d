"""Dataclasses <-> JSON values, by their fields' type annotations.

encode(cls, value) gives plain JSON values; decode(cls, data) builds the dataclass back
and checks every value against its field's type on the way: a wrong type, a tuple of
the wrong length, an unknown field or enum member, a missing field without a default or
nesting deeper than MAX_DEPTH is a StateError (a ValueError), never another exception.

Types: None, bool, int, str, bytes, bytearray, Decimal, enums (by member name), nested
dataclasses, typing.NamedTuples, `X | None`, other unions (as [alternative, value]),
tuple[X, ...], tuple[X, Y], list[X] and frozenset[X]. A field annotated only `tuple`,
`list` or `object` holds any mix of None, bool, int, str, bytes, Decimal, tuples, lists
and the `named` tuples given to the codec, each tagged in the JSON.

A field made with transient() is not kept: encode leaves it out and decode gives it its
default (what the engine reads afresh, such as the keys held down).
"""

import dataclasses
import enum
import types
import typing
from decimal import Decimal, InvalidOperation

MAX_DEPTH = 32
_KEPT = "kept"


class StateError(ValueError):
    """A kept state that does not fit the dataclass it should be read back as."""


def transient(default_factory):
    """A dataclass field that the kept state leaves out."""
    return dataclasses.field(default_factory=default_factory, metadata={_KEPT: False})


def _is_kept(f):
    return f.metadata.get(_KEPT, True)


def _hints(cls):
    return typing.get_type_hints(cls)


def _is_named_tuple(tp):
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")


class Codec:
    """encode/decode with `named`: the NamedTuple classes a loose field may hold."""

    def __init__(self, named=()):
        self.named = {cls.__name__: cls for cls in named}

    # ------------------------------------------------------------ encoding

    def encode(self, tp, value):
        if tp is type(None):
            return self._check(value is None, value, "None")
        if tp is bool:
            return self._check(isinstance(value, bool), value, "bool")
        if tp is int:
            return self._check(isinstance(value, int) and not isinstance(value, bool), value, "int")
        if tp is str:
            return self._check(isinstance(value, str), value, "str")
        if tp in (bytes, bytearray):
            return self._check(isinstance(value, tp), value, tp.__name__).hex()
        if tp is Decimal:
            return str(self._check(isinstance(value, Decimal), value, "Decimal"))
        if tp in (tuple, list, object):
            return self._loose(value, 0)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return self._check(isinstance(value, tp), value, tp.__name__).name
        if dataclasses.is_dataclass(tp):
            self._check(isinstance(value, tp), value, tp.__name__)
            hints = _hints(tp)
            return {f.name: self.encode(hints[f.name], getattr(value, f.name))
                    for f in dataclasses.fields(tp) if _is_kept(f)}
        if _is_named_tuple(tp):
            self._check(isinstance(value, tp), value, tp.__name__)
            return [self.encode(t, v) for t, v in zip(self._named_types(tp), value)]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (typing.Union, types.UnionType):
            return self._encode_union(args, value)
        if origin is tuple:
            self._check(isinstance(value, tuple), value, "tuple")
            return [self.encode(t, v) for t, v in zip(self._tuple_types(args, len(value)), value)]
        if origin in (list, frozenset):
            self._check(isinstance(value, origin), value, origin.__name__)
            items = [self.encode(args[0], v) for v in value]
            return sorted(items, key=repr) if origin is frozenset else items
        raise TypeError(f"no state encoding for {tp!r}")

    def _encode_union(self, args, value):
        others = [t for t in args if t is not type(None)]
        if value is None and len(others) < len(args):
            return None
        if len(others) == 1:
            return self.encode(others[0], value)
        for index, tp in enumerate(others):
            try:
                return [index, self.encode(tp, value)]
            except TypeError:
                continue
        raise TypeError(f"{value!r} fits none of {args!r}")

    @staticmethod
    def _check(ok, value, name):
        if not ok:
            raise TypeError(f"{value!r} is not a {name}")
        return value

    def _loose(self, value, depth):
        if depth > MAX_DEPTH:
            raise TypeError("state nested too deep")
        if value is None or isinstance(value, (bool, int, str)):
            return value
        if isinstance(value, bytes):
            return {"b": value.hex()}
        if isinstance(value, Decimal):
            return {"d": str(value)}
        if isinstance(value, list):
            return [self._loose(v, depth + 1) for v in value]
        if isinstance(value, tuple):
            items = [self._loose(v, depth + 1) for v in value]
            name = type(value).__name__
            if name in self.named and type(value) is self.named[name]:
                return {"n": name, "v": items}
            if type(value) is tuple:
                return {"t": items}
        raise TypeError(f"no state encoding for a {type(value).__name__}")

    # ------------------------------------------------------------ decoding

    def decode(self, tp, data, depth=0):
        if depth > MAX_DEPTH:
            raise StateError("state nested too deep")
        if tp is type(None):
            return self._want(data is None, data, "null")
        if tp is bool:
            return self._want(isinstance(data, bool), data, "a bool")
        if tp is int:
            return self._want(isinstance(data, int) and not isinstance(data, bool), data, "an int")
        if tp is str:
            return self._want(isinstance(data, str), data, "a string")
        if tp in (bytes, bytearray):
            return tp(self._hex(data))
        if tp is Decimal:
            return self._decimal(data)
        if tp in (tuple, list, object):
            value = self._unloose(data, depth)
            if tp is not object:
                self._want(isinstance(value, tp), data, f"a {tp.__name__}")
            return value
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            self._want(isinstance(data, str) and data in tp.__members__, data,
                       f"a {tp.__name__} name")
            return tp[data]
        if dataclasses.is_dataclass(tp):
            return self._decode_dataclass(tp, data, depth)
        if _is_named_tuple(tp):
            self._want(isinstance(data, list) and len(data) == len(tp._fields), data,
                       f"{len(tp._fields)} items of {tp.__name__}")
            return tp(*(self.decode(t, v, depth + 1)
                        for t, v in zip(self._named_types(tp), data)))
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (typing.Union, types.UnionType):
            return self._decode_union(args, data, depth)
        if origin is tuple:
            self._want(isinstance(data, list), data, "a list")
            kinds = self._tuple_types(args, len(data))
            self._want(len(kinds) == len(data), data, f"{len(kinds)} items")
            return tuple(self.decode(t, v, depth + 1) for t, v in zip(kinds, data))
        if origin in (list, frozenset):
            self._want(isinstance(data, list), data, "a list")
            return origin(self.decode(args[0], v, depth + 1) for v in data)
        raise StateError(f"no state decoding for {tp!r}")

    def _decode_dataclass(self, tp, data, depth):
        self._want(isinstance(data, dict), data, f"a {tp.__name__} object")
        hints = _hints(tp)
        kept = {f.name: f for f in dataclasses.fields(tp) if _is_kept(f) and f.init}
        unknown = set(data) - set(kept)
        if unknown:
            raise StateError(f"{tp.__name__} has no field {min(unknown)!r}")
        values = {}
        for name, f in kept.items():
            if name in data:
                values[name] = self.decode(hints[name], data[name], depth + 1)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise StateError(f"{tp.__name__}.{name} is missing")
        return tp(**values)

    def _decode_union(self, args, data, depth):
        others = [t for t in args if t is not type(None)]
        if data is None and len(others) < len(args):
            return None
        if len(others) == 1:
            return self.decode(others[0], data, depth + 1)
        self._want(isinstance(data, list) and len(data) == 2 and isinstance(data[0], int)
                   and not isinstance(data[0], bool) and 0 <= data[0] < len(others), data,
                   "[alternative, value]")
        return self.decode(others[data[0]], data[1], depth + 1)

    def _unloose(self, data, depth):
        if depth > MAX_DEPTH:
            raise StateError("state nested too deep")
        if data is None or isinstance(data, (bool, int, str)):
            return data
        if isinstance(data, list):
            return [self._unloose(v, depth + 1) for v in data]
        self._want(isinstance(data, dict), data, "a tagged value")
        if set(data) == {"n", "v"}:
            cls = self.named.get(data["n"]) if isinstance(data["n"], str) else None
            items = data["v"]
            self._want(cls is not None and isinstance(items, list)
                       and len(items) == len(cls._fields), data, "a known named tuple")
            return cls(*(self._unloose(v, depth + 1) for v in items))
        self._want(len(data) == 1, data, "a tagged value")
        (tag, value), = data.items()
        if tag == "b":
            return self._hex(value)
        if tag == "d":
            return self._decimal(value)
        if tag == "t":
            self._want(isinstance(value, list), value, "a list")
            return tuple(self._unloose(v, depth + 1) for v in value)
        raise StateError(f"unknown tag in {data!r:.60}")

    @staticmethod
    def _want(ok, data, what):
        if not ok:
            raise StateError(f"expected {what}, found {data!r:.60}")
        return data

    def _hex(self, data):
        self._want(isinstance(data, str), data, "a hex string")
        try:
            return bytes.fromhex(data)
        except ValueError:
            raise StateError(f"expected a hex string, found {data!r:.60}") from None

    def _decimal(self, data):
        self._want(isinstance(data, str), data, "a number string")
        try:
            value = Decimal(data)
        except InvalidOperation:
            raise StateError(f"expected a number, found {data!r:.60}") from None
        self._want(value.is_finite(), data, "a finite number")
        return value

    # ------------------------------------------------------------ shapes

    @staticmethod
    def _named_types(tp):
        """A NamedTuple's field types; `object` (loose) where it declares none."""
        hints = typing.get_type_hints(tp) if getattr(tp, "__annotations__", None) else {}
        return [hints.get(name, object) for name in tp._fields]

    @staticmethod
    def _tuple_types(args, length):
        if len(args) == 2 and args[1] is Ellipsis:
            return [args[0]] * length
        return list(args)

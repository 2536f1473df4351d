"""The built-in engine's kept state (emulator/builtin/persist.py, state_codec.py): the
power-off state is made from the parts' dataclasses, and whatever bytes come back are
either that state again or one StateError (a ValueError), never another exception."""

import json
import typing
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.builtin import persist
from emulator.builtin.host import EngineHost
from emulator.builtin.state_codec import Codec, StateError, transient
from emulator.builtin.states import Mode, State
from emulator.machine.facade import PC1360
from pc1360.tokenizer import tokenize
from tests.helpers.bare_machine import BareMachine


class Point(NamedTuple):
    x: int
    y: int


@dataclass
class Inner:
    mode: Mode = Mode.RUN
    at: Point | None = None


@dataclass
class Sample:
    number: int = 0
    flag: bool = False
    text: bytes = b""
    line: bytearray = field(default_factory=bytearray)
    value: Decimal | bytes | None = None
    pairs: list[tuple[int, int]] = field(default_factory=list)
    units: list[int | bytes] = field(default_factory=list)
    inner: Inner = field(default_factory=Inner)
    loose: tuple | None = None
    held: frozenset[str] = transient(frozenset)


CODEC = Codec(named=(Point,))
FULL = Sample(7, True, b"\x00\xff", bytearray(b"AB"), Decimal("-1.5E-3"), [(1, 2)],
              [65, b"PRINT"], Inner(Mode.PRO, Point(3, 4)),
              ("x", (1, b"\x01"), [Decimal(2), None], Point(5, 6)), frozenset({"A"}))


def test_a_dataclass_comes_back_as_it_was_but_its_transient_fields():
    data = json.loads(json.dumps(CODEC.encode(Sample, FULL)))
    back = CODEC.decode(Sample, data)
    assert back == Sample(**{**vars(FULL), "held": frozenset()})
    assert type(back.line) is bytearray and type(back.inner.at) is Point
    assert type(back.loose[3]) is Point


@pytest.mark.parametrize("change", [
    {"number": "7"}, {"number": True}, {"flag": 1}, {"text": "zz"}, {"text": 5},
    {"value": [2, "1"]}, {"value": [0, "NaN"]}, {"value": [0, "x"]}, {"pairs": [[1]]},
    {"pairs": [[1, 2, 3]]}, {"pairs": {"a": 1}}, {"units": [[5, 1]]},
    {"inner": {"mode": "EDIT"}}, {"inner": {"mode": 1}}, {"inner": {"at": [1]}},
    {"inner": []}, {"loose": {"t": [{"q": 1}]}}, {"loose": {"n": "Other", "v": []}},
    {"loose": {"t": [1], "b": ""}}, {"loose": 5}, {"surplus": 1}, {"held": ["A"]},
])
def test_a_value_of_the_wrong_kind_is_a_state_error(change):
    data = {**CODEC.encode(Sample, FULL), **change}
    with pytest.raises(StateError):
        CODEC.decode(Sample, data)


def test_missing_fields_take_their_defaults():
    assert CODEC.decode(Sample, {"number": 3}) == Sample(number=3)


def test_too_deep_a_nesting_is_a_state_error():
    deep = 1
    for _ in range(100):
        deep = {"t": [deep]}
    with pytest.raises(StateError):
        CODEC.decode(Sample, {"loose": deep})
    with pytest.raises(StateError):
        persist.load(b"[" * 100_000 + b"]" * 100_000)


def test_a_value_the_type_does_not_allow_cannot_be_kept():
    with pytest.raises(TypeError):
        CODEC.encode(Sample, Sample(units=[1.5]))


@pytest.fixture(scope="module")
def waiting():
    """A machine whose program waits at INPUT inside a FOR loop and a GOSUB."""
    machine = PC1360(engine="builtin")
    machine.type_keys("Y")
    machine.load_program(tokenize("10 FOR I=1 TO 3: GOSUB 100: NEXT I\n20 INPUT \"X?\";A\n"
                                  "30 PRINT A*2\n100 PRINT I: RETURN\n"))
    machine.type_keys("RUN{ENTER}{ENTER}")
    machine.run_for(0.5)
    return machine


def test_the_power_state_is_the_snapshot_of_the_parts(waiting):
    engine = waiting.engine
    assert engine.state is State.ENTER_WAIT
    kept = persist.load(engine.power_state())
    snapshot = engine.snapshot_state()
    snapshot.parts.keys.prev_keys = frozenset()     # (read afresh on resuming)
    assert kept == snapshot
    assert kept.interp.for_stack and kept.interp.gosub_stack


def test_a_restored_snapshot_goes_on_as_the_original(waiting):
    snapshot = waiting.snapshot()
    waiting.type_keys("{ENTER}")
    after = waiting.screen_text()
    waiting.restore(snapshot)
    waiting.type_keys("{ENTER}")
    assert waiting.screen_text() == after and waiting.engine.internal_errors == []


def resume_or_refuse(waiting, blob):
    """A new machine resumes from `blob` or refuses it with a ValueError (anything else
    fails the test)."""
    other = PC1360(engine="builtin", card_data=waiting.card_data())
    try:
        other.resume(blob)
    except ValueError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damaged_byte_is_refused_or_read(waiting, data):
    blob = bytearray(waiting.power_state())
    header = len(blob) - len(waiting.engine.power_state())
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(header, len(blob) - 1))
        blob[index] = data.draw(st.integers(0, 255))
    resume_or_refuse(waiting, bytes(blob))


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 70_000) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from("bdtnv"), inner, max_size=2),
                    max_leaves=6)


def paths(value, path=()):
    """Every place in a JSON value."""
    yield path
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from paths(item, (*path, key))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_put_anywhere_is_refused_or_read(waiting, data):
    engine_state = waiting.engine.power_state()
    header = waiting.power_state()[:-len(engine_state)]
    tree = json.loads(engine_state)
    path = data.draw(st.sampled_from(list(paths(tree["state"]))[1:]))
    place = tree["state"]
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = data.draw(JSON)
    resume_or_refuse(waiting, header + json.dumps(tree).encode())


def members(protocol, prefix=""):
    """The attribute paths a typing.Protocol declares, its nested protocols' included."""
    hints = typing.get_type_hints(protocol)
    for name, kind in hints.items():
        yield prefix + name
        if getattr(kind, "_is_protocol", False):
            yield from members(kind, f"{prefix}{name}.")
    for name, value in vars(protocol).items():
        if callable(value) and not name.startswith("_"):
            yield prefix + name


@pytest.mark.parametrize("make", [BareMachine, lambda: PC1360(engine="builtin")])
def test_the_machine_and_the_fake_provide_all_the_engine_uses(make):
    machine = make()
    for path in members(EngineHost):
        owner = machine
        for name in path.split("."):
            assert hasattr(owner, name), path
            owner = getattr(owner, name)


BUSY = ('10 WAIT 0:USING "##.#":CURSOR 2,1:PRINT 1.25;:USING:GCURSOR (5,5):LINE (0,0)-(9,9)\n'
        '20 DIM Q$(2)*4:RESTORE 90:FOR I=1 TO 2:READ Q$(I):GOSUB 80:NEXT I:BEEP 1\n'
        '30 TRON:A=1\n35 TROFF:WAIT 10:PRINT "X":OPEN:LPRINT "Y":CLOSE\n'
        '40 INPUT "N?";N:PRINT N*2:END\n80 PRINT Q$(I):RETURN\n90 DATA "AB","CD"\n')


def test_the_power_state_keeps_every_moment_of_a_busy_program():
    """At every slice of a program that uses the statements which leave state behind,
    the power-off state reads back as the snapshot."""
    machine = PC1360(engine="builtin")
    machine.type_keys("Y")
    machine.load_program(tokenize(BUSY))
    machine.type_keys("RUN{ENTER}")
    engine = machine.engine
    seen = set()
    for step in range(120):
        if step == 40:
            machine.type_keys("{DOWN}")     # on from the TRON stop
        if step == 80:
            machine.type_keys("7{ENTER}")
        machine.run_for(0.05)
        snapshot = engine.snapshot_state()
        snapshot.parts.keys.prev_keys = frozenset()
        assert persist.load(engine.power_state()) == snapshot, step
        seen.add(engine.state)
    assert engine.internal_errors == []
    assert {State.DELAY, State.ENTER_WAIT, State.SERIAL, State.INPUT, State.IDLE} <= seen

"""Random and damaged input for the machine's readers (issue 18): the engine state in a
card file, programs for --load, key scripts. Only the project's own errors come out."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.machine import card_file as card
from emulator.machine.card_file import CardStore
from emulator.machine.facade import PC1360
from emulator.machine.key_script import KeyScriptError, parse
from emulator.machine.program_files import read_program
from pc1360.errors import FormatError
from pc1360.ramcard import build_card
from pc1360.tape import encode_tap
from pc1360.tokenizer import tokenize

IMAGE = tokenize('10 PRINT "HI":GOTO 10\n20 END\n')
MACHINE = PC1360(engine="builtin", card_kb=8)
HEADER_SIZE = len(MACHINE.power_state()) - len(MACHINE.engine.power_state())
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.binary(max_size=200),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(["engine", "interp", "screen"]),
                    st.dictionaries(st.sampled_from(["run", "clock", "mode", "pc", "x"]), JSON_VALUES),
                    ).map(lambda v: json.dumps(v).encode())))
def test_a_damaged_engine_state_is_set_aside_never_raised(tmp_path, engine_blob):
    machine = PC1360(engine="builtin", card_kb=8)
    state = machine.power_state()[:HEADER_SIZE] + engine_blob
    path = tmp_path / "c.bin"
    ram = bytes([0x5A]) * 0x1800 + bytes(8192 - 0x1800)
    path.write_bytes(card.encode(ram, state))
    store = CardStore(path, 8)
    data, saved = store.load()
    machine.bus.set_card_data(0, data)
    store.resume(machine, saved)  # the engine's own errors are reported and set aside
    assert machine.card_data()[:0x1800] == ram[:0x1800]
    if store.messages:
        assert "machine state not used" in store.messages[0]
        assert not path.exists()


CONTAINERS = {".img": IMAGE, ".ram": build_card(IMAGE, 8), ".tap": encode_tap(IMAGE, "HI")}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(CONTAINERS)), st.data())
def test_load_reads_damaged_programs_with_format_errors_only(tmp_path, suffix, data):
    blob = bytearray(CONTAINERS[suffix])
    for _ in range(data.draw(st.integers(0, 4))):
        blob[data.draw(st.integers(0, len(blob) - 1))] = data.draw(st.integers(0, 255))
    blob = bytes(blob[:data.draw(st.integers(0, len(blob)))])
    path = tmp_path / f"p{suffix}"
    path.write_bytes(data.draw(st.one_of(st.just(blob), st.binary(max_size=300))))
    try:
        kind, _content = read_program(path)
    except FormatError:
        return
    assert kind in ("image", "card")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("{}WAIT ENTRMODE0123456789x!\"\n\\é"), max_size=40))
def test_key_scripts_raise_only_key_script_errors(script):
    try:
        parse(script)
    except KeyScriptError:
        pass

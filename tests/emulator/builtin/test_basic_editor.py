"""The built-in engine's line editor (emulator/builtin/editor.py) and its power-off state
(emulator/builtin/persist.py), on the real machine facade. The firmware-faithful details
are checked by the faithfulness suite (tests/faithful/cases/CALC_*, ERROR_*, PRO_*)."""

import pytest

from emulator.builtin import persist
from emulator.builtin.editor import BLOCK, HOLE, MAX_CHARS
from emulator.machine.facade import PC1360
from pc1360.tokenizer import tokenize


@pytest.fixture
def machine():
    m = PC1360(engine="builtin")
    m.type_keys("Y")
    return m


def line(machine):
    return bytes(machine.engine.editor.state.line)


def test_left_ins_type_del_edit_in_place(machine):
    machine.type_keys("1234{LEFT}{LEFT}{INS}")
    assert line(machine) == b"12" + bytes([HOLE]) + b"34"
    machine.type_keys("9{LEFT}{LEFT}{DEL}")
    assert line(machine) == b"1934" and machine.engine.editor.state.cur == 1
    machine.type_keys("{ENTER}")
    machine.run_for(0.5)
    assert machine.screen_text()[2].strip() == "1934."


def test_block_cursor_blinks_over_the_character(machine):
    machine.type_keys("12{LEFT}")
    seen = set()
    for _ in range(8):
        machine.run_for(0.15)
        seen.add(machine.lcd.cell_codes()[1][1])
    assert seen == {BLOCK, ord("2")}
    assert machine.peek(0xFD80 + 24 + 1) == ord("2")     # the text buffer keeps it


def test_a_line_holds_79_characters(machine):
    machine.type_keys("1" * 85)
    assert len(line(machine)) == MAX_CHARS and machine.engine.editor.state.cur == MAX_CHARS - 1


def test_left_after_enter_recalls_the_line(machine):
    machine.type_keys("2*3{ENTER}{LEFT}")
    assert line(machine) == b"2*3" and machine.engine.editor.state.cur == 3


def test_power_state_resumes_a_waiting_program(machine):
    machine.load_program(tokenize("10 FOR I=1 TO 3: GOSUB 100: NEXT I\n20 INPUT \"X?\";A\n"
                                  "30 PRINT A*2\n100 PRINT I: RETURN\n"))
    machine.type_keys("RUN{ENTER}")
    state = machine.power_state()
    other = PC1360(engine="builtin", card_data=machine.card_data())
    other.resume(state)
    assert other.screen_text() == machine.screen_text()
    for m in (machine, other):
        m.type_keys("{ENTER}{ENTER}{ENTER}7{ENTER}")
        m.run_for(0.5)
    assert other.screen_text() == machine.screen_text()
    assert "14." in other.screen_text()[-1], other.screen_text()


def test_a_damaged_power_state_is_refused(machine):
    state = machine.power_state()
    with pytest.raises(ValueError):
        PC1360(engine="builtin").resume(state[:-3])
    with pytest.raises(ValueError):
        persist.load(b"not json")

"""The keyboard matrix as data and the INA read logic (docs/hardware.md §6)."""

import pytest

from emulator.machine.key_matrix import KEY_BY_NAME, KEYS, SHIFTED_CHARS, Keyboard

INTERFACE_KEYS = (
    [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [str(d) for d in range(10)]
    + list(",;:()-*/+.=")
    + "SPACE ENTER SHIFT DEF SML MODE UP DOWN LEFT RIGHT KANA CLS DEL INS BRK OFF".split())


def test_every_key_name_of_the_contract_is_in_the_table():
    assert sorted(KEY_BY_NAME) == sorted(INTERFACE_KEYS)


def test_no_two_keys_share_a_matrix_position():
    positions = [(k.line, k.row, k.bit) for k in KEYS if k.line]
    assert len(positions) == len(set(positions))


def test_ia_rows_are_triangular():
    # Only INA bits above the driven IA line carry keys.
    assert all(k.bit > k.row for k in KEYS if k.line == "IA")


def test_every_key_with_a_keycap_has_a_unique_place():
    places = [p for k in KEYS for p in k.positions]
    assert len({p[:3] for p in places}) == len(places)
    assert all(k.positions for k in KEYS if k.name != "KANA")


def test_shifted_characters_are_those_seen_on_the_firmware():
    assert SHIFTED_CHARS == {"!": "Q", '"': "W", "#": "E", "$": "R", "%": "T", "&": "Y",
                             "?": "U", "@": "P", "<": "(", ">": ")", "\\": "*", "^": "-"}


@pytest.mark.parametrize("key, strobe, ia_out, value", [
    ("SHIFT", 1, 0, 0x40), (")", 1, 0, 0x01), ("Q", 2, 0, 0x40), ("9", 3, 0, 0x01),
    ("MODE", 7, 0, 0x02), ("UP", 6, 0, 0x08), ("CLS", 0, 0x01, 0x04), ("DEL", 0, 0x01, 0x08),
    ("SPACE", 0, 0x02, 0x10), ("OFF", 0, 0x02, 0x04), ("ENTER", 0, 0x04, 0x10), ("=", 0, 0x08, 0x20),
])
def test_ina_reads_the_selected_line(key, strobe, ia_out, value):
    kb = Keyboard()
    kb.press(key)
    assert kb.ina(strobe, ia_out) == value


def test_ina_ors_k_row_and_ia_lines():
    kb = Keyboard()
    kb.press("A")
    kb.press("J")
    assert kb.ina(2, 0x01) == 0x20 | 0x20


def test_row_numbers_other_than_1_to_7_select_nothing():
    # Row 8 is read once at boot and reads 0 (export machine, docs/hardware.md §6.2); 0x3F is the key-wait
    # loop's strobe, which needs no data either. All keys held: still nothing.
    kb = Keyboard()
    for key in KEY_BY_NAME:
        kb.press(key)
    for strobe in (0, 8, 0x0F, 0x3F, 0xFF):
        assert kb.ina(strobe, 0) == 0


def test_ina_does_not_echo_the_driven_ia_line():
    assert Keyboard().ina(0, 0x0F) == 0


def test_brk_is_outside_the_matrix():
    kb = Keyboard()
    kb.press("BRK")
    assert kb.brk
    assert all(kb.ina(s, 0x0F) == 0 for s in range(8))


def test_unknown_key_name_is_refused():
    with pytest.raises(ValueError):
        Keyboard().press("F1")

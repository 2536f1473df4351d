"""The front-end's key layout and PC-keyboard tables (no pygame needed)."""

from emulator.frontend import case_layout as layout
from emulator.frontend import host_keys as keymap
from emulator.machine import key_script as keyscripts
from emulator.machine.key_matrix import KEY_BY_NAME
from pc1360.facts import SYMBOL_BITS


def _caps(name):
    return [key for key in layout.KEYS if key.name == name]


def test_every_key_of_the_european_keyboard_has_a_cap():
    # KANA is on the matrix but has no keycap on the European model
    assert {key.name for key in layout.KEYS} == set(KEY_BY_NAME) - {"KANA"}


def test_62_keys_plus_off_with_shift_in_both_blocks():
    assert len(layout.KEYS) == 63  # lehmayr's 62 keys and the OFF key
    assert len(_caps("SHIFT")) == 2


def test_keys_do_not_overlap_and_lie_inside_the_case():
    width, height = layout.CASE_SIZE
    rects = [key.rect for key in layout.KEYS]
    for i, (x, y, w, h) in enumerate(rects):
        assert 0 <= x and x + w <= width and 0 <= y and y + h <= height
        for ox, oy, ow, oh in rects[i + 1:]:
            assert x + w <= ox or ox + ow <= x or y + h <= oy or oy + oh <= y


def test_key_at_finds_each_key_at_its_centre():
    for key in layout.KEYS:
        x, y, w, h = key.rect
        assert layout.key_at(x + w // 2, y + h // 2) is key
    assert layout.key_at(*layout.LCD_ORIGIN) is None


def _row_names(y):
    return [key.name for key in sorted(layout.KEYS, key=lambda k: k.rect[0]) if key.rect[1] == y]


def test_physical_layout_matches_hardware_notes():
    # docs/hardware.md §6.4: OFF top right; cursor/edit block; numeric block; alphabetic block
    off = _caps("OFF")[0]
    assert off.rect[0] == max(key.rect[0] for key in layout.KEYS)
    assert off.rect[1] == min(key.rect[1] for key in layout.KEYS)
    assert _row_names(46) == ["DOWN", "UP", "MODE", "CLS", "OFF"]
    assert _row_names(75) == ["LEFT", "RIGHT", "DEL", "INS", "BRK", "SHIFT"]
    assert _row_names(107) == ["7", "8", "9", "(", ")"]
    assert _row_names(144) == ["4", "5", "6", "/", ":"]
    assert _row_names(181) == ["1", "2", "3", "*", ";"]
    assert _row_names(218) == ["0", ".", "+", "-", ","]
    assert _row_names(157) == ["SHIFT"] + list("QWERTYUIOP")
    assert _row_names(189) == ["DEF"] + list("ASDFGHJKL=")
    assert _row_names(221) == ["SML"] + list("ZXCVBNM") + ["SPACE", "ENTER"]
    enter = _caps("ENTER")[0]
    assert enter.rect[2] > 2 * _caps("M")[0].rect[2]  # the wide ENTER


def test_shift_legends_agree_with_the_keyboard_model():
    for key in layout.KEYS:
        known = KEY_BY_NAME[key.name].shift_legend
        if known:
            assert key.shift_legend == known, key.name


def test_lcd_and_symbols_fit_their_window():
    x, y, w, h = layout.LCD_RECT
    assert (w, h) == (150 * layout.DOT_PITCH, 32 * layout.DOT_PITCH)
    wx, wy, ww, wh = layout.LCD_WINDOW
    assert wx <= x and x + w <= wx + ww and wy <= y and y + h <= wy + wh
    for text, tx, ty in layout.SYMBOLS.values():
        # in a column left of the dot matrix, within its height
        assert wx <= tx and tx + len(text) * layout.SYMBOL_FONT * 0.7 <= x
        assert y <= ty and ty + layout.SYMBOL_FONT <= y + h


def test_every_symbol_bit_the_firmware_uses_has_a_place():
    assert set(layout.SYMBOLS) == set(SYMBOL_BITS.values()) - {"BIT3"}


def test_typed_characters_match_the_key_script_rules():
    for char, sequence in keymap.CHAR_KEYS.items():
        if char in "\u03c0\u221a":  # π and √ are not in the key-script syntax
            continue
        assert tuple(step.key for step in keyscripts.parse(char)) == sequence, char


def test_pc_characters_translate_to_machine_keys():
    assert keymap.translate_text("a") == ("A",)
    assert keymap.translate_text("A") == ("A",)
    assert keymap.translate_text("!") == ("SHIFT", "Q")
    assert keymap.translate_text("?") == ("SHIFT", "U")
    assert keymap.translate_text(" ") == ("SPACE",)
    assert keymap.translate_text("1+1") == ("1", "+", "1")
    assert keymap.translate_text("[") == ()


def test_named_keys_and_commands():
    assert keymap.translate_key("return") == ("keys", ("ENTER",))
    assert keymap.translate_key("enter") == ("keys", ("ENTER",))  # keypad
    assert keymap.translate_key("backspace") == ("keys", ("LEFT", "DEL"))
    assert keymap.translate_key("delete") == ("keys", ("DEL",))
    assert keymap.translate_key("insert") == ("keys", ("INS",))
    assert keymap.translate_key("escape") == ("keys", ("BRK",))
    assert keymap.translate_key("tab") == ("keys", ("DEF",))
    assert keymap.translate_key("f3") == ("keys", ("MODE",))
    assert keymap.translate_key("f4") == ("keys", ("CLS",))
    assert keymap.translate_key("f1") == ("command", "help")
    assert keymap.translate_key("f12") == ("command", "screenshot")
    assert keymap.translate_key("a") is None  # letters come as text
    assert keymap.translate_key("r", ctrl=True) == ("command", "reset")
    assert keymap.translate_key("x", ctrl=True) is None


def test_help_lists_every_command():
    text = " ".join(pc for pc, _ in keymap.HELP_LINES)
    for name in keymap.COMMANDS:
        assert name.upper() in text.upper()
    for letter in keymap.CTRL_COMMANDS:
        assert f"Ctrl+{letter.upper()}" in text


def test_the_pixel_font_has_every_character_of_the_small_legends():
    from emulator.frontend import pixel_font

    small = [key.legend for key in layout.KEYS if len(key.legend) > 1 and key.legend.isalpha()]
    small += [key.shift_legend for key in layout.KEYS if key.shift_legend]
    small += [text for text, _x, _y in layout.SYMBOLS.values()]
    small += [text for text, _x, _y, height, _colour in layout.LABELS if height <= 8]
    assert all(pixel_font.covers(text) for text in small)
    rows = pixel_font.rows("CLS OFF")  # glyphs 4 wide, a space 2, a gap between each two
    assert len(rows) == pixel_font.HEIGHT and {len(row) for row in rows} == {6 * 4 + 2 + 6}
    assert all(row[4] == row[9] == "." for row in rows)  # C, L and S do not touch

"""The LCD model: display RAM -> pixels, symbols and text (docs/hardware.md §5)."""

import pytest

from emulator.machine import lcd
from emulator.machine.lcd import LCD, PLACEHOLDER, firmware_font
from emulator.machine.romset import load
from pc1360 import facts


def blank_mem():
    return bytearray(0x10000)


def test_pixel_position_follows_block_line_and_bit():
    mem = blank_mem()
    mem[0x2A00 + 0x1E + 5] = 0x81  # block 1, text line 3, column 5: top and bottom pixel
    rows = LCD(mem).pixels()
    assert len(rows) == 32 and all(len(r) == 150 for r in rows)
    lit = {(y, x) for y, row in enumerate(rows) for x, v in enumerate(row) if v}
    assert lit == {(16, 35), (23, 35)}


@pytest.mark.parametrize("line, offset", list(enumerate(facts.LCD_LINE_OFFSETS)))
def test_each_text_line_has_its_offset(line, offset):
    mem = blank_mem()
    mem[0x3000 + offset + 29] = 0x01
    rows = LCD(mem).pixels()
    assert rows[8 * line][149] == 1
    assert sum(map(sum, rows)) == 1


def test_scratch_bytes_draw_nothing():
    mem = blank_mem()
    for base in facts.LCD_BLOCK_BASES:
        for offset in (0x3C, 0x3D, 0x3E, 0x3F, 0x7C, 0x80, 0xFF):
            mem[base + offset] = 0xFF
    assert sum(map(sum, LCD(mem).pixels())) == 0


def test_status_symbols_from_0x303c():
    mem = blank_mem()
    mem[0x303C] = 0x01 | 0x10 | 0x80
    assert LCD(mem).symbols() == {"SHIFT", "RUN", "SML"}
    mem[0x303C] = 0x02 | 0x20 | 0x40
    assert LCD(mem).symbols() == {"DEF", "PRO", "JAPAN"}


def test_display_disabled_blanks_pixels_symbols_and_text():
    mem = bytearray([0xFF]) * 0x10000
    screen = LCD(mem, {0x41: bytes([0x7F] * 5)})
    screen.enabled = False
    assert sum(map(sum, screen.pixels())) == 0
    assert screen.symbols() == set()
    assert screen.text() == [" " * 24] * 4


def _draw(mem, line, cell, glyph):
    x = facts.TEXT_X0 + facts.CELL_PITCH * cell
    for i, column in enumerate(glyph):
        mem[lcd.COLUMN_ADDR[line][x + i]] = column


def test_text_matches_cells_against_the_font_given():
    font = {0x20: bytes(5), 0x41: bytes([0x7C, 0x12, 0x11, 0x12, 0x7C]), 0x5C: bytes([1, 2, 3, 4, 5])}
    mem = blank_mem()
    _draw(mem, 0, 0, font[0x41])
    _draw(mem, 3, 23, font[0x5C])
    _draw(mem, 1, 2, bytes([0x40] * 5))  # an underline cursor: no glyph
    text = LCD(mem, font).text()
    assert text[0] == "A" + " " * 23
    assert text[1] == "  " + PLACEHOLDER + " " * 21
    assert text[3] == " " * 23 + "\u00a5"  # 0x5C is the yen sign (pc1360.charset)


@pytest.mark.rom
def test_firmware_font_is_packed_without_the_glyphless_codes(rom_dir):
    # Found by reading the table: after code 0x7F come 0xA0-0xDF, then 0xF0-0xFF; codes
    # 0x80-0x9F and 0xE0-0xEF have no glyph and take no room.
    font = firmware_font(load(rom_dir).banks[1])
    assert sorted(font) == list(range(0x20, 0x80)) + list(range(0xA0, 0xE0)) + list(range(0xF0, 0x100))
    assert font[0x20] == bytes(5)
    assert font[0x41] == bytes([0x7C, 0x12, 0x11, 0x12, 0x7C])  # 'A': bit 0 is the top row
    assert font[0xF9] == bytes([0x7F] * 5)  # the full block
    assert font[0xA1] == bytes([0x70, 0x50, 0x70, 0, 0])  # the katakana full stop
    # every printable glyph is distinct except the blanks (0x20, 0x7F, 0xA0, 0xFF) and
    # look-alikes, so reading text back is unambiguous for the characters one types
    ascii_glyphs = [font[c] for c in range(0x21, 0x7F)]
    assert len(set(ascii_glyphs)) == len(ascii_glyphs)

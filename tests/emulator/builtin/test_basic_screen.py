"""The built-in engine's font and text display over display RAM (emulator/builtin/screen.py)."""

from emulator.builtin import font
from emulator.builtin.screen import CELL_COLUMNS, Screen, close_text, split_row


def pixels(mem):
    """Decode display RAM the way docs/hardware.md §5.1 describes it (independent of screen.py)."""
    offsets = (0x00, 0x40, 0x1E, 0x5E)
    grid = [[0] * 150 for _ in range(32)]
    for x in range(150):
        block, i = divmod(x, 30)
        for line in range(4):
            byte = mem[0x2800 + 0x200 * block + offsets[line] + i]
            for bit in range(8):
                grid[8 * line + bit][x] = (byte >> bit) & 1
    return grid


def read_text(mem):
    """Recognise the characters from the dots: cell c at x = 6 + 6c (docs/hardware.md §5.2)."""
    grid = pixels(mem)
    by_shape = {}
    for code in range(0x20, 0x7F):
        by_shape.setdefault(font.GLYPHS[code], chr(code))
    lines = []
    for line in range(4):
        text = ""
        for c in range(24):
            cols = bytes(sum(grid[8 * line + b][6 + 6 * c + i] << b for b in range(8))
                         for i in range(5))
            text += by_shape.get(cols, "?")
        lines.append(text)
    return lines


def test_glyphs_are_distinct_and_fit_seven_rows():
    shapes = [font.GLYPHS[c] for c in range(0x21, 0x7F)]
    assert len(set(shapes)) == len(shapes)
    assert all(b < 0x80 for c in range(256) for b in font.GLYPHS[c])


def test_katakana_glyphs_are_distinct_from_every_other_glyph():
    # the faithfulness harness reads a cell's code from its dots (the first code of a
    # pattern wins), so every katakana needs a pattern of its own; 0xB0 (the long-vowel
    # bar) is drawn as '-' and 0xF0 as '0', as the firmware shows them
    kana = [c for c in range(0xA1, 0xE0) if c != 0xB0]
    others = [font.GLYPHS[c] for c in range(0x20, 0x100) if c not in kana]
    shapes = [font.GLYPHS[c] for c in kana]
    assert all(any(shape) for shape in shapes)
    assert len(set(shapes)) == len(shapes) and not set(shapes) & set(others)
    assert font.GLYPHS[0xB0] == font.GLYPHS[ord("-")] and font.GLYPHS[0xF0] == font.GLYPHS[ord("0")]
    assert not any(font.GLYPHS[0xA0] + font.GLYPHS[0xFD] + font.GLYPHS[0xFE] + font.GLYPHS[0xFF])


def test_two_byte_character_shows_two_wide_glyphs_and_keeps_its_bytes():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.write(0, 0, b"A\x81\x81\x81XY")
    cells = [bytes(mem[a] for a in CELL_COLUMNS[0][c]) for c in range(6)]
    wide = font.GLYPHS[font.WIDE_GLYPH]
    assert cells == [font.GLYPHS[0x41], wide, wide, wide, wide, font.GLYPHS[0x59]]
    assert mem[0xFD80:0xFD86] == b"A\x81\x81\x81XY"


def test_two_byte_character_never_straddles_rows():
    assert split_row(b"0123\x81GH", 5) == (b"0123 ", b"\x81GH")
    assert split_row(b"0\x81\x81\x81G", 4) == (b"0\x81\x81 ", b"\x81G")
    assert split_row(b"012\x81G", 5) == (b"012\x81G", b"")
    assert close_text(b"A\x81") == b"A " and close_text(b"A\x81\x81") == b"A\x81\x81"


def test_special_characters_have_glyphs():
    for code in (0x5C, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC):
        assert any(font.column_bytes(code))


def test_text_is_drawn_where_the_firmware_draws_it():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.clear()
    screen.show_line(0, b"RUN MODE")
    screen.show_line(1, b"2.", right=True)
    assert read_text(mem) == ["RUN MODE".ljust(24), "2.".rjust(24), " " * 24, " " * 24]
    assert screen.text()[1] == "2.".rjust(24)


def test_columns_0_to_5_and_cell_gaps_stay_dark():
    mem = bytearray(65536)
    screen = Screen(mem)
    for row in range(4):
        screen.show_line(row, bytes([0xF9]) * 24)     # full blocks everywhere
    grid = pixels(mem)
    for y in range(32):
        assert grid[y][:6] == [0] * 6
        assert all(grid[y][6 + 6 * c + 5] == 0 for c in range(24))
        assert grid[y][6] == (1 if y % 8 < 7 else 0)


def test_bit_0_is_the_top_dot():
    mem = bytearray(65536)
    Screen(mem).put(0, 0, ord("-"))
    assert mem[0x2806] == 0x08       # the bar of '-' is the 4th row from the top


def test_writes_are_mirrored_at_plus_0x100():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.show_line(3, b"MIRROR" * 4)
    for block in range(5):
        base = 0x2800 + 0x200 * block
        assert mem[base:base + 0x80] == mem[base + 0x100:base + 0x180]


def test_scroll_moves_lines_up_and_blanks_the_last():
    mem = bytearray(65536)
    screen = Screen(mem)
    for row, word in enumerate([b"ONE", b"TWO", b"THREE", b"FOUR"]):
        screen.show_line(row, word)
    screen.scroll()
    assert [line.strip() for line in read_text(mem)] == ["TWO", "THREE", "FOUR", ""]
    assert [line.strip() for line in screen.text()] == ["TWO", "THREE", "FOUR", ""]


def test_output_lines_scroll_only_when_the_next_line_begins():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.clear()
    for n in range(6):
        screen.begin_line()
        screen.show_line(screen.row, b"L%d" % n)
        screen.end_line()
    assert [line.strip() for line in screen.text()] == ["L2", "L3", "L4", "L5"]
    screen.next_line()
    assert [line.strip() for line in screen.text()] == ["L3", "L4", "L5", ""]


def test_dots_set_clear_invert_and_read():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.set_dot(0, 0)
    screen.set_dot(149, 31)
    screen.set_dot(75, 13)
    screen.set_dot(75, 13, 2)
    screen.set_dot(200, 5)                         # off screen: ignored
    grid = pixels(mem)
    assert grid[0][0] == 1 and grid[31][149] == 1 and grid[13][75] == 0
    assert screen.dot(0, 0) == 1 and screen.dot(75, 13) == 0 and screen.dot(-1, 0) == 0


def test_gprint_column_spans_two_lines():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.column(10, 4, 0xFF)
    grid = pixels(mem)
    assert [grid[y][10] for y in range(16)] == [0] * 4 + [1] * 8 + [0] * 4


def test_status_symbols_use_byte_0x303c():
    mem = bytearray(65536)
    screen = Screen(mem)
    screen.set_symbol("RUN", True)
    screen.set_symbol("SHIFT", True)
    assert mem[0x303C] == 0x11
    screen.set_symbol("RUN", False)
    screen.set_symbol("PRO", True)
    assert mem[0x303C] == 0x21
    assert screen.symbols() == {"PRO", "SHIFT"}

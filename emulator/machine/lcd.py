"""The LCD model: display RAM (0x2800-0x33FF) decoded into 150 x 32 pixels, the status
symbols of byte 0x303C, and a text readout of the 4 x 24 character cells (docs/hardware.md §5).

It reads only `mem`, so it cannot tell the firmware and the built-in engine apart. No pygame.
"""

from pc1360.charset import TO_TEXT
from pc1360.facts import (
    CELL_PITCH,
    GLYPH_WIDTH,
    LCD_BLOCK_BASES,
    LCD_BLOCK_COLUMNS,
    LCD_HEIGHT,
    LCD_LINE_OFFSETS,
    LCD_WIDTH,
    SYMBOL_BITS,
    SYMBOL_BYTE,
    TEXT_COLUMNS,
    TEXT_ROWS,
    TEXT_X0,
)

# A cell whose pattern matches no glyph (cursor, graphics), or a glyph with no Unicode
# character (0xF0, 0xFD, 0xFE: see pc1360.charset).
PLACEHOLDER = "\ufffd"
# The firmware font (bank 1 at 0x40EB, 5 bytes per glyph, one byte per dot column, bit 0 top)
# is packed: codes 0x00-0x7F, then 0xA0-0xDF, then 0xF0-0xFF. Codes 0x80-0x9F and
# 0xE0-0xEF have no glyph. Found by reading the table: 0xF0-0xFF (Ø 年 月 日 円 ♠ ...) sit at
# table index 0xC0-0xCF.
FONT_OFFSET = 0x00EB
FONT_RUNS = ((0x20, 0x80, 0x20), (0xA0, 0xE0, 0x80), (0xF0, 0x100, 0xC0))  # (first, end, index of first)


def _column_addresses():
    """addr[line][x]: the display byte holding pixel column x of text line `line`."""
    table = []
    for offset in LCD_LINE_OFFSETS:
        table.append([LCD_BLOCK_BASES[x // LCD_BLOCK_COLUMNS] + offset + x % LCD_BLOCK_COLUMNS
                      for x in range(LCD_WIDTH)])
    return table


COLUMN_ADDR = _column_addresses()


def firmware_font(bank1):
    """{code: 5 column bytes} for every character the ROM font draws (0x20-0xFF)."""
    font = {}
    for first, end, index in FONT_RUNS:
        for code in range(first, end):
            start = FONT_OFFSET + 5 * (index + code - first)
            font[code] = bytes(bank1[start:start + GLYPH_WIDTH])
    return font


class LCD:
    def __init__(self, mem, font=None):
        self.mem = mem
        self.enabled = True  # control port bit 0, and off while the machine is powered off
        self.set_font(font or {})

    def set_font(self, font):
        """Use `font` ({code: 5 column bytes}) to read text; the first code of a pattern wins."""
        self._glyphs = {}
        for code in sorted(font):
            self._glyphs.setdefault(bytes(font[code]), code)

    def pixels(self):
        """32 rows of 150 values 0/1; all 0 while the display is disabled."""
        if not self.enabled:
            return [[0] * LCD_WIDTH for _ in range(LCD_HEIGHT)]
        mem = self.mem
        rows = []
        for addresses in COLUMN_ADDR:
            strip = [mem[a] for a in addresses]
            for bit in range(8):
                rows.append([(v >> bit) & 1 for v in strip])
        return rows

    def symbols(self):
        """Names of the lit status symbols."""
        if not self.enabled:
            return set()
        value = self.mem[SYMBOL_BYTE]
        return {name for bit, name in SYMBOL_BITS.items() if value >> bit & 1}

    def cell_codes(self):
        """4 lists of 24 character codes (None where no glyph matches); blank if disabled."""
        if not self.enabled:
            return [[0x20] * TEXT_COLUMNS for _ in range(TEXT_ROWS)]
        mem = self.mem
        glyphs = self._glyphs
        lines = []
        for addresses in COLUMN_ADDR:
            codes = []
            for cell in range(TEXT_COLUMNS):
                x = TEXT_X0 + CELL_PITCH * cell
                pattern = bytes(mem[a] for a in addresses[x:x + GLYPH_WIDTH])
                codes.append(glyphs.get(pattern))
            lines.append(codes)
        return lines

    def text(self):
        """The screen as 4 strings of 24 characters."""
        return ["".join(TO_TEXT.get(code, PLACEHOLDER) for code in line) for line in self.cell_codes()]

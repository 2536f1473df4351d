"""PC-1360 character codes <-> Unicode (docs/stored_format.md §5).

Codes 0x20-0x7E are ASCII except 0x5C, which the machine shows as the yen sign, and 0x7E,
an overline (the JIS X 0201 Roman set). 0xA1-0xDF are half-width katakana; 0xF1-0xFC the
special symbols. Codes with no glyph of their own (controls, 0x7F-0xA0, 0xE0-0xF0,
0xFD-0xFF) have no Unicode character: text shows them as escapes (see listing.py).
"""

_SPECIAL = {
    0x5C: "¥", 0x7E: "‾",
    0xF1: "年", 0xF2: "月", 0xF3: "日", 0xF4: "円",
    0xF5: "♠", 0xF6: "♥", 0xF7: "♦", 0xF8: "♣", 0xF9: "■", 0xFA: "□",
    0xFB: "π", 0xFC: "√",
}


def _build():
    to_text = {code: chr(code) for code in range(0x20, 0x7F)}
    to_text.update({code: chr(0xFF61 + code - 0xA1) for code in range(0xA1, 0xE0)})
    to_text.update(_SPECIAL)
    return to_text


TO_TEXT = _build()  # code -> character, for the codes that have a glyph
FROM_TEXT = {char: code for code, char in TO_TEXT.items()}
FROM_TEXT["~"] = 0x7E  # the ASCII tilde is how plain text writes the overline
# An ASCII listing shows only these directly; 0x5C is an escape there because the
# backslash itself starts every escape (\xHH, see listing.py).
TO_ASCII = {code: chr(code) for code in range(0x20, 0x7F) if code != 0x5C}

ESCAPE = "\\"  # starts \xHH in text, which stands for the byte HH


def code_of(char):
    """The machine code of a character, or None when the PC-1360 has none."""
    return FROM_TEXT.get(char)

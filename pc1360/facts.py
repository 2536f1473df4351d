"""The PC-1360's machine facts, stated once: every layer imports them from here.

How each was established is in docs/hardware.md and docs/stored_format.md (the section
named beside each group). Addresses are the CPU's 16-bit addresses.
"""

# ---- clock (docs/hardware.md, "Clock"): 768 kHz crystal, one CPU cycle every 3 ticks
CYCLES_PER_SECOND = 256_000

# ---- display RAM (docs/hardware.md, "LCD"): five blocks of 30 dot columns, each block
# mirrored at +0x100; one byte holds the status symbols
LCD_BASE = 0x2800
LCD_LAST = 0x33FF
LCD_BLOCK_STEP = 0x200
LCD_MIRROR = 0x100
LCD_BLOCK_BASES = tuple(LCD_BASE + LCD_BLOCK_STEP * b for b in range(5))
SYMBOL_BYTE = 0x303C
SYSTEM_RAM = (0x2800, 0x4000)          # display and system RAM, kept with the card

# ---- keyboard (docs/hardware.md, "Keyboard"): a K-row number written here selects the row
KEY_STROBE_ADDR = 0x3E00
KEYWAIT_STROBE = 0x3F                  # what the firmware's key-wait loop writes there

# ---- RAM layout (docs/stored_format.md, "Pointers"): little-endian words
START_PTR = 0xFFD7                     # the program's leading 0xFF
END_PTR = 0xFFD9                       # its trailing 0xFF
MERGE_PTR = 0xFFDB                     # where the last MERGEd block starts
DIM_PTR = 0xFFDD                       # the lowest variable header (DIM area grows down)
CARD_BOUNDS_PTR = 0xFFF6               # card start, then card end
DIM_EMPTY = 0xF9D0                     # DIM pointer with no variable; also fixed variable Z
DIM_TOP = 0xF9CF                       # last byte of the DIM area
PROGRAM_OFFSET = 0x30                  # the leading 0xFF sits at card start + 0x30
CARD_COPIES_OFFSET = 0x07              # card start + 7: copies of start, end, merge
SYSTEM_END_COPY = 0x283E               # the ROM's copy of the end pointer (+0x100 mirror)
TEXT_BUFFER = 0xFD80                   # the line being typed / shown
CARD_SIZES = {8: 0x2000, 16: 0x4000, 32: 0x8000}   # KB -> bytes

# ---- stored program (docs/stored_format.md, "Lines")
END_MARK = 0xFF
CR = 0x0D
QUOTE = 0x22
LINE_REF = 0x1F                        # 0x1F hi lo: a line number after GOTO/GOSUB
PREFIX = 0xFE                          # 0xFE code: a keyword
MAX_LINE = 65279

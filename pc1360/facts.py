"""The PC-1360's machine facts, stated once: every layer imports them from here.

Addresses are the CPU's 16-bit addresses; words in RAM are little-endian. Each group
says how its facts were found: mostly by running the real firmware in the emulator
(the tests named beside a group show it), or by reading the ROM.
"""

# ---- clock: a 768 kHz crystal, one CPU cycle every 3 ticks
CYCLES_PER_SECOND = 256_000

# ---- memory map (emulator/machine/memmap.py keeps the whole table)
CPU_ROM_SIZE = 0x2000                  # the internal ROM, from 0x0000
BANK_REGISTER = 0x3400                 # bank = value & 7 (0x3400-0x35FF)
BANK_WINDOW = 0x4000                   # ROM bank 0-7 shows at 0x4000-0x7FFF
BANK_SIZE = 0x4000
BANK_COUNT = 8
CARD_WINDOW = 0x8000                   # the RAM card slot, to 0xFFFF

# ---- display RAM (tests/emulator/machine/test_lcd.py): five blocks of 30 dot columns, each a
# byte of 8 dots with bit 0 at the top; each block's second half mirrors its first
LCD_BASE = 0x2800
LCD_LAST = 0x33FF                      # end of the region the mirroring applies to
LCD_BLOCK_STEP = 0x200
LCD_MIRROR = 0x100                     # address ^ LCD_MIRROR is the same byte
LCD_BLOCK_COLUMNS = 30
LCD_BLOCK_BASES = tuple(LCD_BASE + LCD_BLOCK_STEP * b for b in range(5))
LCD_LINE_OFFSETS = (0x00, 0x40, 0x1E, 0x5E)   # text line -> its offset inside a block
LCD_WIDTH = LCD_BLOCK_COLUMNS * len(LCD_BLOCK_BASES)  # 150 dots
LCD_HEIGHT = 8 * len(LCD_LINE_OFFSETS)                # 32 dots
TEXT_ROWS, TEXT_COLUMNS = 4, 24
TEXT_X0 = 6                            # text cell c covers dots TEXT_X0 + CELL_PITCH * c ...
CELL_PITCH = 6                         # ... for GLYPH_WIDTH columns; the rest is graphics
GLYPH_WIDTH = 5
SYMBOL_BYTE = 0x303C                   # the status symbols, one bit each
# Bits 2 (PockEmul calls it PRINT) and 3 were not seen used by the ROM.
SYMBOL_BITS = {0: "SHIFT", 1: "DEF", 2: "PRINT", 3: "BIT3", 4: "RUN", 5: "PRO", 6: "JAPAN",
               7: "SML"}
SYSTEM_RAM = (LCD_BASE, BANK_WINDOW)   # display and system RAM, kept while the machine is off

# ---- keyboard (tests/emulator/machine/test_keyboard.py, test_machine_bus.py): a K-row
# number written to the strobe selects that row
KEY_STROBE_ADDR = 0x3E00               # the strobe answers in 0x3E00-0x3FFF
KEYWAIT_STROBE = 0x3F                  # what the firmware's key-wait loop writes there

# ---- RAM layout (tests/pc1360/test_ramcard.py: values after a cold boot, each card size)
START_PTR = 0xFFD7                     # the program's leading 0xFF
END_PTR = 0xFFD9                       # its trailing 0xFF
MERGE_PTR = 0xFFDB                     # where the last MERGEd block starts
DIM_PTR = 0xFFDD                       # the newest variable header (the DIM area grows down)
CARD_BOUNDS_PTR = 0xFFF6               # card start, then card end
FIXED_Z = 0xF9D0                       # fixed variables Z ... A, 8 bytes each, upwards
DIM_EMPTY = FIXED_Z                    # the DIM pointer with no variable, whatever the card
DIM_TOP = FIXED_Z - 1                  # last byte of the DIM area
PROGRAM_OFFSET = 0x30                  # the leading 0xFF sits at card start + 0x30
CARD_COPIES_OFFSET = 0x07              # card start + 7: copies of start, end, merge pointer
SYSTEM_END_COPY = 0x283E               # the ROM's copy of the end pointer (and its mirror)
RANDOM_SEED = 0xFDE0                   # RND's seed, 8 bytes (docs/stored_format.md §2.3)
TEXT_BUFFER = 0xFD80                   # the 4 x 24 characters on the display
# The ROM's pointer into the program line being run: after each program statement the
# address of the statement's last byte (the one before its ':' or CR; a false IF: the byte
# before the line's CR). Jumps (GOTO, GOSUB, RETURN, ON, NEXT, THEN n) store the end of their
# own text, END and a true IF store nothing, immediate lines leave it alone (firmware engine).
LINE_POINTER = 0xFEF2
CARD_SIZES = {8: 0x2000, 16: 0x4000, 32: 0x8000}   # KB -> bytes

# ---- the ROM's BASIC interpreter (docs/hardware.md §3; tests/emulator/debug/test_firmware_debug.py):
# each statement, and the one after an IF's condition, passes this place in ROM bank 0 with
# the CPU's X register holding the address of the statement's first byte
STATEMENT_DISPATCH = (0, 0x5D68)       # (bank, address)

# ---- stored program: a line is number (high byte first), LEN, body, CR
END_MARK = 0xFF                        # before and after the lines; begins a MERGEd block
CR = 0x0D
QUOTE = 0x22                           # a string runs to the next one or the line end
LINE_REF = 0x1F                        # 0x1F hi lo: a line number after GOTO/GOSUB
PREFIX = 0xFE                          # 0xFE code: a keyword
MAX_LINE = 0xFEFF                      # 65279: a line number's high byte is never 0xFF

# ---- the 15-pin SIO (tests/emulator/connectors/test_sio_pins.py, test_sio_firmware.py).
# SD and RD carry the line inverted: the bit is 1 for a space (the start bit), 0 for a mark.
FO_SD = 0x02                           # OUTF bit 1: SD, transmit data
SIO_LATCH = 0x3800                     # latch in 0x3800-0x39FF: ER, RR, RS; bit 0 is the
                                       # 11-pin connector's BUSY
LATCH_ER = 0x02                        # ER, terminal ready (the port is OPEN)
LATCH_RR = 0x04                        # RR, ready to receive
LATCH_RS = 0x08                        # RS, request to send
SIO_LATCH_SHADOW = 0x2CBE              # the firmware's copy of ER/RR/RS, nibbles swapped
IB_RD = 0x20                           # INB bit 5: RD, receive data
IB_CS = 0x40                           # INB bit 6: CS, clear to send
IB_CD = 0x80                           # INB bit 7: CD, carrier detect
# The UART frame: a start bit, the data bits least significant first, an optional
# parity bit, the stop bits (emulator/connectors/serial_line.py builds it).
DATA_BITS = (7, 8)
PARITIES = ("N", "E", "O")             # none, even, odd
STOP_BITS = (1, 2)
SIO_BAUDS = (300, 600, 1200)           # what OPEN accepts
SIO_EOL = {"C": b"\r", "F": b"\n", "L": b"\r\n"}   # OPEN's end-of-line letter -> bytes
SIO_EOF = 0x1A                         # the end-of-file code OPEN starts with
# The firmware's bit delay, in cycles (nominally CYCLES_PER_SECOND / baud).
SIO_BIT_CYCLES = {300: 854, 600: 426, 1200: 212}

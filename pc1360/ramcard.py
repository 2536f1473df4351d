"""A program on a RAM card, and the writes that put one into a running machine.

The card sits at 0x10000 - size (0x8000 for 32 KB, 0xC000 for 16 KB, 0xE000 for 8 KB);
smaller cards mirror through 0x8000-0xFFFF, so an address A is the card byte
A & (size - 1). The program is 0xFF, the lines, 0xFF at card start + 0x30. Pointers
(little-endian) that the firmware keeps (docs/stored_format.md §2.2):

    0xFFD7 start (the leading 0xFF)    0xFFD9 end (the trailing 0xFF)
    0xFFDB start of the last MERGE block (the start, for a single program)
    0xFFDD the DIM variables, which grow down from 0xF9CF: 0xF9D0 (the fixed variables)
           while there are none
    0xFFF6 card start, 0xFFF8 card end (0xFFFF)
    card start + 7 / + 9 / + 0x0B: copies of start, end and merge
    0x283E: another copy of the end pointer, in system RAM (0x293E mirrors it)

The values after a cold boot were read from the real firmware running in the emulator,
for each card size: the DIM pointer is 0xF9D0 whatever the card (not lower for smaller
cards, as some notes have it).
"""

from construct import Int16ul, Struct

from pc1360.errors import FormatError
from pc1360.facts import (
    CARD_BOUNDS_PTR,
    CARD_COPIES_OFFSET,
    CARD_SIZES,
    DIM_EMPTY,
    DIM_PTR,
    END_MARK,
    PROGRAM_OFFSET,
    START_PTR,
    SYSTEM_END_COPY,
)
from pc1360.image import END_BYTE, lines_only, split_image

POINTERS = Struct("start" / Int16ul, "end" / Int16ul, "merge" / Int16ul, "variables" / Int16ul)
COPIES = Struct("start" / Int16ul, "end" / Int16ul, "merge" / Int16ul)
BOUNDS = Struct("start" / Int16ul, "end" / Int16ul)


def card_start(card_kb):
    return 0x10000 - _size(card_kb)


def _size(card_kb):
    try:
        return CARD_SIZES[card_kb]
    except KeyError:
        raise FormatError(f"no {card_kb} KB RAM card: sizes are 8, 16 and 32 KB") from None


def program_writes(image, card_kb=32):
    """[(address, bytes)] that place `image` (.img layout, trailing 0xFF ignored) as the
    card's program: the program block and the start, end and merge pointers with their
    copies. The DIM pointer is left as the running firmware has it."""
    block, start, end = _block(image, card_kb)
    pointers = COPIES.build({"start": start, "end": end, "merge": start})
    return [
        (start, block),
        (START_PTR, pointers),
        (card_start(card_kb) + CARD_COPIES_OFFSET, pointers),
        (SYSTEM_END_COPY, Int16ul.build(end)),
    ]


def build_card(image, card_kb=32):
    """The bytes of a card holding `image`, pointers set as after a cold boot; the rest
    of the card is zero."""
    base = card_start(card_kb)
    card = bytearray(_size(card_kb))
    writes = program_writes(image, card_kb) + [
        (DIM_PTR, Int16ul.build(DIM_EMPTY)),
        (CARD_BOUNDS_PTR, BOUNDS.build({"start": base, "end": 0xFFFF})),
    ]
    for address, data in writes:
        if address >= base:  # the system RAM copy is not on the card
            card[address - base:address - base + len(data)] = data
    return bytes(card)


def _block(image, card_kb):
    image = lines_only(image)
    start = card_start(card_kb) + PROGRAM_OFFSET
    end = start + 1 + len(image)
    if end >= DIM_EMPTY:
        raise FormatError(f"a program of {len(image)} bytes does not fit on a {card_kb} KB card "
                          f"({DIM_EMPTY - start - 2} bytes at most)")
    return END_BYTE + image + END_BYTE, start, end


def card_size_kb(data):
    """The card size for a card image of this length, or None."""
    return next((kb for kb, size in CARD_SIZES.items() if size == len(data)), None)


def read_card(data, problems=None):
    """The program image on a card. Bad pointers or a damaged program raise FormatError
    with the card offset; given a `problems` list (salvage), what is intact is returned
    and the damage is appended to it (the default program place is tried when the
    pointers are unusable)."""
    data = bytes(data)
    card_kb = card_size_kb(data)
    if card_kb is None:
        raise FormatError(f"{len(data)} bytes is not the size of an 8, 16 or 32 KB card")
    mask = len(data) - 1
    pointers = POINTERS.parse(data[START_PTR & mask:])
    start, end = pointers.start & mask, pointers.end & mask
    try:
        if data[start] != END_MARK or data[end] != END_MARK or end <= start:
            raise FormatError(f"the program pointers (start 0x{pointers.start:04X}, end "
                              f"0x{pointers.end:04X}) do not frame a program with 0xFF marks",
                              offset=START_PTR & mask)
    except FormatError as exc:
        if problems is None:
            raise
        problems.append(exc)
        return _lines_image(split_image(data, PROGRAM_OFFSET + 1, len(data), problems,
                                        blocks=False))
    return _lines_image(split_image(data, start + 1, end, problems))


def _lines_image(lines):
    return b"".join(line.to_bytes() for line in lines)

"""RAM-card image and the memory writes that put a program into a running machine (the
firmware runs them in tests/emulator/machine/test_ramcard_firmware.py)."""

import pytest

from pc1360.errors import FormatError
from pc1360.ramcard import build_card, card_start, program_writes, read_card
from pc1360.tokenizer import tokenize

IMAGE = tokenize("10 PRINT 1\n20 END\n")  # 13 bytes


def word(card, address, kb):
    offset = address & (kb * 1024 - 1)
    return card[offset] | card[offset + 1] << 8


@pytest.mark.parametrize("kb, base", [(8, 0xE000), (16, 0xC000), (32, 0x8000)])
def test_card_layout(kb, base):
    card = build_card(IMAGE, kb)
    assert len(card) == kb * 1024 and card_start(kb) == base
    assert card[0x30:0x30 + 15] == b"\xff" + IMAGE + b"\xff"
    start, end = base + 0x30, base + 0x30 + 14
    assert word(card, 0xFFD7, kb) == start  # the leading 0xFF
    assert word(card, 0xFFD9, kb) == end  # the trailing 0xFF
    assert word(card, 0xFFDB, kb) == start  # merge: a single block
    # as the firmware sets them after a cold boot, whatever the card size
    assert word(card, 0xFFDD, kb) == 0xF9D0
    assert (word(card, 0xFFF6, kb), word(card, 0xFFF8, kb)) == (base, 0xFFFF)
    assert (word(card, 0x8007, kb), word(card, 0x8009, kb), word(card, 0x800B, kb)) == \
        (start, end, start)
    assert read_card(card) == IMAGE


def test_empty_card_pointers_like_after_cold_boot():
    # docs/stored_format.md §2.1, §2.2: an empty program is FF FF, start 0x8030, end 0x8031
    writes = dict(program_writes(b"", 32))
    assert writes[0x8030] == b"\xff\xff"
    assert writes[0xFFD7][:4] == bytes([0x30, 0x80, 0x31, 0x80])


def test_writes_for_a_running_machine():
    writes = program_writes(IMAGE + b"\xff", 32)  # the .img end mark is ignored
    assert writes == [
        (0x8030, b"\xff" + IMAGE + b"\xff"),
        (0xFFD7, bytes([0x30, 0x80, 0x3E, 0x80, 0x30, 0x80])),
        (0x8007, bytes([0x30, 0x80, 0x3E, 0x80, 0x30, 0x80])),
        (0x283E, bytes([0x3E, 0x80])),
    ]


def test_too_big_and_bad_size():
    largest = 0xF9D0 - 0xE030 - 2  # 8 KB card: the end mark must stay below 0xF9D0
    assert program_writes(b"\x00" * largest, 8)[0][1][-1] == 0xFF
    with pytest.raises(FormatError, match="does not fit"):
        program_writes(b"\x00" * (largest + 1), 8)
    with pytest.raises(FormatError, match="no 4 KB"):
        build_card(IMAGE, 4)
    with pytest.raises(FormatError, match="not the size"):
        read_card(b"\x00" * 100)


def test_damaged_card():
    card = bytearray(build_card(IMAGE, 16))
    card[0x3FD7] = 0x00  # start pointer no longer at the 0xFF
    with pytest.raises(FormatError, match="pointers") as caught:
        read_card(card)
    assert caught.value.offset == 0x3FD7
    problems = []
    assert read_card(card, problems) == IMAGE and len(problems) == 1
    card = bytearray(build_card(IMAGE, 32))
    card[0x30 + 1 + 2] = 0x40  # LEN of line 10 runs past the end pointer
    with pytest.raises(FormatError, match="line 10"):
        read_card(card)


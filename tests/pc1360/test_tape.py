"""Tape record (.tap bytes): header, name block, 120-byte block checksums, end marks."""

import pytest

from pc1360.errors import FormatError
from pc1360.tape import BLOCK, add_to_checksum, checksum, decode_tap, encode_tap
from pc1360.tokenizer import tokenize

IMAGE = tokenize('10 PRINT "HI"\n')


def test_header_and_name_block_as_in_the_reference():
    # docs/stored_format.md §7.2: "HELLO" -> 72 00 00 F4 C4 C4 54 84 5F 5C
    assert encode_tap(IMAGE, "HELLO")[:10].hex(" ") == "72 00 00 f4 c4 c4 54 84 5f 5c"


def test_whole_small_record():
    record = encode_tap(IMAGE, "HI")
    assert record[10:-3] == IMAGE  # shorter than one block: no block checksum
    assert record[-3:-1] == b"\xff\xff"
    assert record[-1] == checksum(IMAGE + b"\xff")
    assert decode_tap(record) == ("HI", IMAGE)


def test_checksum_carries_the_high_nibble_overflow():
    assert add_to_checksum(0xF8, 0x9A) == (0xF8 + 0x9 + 1 + 0xA) & 0xFF  # 0x101 -> 0x02, + 0xA
    assert add_to_checksum(0x00, 0x12) == 0x03
    assert add_to_checksum(0xFF, 0x0F) == 0x0E  # low nibble carry is dropped


def program_of(length):
    """An image of exactly `length` bytes (at least 9): A$="XX..." lines of 9 + n bytes."""
    lines, remaining, number = [], length, 1
    while remaining:
        n = remaining - 9 if remaining <= 9 + 40 else 13
        lines.append(f'{number} A$="{"X" * n}"')
        remaining -= 9 + n
        number += 1
    image = tokenize("\n".join(lines))
    assert len(image) == length
    return image


@pytest.mark.parametrize("length", [119, 120, 121, 240, 241, 360])
def test_block_checksums(length):
    image = program_of(length)
    record = encode_tap(image)
    blocks = (length - 1) // BLOCK  # no checksum right before the end mark
    assert len(record) == 10 + length + blocks + 3
    for k in range(blocks):
        position = 10 + (k + 1) * BLOCK + k
        assert record[position] == checksum(image[k * BLOCK:(k + 1) * BLOCK])
    tail = image[blocks * BLOCK:]
    assert record[-1] == checksum(tail + b"\xff")
    assert decode_tap(record) == ("", image)


def test_trailing_noise_after_the_record_is_ignored():
    record = encode_tap(IMAGE, "A")
    assert decode_tap(record + b"\x13\x37")[1] == IMAGE


def test_trailing_end_mark_in_the_image_is_ignored():
    assert encode_tap(IMAGE + b"\xff") == encode_tap(IMAGE)


@pytest.mark.parametrize("name", ["TOOLONG8", "ä"])
def test_bad_names(name):
    with pytest.raises(FormatError, match="tape name"):
        encode_tap(IMAGE, name)


def test_name_with_special_characters():
    assert decode_tap(encode_tap(IMAGE, "π¥ｱ"))[0] == "π¥ｱ"


def test_empty_program_refused():
    with pytest.raises(FormatError, match="empty"):
        encode_tap(b"")


def test_cload_bug_image_refused():
    # a block whose 120th byte is 0xFF after a running sum of 0xE1 (docs/stored_format.md §7.2)
    prefix = b"\x0f" * 15 + b"\x00" * 104
    assert len(prefix) == 119 and checksum(prefix) == 0xE1
    with pytest.raises(FormatError, match="CLOAD") as caught:
        encode_tap(prefix + b"\xff" + b"\x00" * 5)
    assert caught.value.offset == 119


def test_damage():
    record = bytearray(encode_tap(program_of(241), "X"))
    with pytest.raises(FormatError, match="file type 0x70"):
        decode_tap(b"\x70" + bytes(record[1:]))
    bad = bytearray(record)
    bad[9] ^= 1
    with pytest.raises(FormatError, match="name checksum") as caught:
        decode_tap(bad)
    assert caught.value.offset == 9
    bad = bytearray(record)
    bad[10 + 120] ^= 1  # the first block checksum
    with pytest.raises(FormatError, match="checksum error") as caught:
        decode_tap(bad)
    assert caught.value.offset == 130
    bad = bytearray(record)
    bad[-1] ^= 1
    with pytest.raises(FormatError, match="final checksum"):
        decode_tap(bad)
    with pytest.raises(FormatError, match="cut off") as caught:
        decode_tap(record[:200])
    assert caught.value.offset == 200
    with pytest.raises(FormatError, match="header"):
        decode_tap(record[:5])


def test_salvage_returns_the_bytes_before_the_damage():
    image = program_of(241)
    record = encode_tap(image)
    problems = []
    name, partial = decode_tap(record[:200], problems)
    assert partial == image[:189] and len(problems) == 1

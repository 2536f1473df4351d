"""The cassette record of a PC-1360 BASIC program, as bytes (basic_format.md §1.8).

This is the byte stream CSAVE sends, also the PocketTools ".tap" file:

    0x72  name block (8)  name checksum  body ...  0xFF 0xFF  final checksum

- The name block is the name (up to 7 characters) backwards, padded with 0x00 in front,
  each byte with its nibbles swapped, then 0x5F. Its checksum covers those 8 bytes.
- The body is the program image (.img layout). After every 120 body bytes comes the
  checksum of those 120 bytes, except right before the end mark.
- The first 0xFF counts in the final checksum, the second one does not.

Checksum of a byte: add its high nibble, carrying a 9th bit back into bit 0, then add
its low nibble dropping any carry.

The real firmware's CLOAD (running in the emulator) loads records made here, checks the
block checksums and takes a last block of exactly 120 bytes without its checksum
(tests/pc1360/test_tape_firmware.py).
"""

from construct import Adapter, Bytes, Const, Int8ub, Struct

from . import charset, tapesound
from .errors import FormatError

FILE_TYPE = 0x72  # BASIC program, extended series (PC-1280/1360/1475)
BLOCK = 120
NAME_LENGTH = 7
_END = 0xFF
_KNOWN_TYPES = {0x70: "PC-1350/1401-style BASIC", 0x71: "password-protected PC-1350-style BASIC",
                0x73: "password-protected PC-1360 BASIC", 0x74: "data file",
                0x76: "machine-code (CSAVE M) file"}


def add_to_checksum(total, byte):
    total += byte >> 4
    if total > 0xFF:
        total = (total + 1) & 0xFF
    return (total + (byte & 0x0F)) & 0xFF


def checksum(data, total=0):
    for byte in data:
        total = add_to_checksum(total, byte)
    return total


def _swap(byte):
    return (byte << 4 | byte >> 4) & 0xFF


class _TapeName(Adapter):
    """Name <-> its 7 tape bytes: machine codes backwards, zero-padded in front, nibbles
    swapped (the name is sent low nibble first, everything else high nibble first)."""

    def _decode(self, obj, context, path):
        codes = bytes(_swap(b) for b in reversed(obj)).rstrip(b"\0")
        return "".join(charset.TO_TEXT.get(c, f"\\x{c:02X}") for c in codes)

    def _encode(self, obj, context, path):
        codes = bytes(_name_codes(obj))
        return bytes(_swap(b) for b in reversed(codes.ljust(NAME_LENGTH, b"\0")))


NAME_BLOCK = Struct("name" / _TapeName(Bytes(NAME_LENGTH)), Const(b"\x5f"))
HEADER = Struct("file_type" / Int8ub, "name_block" / Bytes(NAME_BLOCK.sizeof()),
                "name_checksum" / Int8ub)


def _name_codes(name):
    if len(name) > NAME_LENGTH:
        raise FormatError(f"tape name {name!r} is longer than {NAME_LENGTH} characters")
    for char in name:
        code = charset.code_of(char)
        if code is None:
            raise FormatError(f"tape name {name!r}: {char!r} has no PC-1360 code")
        yield code


def encode_tap(image, name=""):
    """The tape record of a program image (a trailing 0xFF end mark is ignored)."""
    image = bytes(image)
    if image.endswith(b"\xff"):
        image = image[:-1]
    if not image:
        raise FormatError("empty program: nothing to put on tape")
    name_block = NAME_BLOCK.build({"name": name})
    out = bytearray(HEADER.build({"file_type": FILE_TYPE, "name_block": name_block,
                                  "name_checksum": checksum(name_block)}))
    total = count = 0
    for index, byte in enumerate(image):
        if count == BLOCK - 1 and byte == _END and total == 0xE1:
            # The block checksum would then be 0xFF too, and CLOAD takes FF FF for the end.
            raise FormatError("CLOAD would misread this program: a tape block ends in 0xFF "
                              "with the checksum 0xFF (change a line number or some text)",
                              offset=index)
        total = add_to_checksum(total, byte)
        count += 1
        out.append(byte)
        if count == BLOCK and index != len(image) - 1:
            out.append(total)
            total = count = 0
    out += bytes((_END, _END, add_to_checksum(total, _END)))
    return bytes(out)


def decode_tap(data, problems=None):
    """(name, image) from a tape record. Damage raises FormatError with the byte offset;
    given a `problems` list (salvage), the bytes read before the damage are returned as
    the image and the error is appended to the list.

    The end is found by following the lines: 0xFF where a line would start is the end
    mark. So bytes after the final checksum (noise at the end of a recording) are ignored.
    """
    data = bytes(data)
    if len(data) < HEADER.sizeof():
        raise FormatError(f"tape record cut off in its header ({len(data)} bytes)",
                          offset=len(data))
    header = HEADER.parse(data)
    if header.file_type != FILE_TYPE:
        kind = _KNOWN_TYPES.get(header.file_type, "not a PC-1360 BASIC program")
        raise FormatError(f"tape file type 0x{header.file_type:02X} ({kind}); a PC-1360 "
                          f"BASIC program is 0x{FILE_TYPE:02X}", offset=0)
    name = NAME_BLOCK.parse(header.name_block).name if header.name_block[-1] == 0x5F else ""
    image = bytearray()
    try:
        if header.name_block[-1] != 0x5F:
            raise FormatError("name block does not end in 0x5F", offset=8)
        if checksum(header.name_block) != header.name_checksum:
            raise FormatError(f"name checksum is 0x{header.name_checksum:02X}, the name block "
                              f"adds up to 0x{checksum(header.name_block):02X}", offset=9)
        _read_body(data, HEADER.sizeof(), image)
    except FormatError as exc:
        if problems is None:
            raise
        problems.append(exc)
    return name, bytes(image)


def _read_body(data, pos, image):
    total = count = 0
    line_start, next_line = 0, 0  # next_line is None until the line's LEN byte is read

    def take(what):
        nonlocal pos
        if pos >= len(data):
            raise FormatError(f"tape record cut off: {what} missing", offset=pos)
        pos += 1
        return data[pos - 1]

    while True:
        at_line_start = len(image) == next_line
        if count == BLOCK:
            # the writer leaves out the block checksum when the end mark follows
            if not (at_line_start and data[pos:pos + 2] == b"\xff\xff"):
                stored = take("block checksum")
                if stored != total:
                    raise FormatError(f"checksum error in the tape block ending at image byte "
                                      f"{len(image)}: stored 0x{stored:02X}, computed "
                                      f"0x{total:02X}", offset=pos - 1)
                total = count = 0
                continue
        byte = take("end mark (0xFF 0xFF)")
        total = add_to_checksum(total, byte)
        if at_line_start and byte == _END:
            if take("second end mark byte") != _END:
                raise FormatError("end mark 0xFF not followed by a second 0xFF", offset=pos - 1)
            stored = take("final checksum")
            if stored != total:
                raise FormatError(f"final checksum error: stored 0x{stored:02X}, computed "
                                  f"0x{total:02X}", offset=pos - 1)
            return
        image.append(byte)
        count += 1
        if at_line_start:
            line_start, next_line = len(image) - 1, None
        elif next_line is None and len(image) == line_start + 3:
            next_line = line_start + 3 + byte


def program_from_tape(data, kind="tap", problems=None):
    """The program image in a ".tap" record or a ".wav" recording of one (kind "tap" or
    "wav"); see decode_tap for `problems`. For a recording, offsets count bytes of the
    tape record decoded from it, and the messages say so."""
    if kind != "wav":
        return decode_tap(data, problems)[1]
    rate, samples = tapesound.wav_samples(data)
    record = tapesound.decode_samples(samples, rate)
    if not record:
        raise FormatError("no tape signal found in the recording", offset=0)
    found = [] if problems is not None else None
    try:
        return decode_tap(record, found)[1]
    except FormatError as exc:
        raise _in_recording(exc) from None
    finally:
        if found:
            problems.extend(_in_recording(exc) for exc in found)


def _in_recording(exc):
    return FormatError(f"{exc.message} (in the tape record decoded from the recording)",
                       offset=exc.offset)

"""The cassette record of a PC-1360 BASIC program, as bytes (docs/stored_format.md §7).

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
(tests/emulator/machine/test_tape_firmware.py).
"""

import io

from construct import Adapter, Bytes, Const, Int8ub, Struct

from pc1360 import charset, tapesound
from pc1360.errors import FormatError
from pc1360.facts import END_MARK
from pc1360.image import lines_only

FILE_TYPE = 0x72  # BASIC program, extended series (PC-1280/1360/1475)
PROTECTED_TYPE = 0x73  # the same with a password
BLOCK = 120
NAME_LENGTH = 7
_KNOWN_TYPES = {0x70: "PC-1350/1401-style BASIC", 0x71: "password-protected PC-1350-style BASIC",
                0x74: "data file",
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


def encode_tap(image, name="", password=None):
    """The tape record of a program image (a trailing 0xFF end mark is ignored). With a
    password (CSAVE "name","password") the type is 0x73 and a second block like the
    name's, holding the password, follows the name's checksum (read from the firmware's
    CSAVE)."""
    image = lines_only(image)
    if not image:
        raise FormatError("empty program: nothing to put on tape")
    name_block = NAME_BLOCK.build({"name": name})
    out = bytearray(HEADER.build({"file_type": FILE_TYPE if password is None else PROTECTED_TYPE,
                                  "name_block": name_block,
                                  "name_checksum": checksum(name_block)}))
    if password is not None:
        block = NAME_BLOCK.build({"name": password})
        out += block + bytes((checksum(block),))
    total = count = 0
    for index, byte in enumerate(image):
        if count == BLOCK - 1 and byte == END_MARK and total == 0xE1:
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
    out += bytes((END_MARK, END_MARK, add_to_checksum(total, END_MARK)))
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
    if header.file_type not in (FILE_TYPE, PROTECTED_TYPE):
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
        _read_body(data, header_size(data), image)
    except FormatError as exc:
        if problems is None:
            raise
        problems.append(exc)
    return name, bytes(image)


def header_size(data):
    """Bytes before a program record's body: 10, or 19 with a password block."""
    return HEADER.sizeof() + (NAME_BLOCK.sizeof() + 1) * (data[:1] == bytes((PROTECTED_TYPE,)))


def tap_password(data):
    """The password of a program record (None without one); FormatError if its block is
    damaged."""
    data = bytes(data)
    if data[:1] != bytes((PROTECTED_TYPE,)):
        return None
    start, end = HEADER.sizeof(), header_size(data)
    block = data[start:end - 1]
    if len(data) < end or block[-1:] != b"\x5f" or checksum(block) != data[end - 1]:
        raise FormatError("damaged password block", offset=start)
    return NAME_BLOCK.parse(block).name


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
        if at_line_start and byte == END_MARK:
            if take("second end mark byte") != END_MARK:
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
    "wav"; a recording may be given as bytes or as a seekable binary stream, which is read
    in blocks); see decode_tap for `problems`. For a recording, offsets count bytes of the
    tape record decoded from it, and the messages say so."""
    if kind != "wav":
        return decode_tap(data, problems)[1]
    record = tapesound.decode_wav(data if hasattr(data, "read") else io.BytesIO(data))
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


# -- data files (PRINT# / INPUT#) --------------------------------------------------------
#
# Read from the firmware's PRINT# through the emulated recorder. After the header (type
# 0x74, the name block and its checksum, as for a program) each variable is an item:
#
#     descriptor (5)  checksum  data ...
#
# The descriptor is the variable's DIM-area header from its length on (L = 3 + data
# length, high byte first; last and first dimension; element length) or FE 00 00 00 00
# for a fixed variable (A-Z, 8 bytes). The data follows with a checksum after every 8
# bytes and after the last. All these bytes are sent low nibble first (so the record
# holds them with their nibbles swapped); a fixed variable's 8 bytes go last byte first
# and are followed by 0xF0 after a pause. The checksums add up the bytes as sent.

DATA_TYPE = 0x74
FIXED_ITEM = bytes((0xFE, 0, 0, 0, 0))
ITEM_BLOCK = 8
FIXED_LENGTH = 8
FIXED_END = 0xF0


def data_header(name=""):
    """The 10 header bytes of a data file."""
    name_block = NAME_BLOCK.build({"name": name})
    return HEADER.build({"file_type": DATA_TYPE, "name_block": name_block,
                         "name_checksum": checksum(name_block)})


def encode_item(descriptor, data):
    """The record bytes of one variable: descriptor and data in memory order (a fixed
    variable's descriptor is FIXED_ITEM)."""
    descriptor, data = bytes(descriptor), bytes(data)
    fixed = descriptor == FIXED_ITEM
    if fixed:
        data = data[::-1]
    sent = bytes(_swap(b) for b in descriptor)
    out = bytearray(sent + bytes((checksum(sent),)))
    for start in range(0, len(data), ITEM_BLOCK):
        block = bytes(_swap(b) for b in data[start:start + ITEM_BLOCK])
        out += block + bytes((checksum(block),))
    if fixed:
        out.append(FIXED_END)
    return bytes(out)


def encode_data(items, name=""):
    """The tape record of a data file holding `items`, [(descriptor, data)]."""
    return data_header(name) + b"".join(encode_item(d, data) for d, data in items)


def item_length(descriptor):
    """Data bytes of an item with this descriptor (memory order)."""
    if bytes(descriptor) == FIXED_ITEM:
        return FIXED_LENGTH
    return max((descriptor[0] << 8 | descriptor[1]) - 3, 0)


def decode_header(data):
    """(file type, name) of a tape record's first 10 bytes; FormatError when they are no
    header (name block without 0x5F, or a wrong name checksum)."""
    data = bytes(data)
    if len(data) < HEADER.sizeof():
        raise FormatError(f"tape record cut off in its header ({len(data)} bytes)",
                          offset=len(data))
    header = HEADER.parse(data)
    if header.name_block[-1] != 0x5F:
        raise FormatError("name block does not end in 0x5F", offset=8)
    if checksum(header.name_block) != header.name_checksum:
        raise FormatError(f"name checksum is 0x{header.name_checksum:02X}, the name block "
                          f"adds up to 0x{checksum(header.name_block):02X}", offset=9)
    return header.file_type, NAME_BLOCK.parse(header.name_block).name


def decode_item(data, pos):
    """((descriptor, data) in memory order, position after it) of the item at `pos` of
    a data record; FormatError on a checksum error or a cut-off item."""
    def block(size):
        nonlocal pos
        sent = data[pos:pos + size + 1]
        if len(sent) < size + 1:
            raise FormatError("data file cut off in an item", offset=len(data))
        if checksum(sent[:size]) != sent[size]:
            raise FormatError(f"checksum error in a data file item: stored 0x{sent[size]:02X}"
                              f", computed 0x{checksum(sent[:size]):02X}", offset=pos + size)
        pos += size + 1
        return bytes(_swap(b) for b in sent[:size])

    descriptor = block(len(FIXED_ITEM))
    length = item_length(descriptor)
    body = bytearray()
    while len(body) < length:
        body += block(min(ITEM_BLOCK, length - len(body)))
    if descriptor == FIXED_ITEM:
        body.reverse()
        if pos < len(data) and data[pos] == FIXED_END:
            pos += 1
    return (descriptor, bytes(body)), pos


def decode_data(data):
    """(name, [(descriptor, data)]) of a data file's tape record."""
    data = bytes(data)
    file_type, name = decode_header(data)
    if file_type != DATA_TYPE:
        raise FormatError(f"tape file type 0x{file_type:02X}; a data file is "
                          f"0x{DATA_TYPE:02X}", offset=0)
    pos, items = HEADER.sizeof(), []
    while pos < len(data):
        item, pos = decode_item(data, pos)
        items.append(item)
    return name, items


# Stop bits after each byte's first and second nibble as the firmware sends a record
# (measured on its Xout): a program's header 1/5, body 1/2, 13 after the last byte; a
# data file's type byte 1/4, name block 1/5, name checksum 1/6, items 1/4, a pause of
# 101 before a fixed variable's 0xF0, 1008 (a new lead-in) between items, 14 at the end.
PROGRAM_STOPS = {"header": (1, 5), "body": (1, 2), "end": 13}
DATA_STOPS = {"type": (1, 4), "header": (1, 5), "name_checksum": (1, 6), "body": (1, 4),
              "pause": 101, "between": 1008, "end": 14}


def firmware_stops(record, later_leads=()):
    """[(stops after the high nibble, after the low one)] for each byte of a program or
    data record, as CSAVE / PRINT# send it. `later_leads` adds bits to the lead-in
    before the data file's second, third ... item (the firmware's lead lasts until it
    has found the next variable: a bit more for one deeper in its DIM area)."""
    record = bytes(record)
    size = HEADER.sizeof()
    if record[:1] != bytes((DATA_TYPE,)):
        size = header_size(record)
        stops = [PROGRAM_STOPS["header"]] * min(size, len(record))
        stops += [PROGRAM_STOPS["body"]] * (len(record) - len(stops))
        if stops:
            stops[-1] = (stops[-1][0], PROGRAM_STOPS["end"])
        return stops
    stops = [DATA_STOPS["type"]] + [DATA_STOPS["header"]] * (size - 2)
    stops.append(DATA_STOPS["name_checksum"])
    pos = size
    extra = iter(later_leads)
    while pos < len(record):
        (descriptor, _data), end = decode_item(record, pos)
        stops += [DATA_STOPS["body"]] * (end - pos)
        if descriptor == FIXED_ITEM and record[end - 1] == FIXED_END:
            stops[-2] = (stops[-2][0], DATA_STOPS["pause"])
        stops[-1] = (stops[-1][0], DATA_STOPS["between"] + next(extra, 0))
        pos = end
    stops[-1] = (stops[-1][0], DATA_STOPS["end"])
    return stops

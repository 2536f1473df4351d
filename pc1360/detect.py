"""Tell the program containers apart by their content, and get the image out of one.

Kinds: "wav" (a RIFF/WAVE recording of a tape), "tap" (tape record bytes), "ram" (a
RAM-card image), "img" (the line records).
"""

from construct import ConstructError

from pc1360 import ramcard, tape
from pc1360.errors import FormatError
from pc1360.image import split_image
from pc1360.image_format import IMG_FILE

_TAPE_TYPES = range(0x70, 0x77)


def detect_kind(data, hint=None):
    """The kind of `data`; `hint` is the kind its name says (a file suffix without the
    dot), which decides only for damaged data: a .ram file of a wrong size is reported
    as a card, not as broken program lines."""
    data = bytes(data)
    if not data:
        raise FormatError("empty file", offset=0)
    if is_wav(data):
        return "wav"
    if _looks_like_tap(data):
        return "tap"
    if ramcard.card_size_kb(data) and _card_pointers_ok(data):
        return "ram"
    if _parses_as_img(data):
        return "img"
    if ramcard.card_size_kb(data) or hint == "ram":
        return "ram"  # damaged: the card reader says why, and its salvage knows where to look
    if data.lstrip()[:1].isdigit() and b"\n" in data:
        raise FormatError("this looks like BASIC source text, not a stored program "
                          "(tokenize it first)", offset=0)
    return "img"  # damaged: the line reader says where


def is_wav(head):
    """Whether data starting with `head` (12 bytes are enough) is a RIFF/WAVE file."""
    return head[:4] == b"RIFF" and head[8:12] == b"WAVE"


def image_of(kind, data, problems=None):
    """The program image in `data` of the given kind (for "wav" also a seekable binary
    stream, see pc1360.tape.program_from_tape). FormatError on damage unless `problems`
    is given (salvage: intact lines are kept, the damage is appended to it)."""
    if kind == "ram":
        return ramcard.read_card(data, problems)
    if kind in ("tap", "wav"):
        data = tape.program_from_tape(data, kind, problems)
    lines = split_image(data, problems=problems)
    return b"".join(line.to_bytes() for line in lines)


def _looks_like_tap(data):
    return (len(data) >= tape.HEADER.sizeof() and data[0] in _TAPE_TYPES and data[8] == 0x5F
            and tape.checksum(data[1:9]) == data[9])


def _card_pointers_ok(data):
    try:
        ramcard.read_card(data)
    except FormatError:
        return False
    return True


def _parses_as_img(data):
    try:
        IMG_FILE.parse(data)
    except ConstructError:
        return False
    return True

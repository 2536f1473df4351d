"""Program files onto the machine: one loader for the command line and the window.

.bas (source text, tokenized by pc1360.tokenizer), .img (PocketTools program lines) and
.tap/.wav (tape images, decoded by pc1360.tape) are put on the card as CLOAD would; .ram is
a whole card image. Format errors are pc1360.errors.FormatError, a ValueError.
"""

from pathlib import Path

from pc1360.detect import detect_kind, image_of
from pc1360.errors import FormatError
from pc1360.facts import END_PTR, SYSTEM_END_COPY
from pc1360.image import merge_images
from pc1360.ramcard import read_card
from pc1360.tokenizer import tokenize

SUFFIXES = (".bas", ".img", ".ram", ".tap", ".wav")
# What the firmware's CLEAR leaves at 0xFFD0 (card end - 0x30). Without the work areas the
# ROM keeps on the card (0xFB00..., 0xFF00-0xFFFF) it refuses the card (its "*" screen), so
# a card image that lacks them (pc1360.ramcard.build_card) is loaded for its program only.
FIRMWARE_CARD_MARK = bytes((0x20, 0x21, 0x22, 0x23, 0x24, 0x25))


def read_program(path):
    """("image", program lines) or ("card", card bytes) for `path`. ValueError (with the
    reason) for a file that is not a program; OSError when it cannot be read. A stored
    program is checked as `pc1360 list` checks it (its kind told by its content), so
    what list refuses is never put on the card."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"no reader for {suffix or 'files without a suffix'} (known: {' '.join(SUFFIXES)})")
    blob = path.read_bytes()
    if suffix == ".bas":
        return "image", tokenize(blob)  # FormatError is a ValueError naming line and column
    kind = detect_kind(blob, hint=suffix.lstrip("."))
    image = image_of(kind, blob)  # FormatError names the damage
    if kind == "ram":
        return "card", blob  # a card may hold no program: it is loaded for its memory
    if not image:
        raise FormatError("no program lines in the file", offset=0)
    return "image", image


def load_file(machine, path):
    """Put `path` on `machine`'s card; returns a short description of what was loaded."""
    kind, data = read_program(path)
    name = Path(path).name
    if kind == "card" and data[-0x30:-0x30 + len(FIRMWARE_CARD_MARK)] != FIRMWARE_CARD_MARK:
        machine.load_program(read_card(data))
        return f"the program of card image {name} (the card lacks the firmware's work areas)"
    if kind == "card":
        machine.bus.set_card_data(0, data)
        # The ROM keeps a copy of the end pointer outside the card; make it agree.
        machine.poke_word(SYSTEM_END_COPY, machine.peek_word(END_PTR))
        return f"card image {name}"
    machine.load_program(data)
    return f"program {name}"


def load_together(machine, programs):
    """Put several programs on `machine`'s card at once, each line where its number puts
    it: `programs` are (file name, read_program's kind and data), a card image giving its
    program. ValueError when two share a line number (pc1360.image.merge_images)."""
    named = [(name, read_card(data) if kind == "card" else data) for name, kind, data in programs]
    machine.load_program(merge_images(named))
    return "programs " + ", ".join(name for name, _image in named)

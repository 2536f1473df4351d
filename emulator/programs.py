"""Program files onto the machine: one loader for the command line and the window.

.bas (source text, tokenized by pc1360.tokenizer), .img (PocketTools program lines) and
.tap/.wav (tape images, decoded by pc1360.tape) are put on the card as CLOAD would; .ram is
a whole card image. Format errors are pc1360.errors.FormatError, a ValueError.
"""

from pathlib import Path

from pc1360.tape import program_from_tape
from pc1360.tokenizer import tokenize

SUFFIXES = (".bas", ".img", ".ram", ".tap", ".wav")
# End-of-program pointer and the copy the ROM keeps outside the card (hardware.md §4).
END_PTR = 0xFFD9
SYSTEM_END_PTR_COPY = 0x283E


def read_program(path):
    """("image", program lines) or ("card", card bytes) for `path`. ValueError (with the
    reason) for a file that is not a program; OSError when it cannot be read."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"no reader for {suffix or 'files without a suffix'} (known: {' '.join(SUFFIXES)})")
    blob = path.read_bytes()
    if suffix == ".ram":
        return "card", blob
    if suffix == ".img":
        return "image", blob
    if suffix == ".bas":
        return "image", tokenize(blob)  # FormatError is a ValueError naming line and column
    return "image", program_from_tape(blob, kind=suffix.lstrip("."))


def load_file(machine, path):
    """Put `path` on `machine`'s card; returns a short description of what was loaded."""
    kind, data = read_program(path)
    if kind == "card":
        machine.bus.set_card_data(0, data)
        # The ROM keeps a copy of the end pointer outside the card; make it agree.
        machine.poke_word(SYSTEM_END_PTR_COPY, machine.peek_word(END_PTR))
        return f"card image {Path(path).name}"
    machine.load_program(data)
    return f"program {Path(path).name}"

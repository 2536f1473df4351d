"""Putting a dropped file on the machine's RAM card, by its suffix."""

from pathlib import Path

SUFFIXES = (".img", ".ram")


def load_file(machine, path):
    """Load `path` into `machine`; returns a short description. Raises ValueError for a
    file it cannot load and OSError when it cannot be read.

    .img: tokenized program lines (PocketTools), put on the card as CLOAD would;
    .ram: a whole card image.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"no reader for {suffix or 'files without a suffix'} (known: {' '.join(SUFFIXES)})")
    blob = path.read_bytes()
    if suffix == ".ram":
        machine.bus.set_card_data(0, blob)
        return f"card image {path.name}"
    machine.load_program(blob)
    return f"program {path.name}"

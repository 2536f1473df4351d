"""RAM card persistence: the card's bytes in a small file that survives between runs.

File layout: an 18-byte header (magic, format version, card size in KB, flags, reserved),
the card's raw bytes, and, when flag bit 0 is set, the machine's power-off state (CPU,
system RAM, latches; see PC1360.power_state). The state is kept because the firmware asks
"RAM CARD S1 CLEAR O.K. ?" after every reset, whatever the card holds; a real PC-1360 is
never reset between sessions: OFF stops the CPU and ON lets it go on. Saved atomically; a file
that cannot be read is renamed aside (`NAME.corrupt-TIMESTAMP`) and reported, never lost.
"""

import struct
import time
from pathlib import Path

import platformdirs

from emulator.machine.atomic_write import write_atomic

MAGIC = b"PC1360RAMCARD\x1a"
VERSION = 1
HEADER = struct.Struct("<14sBBBx")  # magic, version, size in KB, flags
FLAG_STATE = 0x01
SAVE_INTERVAL = 30.0  # seconds of wall time between timer saves


class CardFileError(Exception):
    """A card file that does not fit the request (for example another card size)."""


def default_path(card_kb, slot=1, engine="firmware"):
    # One file per engine: a card the built-in engine wrote lacks the firmware's work
    # areas, and the firmware would answer it with the CLEAR question.
    suffix = "" if engine == "firmware" else f"-{engine}"
    return Path(platformdirs.user_data_dir("pc1360")) / f"card-s{slot}-{card_kb}k{suffix}.bin"


def encode(card, state=None):
    flags = FLAG_STATE if state else 0
    return HEADER.pack(MAGIC, VERSION, len(card) // 1024, flags) + bytes(card) + (state or b"")


def decode(blob):
    """(card bytes, state bytes or None, problem): problem is None or why `blob` is not a
    card file. The state is the rest of the file; the machine checks it."""
    if len(blob) < HEADER.size:
        return None, None, f"too short ({len(blob)} bytes)"
    magic, version, size_kb, flags = HEADER.unpack_from(blob)
    if magic != MAGIC:
        return None, None, "not a PC-1360 card file (bad magic)"
    if version != VERSION:
        return None, None, f"unknown format version {version}"
    size = size_kb * 1024
    expected = HEADER.size + size
    if size_kb not in (8, 16, 32) or len(blob) < expected or (len(blob) > expected) != bool(flags & FLAG_STATE):
        return None, None, f"{len(blob)} bytes do not match the header ({size_kb} KB card, flags {flags:#x})"
    card = bytes(blob[HEADER.size:HEADER.size + size])
    state = bytes(blob[HEADER.size + size:]) if flags & FLAG_STATE else None
    return card, state, None


class CardStore:
    """One card file: load at start, save on exit and every SAVE_INTERVAL when changed."""

    def __init__(self, path, card_kb):
        self.path = Path(path)
        self.card_kb = card_kb
        self._saved = None
        self._last_save = time.monotonic()
        self.messages = []  # what the user should be told (a corrupt file set aside)
        # Set by the machine the store is attached to: a card saved without its machine
        # state would bring back the CLEAR question, whose natural answer wipes the card.
        self.state_source = None

    def load(self):
        """(card bytes, machine state): (None, None) for a fresh card (no file, or a corrupt
        one); the state is None when the file has none."""
        if not self.path.exists():
            return None, None
        blob = self.path.read_bytes()
        data, state, problem = decode(blob)
        if problem:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%dT%H%M%S')}")
            self.path.replace(aside)
            self.messages.append(f"card file {self.path} unreadable: {problem}; moved to {aside}, starting with a blank card")
            return None, None
        if len(data) != self.card_kb * 1024:
            raise CardFileError(f"card file {self.path} holds a {len(data) // 1024} KB card, not {self.card_kb} KB")
        self._saved = encode(data, state)
        return data, state

    def save(self, card, state=None):
        if state is None and self.state_source:
            state = self.state_source()
        blob = encode(card, state)
        if blob != self._saved:
            write_atomic(self.path, blob)
            self._saved = blob
        self._last_save = time.monotonic()

    def due(self):
        """Whether the timer save is due (every SAVE_INTERVAL seconds of wall time)."""
        return time.monotonic() - self._last_save >= SAVE_INTERVAL

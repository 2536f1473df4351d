"""RAM card persistence: the card's bytes in a small file that survives between runs.

File layout: an 18-byte header (magic, format version, card size in KB, flags, reserved),
the card's raw bytes, and, when flag bit 0 is set, the machine's power-off state (CPU,
system RAM, latches; see PC1360.power_state). The state is kept because the firmware asks
"RAM CARD S1 CLEAR O.K. ?" after every reset, whatever the card holds; a real PC-1360 is
never reset between sessions: OFF stops the CPU and ON lets it go on. Saved atomically; a file
that cannot be read is renamed aside (`NAME.corrupt-TIMESTAMP`) and reported, never lost.
"""

import errno
import os
import stat
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
# The longest file read: a 32 KB card and a saved state of a few KB, with room to spare; a
# longer file is damaged and is set aside unread past this point.
MAX_FILE = HEADER.size + 32 * 1024 + 1024 * 1024


class CardFileError(Exception):
    """A card file that does not fit the request (another card size, or a path that is not
    a regular file): the file is left as it is."""


class CardNotSaved(OSError):
    """The card was not saved: its file could not be set aside, so it is kept as found."""


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


def read_regular(path, limit=MAX_FILE):
    """The first `limit` + 1 bytes of the regular file `path` (a link is followed); None if
    there is none. CardFileError for a directory, device or FIFO: opened without blocking
    and never read, since a FIFO would wait for a writer and a device may never end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CardFileError(f"card file {path}: cannot read it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CardFileError(f"card file {path} is not a regular file (a directory, device or "
                            "FIFO); give a file for --card-file")
    with os.fdopen(fd, "rb") as file:
        try:
            return file.read(limit + 1)
        except OSError as exc:
            raise CardFileError(f"card file {path}: cannot read it ({exc.strerror or exc})") from None


class CardStore:
    """One card file: load at start, save on exit and every SAVE_INTERVAL when changed."""

    def __init__(self, path, card_kb):
        self.path = Path(path)
        self.card_kb = card_kb
        self._saved = None
        self._last_save = time.monotonic()
        self.messages = []  # what the user should be told (a corrupt file set aside)
        # Why saving is off: a damaged file that could not be set aside must not be
        # overwritten by the blank card started in its place.
        self.not_saving = None
        # Set by the machine the store is attached to: a card saved without its machine
        # state would bring back the CLEAR question, whose natural answer wipes the card.
        self.state_source = None

    def load(self):
        """(card bytes, machine state): (None, None) for a fresh card (no file, or a corrupt
        one, set aside); the state is None when the file has none."""
        blob = read_regular(self.path)
        if blob is None:
            return None, None
        data, state, problem = decode(blob) if len(blob) <= MAX_FILE else (None, None, "too long")
        if problem:
            self.set_aside(f"unreadable: {problem}", "starting with a blank card")
            return None, None
        if len(data) != self.card_kb * 1024:
            raise CardFileError(f"card file {self.path} holds a {len(data) // 1024} KB card, not {self.card_kb} KB")
        self._saved = encode(data, state)
        return data, state

    def resume(self, machine, state):
        """Put `machine` back in its saved power-off state; a state it cannot take is
        reported and its file set aside, and the machine starts from reset with the card's
        RAM as it is (saved again at the next save)."""
        try:
            machine.resume(state)
        except Exception as exc:  # noqa: BLE001 - each engine decodes its own part, and damage may surface as any error
            machine.reset()
            self._saved = None  # the file is gone: the next save must write whatever it holds
            self.set_aside(f"machine state not used ({type(exc).__name__}: {exc})",
                           "the card's RAM is kept; the machine starts from reset")

    def set_aside(self, problem, outcome):
        """Move the file to a name of its own (NAME.corrupt-TIME, then -2, -3 ... : the
        name is claimed with an exclusive create, so two set aside in one second, by this
        process or another, never overwrite each other) and say so."""
        try:
            aside = self._claim_aside_name()
            try:
                os.replace(self.path, aside)
            except OSError:
                os.unlink(aside)
                raise
        except OSError as exc:
            self.not_saving = (f"the damaged file could not be set aside ({exc.strerror or exc}), "
                               "so it is kept as it is and this session's card is not saved")
            self.messages.append(f"card file {self.path} {problem}; {self.not_saving}")
            return
        self.messages.append(f"card file {self.path} {problem}; moved to {aside}, {outcome}")

    def _claim_aside_name(self):
        base = f"{self.path.name}.corrupt-{time.strftime('%Y%m%dT%H%M%S')}"
        number = 1
        while True:
            aside = self.path.with_name(base if number == 1 else f"{base}-{number}")
            try:
                os.close(os.open(aside, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                return aside
            except FileExistsError:
                number += 1

    def save(self, card, state=None):
        """Write the card (and state) if it changed; CardNotSaved when saving is off, or
        the OSError that stopped the write (the file is then as it was)."""
        if self.not_saving:
            raise CardNotSaved(errno.EROFS, self.not_saving, str(self.path))
        if state is None and self.state_source:
            state = self.state_source()
        blob = encode(card, state)
        if blob != self._saved:
            write_atomic(self.path, blob, create_dirs=True)
            self._saved = blob
        self._last_save = time.monotonic()

    def autosave(self, card, state):
        """The timer save, every SAVE_INTERVAL seconds of wall time while the machine runs
        (`card` and `state` are called only then). A failure does not stop the machine: the
        save is tried again an interval later, and the save at exit reports what stops it."""
        if time.monotonic() - self._last_save < SAVE_INTERVAL:
            return
        try:
            self.save(card(), state())
        except OSError:
            self._last_save = time.monotonic()

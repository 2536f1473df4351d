"""Translated ROM blocks kept between runs, in the user's cache directory.

Compiling the blocks the CPU translates the ROM's hot code into (emulator/cpu/translator.py)
is most of what the first seconds of a run cost. This cache keeps their code objects, one
file per ROM set, so that the next run uses each block from the first time its entry
point runs. The file is derived from the ROM and so lives only in the user's cache
directory, never in the project.

A block is code that runs, so a file is unmarshalled only once it is known to be ours:

- its name holds the ROM set's SHA-1, and its tag binds it to that SHA-1 and to the
  translator's version (translator.translator_version: the CPU package's sources and the
  Python bytecode magic). A file of another ROM set or another version fails the check;
- the tag is an HMAC-SHA256 of the whole file under a random key of this user's, kept in
  the same directory (created readable by the user only). A file from anywhere else, and
  one damaged on disk, fails the check too.

Inside, each entry point's block (its code object and its source, for tracebacks) is
marshalled and compressed on its own and unpacked the first time the CPU asks for it, so
opening a large cache costs little; an entry that does not unpack to a block's code
object is dropped and translated anew.

A file that fails is deleted and rebuilt from this run's blocks when the process exits (the
file is written whole to a temporary name, then renamed). Anything the file system refuses
leaves the emulator running without the cache.
"""

import atexit
import hashlib
import hmac
import marshal
import os
import secrets
import types
import zlib
from pathlib import Path

from emulator.cpu import codegen, translator
from emulator.machine.atomic_write import write_atomic

MAGIC = b"pc1360 translated blocks 1\n"
TAG_SIZE = 32  # HMAC-SHA256
KEY_SIZE = 32
KEY_NAME = "blocks.key"
MISSING = object()  # what `get` returns for an entry point the cache knows nothing of


def default_dir():
    import platformdirs  # here: only a machine with a translation cache needs it

    return Path(platformdirs.user_cache_dir("pc1360"))


class TranslationCache:
    """The blocks of one ROM set: where -> code object (None: no block starts there).
    `where` is (bank or None, entry address), as the CPU names an entry point."""

    MISSING = MISSING

    def __init__(self, directory, rom_sha1, version):
        self.path = Path(directory) / f"blocks-{rom_sha1}.bin"
        self.key_path = Path(directory) / KEY_NAME
        self.binding = f"{rom_sha1} {version}\n".encode()
        # where -> the entry as in the file: (code object or None, source) marshalled and
        # compressed on its own, so that opening the file unpacks none of them
        self.entries = {}
        self.loaded = {}  # where -> code object or None, unmarshalled when first asked for
        self.added = {}  # where -> (code object or None, source) made by this run
        self.key = self._key()
        if self.key:
            self.entries = self._read() or {}

    # -- the key and the file ------------------------------------------------------------
    def _key(self):
        """This user's key, made on first use; None if the directory cannot hold one."""
        try:
            key = self.key_path.read_bytes()
            if len(key) == KEY_SIZE:
                return key
            self.key_path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            return None
        key = secrets.token_bytes(KEY_SIZE)
        try:
            self.key_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(key)
        except FileExistsError:  # another process made it first: use that one
            return self._key()
        except OSError:
            return None
        return key

    def _tag(self, payload):
        return hmac.new(self.key, MAGIC + self.binding + payload, hashlib.sha256).digest()

    def _read(self):
        """The entries of the file if it is ours and whole; a file that is not is deleted."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return None
        head, tag, payload = data[:len(MAGIC)], data[len(MAGIC):len(MAGIC) + TAG_SIZE], \
            data[len(MAGIC) + TAG_SIZE:]
        if head == MAGIC and hmac.compare_digest(tag, self._tag(payload)):
            try:
                entries = marshal.loads(payload)
            except (ValueError, EOFError, TypeError):
                entries = None
            if _well_formed(entries):
                return entries
        self._discard()
        return None

    def _discard(self):
        try:
            self.path.unlink()
        except OSError:
            pass

    def save(self):
        """Write this run's blocks with those the file holds now (another process may have
        added some since this one read it)."""
        if not (self.added and self.key):
            return
        # packed here, at the end, rather than while the machine runs
        self.entries.update((where, zlib.compress(marshal.dumps(block), 1))
                            for where, block in self.added.items())
        self.added = {}
        payload = marshal.dumps({**(self._read() or {}), **self.entries})
        try:
            write_atomic(self.path, MAGIC + self._tag(payload) + payload)
        except OSError:
            pass

    # -- the CPU's side ------------------------------------------------------------------
    def get(self, where):
        """The code object kept for `where`, None if no block starts there, MISSING if the
        cache has nothing for it."""
        code = self.loaded.get(where, MISSING)
        if code is MISSING and where in self.entries:
            code = _unpack(self.entries[where])
            if code is MISSING:  # not a block after all: translated anew
                del self.entries[where]
            else:
                self.loaded[where] = code
        return code

    def put(self, where, code):
        """Keep `code` (None: no block starts there) for `where`, unless its source, which
        a kept block must show in tracebacks, is no longer known."""
        source = "" if code is None else codegen.block_source_text(code)
        if source is None:
            return
        self.loaded[where] = code
        self.added[where] = (code, source)


def _well_formed(entries):
    """The shape `save` writes: {(bank or None, address): bytes}. Checked before any of it
    is used; each entry is checked when it is unpacked."""
    return isinstance(entries, dict) and all(
        isinstance(where, tuple) and len(where) == 2 and isinstance(where[1], int)
        and isinstance(value, bytes) for where, value in entries.items())


_OPEN = {}  # (directory, ROM SHA-1) -> the cache the machines of this process share


def for_rom(rom_sha1, directory=None):
    """The translation cache of a ROM set, shared by the machines of the process and saved
    when it exits; None when the translator's sources cannot be read to version it."""
    directory = Path(directory) if directory else default_dir()
    key = (directory, rom_sha1)
    if key not in _OPEN:
        try:
            version = translator.translator_version()
        except OSError:
            return None
        cache = _OPEN[key] = TranslationCache(directory, rom_sha1, version)
        atexit.register(cache.save)
    return _OPEN[key]


def _unpack(entry):
    """A kept entry's code object (its source registered for tracebacks), None for an entry
    point without a block, MISSING if the bytes are not what `put` makes."""
    try:
        code, source = marshal.loads(zlib.decompress(entry))
    except (ValueError, EOFError, TypeError, zlib.error):
        return MISSING
    if code is None:
        return None
    if not (isinstance(code, types.CodeType) and code.co_name.startswith("block_")
            and isinstance(source, str)):
        return MISSING
    codegen.register_source(code.co_filename, source)
    return code

"""Atomic file writes, shared by the machine (card saves) and the commands."""

import os
import tempfile
from pathlib import Path


def write_atomic(path, data: bytes):
    """Write `data` to `path` so that a reader sees the old file or the new one, never a
    partial one: a temporary file in the same directory, flushed, then os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise

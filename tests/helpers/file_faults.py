"""Faults of the file system that the tests, running as root, cannot make for real."""

import errno
import os


def read_only_file_system(monkeypatch):
    """Every create fails with EROFS, as on a read-only mount (root ignores permission
    bits, so making files read-only would not stop it); reads and writes to files
    that are already open go on. monkeypatch.undo() ends it."""
    real_open = os.open

    def read_only_open(name, flags, *args):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", str(name))
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", read_only_open)

"""Atomic file writes, shared by the machine (card saves) and the commands."""

import errno
import os
import stat
import time
from pathlib import Path

STALE_AGE = 3600.0  # seconds: a temporary without a process id this old was left by a kill


class TargetError(OSError):
    """An output path that must not be written: a special file, or a missing directory."""

    def __init__(self, path, why):
        super().__init__(errno.EINVAL, why, str(path))


def writable_target(path, *, create_dirs=False):
    """The regular file `path` stands for, checked before anything is written: a symbolic
    link is followed (the link stays, its target gets the data), a directory, device node,
    FIFO or socket is refused, since os.replace would put a regular file in its place. The
    parent directory must exist unless `create_dirs`."""
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
        raise TargetError(path, f"{path} is {kind}; it is not replaced")
    if create_dirs:
        target.parent.mkdir(parents=True, exist_ok=True)
    elif not target.parent.is_dir():
        raise TargetError(path, f"directory {target.parent} does not exist")
    return target


def write_atomic(path, data: bytes, *, create_dirs=False):
    """Write `data` to `path` so that a reader sees the old file or the new one, never a
    partial one: a temporary file in the same directory, flushed, then os.replace. The
    temporary's name carries our process id, so that one left by a killed writer is known
    as stale and removed at the next write. A new file gets the umask's mode, a replaced
    one keeps its own. TargetError (an OSError) for a path that is
    not to be written (writable_target)."""
    target = writable_target(path, create_dirs=create_dirs)
    _remove_stale(target)
    fd, tmp = _create_temporary(target)
    try:
        os.fchmod(fd, _new_mode(target))
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def _new_mode(target):
    """The mode the written file gets: a replaced file's own, else what the umask lets
    through of rw-rw-rw- (as open() would give), not the temporary's private 0600."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mask = os.umask(0)  # the only way to read it; set straight back
        os.umask(mask)
        return 0o666 & ~mask


# how a temporary is opened: created here or not at all, never through a symbolic link
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def _create_temporary(target):
    """(fd, path) of a new private file beside `target`, named .NAME.PID.RANDOM.tmp (as
    tempfile.mkstemp would make it; that module's import would cost a short command such
    as tokenize a twentieth of its time)."""
    for _ in range(100):
        tmp = target.parent / f"{_tmp_prefix(target)}{os.getpid()}.{os.urandom(6).hex()}.tmp"
        try:
            return os.open(tmp, _CREATE, 0o600), str(tmp)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary name", str(target.parent))


def _tmp_prefix(target):
    return f".{target.name}."


def _remove_stale(target):
    """Delete the temporaries of earlier writes to `target` whose writer is gone: its
    process id is no longer running, or (a name without one, from before ids were kept)
    the file is older than any write takes."""
    prefix = _tmp_prefix(target)
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return  # the write itself will say what is wrong with the directory
    for name in names:
        path = target.parent / name
        pid, _sep, rest = name[len(prefix):].partition(".")
        try:
            if pid.isascii() and pid.isdigit() and rest:
                stale = _gone(int(pid))
            else:
                stale = time.time() - path.stat().st_mtime > STALE_AGE
            if stale:
                os.unlink(path)
        except OSError:
            pass  # another writer cleaned it first, or the directory is read-only


def _gone(pid):
    # Our own id on a temporary is a killed process's whose id came round again: this
    # process writes one file at a time.
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # another user's live process
    return False

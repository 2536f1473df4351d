"""The PC-1360 ROM set, declared as data and verified by SHA-1 (MAME's ROM_START/-verifyroms).

The project ships no ROM bytes: a user supplies the nine files, `pc1360 rom install DIR`
copies a verified set into the user data directory, and the emulator reads them from there
(or from an explicit directory) at start-up.
"""

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from pc1360.facts import BANK_SIZE, CPU_ROM_SIZE


@dataclass(frozen=True)
class RomFile:
    name: str
    size: int
    sha1: str
    region: str  # "cpu": internal ROM at 0x0000; "bank": paged in at 0x4000
    bank: int | None = None


# Names and hashes as MAME's pc1360 set and PockEmul's resources/pc1360 (docs/hardware.md §3).
PC1360_ROMS = (
    RomFile("cpu-1360.rom", CPU_ROM_SIZE, "f803cfecb8179f47031901c4d5bd546ac93118b1", "cpu"),
    RomFile("B0-1360.rom", BANK_SIZE, "7178fd30dcc7f2777f0539897ef7245832f26152", "bank", 0),
    RomFile("B1-1360.rom", BANK_SIZE, "ae6d133fdb586df8660dd9315c1fdf80b7b8dd57", "bank", 1),
    RomFile("B2-1360.rom", BANK_SIZE, "311d3ceaaed61479bdb00d8ade358fd6a99da170", "bank", 2),
    RomFile("B3-1360.rom", BANK_SIZE, "70eeaa29c008131137bd28e4e957694cdf312413", "bank", 3),
    RomFile("B4-1360.rom", BANK_SIZE, "55987b7b00ddc666db30f35cbf23500b49e7ff09", "bank", 4),
    RomFile("B5-1360.rom", BANK_SIZE, "26116d8277212e14bddb64c531f134fbb5c86f9e", "bank", 5),
    RomFile("B6-1360.rom", BANK_SIZE, "9ab458e70752cacfd5d3ed36a8e89f96c63a6f50", "bank", 6),
    RomFile("B7-1360.rom", BANK_SIZE, "95396d506f1d71e66c3ae2d47ffb4b6d10b31401", "bank", 7),
)


class RomError(Exception):
    """The ROM set cannot be used; the message names every missing or bad file."""


@dataclass(frozen=True)
class RomSet:
    cpu: bytes
    banks: tuple  # eight 16 KiB bytes objects, bank 0 first


def user_rom_dir():
    """Where `pc1360 rom install` puts the set and where the emulator looks by default."""
    return Path(platformdirs.user_data_dir("pc1360")) / "roms"


def _find(directory, rom):
    """The file for `rom` in `directory`: exact name, else the same name in any letter case
    (MAME spells the banks b0-1360.rom), else any file of the right size with the right hash."""
    exact = directory / rom.name
    if exact.is_file():
        return exact
    candidates = sorted(p for p in directory.iterdir() if p.is_file())
    for path in candidates:
        if path.name.lower() == rom.name.lower():
            return path
    for path in candidates:
        if path.stat().st_size == rom.size and _sha1(path.read_bytes()) == rom.sha1:
            return path
    return None


def _sha1(data):
    return hashlib.sha1(data).hexdigest()


def audit(directory):
    """Check every file of the set; returns [(RomFile, path or None, status)], where status
    is "ok", "missing", "wrong size (N bytes)" or "wrong SHA-1 (HASH)"."""
    directory = Path(directory)
    if not directory.is_dir():
        return [(rom, None, "missing") for rom in PC1360_ROMS]
    results = []
    for rom in PC1360_ROMS:
        path = _find(directory, rom)
        if path is None:
            results.append((rom, None, "missing"))
            continue
        results.append((rom, path, _status(rom, path)))
    return results


def _status(rom, path):
    try:
        size = path.stat().st_size  # before reading: a wrong file may be of any size
        data = path.read_bytes() if size == rom.size else b""
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if size != rom.size:
        return f"wrong size ({size} bytes, expected {rom.size})"
    if _sha1(data) != rom.sha1:
        return f"wrong SHA-1 ({_sha1(data)}, expected {rom.sha1})"
    return "ok"


def _problems(directory, results):
    bad = [f"  {rom.name}: {status}" for rom, _path, status in results if status != "ok"]
    if not bad:
        return None
    hint = "" if Path(directory).is_dir() else " (directory not found)"
    return f"ROM set in {directory}{hint} is incomplete or wrong:\n" + "\n".join(bad)


def load(directory):
    """Read and verify the set from `directory`; RomError names each bad file."""
    results = audit(directory)
    problem = _problems(directory, results)
    if problem:
        raise RomError(problem)
    data = {rom.name: path.read_bytes() for rom, path, _status in results}
    cpu = next(data[rom.name] for rom in PC1360_ROMS if rom.region == "cpu")
    banks = tuple(data[rom.name] for rom in sorted(
        (r for r in PC1360_ROMS if r.region == "bank"), key=lambda r: r.bank))
    return RomSet(cpu=cpu, banks=banks)


def install(source, destination=None):
    """Verify the set in `source` and copy it, under the canonical names, to `destination`
    (default: the user data directory). Returns the destination.

    All or nothing: the files go to a new directory beside the destination, are verified
    there, and only then does that directory take the destination's place, so a full disk
    or an interrupted copy leaves any earlier install as it was. A destination that holds
    anything but a ROM set is refused rather than replaced."""
    results = audit(source)
    problem = _problems(source, results)
    if problem:
        raise RomError(problem)
    destination = Path(destination) if destination else user_rom_dir()
    if destination.exists() or destination.is_symlink():
        _check_replaceable(destination)
        if os.path.samefile(source, destination):
            return destination  # verified above: the set is installed already
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}-new-", dir=destination.parent))
    except OSError as exc:
        raise RomError(f"cannot install to {destination}: {exc.strerror or exc}") from None
    try:
        for rom, path, _status in results:
            _copy(path.read_bytes(), staging / rom.name)
        problem = _problems(staging, audit(staging))  # the copies, as they are on the disk
        if problem:
            raise RomError(f"the copy went wrong, nothing was installed:\n{problem}")
        _swap_in(staging, destination)
    except OSError as exc:
        raise RomError(f"cannot install to {destination}: {exc.strerror or exc}; "
                       "any set installed there before is unchanged") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return destination


def _check_replaceable(destination):
    if destination.is_symlink() or not destination.is_dir():
        raise RomError(f"{destination} is not a directory: move it away to install the ROM set there")
    names = {rom.name for rom in PC1360_ROMS}
    others = sorted(p.name for p in destination.iterdir()
                    if p.name not in names or p.is_symlink() or not p.is_file())
    if others:
        raise RomError(f"{destination} holds other things than a ROM set ({', '.join(others)}): "
                       "move them away to install there")


def _copy(data, path):
    with open(path, "xb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def _swap_in(staging, destination):
    """Put the verified `staging` directory in the place of `destination` (if any)."""
    if not destination.exists():
        os.rename(staging, destination)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{destination.name}-old-", dir=destination.parent))
    os.rename(destination, old / destination.name)
    try:
        os.rename(staging, destination)
    except OSError:
        os.rename(old / destination.name, destination)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def resolve_dir(explicit=None):
    """The ROM directory to use: the one given, else the installed set."""
    return Path(explicit) if explicit else user_rom_dir()

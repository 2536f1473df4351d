"""`rom install` all or nothing, and `rom verify` of what is not a directory (issue 18
items 5 and 16). The real set is copied to a temporary directory for each test."""

import errno
import os
import shutil

import pytest

from emulator.machine import romset
from tools.cli import main

pytestmark = pytest.mark.rom


@pytest.fixture
def source(rom_dir, tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(rom_dir, copy)
    return copy


def contents(directory):
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def test_installing_from_the_installed_directory_is_not_an_error(source):
    before = contents(source)
    assert romset.install(source, source) == source
    assert contents(source) == before


def test_installing_onto_a_file_is_refused_and_the_file_kept(source, tmp_path):
    target = tmp_path / "roms"
    target.write_bytes(b"mine")
    with pytest.raises(romset.RomError, match="is not a directory"):
        romset.install(source, target)
    assert target.read_bytes() == b"mine"


def test_a_destination_with_other_things_is_refused(source, tmp_path):
    target = tmp_path / "roms"
    (target / "cpu-1360.rom").mkdir(parents=True)  # a directory where a ROM file goes
    (target / "notes.txt").write_text("keep me")
    with pytest.raises(romset.RomError, match="cpu-1360.rom, notes.txt"):
        romset.install(source, target)
    assert (target / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("code, text", [(errno.ENOSPC, "No space left on device"),
                                        (errno.EFBIG, "File too large")])
def test_a_full_disk_mid_copy_leaves_the_old_install_whole(source, tmp_path, monkeypatch, code, text):
    target = romset.install(source, tmp_path / "roms")
    before = contents(target)
    calls = []
    real = os.fsync

    def failing(fd):
        calls.append(fd)
        if len(calls) == 5:
            raise OSError(code, text)
        return real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(romset.RomError, match=f"{text}; any set installed there before is unchanged"):
        romset.install(source, target)
    assert contents(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roms", "src"]  # no staging left


def test_a_bad_copy_is_not_installed(source, tmp_path, monkeypatch):
    target = tmp_path / "roms"
    real = romset._copy
    monkeypatch.setattr(romset, "_copy", lambda data, path: real(data[:-1] + b"?", path))
    with pytest.raises(romset.RomError, match="the copy went wrong"):
        romset.install(source, target)
    assert not target.exists()


def test_reinstall_replaces_the_set(source, tmp_path):
    target = romset.install(source, tmp_path / "roms")
    assert romset.install(source, target) == target
    assert all(status == "ok" for _r, _p, status in romset.audit(target))


def test_cli_install_to_a_file_is_a_message(source, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "data" / "pc1360").mkdir(parents=True)
    (tmp_path / "data" / "pc1360" / "roms").write_text("x")
    assert main(["rom", "install", str(source)]) == 1
    assert "is not a directory" in capsys.readouterr().err


@pytest.mark.parametrize("make", ["missing", "file"])
def test_cli_verify_says_when_there_is_no_directory(tmp_path, capsys, make):
    path = tmp_path / "roms"
    if make == "file":
        path.write_text("x")
    assert main(["rom", "verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert ("no such directory" if make == "missing" else "is not a directory") in err

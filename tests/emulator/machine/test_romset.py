"""The ROM set as data: audit, load and install, with MAME-style messages."""

import os

import pytest

from emulator.machine import romset
from tools.cli import main


def test_set_declares_nine_files_cpu_rom_and_eight_banks():
    assert len(romset.PC1360_ROMS) == 9
    cpu = [r for r in romset.PC1360_ROMS if r.region == "cpu"]
    banks = sorted(r.bank for r in romset.PC1360_ROMS if r.region == "bank")
    assert [(r.name, r.size) for r in cpu] == [("cpu-1360.rom", 0x2000)]
    assert banks == list(range(8))
    assert all(len(r.sha1) == 40 for r in romset.PC1360_ROMS)


def test_empty_directory_reports_every_file_missing(tmp_path):
    with pytest.raises(romset.RomError) as info:
        romset.load(tmp_path)
    message = str(info.value)
    for rom in romset.PC1360_ROMS:
        assert f"{rom.name}: missing" in message


def test_absent_directory_is_named_in_the_message(tmp_path):
    with pytest.raises(romset.RomError, match="directory not found"):
        romset.load(tmp_path / "nowhere")


def test_wrong_size_and_wrong_hash_are_told_apart(tmp_path):
    (tmp_path / "cpu-1360.rom").write_bytes(b"\0" * 10)
    (tmp_path / "B0-1360.rom").write_bytes(b"\0" * 0x4000)
    status = {rom.name: s for rom, _p, s in romset.audit(tmp_path)}
    assert status["cpu-1360.rom"].startswith("wrong size (10 bytes")
    assert status["B0-1360.rom"].startswith("wrong SHA-1")
    assert status["B1-1360.rom"] == "missing"


def _linked_set(rom_dir, target, rename=lambda name: name):
    target.mkdir()
    for rom in romset.PC1360_ROMS:
        os.symlink(rom_dir / rom.name, target / rename(rom.name))
    return target


@pytest.mark.rom
def test_real_set_verifies_and_loads(rom_dir):
    assert all(status == "ok" for _r, _p, status in romset.audit(rom_dir))
    roms = romset.load(rom_dir)
    assert len(roms.cpu) == 0x2000
    assert [len(b) for b in roms.banks] == [0x4000] * 8


@pytest.mark.rom
def test_files_are_found_by_case_and_by_hash(rom_dir, tmp_path):
    lower = _linked_set(rom_dir, tmp_path / "lower", str.lower)
    assert all(s == "ok" for _r, _p, s in romset.audit(lower))
    renamed = _linked_set(rom_dir, tmp_path / "renamed", lambda n: "x" + n)
    assert all(s == "ok" for _r, _p, s in romset.audit(renamed))


@pytest.mark.rom
def test_install_copies_a_verified_set_under_canonical_names(rom_dir, tmp_path):
    source = _linked_set(rom_dir, tmp_path / "src", str.lower)
    destination = romset.install(source, tmp_path / "installed")
    assert sorted(p.name for p in destination.iterdir()) == sorted(r.name for r in romset.PC1360_ROMS)
    assert all(s == "ok" for _r, _p, s in romset.audit(destination))


def test_install_refuses_a_bad_set(tmp_path):
    with pytest.raises(romset.RomError):
        romset.install(tmp_path, tmp_path / "dest")
    assert not (tmp_path / "dest").exists()


def test_cli_verify_fails_on_a_bad_set(tmp_path, capsys):
    assert main(["rom", "verify", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "cpu-1360.rom   missing" in out
    assert "is bad (9 of 9 files)" in out


@pytest.mark.rom
def test_cli_verify_passes_the_real_set(rom_dir, capsys):
    assert main(["rom", "verify", str(rom_dir)]) == 0
    assert "is good" in capsys.readouterr().out


def test_cli_install_reports_a_bad_set_without_traceback(tmp_path, capsys):
    assert main(["rom", "install", str(tmp_path)]) == 1
    assert "B7-1360.rom: missing" in capsys.readouterr().err

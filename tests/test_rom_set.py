"""Where the tests find a ROM set (tests/helpers/rom_set.py), and that pytest says which."""

import subprocess
import sys
from pathlib import Path

from tests.helpers import rom_set

ROOT = Path(__file__).resolve().parents[1]


def _fake_set(folder):
    folder.mkdir(parents=True)
    (folder / rom_set.PROBE).write_bytes(b"")
    return folder


def test_an_environment_variable_names_the_set(tmp_path):
    chosen = _fake_set(tmp_path / "mine")
    assert rom_set.find({rom_set.ENV: str(chosen)}, tmp_path / "none") == (chosen, f"${rom_set.ENV}")
    found, why = rom_set.find({rom_set.ENV: str(tmp_path / "empty")}, tmp_path / "none")
    assert found is None and "holds no cpu-1360.rom" in why


def test_the_installed_set_is_used_without_the_shared_one(tmp_path, monkeypatch):
    monkeypatch.setattr(rom_set, "SHARED", tmp_path / "no-shared")
    installed = _fake_set(tmp_path / "installed")
    assert rom_set.find({}, installed) == (installed, "the installed set")
    found, why = rom_set.find({}, tmp_path / "none")
    assert found is None and str(tmp_path / "no-shared") in why and rom_set.ENV in why


def test_the_shared_set_comes_before_the_installed_one(tmp_path, monkeypatch):
    shared = _fake_set(tmp_path / "shared")
    monkeypatch.setattr(rom_set, "SHARED", shared)
    assert rom_set.find({}, _fake_set(tmp_path / "installed")) == (shared, "the shared set")


def test_pytest_says_which_set_it_used(tmp_path):
    chosen = _fake_set(tmp_path / "mine")
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
                           "tests/test_rom_set.py"], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", rom_set.ENV: str(chosen), "HOME": str(tmp_path)})
    assert f"ROM set: {chosen} (${rom_set.ENV})" in done.stdout, done.stdout + done.stderr

"""Shared test fixtures: where the read-only ground truth lives."""

from pathlib import Path

import pytest

# the helpers assert like the test modules that call them (before any of them is imported)
pytest.register_assert_rewrite("tests.helpers")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ROM_DIR = SHARED / "roms" / "pc1360"
CORPUS_DIR = SHARED / "corpus"


@pytest.fixture(scope="session")
def rom_dir():
    if not (ROM_DIR / "cpu-1360.rom").is_file():
        pytest.skip("ROM set not present in ../shared/roms/pc1360")
    return ROM_DIR


@pytest.fixture(scope="session")
def corpus_dir():
    if not CORPUS_DIR.is_dir():
        pytest.skip("corpus not present in ../shared/corpus")
    return CORPUS_DIR

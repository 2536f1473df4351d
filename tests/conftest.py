"""Shared test fixtures: where the read-only ground truth lives."""

from pathlib import Path

import pytest

# the helpers assert like the test modules that call them (before any of them is imported)
pytest.register_assert_rewrite("tests.helpers")

from tests.helpers import rom_set  # noqa: E402 - after the rewrite registration

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS_DIR = SHARED / "corpus"
ROM_DIR, ROM_SOURCE = rom_set.find()


def pytest_report_header():
    if ROM_DIR is None:
        return f"ROM set: none ({ROM_SOURCE}): the firmware tests are skipped"
    return f"ROM set: {ROM_DIR} ({ROM_SOURCE})"


@pytest.fixture(scope="session")
def rom_dir():
    if ROM_DIR is None:
        pytest.skip(f"no ROM set: {ROM_SOURCE}")
    return ROM_DIR


@pytest.fixture(scope="session")
def corpus_dir():
    if not CORPUS_DIR.is_dir():
        pytest.skip("corpus not present in ../shared/corpus")
    return CORPUS_DIR


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs(tmp_path_factory):
    """The tests' cards, settings and translation cache go to a directory of the session's
    own, never to the user's (platformdirs follows the XDG variables)."""
    base = tmp_path_factory.mktemp("user-dirs")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            patch.setenv(name, str(base / name.lower()))
        yield base

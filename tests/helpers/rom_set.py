"""Which PC-1360 ROM set the tests use: the directory named by $PC1360_TEST_ROMS when it is
set (a deliberate choice, so it comes first), else the project's shared set in
../shared/roms/pc1360, else the set the user installed with `pc1360 rom install`."""

import os
from pathlib import Path

ENV = "PC1360_TEST_ROMS"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "roms" / "pc1360"
PROBE = "cpu-1360.rom"  # the file every set has: its presence marks a set


def find(environ=os.environ, installed=None):
    """(directory, how it was found), or (None, where the tests looked). `installed` is
    the user's install directory (default: where `pc1360 rom install` puts the set)."""
    if environ.get(ENV):
        chosen = Path(environ[ENV])
        if (chosen / PROBE).is_file():
            return chosen, f"${ENV}"
        return None, f"${ENV}={chosen} holds no {PROBE}"
    if installed is None:
        from emulator.machine.romset import user_rom_dir

        installed = user_rom_dir()
    for directory, how in ((SHARED, "the shared set"), (installed, "the installed set")):
        if (directory / PROBE).is_file():
            return directory, how
    return None, f"no set in {SHARED} nor in {installed} (or name one in ${ENV})"

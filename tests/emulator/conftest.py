"""Fixtures shared by the machine tests."""

import pytest

from emulator.machine.facade import PC1360
from emulator.machine.romset import RomSet, load
from tests.helpers.booting import ENGINES, boot_cleared


class IdleEngine:
    """An engine that only lets time pass: the connectors are driven by the tests."""

    name = "idle"

    def __init__(self, machine):
        pass

    def reset(self):
        pass

    def run(self, cycles):
        return cycles


@pytest.fixture
def idle_machine():
    """A PC-1360 with blank ROMs and the idle engine, for pin-level tests."""
    roms = RomSet(cpu=bytes(0x2000), banks=(bytes(0x4000),) * 8)
    return PC1360(engine=IdleEngine, roms=roms)


@pytest.fixture(scope="module", params=ENGINES)
def booted(request):
    """(machine, snapshot) of a cleared firmware machine, booted once per module for tests
    to restore; (None, None) for the built-in engine, which boots afresh in a few ms."""
    if request.param == "firmware":
        machine = boot_cleared(PC1360(roms=load(request.getfixturevalue("rom_dir"))))
        return machine, machine.snapshot()
    return None, None


"""Booting a machine past its power-on question, for the tests that run on both engines
(the `booted` fixture in tests/emulator/conftest.py keeps the firmware one booted per
module)."""

import pytest

from emulator.machine.facade import PC1360

ENGINES = [pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"]


def boot_cleared(machine):
    """Past the power-on CLEAR question: RUN mode, an empty program."""
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")
    assert machine.key_wait_ready()
    return machine


def booted_machine(booted):
    """A machine from the `booted` fixture: the snapshot restored, or a new built-in one."""
    machine, snap = booted
    if snap is None:
        return boot_cleared(PC1360(engine="builtin"))
    machine.restore(snap)
    return machine

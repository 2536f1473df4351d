"""The firmware engine: the SC61860 core running Sharp's ROM against the machine's bus."""

import hashlib
import struct

from emulator.cpu.sc61860 import SC61860
from emulator.machine import translation_cache
from emulator.machine.lcd import firmware_font
from pc1360.facts import BANK_SIZE, BANK_WINDOW, CPU_ROM_SIZE

FONT_BANK = 1  # the ROM's character font, which the LCD readout matches
CPU_REGISTERS = ("p", "q", "r", "dp", "pc", "c", "z", "d", "cycles")
_SAVED_REGISTERS = ("p", "q", "r", "d", "dp", "pc", "c", "z")
_REGISTER_STRUCT = struct.Struct("<BBBBHHBB")
CODE_FIXED = (0x0000, CPU_ROM_SIZE)  # the internal ROM
CODE_WINDOW = (BANK_WINDOW, BANK_WINDOW + BANK_SIZE)  # the window onto ROM banks 0-7


def rom_sha1(roms):
    """The SHA-1 of the whole ROM set (the internal ROM, then banks 0-7)."""
    digest = hashlib.sha1(roms.cpu)
    for bank in roms.banks:
        digest.update(bank)
    return digest.hexdigest()


class FirmwareEngine:
    """An engine (reset(), run(cycles)) that is the CPU; `progress()` gives the cycles run
    so far inside the current run() call, so the bus can stamp timers exactly."""

    name = "firmware"

    def __init__(self, machine, roms):
        self.machine = machine
        self.cpu = SC61860(machine.mem, machine.bus)
        self.cpu.write_floor = machine.bus.write_floor
        self.cpu.mirror_writes(*machine.bus.mirrored)
        self._counter = self.cpu.cycle_counter()
        # what run() runs the CPU with: a debugger puts its instruction-by-instruction
        # runner here while it has something to watch (emulator/debug/firmware_target.py)
        self.execute = self._plain_run = self.cpu.run
        self._run_start = self.cpu.cycles
        self._track_rom_bank(machine.bus, translation_cache.for_rom(rom_sha1(roms)))
        machine.lcd.set_font(firmware_font(roms.banks[FONT_BANK]))

    def reset(self):
        self.cpu.reset()
        self._run_start = self.cpu.cycles

    def _track_rom_bank(self, bus, store):
        """The ROM is code that never changes, so the CPU may translate it into blocks: the
        internal ROM for good, the bank window per bank (named on every switch). The
        blocks are kept for the next run in the ROM set's translation cache `store`."""
        self.cpu.set_code_regions(CODE_FIXED, CODE_WINDOW, store)
        bus.bank_changed = self.cpu.set_code_bank

    def run(self, cycles):
        # The bus names every switch of the bank to the CPU (bank_changed), also when a
        # state is restored. Between runs the machine's count is exact by itself:
        # progress() must say 0 then, or machine.now() would count the last run twice for a
        # host called between runs. This runs once a run: it uses the CPU's cycle
        # counter cell, not the property.
        counter = self._counter
        self._run_start = counter.cell_contents
        ran = self.execute(cycles)
        self._run_start = counter.cell_contents
        return ran

    def runs_whole(self):
        """Whether `run` may be given a whole stretch of time, not the machine's slices:
        the CPU ends the run at OFF itself (`stop_at`); the debugger's runner cannot."""
        return self.execute is self._plain_run

    def stop_at(self, cycle):
        """End the current run at the first instruction boundary at or past `cycle` (the
        machine's count)."""
        self.cpu.stop_at(cycle - self.machine.cycles + self._run_start)

    def progress(self):
        return self._counter.cell_contents - self._run_start

    def write_floor_changed(self):
        self.cpu.write_floor = self.machine.bus.write_floor

    def snapshot_state(self):
        cpu = self.cpu
        return (bytes(cpu.iram),) + tuple(getattr(cpu, name) for name in CPU_REGISTERS)

    def restore_state(self, state):
        cpu = self.cpu
        cpu.iram[:] = state[0]  # in place: the core's handlers hold this buffer
        for name, value in zip(CPU_REGISTERS, state[1:]):
            setattr(cpu, name, value)

    def power_state(self):
        """The CPU as the card file keeps it: internal RAM and registers (not the cycles)."""
        cpu = self.cpu
        return bytes(cpu.iram) + _REGISTER_STRUCT.pack(*(getattr(cpu, n) for n in _SAVED_REGISTERS))

    def resume(self, blob):
        cpu = self.cpu
        if len(blob) != len(cpu.iram) + _REGISTER_STRUCT.size:
            raise ValueError(f"CPU state of {len(blob)} bytes")
        cpu.iram[:] = blob[:len(cpu.iram)]
        for name, value in zip(_SAVED_REGISTERS, _REGISTER_STRUCT.unpack(blob[len(cpu.iram):])):
            setattr(cpu, name, value)

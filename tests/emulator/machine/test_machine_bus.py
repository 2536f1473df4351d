"""The memory map, bus ports, timers and buzzer, with a stand-in engine (no ROM needed)."""

import pytest

from emulator.machine import memmap
from emulator.machine.facade import PC1360
from emulator.machine.romset import RomSet
from emulator.machine.timers import FAST_PERIOD, SLOW_PERIOD, Buzzer, Timers


class IdleEngine:
    """An engine that only lets time pass: the machine's plug-in point for other engines."""

    name = "idle"

    def __init__(self, machine):
        self.resets = 0

    def reset(self):
        self.resets += 1

    def run(self, cycles):
        return cycles


def fake_roms():
    return RomSet(cpu=bytes([0xC0]) * 0x2000, banks=tuple(bytes([b]) * 0x4000 for b in range(8)))


def machine(card_kb=32, **kw):
    return PC1360(engine=IdleEngine, card_kb=card_kb, roms=fake_roms(), **kw)


def test_regions_cover_the_address_space_once():
    covered = []
    for first, last, _kind, _what in memmap.REGIONS:
        covered.extend(range(first, last + 1))
    assert covered == list(range(0x10000))


def test_plug_in_engine_is_reset_and_run():
    m = machine()
    assert m.engine.resets == 1
    assert m.run_for(0.5) == 128_000
    assert m.emulated_seconds == 0.5


def test_rom_writes_are_dropped():
    m = machine()
    m.poke(0x0100, 0x12)
    m.poke(0x5000, 0x12)
    assert m.peek(0x0100) == 0xC0 and m.peek(0x5000) == 0


def test_0x2000_range_is_absent():
    # docs/hardware.md §2.3: the ROM probes 0x2000/0x2001 and writes 0x26D8-0x26FF; nothing answers there.
    m = machine()
    for addr in (0x2000, 0x2001, 0x26D8, 0x27FF):
        m.poke(addr, 0x55)
        assert m.peek(addr) == 0


def test_lcd_blocks_mirror_at_plus_0x100():
    m = machine()
    m.poke(0x283E, 0x31)
    m.poke(0x3142, 0x99)
    assert m.peek(0x293E) == 0x31
    assert m.peek(0x3042) == 0x99


def test_bank_register_pages_the_window_and_reads_back():
    m = machine()
    assert m.peek(0x4000) == 0
    m.poke(0x3400, 0x0B)
    assert m.peek(0x4000) == 3 and m.peek(0x7FFF) == 3
    assert m.peek(0x3400) == 0x0B


def test_io_latches_and_strobe_read_back():
    m = machine()
    for addr, value in ((0x3800, 1), (0x3A00, 6), (0x3C00, 4), (0x3E00, 5)):
        m.poke(addr, value)
        assert m.peek(addr) == value
    assert m.bus.strobe == 5


def test_key_wait_strobe_is_counted():
    m = machine()
    m.poke(0x3E00, 0x3F)
    m.poke(0x3E00, 0x3F)
    assert m.bus.keywait_count == 2


@pytest.mark.parametrize("card_kb", [8, 16])
def test_small_cards_mirror_through_the_bus(card_kb):
    m = machine(card_kb)
    assert m.bus.write_floor == 0x10000
    m.poke(0xFFF0, 0x42)
    size = card_kb * 1024
    assert [m.peek(a) for a in range(0xFFF0 - 0x8000 + size - size, 0x10000, size)][-1] == 0x42
    assert all(m.peek(base + 0x7FF0 % size) == 0x42 for base in range(0x8000, 0x10000, size))
    assert m.card_data()[-16] == 0x42


def test_32k_card_is_written_directly_by_the_cpu():
    m = machine(32)
    assert m.bus.write_floor == 0x8000


def test_card_data_given_at_start_is_mapped_with_mirrors():
    data = bytes(range(256)) * 32
    m = machine(8, card_data=data)
    assert m.peek(0x8001) == 1 and m.peek(0xE001) == 1
    assert m.card_data() == data


def test_slot_s2_is_selected_by_fo_bit_2():
    m = machine(32, card2_kb=8)
    m.poke(0x8000, 0x11)
    m.bus.outf(0x04)
    assert m.bus.write_floor == 0x10000
    assert m.peek(0x8000) == 0
    m.poke(0xE000, 0x22)
    m.bus.outf(0x00)
    assert m.peek(0x8000) == 0x11
    assert m.card_data(1)[0] == 0x22


def test_control_port_display_bit_and_buzzer_mode():
    m = machine()
    m.bus.outc(0x01)
    assert m.lcd.enabled
    m.bus.outc(0x10)
    assert not m.lcd.enabled
    assert m.buzzer.mode == 1


def test_off_bit_stops_the_engine_until_brk():
    m = machine()
    m.bus.outc(0x08 | 0x01)
    assert m.off and not m.lcd.enabled
    m.press("BRK")
    assert not m.off


def test_test_port_reads_brk_and_never_the_reset_line():
    m = machine()
    assert m.bus.test(0x48) == 0
    m.press("BRK")
    assert m.bus.test(0x08) & 0x08


def test_timer_flags_latch_and_clear_when_tested():
    t = Timers()
    assert t.status(FAST_PERIOD - 1) == 0
    assert t.status(FAST_PERIOD) == 0x02
    assert t.status(10 * FAST_PERIOD) == 0x02  # latched, not a square wave
    t.clear(10 * FAST_PERIOD, 0x02)
    assert t.status(10 * FAST_PERIOD + 1) == 0
    assert t.status(SLOW_PERIOD) == 0x03


def test_test_clears_only_the_flags_it_tests():
    m = machine()
    m.cycles = SLOW_PERIOD
    assert m.bus.test(0x02) & 0x02
    assert m.bus.test(0x03) == 0x01  # the 512 ms flag survived the TEST of 0x02
    assert m.bus.test(0x03) == 0


def test_outc_bit_1_restarts_the_timers():
    m = machine()
    m.cycles = FAST_PERIOD * 3
    m.bus.outc(0x02)
    assert m.bus.test(0x03) == 0


def test_buzzer_reports_level_changes_and_square_waves():
    b = Buzzer()
    b.set_mode(100, 1)  # high
    b.set_mode(200, 0)  # low
    assert b.take_transitions(300) == [(100, 1), (200, 0)]
    b.set_mode(320, 2)  # 2 kHz: 64-cycle half periods
    edges = b.take_transitions(512)
    assert edges == [(320, 1), (384, 0), (448, 1)]
    b.set_mode(512, 0)
    assert b.take_transitions(600) == [(512, 0)]


def test_snapshot_restores_memory_and_latches():
    m = machine()
    snap = m.snapshot()
    m.poke(0x3400, 2)
    m.poke(0x9000, 1)
    m.press("A")
    m.restore(snap)
    assert m.peek(0x4000) == 0 and m.peek(0x9000) == 0
    assert m.keyboard.pressed == set()

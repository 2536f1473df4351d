"""The real firmware on the emulated PC-1360: boot, RUN and PRO mode, BRK, symbols, cards.

One machine is booted per module; each test starts from a snapshot of it, so the suite
pays for the boot once. Open questions of docs/hardware.md §10 settled by the firmware are
recorded here (search for "Settled").
"""

import pytest

from emulator.machine.facade import PC1360
from emulator.machine.romset import load

pytestmark = pytest.mark.rom

CARD_QUESTION = ['MEM$ = "C"', "RAM CARD S1 CLEAR O.K. ?", "", ""]


def screen(m):
    return [line.rstrip() for line in m.screen_text()]


@pytest.fixture(scope="module")
def roms(rom_dir):
    return load(rom_dir)


@pytest.fixture(scope="module")
def booted(roms):
    m = PC1360(roms=roms)
    assert m.key_wait_ready(5)
    cold = m.snapshot()
    m.type_keys("Y")
    assert m.key_wait_ready()
    return m, cold, m.snapshot()


@pytest.fixture
def cold(booted):
    m, snap, _ready = booted
    m.restore(snap)
    return m


@pytest.fixture
def machine(booted):
    m, _cold, snap = booted
    m.restore(snap)
    return m


def run_keys(m, script, seconds=0.3, settle=True):
    """Type `script`, run `seconds`, then (if `settle`) on until the firmware waits for a key."""
    m.type_keys(script)
    m.run_for(seconds)
    if settle:
        m.key_wait_ready()
    return screen(m)


def test_cold_boot_on_a_blank_card_asks_to_clear_it(cold):
    assert screen(cold) == CARD_QUESTION
    assert cold.symbols() == set()


def test_y_clears_the_card_and_reaches_run_mode(machine):
    machine.run_for(0.2)
    assert screen(machine)[:2] == ["RUN MODE", ">"]
    assert machine.symbols() == {"RUN"}
    # empty program FF FF at 0x8030 (docs/stored_format.md §2.1, §2.2); the ROM's copies of the end pointer agree
    assert machine.peek_word(0xFFD7) == 0x8030
    assert machine.peek_word(0xFFD9) == 0x8031
    assert machine.peek_word(0x283E) == machine.peek_word(0x293E) == machine.peek_word(0x8009) == 0x8031
    assert machine.peek_word(0xFFF6) == 0x8000


@pytest.mark.parametrize("expression, result", [
    ("1+1", "2."), ("PI", "3.141592654"), ("SQR 2", "1.414213562"), ("1/3", "3.333333333E-01"),
    ("2^10", "1024."), ("SIN 30", "0.5"),
])
def test_run_mode_calculation(machine, expression, result):
    lines = run_keys(machine, expression + "{ENTER}")
    index = lines.index(expression)
    assert lines[index + 1] == result.rjust(24)


def test_program_line_is_stored_listed_and_run(machine):
    assert run_keys(machine, "{MODE}")[0] == "PROGRAM MODE"
    assert machine.symbols() == {"PRO"}
    lines = run_keys(machine, '10 PRINT "HELLO"{ENTER}')
    assert lines[1] == '10:PRINT "HELLO"'
    start, end = machine.peek_word(0xFFD7), machine.peek_word(0xFFD9)
    assert bytes(machine.mem[start:end + 1]) == bytes.fromhex("FF 00 0A 0A FE 60 22 48 45 4C 4C 4F 22 0D FF")
    run_keys(machine, "{MODE}")
    assert "HELLO" in run_keys(machine, "RUN{ENTER}", 1.0)


def test_brk_interrupts_a_running_loop(machine):
    run_keys(machine, "{MODE}10 A=A+1:GOTO 10{ENTER}{MODE}RUN{ENTER}", 1.0, settle=False)
    assert "BREAK IN 10" not in screen(machine)
    assert "BREAK IN 10" in run_keys(machine, "{BRK}")
    lines = run_keys(machine, "A{ENTER}")
    assert int(lines[-1].strip().rstrip(".")) > 10


@pytest.mark.parametrize("key, symbol", [("SHIFT", "SHIFT"), ("DEF", "DEF"), ("SML", "SML")])
def test_status_symbols_follow_the_latching_keys(machine, key, symbol):
    run_keys(machine, "{%s}" % key, 0.1)
    assert machine.symbols() == {"RUN", symbol}


def test_shifted_characters_are_typed_with_shift(machine):
    assert screen(machine)[1] == ">"
    assert run_keys(machine, '!"#$%&?@<>^')[1].startswith('!"#$%&?@<>^')


def test_mode_toggles_run_and_pro(machine):
    run_keys(machine, "{MODE}")
    assert machine.symbols() == {"PRO"}
    assert run_keys(machine, "{MODE}")[0] == "RUN MODE"
    assert machine.symbols() == {"RUN"}


@pytest.mark.parametrize("card_kb, start", [(8, 0xE030), (16, 0xC030)])
def test_smaller_cards_boot_the_same_way(roms, card_kb, start):
    m = PC1360(roms=roms, card_kb=card_kb)
    m.key_wait_ready(5)
    assert screen(m) == CARD_QUESTION
    m.type_keys("Y")
    assert run_keys(m, "1+1{ENTER}")[2] == "2.".rjust(24)
    assert m.peek_word(0xFFD7) == start
    assert m.peek_word(0xFFF6) == 0x10000 - card_kb * 1024


def test_settled_row_8_and_the_0x2000_range_at_boot(roms):
    # Settled: the ROM reads row 8 at boot (bank 3 0x4599) and, when the card is cleared,
    # writes 0x2000/0x2001 and 0x26D8-0x26FF; with row 8 reading 0 and nothing fitted at
    # 0x2000-0x27FF it shows the usual question and screens (docs/hardware.md §2.3, §6.2, §7.3). TEST 0x40 (reset input)
    # reads 0 throughout.
    m = PC1360(roms=roms)
    strobes, writes, tests = [], [], []
    real_ina, real_write, real_test = m.keyboard.ina, m.bus.write, m.bus.test
    m.keyboard.ina = lambda strobe, ia: strobes.append(strobe) or real_ina(strobe, ia)
    m.bus.write = lambda addr, value: writes.append(addr) or real_write(addr, value)
    m.bus.test = lambda mask: tests.append((mask, real_test(mask))) or tests[-1][1]
    m.key_wait_ready(5)
    assert 8 in strobes
    assert tests[0] == (0x40, 0)  # the ROM's first TEST, at 0x000D: reset input not held
    assert screen(m) == CARD_QUESTION
    assert run_keys(m, "Y")[:2] == ["RUN MODE", ">"]
    assert {0x2000, 0x2001} <= set(writes) and any(0x26D8 <= a <= 0x26FF for a in writes)
    assert not any(m.mem[0x2000:0x2800])


def test_settled_hlt_is_not_needed_the_key_wait_loop_strobes_0x3f(machine):
    # Settled: the idle firmware writes 0x3F to 0x3E00 and OUTC 0x05 (display + HLT) about
    # every 1547 cycles; running the CPU on through HLT works.
    count = machine.bus.keywait_count
    machine.run_for(0.1)
    assert 14 <= machine.bus.keywait_count - count <= 19
    assert machine.bus.control == 0x05


def test_settled_pause_and_wait_follow_the_2ms_timer(machine):
    # Settled (timer model): latched 2 ms / 512 ms flags, cleared by the TEST that reads
    # them. PAUSE shows for about 1 s and WAIT 64 for about 1 s (64 units of 1/64 s).
    run_keys(machine, '{MODE}10 PAUSE "A":WAIT 64:PRINT "B":PRINT "C"{ENTER}{MODE}RUN{ENTER}', 0.0, settle=False)
    seen = {}
    for step in range(400):
        machine.run_for(0.01)
        for text in ("A", "B", "C"):
            if text in screen(machine) and text not in seen:
                seen[text] = step / 100
    assert 0.85 <= seen["B"] - seen["A"] <= 1.1
    assert 0.95 <= seen["C"] - seen["B"] <= 1.25


def test_settled_auto_power_off_counts_512ms_ticks(machine):
    # Settled (timer model): the firmware counts 512 ms flags in the word at 0x2A7E, from
    # 0xFB00 up to the wrap: 1280 ticks = 655 s, Sharp's "about 11 minutes" (a full idle run
    # measured 655-660 s). Clearing both flags on any TEST (Pokecom) loses ticks: 740 s.
    assert 0xFB00 <= machine.peek_word(0x2A7E) < 0xFB10
    machine.poke_word(0x2A7E, 0x10000 - 20)
    machine.run_for(9.8)
    assert not machine.off
    machine.run_for(1.0)
    assert machine.off


def test_settled_off_key_powers_off_and_brk_on_goes_on(machine):
    # Settled: OFF is on the matrix at IA line 1, INA bit 2 (found by sweeping the ROM's
    # scan); the ROM then writes OUTC 0x08 once the key is released. BRK/ON continues after
    # that OUTC: the ROM's code there turns the display on and returns to the key wait.
    before = run_keys(machine, "12{ENTER}")
    run_keys(machine, "{OFF}")
    assert machine.off
    assert machine.pixels() == [[0] * 150 for _ in range(32)]
    machine.run_for(1.0)
    run_keys(machine, "{BRK}", 0.5)
    assert not machine.off
    assert screen(machine) == before
    assert run_keys(machine, "3*4{ENTER}")[-1] == "12.".rjust(24)


def test_settled_reset_always_asks_the_card_question(machine):
    # Settled: after a reset the ROM asks to clear S1 even when card and system RAM are
    # intact, hence the card file keeps the power-off state too (emulator/machine/card_file.py).
    run_keys(machine, "{MODE}10 PRINT 5{ENTER}")
    machine.reset()
    machine.key_wait_ready()
    assert screen(machine) == CARD_QUESTION


def test_power_state_resumes_on_a_new_machine_with_the_program(machine, roms):
    run_keys(machine, "{MODE}10 PRINT 5{ENTER}{MODE}")
    other = PC1360(roms=roms, card_data=machine.card_data())
    other.resume(machine.power_state())
    assert "5." in [line.strip() for line in run_keys(other, "RUN{ENTER}", 1.0)]


def test_power_state_of_another_engine_is_refused(machine, roms):
    state = bytearray(machine.power_state())
    state[0:8] = b"builtin\0"
    with pytest.raises(ValueError, match="another engine"):
        PC1360(roms=roms).resume(bytes(state))


def test_load_program_puts_lines_where_cload_would(machine):
    image = bytes.fromhex("00 0A 04 FE 60 31 0D 00 14 03 FE 5A 0D")  # 10 PRINT 1 / 20 END
    machine.load_program(image)
    assert machine.peek_word(0xFFD7) == 0x8030
    assert machine.peek_word(0xFFD9) == 0x8030 + 1 + len(image)
    assert "1.".rjust(24) in run_keys(machine, "RUN{ENTER}", 1.0)
    assert run_keys(machine, "{MODE}LIST{ENTER}")[:2] == ["10:PRINT 1", "20:END"]


def test_inkey_program_gets_keys_with_a_short_ready_timeout(machine):
    # A program polling INKEY$ never enters the key-wait loop: the driver presses anyway
    # once `timeout` has passed.
    run_keys(machine, '{MODE}10 A$=INKEY$:IF A$="" GOTO 10{ENTER}20 PRINT A$;"!"{ENTER}{MODE}')
    machine.type_keys("RUN{ENTER}")
    machine.run_for(0.3)
    machine.type_keys("X", timeout=0.05)
    machine.run_for(0.3)
    assert "X!" in screen(machine)


def test_settled_star_screen_means_the_card_is_not_the_firmwares(machine):
    # Settled: the lone "*" at the top right (also after answering the CLEAR question with
    # anything but Y) is the ROM refusing the card: here its work area 0xFF00-0xFFFF is
    # gone. Only OFF does anything there.
    card = bytearray(machine.card_data())
    card[0x7F00:] = bytes(0x100)
    machine.bus.set_card_data(0, bytes(card))
    assert run_keys(machine, "RUN{ENTER}", 0.5) == ["*".rjust(24), "", "", ""]
    assert run_keys(machine, "1+1{ENTER}", 0.5) == ["*".rjust(24), "", "", ""]


# ---- one engine call for a whole stretch of time ------------------------------------------
# The firmware engine runs all the time asked for in one call (the CPU itself ends the run
# at OFF): the machine must then be in exactly the state that 10 ms slices give.

@pytest.mark.parametrize("script", [
    "10 FOR I=1 TO 40:BEEP 1:PRINT I*I;:NEXT I{ENTER}RUN{ENTER}",  # timers, buzzer, LCD
    "10 A$=INKEY$:B=B+1:IF B<300 GOTO 10{ENTER}RUN{ENTER}",  # the keyboard, polled
    "{OFF}",  # powers off inside the run
])
def test_one_long_run_leaves_the_state_that_10_ms_slices_leave(machine, script, monkeypatch):
    start = machine.snapshot()
    machine.type_keys(script)
    machine.run_for(4.0)
    whole = machine.snapshot()
    machine.restore(start)
    monkeypatch.setattr(machine, "_runs_whole", None)  # the engine gets 10 ms slices
    machine.type_keys(script)
    machine.run_for(4.0)
    assert machine.snapshot() == whole


def test_off_stops_the_cpu_at_the_end_of_its_slice_also_in_a_long_run(machine):
    machine.type_keys("{OFF}")
    machine.run_for(0.3)
    assert machine.off
    cpu = machine.engine.cpu
    stopped = (cpu.pc, cpu.cycles)
    machine.run_for(2.0)  # off: time passes, the CPU does not run
    assert machine.off and (cpu.pc, cpu.cycles) == stopped

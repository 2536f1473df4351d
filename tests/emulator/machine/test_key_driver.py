"""The machine's key driver (PC1360.tap, type_keys): a key waits until it will be read and
is held until the program has read it, whether the machine waits in its key-wait loop or
a program polls INKEY$; {READY} waits for the program (docs/hardware.md §6.3)."""

import pytest

from emulator.machine.facade import KEY_HOLD, PC1360, POLL_GAP
from emulator.machine.key_script import KeyScriptError
from emulator.machine.romset import load
from pc1360.tokenizer import tokenize
from tests.helpers.booting import boot_cleared, booted_machine

# Programs that collect five keys from INKEY$ with no wait for a key to go up: a key held
# too long is read twice, one let go too soon not at all. FAST reads about every 30 ms,
# SLOW about every 0.2 s.
FAST = '10 A$=INKEY$: B$=B$+A$: IF LEN B$<5 GOTO 10\n30 PRINT B$: END\n'
SLOW = ('10 A$=INKEY$: IF A$="" FOR I=1 TO 15: NEXT I: GOTO 10\n'
        '20 B$=B$+A$: IF LEN B$<5 GOTO 10\n30 PRINT B$: END\n')


def rows(machine):
    return [row.rstrip() for row in machine.screen_text()]


def started(booted, source, keys="RUN{ENTER}"):
    machine = booted_machine(booted)
    machine.load_program(tokenize(source))
    machine.type_keys(keys)
    return machine


@pytest.mark.parametrize("source", [FAST, SLOW], ids=["fast", "slow"])
def test_a_polling_program_reads_each_key_once(booted, source):
    machine = started(booted, source)
    machine.type_keys("ABCDE")
    machine.run_for(0.5)
    assert "ABCDE" in rows(machine)


@pytest.mark.parametrize("source", [FAST, SLOW], ids=["fast", "slow"])
def test_the_old_fixed_hold_misses_or_doubles_keys(booted, source):
    # (what the default hold is for: 45 ms, the hold for the key-wait loop, is too long for
    # the fast loop and too short for the slow one)
    machine = started(booted, source)
    machine.type_keys("ABCDE", hold=KEY_HOLD)
    machine.run_for(0.5)
    assert "ABCDE" not in rows(machine)


def test_a_key_is_read_once_by_default_and_held_as_long_as_hold_says(booted):
    machine = started(booted, FAST.replace("LEN B$<5", "LEN B$<99"))
    assert machine.tap("A") == 1
    assert machine.tap("B", hold=0.3) >= 2


def test_a_key_typed_while_a_program_runs_is_held_until_the_prompt_reads_it(booted):
    # the program runs longer than a key waits to be read (3 s): the key goes down then,
    # and is kept down until the key-wait loop at the end has read it
    machine = started(booted, "10 FOR I=1 TO 300: NEXT I\n", "RUN{ENTER}7")
    machine.run_for(0.3)
    assert "7_" in rows(machine)


@pytest.mark.rom
def test_a_key_typed_at_power_on_waits_for_the_card_question(rom_dir):
    machine = PC1360(roms=load(rom_dir))
    machine.type_keys("Y")
    assert machine.key_wait_ready() and rows(machine)[0] == "RUN MODE"


@pytest.mark.rom
def test_the_key_wait_loop_takes_a_key_seen_in_two_scans(rom_dir):
    # Settled: the firmware's key-wait loop acts on a key only when a second scan still
    # finds it down (hence KEY_HOLD for it), while INKEY$ returns a key one read has seen.
    machine = boot_cleared(PC1360(roms=load(rom_dir)))
    lines = machine.keyboard.reads("1")
    for scans, typed in ((1, False), (2, True)):
        machine.key_wait_ready()
        count = lines.count
        machine.press("1")
        while lines.count - count < scans:
            machine.run_cycles(16)
        machine.release("1")
        machine.run_for(0.3)
        assert rows(machine)[1].startswith("1") is typed


@pytest.mark.rom
def test_inkey_reads_a_line_a_statement_apart_the_firmwares_own_scans_closer(rom_dir):
    # what POLL_GAP tells apart: four INKEY$ in one statement, and the scans at boot
    machine = PC1360(roms=load(rom_dir))
    lines = machine.keyboard.reads("1")
    gaps = []
    while machine.bus.keywait_count < 3:
        count = lines.count
        machine.run_cycles(64)
        if lines.count != count:
            gaps.append(lines.gap)
    assert min(gaps[1:]) < POLL_GAP / 2
    machine.type_keys("Y")
    machine.key_wait_ready()
    machine.load_program(tokenize("10 A$=INKEY$:A$=INKEY$:A$=INKEY$:A$=INKEY$:GOTO 10\n"))
    machine.type_keys("RUN{ENTER}")
    machine.run_for(0.2)
    gaps = []
    for _ in range(2000):
        count = lines.count
        machine.run_cycles(64)
        if lines.count != count:
            gaps.append(lines.gap)
    assert min(gaps) > POLL_GAP * 1.3


READY_PROGRAM = ('10 WAIT 0: FOR I=1 TO 300: NEXT I: PRINT "POLLING"\n'
                 '20 IF INKEY$="" GOTO 20\n30 PRINT "GOT IT": END\n')


def test_ready_waits_until_the_program_reads_the_keyboard(booted):
    machine = started(booted, READY_PROGRAM, "RUN{ENTER}{READY}")
    assert "POLLING" in rows(machine)
    machine.type_keys("X")
    machine.run_for(0.3)
    assert "GOT IT" in rows(machine)


def test_ready_that_is_not_answered_is_an_error_that_says_where(booted):
    machine = started(booted, "10 WAIT 0: FOR I=1 TO 2000: NEXT I\n", "")
    with pytest.raises(KeyScriptError, match=r"\{READY 5\} at position 10: the machine did not "
                                             r"read the keyboard within 0.5 s"):
        machine.type_keys("RUN{ENTER}{READY 5}")

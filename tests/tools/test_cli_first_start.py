"""`pc1360 run`'s first start and the state a run begins in: a new card gets Kniffel,
headless or not; --load and --keys begin at the RUN-mode prompt whatever state the card
was saved in; several --load's go on the card together."""

from pathlib import Path

import pytest

from emulator.machine import card_file as card
from emulator.machine.facade import PC1360
from tools.cli import main

BASIC_SRC = Path(__file__).resolve().parents[2] / "basic_src"


@pytest.fixture(params=["builtin", pytest.param("firmware", marks=pytest.mark.rom)])
def run(request, tmp_path, capsys):
    """`pc1360 run --headless` on one card file with the engine of the parameter; returns
    (exit status, screen lines, standard error)."""
    engine = ["--engine", "builtin"]
    if request.param == "firmware":
        engine = ["--rom", str(request.getfixturevalue("rom_dir"))]

    def run(*args):
        capsys.readouterr()
        status = main(["run", *engine, "--headless", "--card-file", str(tmp_path / "card.bin"),
                       "--screen", "--for", "0.5", *args])
        out, err = capsys.readouterr()
        return status, out.splitlines(), err

    return run


def test_a_headless_first_start_gets_kniffel(run):
    status, _screen, err = run()
    assert status == 0
    assert "answering Y to the S1 CLEAR question" in err and "loaded program kniffel.bas" in err
    status, screen, _err = run("--keys", "{DEF}K", "--for", "2")  # (the prompt takes a moment)
    assert status == 0 and screen[0].startswith("ANZAHL SPIELER?")


def test_load_after_a_saved_error_runs_the_new_program(run, tmp_path):
    assert run("--keys", "1/0{ENTER}")[0] == 0
    assert any("ERROR" in line for line in run()[1])  # the error was saved with the card
    source = tmp_path / "p.bas"
    source.write_text('10 PRINT "NEW ONE"\n')
    status, screen, _err = run("--load", str(source), "--keys", "RUN{ENTER}")
    assert status == 0 and "NEW ONE".ljust(24) in screen


@pytest.mark.parametrize("saved", ["{MODE}", "{SHIFT}{MODE}", "{MODE}10 A$=INKEY$: GOTO 10{ENTER}{MODE}RUN{ENTER}",
                                   "{MODE}10 INPUT A{ENTER}{MODE}RUN{ENTER}"])
def test_keys_begin_at_the_run_mode_prompt(run, saved):
    # PRO mode, RESERVE mode, a program polling INKEY$, a program at INPUT
    assert run("--keys", saved)[0] == 0
    status, screen, _err = run("--keys", "6*7{ENTER}")
    assert status == 0 and "42.".rjust(24) in screen


@pytest.mark.rom
def test_a_card_left_refused_at_the_clear_question_is_reset(rom_dir, tmp_path, capsys):
    # an answer but Y leaves the firmware's lone "*", which no key leaves
    machine = PC1360(rom_dir=rom_dir)
    machine.key_wait_ready(5)
    machine.type_keys("N")
    machine.card_store = card.CardStore(tmp_path / "card.bin", 32)
    machine.save_card()
    source = tmp_path / "p.bas"
    source.write_text('10 PRINT "AFTER *"\n')
    assert main(["run", "--rom", str(rom_dir), "--headless", "--card-file", str(tmp_path / "card.bin"),
                 "--load", str(source), "--keys", "RUN{ENTER}", "--screen", "--for", "0.5"]) == 0
    out, err = capsys.readouterr()
    assert "AFTER *".ljust(24) in out.splitlines()
    assert "refused at the S1 CLEAR question" in err


def test_two_loads_leave_both_programs_runnable(run):
    loads = ["--load", str(BASIC_SRC / "kniffel.bas"), "--load", str(BASIC_SRC / "yahtzee.bas")]
    status, _screen, err = run(*loads)
    assert status == 0 and "loaded programs kniffel.bas, yahtzee.bas" in err
    assert run("--keys", "{DEF}J")[1][0].startswith("AANTAL SPELERS?")
    assert run("--keys", "{BRK}{DEF}K", "--for", "2")[1][0].startswith("ANZAHL SPIELER?")


def test_loads_that_share_a_line_number_are_refused(run, tmp_path):
    first, second = tmp_path / "a.bas", tmp_path / "b.bas"
    first.write_text('10 PRINT "A"\n20 END\n')
    second.write_text('5 PRINT "B"\n10 END\n20 END\n')
    status, _screen, err = run("--load", str(first), "--load", str(second))
    assert status == 1
    assert "--load: b.bas: line 10 and 1 more also in a.bas" in err
    assert "Traceback" not in err


def test_the_readme_recipe_puts_all_four_games_on_a_32k_card(tmp_path, capsys):
    games = ["kniffel", "yahtzee", "mikazee", "mishimash"]
    loads = [arg for game in games for arg in ("--load", str(BASIC_SRC / f"{game}.bas"))]
    base = ["run", "--engine", "builtin", "--headless", "--card-file", str(tmp_path / "card.bin"),
            "--screen"]
    assert main([*base, *loads, "--for", "0"]) == 0
    for keys, first_line in (("{DEF}K", "ANZAHL SPIELER?"), ("{DEF}J", "AANTAL SPELERS?"),
                             ("{DEF}M", "MIKAZEE SET 1"), ("{DEF}X", "AANTAL SPELERS?")):
        capsys.readouterr()
        assert main([*base, "--keys", keys, "--for", "6"]) == 0
        assert capsys.readouterr().out.startswith(first_line), keys


SLOW_POLL = '10 A$=INKEY$: IF A$<>"" PRINT "GOT ";A$: END\n20 FOR I=1 TO 60: NEXT I: GOTO 10\n'


def test_hold_lets_a_slow_inkey_loop_see_the_key(run, tmp_path):
    # the loop reads INKEY$ about every half second: a key held 600 ms cannot fall between
    source = tmp_path / "slow.bas"
    source.write_text(SLOW_POLL)
    status, screen, _err = run("--load", str(source), "--keys", "RUN{ENTER}{WAIT 3}{HOLD 600}X")
    assert status == 0 and "GOT X".ljust(24) in screen


def test_a_bad_hold_is_a_usage_error(run):
    status, _screen, err = run("--keys", "{HOLD 0}")
    assert status == 1 and "--keys: {HOLD 0} at position 0: 1 to 10000 milliseconds" in err


def test_a_pty_transfer_with_the_default_send_pacing_arrives_whole(tmp_path):
    """`pc1360 run --serial pty` in real time, `pc1360 send` with its own default pacing on
    the printed port, as a user runs them in two terminals."""
    import os
    import re
    import subprocess
    import sys

    from emulator.machine.program_files import read_program
    from pc1360.ramcard import read_card
    from pc1360.tokenizer import tokenize

    source = tmp_path / "p.bas"
    source.write_text("".join(f'{n} PRINT "LINE {n}"\n' for n in range(10, 310, 10)))
    card_file = tmp_path / "card.bin"
    env = dict(os.environ, PYTHONPATH=str(BASIC_SRC.parent))
    command = [sys.executable, "-m", "tools.cli"]
    keys = '{MODE}NEW{ENTER}{MODE}OPEN "1200,N,8,1,A,L,&1A"{ENTER}LOAD{ENTER}'
    machine = subprocess.Popen([*command, "run", "--engine", "builtin", "--headless", "--card-file",
                                str(card_file), "--serial", "pty", "--keys", keys, "--for", "2"],
                               env=env, stderr=subprocess.PIPE, text=True)
    try:
        for _line in range(4):
            found = re.search(r"serial port on (\S+)", machine.stderr.readline())
            if found:
                break
        sent = subprocess.run([*command, "send", str(source), "--port", found.group(1),
                               "--handshake", "none"], env=env, capture_output=True, text=True,
                              timeout=120)
        err = machine.communicate(timeout=120)[1]
    finally:
        machine.kill()
    assert sent.returncode == 0, sent.stderr
    assert machine.returncode == 0 and "cut off" not in err
    data = card.decode(card_file.read_bytes())[0]
    assert read_card(data) == tokenize(source.read_bytes()) == read_program(source)[1]

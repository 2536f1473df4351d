"""Key scripts through `pc1360 run --headless --keys`: a program polling INKEY$ gets every
key without {HOLD} or {WAIT}, {READY} waits for the program and says so when it does not
come, and a whole Kniffel turn plays from one script on both engines."""

import pytest

from tests.helpers.kniffel_driver import parse_game_screen
from tests.helpers.kniffel_model import Player
from tools.cli import main

# One player; roll 1: dice 1 and 3 again, roll 2: die 2 again; the third roll asks "?".
# Each key after the names waits for the game's INKEY$ ({READY}), none for a time.
TURN = "{DEF}K1{ENTER}AB{ENTER}{READY}1{READY}3{READY}{ENTER}{READY}2{READY}{ENTER}{READY}"


@pytest.fixture(params=["builtin", pytest.param("firmware", marks=pytest.mark.rom)])
def run(request, tmp_path, capsys):
    """`pc1360 run --headless --screen` on a card file of its own (`card`, a name) with the
    parameter's engine; returns (exit status, screen lines, standard error)."""
    engine = ["--engine", "builtin"]
    if request.param == "firmware":
        engine = ["--rom", str(request.getfixturevalue("rom_dir"))]

    def run(*args, card="card.bin"):
        capsys.readouterr()
        status = main(["run", *engine, "--headless", "--card-file", str(tmp_path / card),
                       "--screen", *args])
        out, err = capsys.readouterr()
        return status, out.splitlines(), err

    return run


def test_a_script_with_ready_plays_a_kniffel_turn(run):
    # Runs are exact in emulated time, so the same script on a new card rolls the same
    # dice: the first run shows them at the "?", the second books them as the face of the
    # first die, and the screen of the next turn must show what the rules give.
    status, screen, err = run("--keys", TURN, "--for", "0", card="first.bin")
    assert status == 0, err
    asked = parse_game_screen(screen)
    assert asked.prompt and asked.round == 1 and asked.roll == 3 and None not in asked.dice
    face = asked.dice[0]
    player = Player("AB")
    points = player.book(str(face), asked.dice)
    status, screen, err = run("--keys", TURN + f"{face}{{READY}}", "--for", "0", card="second.bin")
    assert status == 0, err
    booked = parse_game_screen(screen)
    assert (booked.round, booked.roll, booked.name) == (2, 1, "AB")
    assert booked.upper_row == "1 2 3 4 5 6".replace(str(face), "-")
    assert (booked.score, booked.distance) == (player.total, player.distance) == (points, points - 3 * face)


SLOW_POLL = '10 A$=INKEY$: IF A$<>"" PRINT "GOT ";A$: END\n20 FOR I=1 TO 60: NEXT I: GOTO 10\n'


def test_a_slow_inkey_loop_gets_a_key_without_hold(run, tmp_path):
    # the loop reads INKEY$ about every half second; the key is held until it has
    source = tmp_path / "slow.bas"
    source.write_text(SLOW_POLL)
    status, screen, _err = run("--load", str(source), "--keys", "RUN{ENTER}X", "--for", "0.5")
    assert status == 0 and "GOT X".ljust(24) in screen


def test_ready_that_the_program_does_not_answer_is_reported(run, tmp_path):
    source = tmp_path / "busy.bas"
    source.write_text("10 WAIT 0: FOR I=1 TO 2000: NEXT I: PRINT \"DONE\"\n")
    status, screen, err = run("--load", str(source), "--keys", "RUN{ENTER}{READY 10}")
    assert status == 1 and "Traceback" not in err
    assert ("--keys: {READY 10} at position 10: the machine did not read the keyboard within "
            "1 s (emulated); the screen shows RUN\n") in err
    assert not screen  # the screen is not printed for a script that failed

"""Whole MISHIMASH games on both engines: the firmware (the real ROM running
basic_src/mishimash.bas) and the built-in BASIC, with the same assertions.

After every key the LCD text is read and checked against mishimash_model: the dice, the roll
number (the multiplier), the name, the label (round, final round, sudden death), the turn's
unbanked points, the banked total and the messages. The scripted games force the rolls
(mishimash_driver.force pokes the dice as the program rolls them) to reach the cases: the
refused split, the multiplier, the MISHIMASH bonus for the first to the sixth clear of a
turn, bank, bust, the final round after the target and a sudden-death tie-break. One game
is played with the program's own random dice.

One machine serves the module: it is booted and loaded once and every test starts from a
snapshot of it (the emulator keeps its translated ROM code, so later games run faster).
Runtime (shared 2-core machine): see basic_src/mishimash.md.
"""

import pytest

from tests.helpers import kniffel_driver as kd
from tests.helpers import mishimash_model as mm

md = pytest.importorskip("tests.helpers.mishimash_driver", exc_type=ImportError)

ENGINES = [pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"]

MAX_SHOWN_S = 4.0  # ENTER (or the key after a turn) -> the new dice, shown once counted
MAX_READY_S = 4.5  # ... -> the program takes keys again (counted, bust checked)
MAX_ANSWER_S = 0.5  # every key -> the first change on the display (issue 19)


@pytest.fixture(scope="module", params=ENGINES)
def loaded(request):
    engine = request.param
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    machine = md.boot(rom_dir, card_kb=8, engine=engine)
    game = md.Mishimash(machine)
    game.load()
    return game, machine.snapshot()


@pytest.fixture
def k(loaded):
    game, snapshot = loaded
    game.m.restore(snapshot)
    game.pending = None
    game.times = {"shown": [], "ready": []}
    game.answers = []
    return game


# -- helpers ----------------------------------------------------------------------------

def check_roll(k, game, turn, message=""):
    """The screen after a roll that scores: everything as the model has it."""
    s = k.turn_screen()
    assert s.dice == turn.dice, s.rows
    assert s.roll == turn.roll_number and s.chosen == (), s.rows
    assert s.name == game.names[game.current], s.rows
    assert s.label == game.label, s.rows
    assert s.turn == turn.points, s.rows
    assert s.total == game.scores[game.current], s.rows
    assert s.bonus_message == message and s.status == "", s.rows
    return s


def choose(k, positions):
    """Digit keys for the 1-based positions (each beeps once and marks its die)."""
    for position in positions:
        before = k.turn_screen().chosen
        k.key(str(position))
        assert k.beeps == 1
        after = k.turn_screen().chosen
        assert set(after) ^ set(before) == {position}, (before, after)


def keep_and_roll(k, game, turn, positions, dice):
    """Choose `positions` (1-based; dice chosen before stay chosen), ENTER, and the next
    roll comes out as `dice`. Returns
    the bonus of a clear (the message it shows) and checks the screen (bust included)."""
    choose(k, positions)
    kept = [p - 1 for p in k.turn_screen().chosen]  # also dice chosen before
    k.force(dice)
    k.key("ENTER")
    assert k.beeps >= 1
    _, bonus = turn.keep(kept)
    message = f"MISHIMASH +{bonus}" if bonus else ""
    if turn.roll(dice):
        s = k.turn_screen()
        assert s.dice == tuple(dice) and s.status == "PECH!" and s.turn == 0, s.rows
        assert k.beeps == 2 and s.bonus_message == message, s.rows
        return bonus
    check_roll(k, game, turn, message)
    return bonus


def keep_and_bank(k, game, turn, positions):
    choose(k, positions)
    kept = [p - 1 for p in k.turn_screen().chosen]
    k.key("B")
    assert k.beeps == 1
    _, bonus = turn.keep(kept)
    banked = turn.bank()
    started = game.end_turn(banked)
    s = k.turn_screen()
    assert s.turn == banked and s.status == "BEWAARD", s.rows
    assert s.total == game.scores[game.history[-1][0]], s.rows
    assert s.bonus_message == (f"MISHIMASH +{bonus}" if bonus else ""), s.rows
    if started:
        assert s.label == ("EINDE" if game.finished else "SLOTRONDE"), s.rows
    return banked


def next_turn(k, game, dice):
    """The key after a bank or a bust; the next player's first roll comes out as `dice`."""
    k.force(dice)
    k.key("ENTER")
    turn = mm.Turn()
    if turn.roll(dice):
        game.end_turn(None)
        s = k.turn_screen()
        assert s.status == "PECH!" and s.turn == 0 and s.dice == tuple(dice), s.rows
        return None
    check_roll(k, game, turn)
    return turn


def check_end_screen(k, game):
    rows = k.screen()
    for i, name in enumerate(game.names[:6]):
        row, col = divmod(12 * i, 24)
        assert rows[row][col:col + 10] == f"{name}{game.scores[i]:8.1f}", rows
    winner = game.names[game.winner]
    assert rows[3].startswith(f"WINNAAR: {winner}  RONDE{game.round:3d}"), rows


def finish(k, answer="N"):
    k.key("ENTER")
    assert k.screen()[0].startswith("NIEUW SPEL? J/N"), k.screen()
    k.key("X")  # neither J nor N: asked again
    assert k.screen()[0].startswith("NIEUW SPEL? J/N")
    k.answers.pop()  # the same question: not an answer to time
    k.key(answer, wait=False)
    k.m.key_wait_ready()
    k.check_error()


def check_times(k):
    assert max(k.times["shown"]) <= MAX_SHOWN_S, k.times["shown"]
    assert max(k.times["ready"]) <= MAX_READY_S, k.times["ready"]
    assert None not in k.answers and max(k.answers) <= MAX_ANSWER_S, k.answers


# -- the games ----------------------------------------------------------------------------

def test_refused_split_multiplier_and_three_clears_in_one_turn(k):
    """AB: refused split of three 5s and a refused dead die, then rolls x1 to x5 with
    three MISHIMASH clears (+10, +20, +30, never multiplied), the last one banked past
    the target: CD plays the final round (and busts), AB wins."""
    game = mm.Game(["AB", "CD"], target=60)
    turn = mm.Turn()
    k.start(game.names, target=60, first_dice=(5, 5, 5, 1, 2, 3))
    turn.roll((5, 5, 5, 1, 2, 3))
    check_roll(k, game, turn)
    # one 5 of three equal: refused (two beeps, ONGELDIG), nothing else changes
    choose(k, [1])
    k.key("ENTER")
    s = k.turn_screen()
    assert k.beeps == 2 and s.status == "ONGELDIG" and s.turn == 0 and s.roll == 1, s.rows
    with pytest.raises(mm.Refused):
        mm.keep_points(turn.dice, [0])
    # a die that scores nothing: refused too
    choose(k, [2, 3, 5])
    k.key("B")
    assert k.beeps == 2 and k.turn_screen().status == "ONGELDIG"
    choose(k, [5])  # take the 2 back: 5 5 5 chosen
    assert k.turn_screen().chosen == (1, 2, 3)
    keep_and_roll(k, game, turn, [4], (1, 6))  # 5 5 5 + 1: (5 + 1) x1
    assert turn.points == 6 and turn.dice_left == 2
    for key in ("3", "6", "X"):  # no die 3 or 6 in play now, X is no key: ignored
        k.key(key)
        assert k.beeps == 0 and k.turn_screen().chosen == ()
        assert k.answers.pop() is None  # the display does not change
    assert keep_and_roll(k, game, turn, [1], (5,)) == 0  # the 1 x2, the 6 stays
    assert turn.points == 8
    assert keep_and_roll(k, game, turn, [1], (1, 1, 1, 5, 5, 5)) == 10  # 5 x3: 1st clear
    assert turn.points == 8 + 1.5 + 10
    assert keep_and_roll(k, game, turn, range(1, 7), (6, 2, 4, 1, 3, 5)) == 20  # x4
    assert turn.points == 19.5 + 60 + 20 and turn.roll_number == 5
    banked = keep_and_bank(k, game, turn, range(1, 7))  # the straight x5, 3rd clear: +30
    assert banked == 99.5 + 75 + 30
    assert game.phase == "final" and game.current == 1
    s = k.turn_screen()
    assert s.label == "SLOTRONDE" and s.bonus_message == "MISHIMASH +30" and s.total == 204.5
    assert next_turn(k, game, (2, 3, 4, 6, 2, 3)) is None  # CD: bust in the final round
    assert k.turn_screen().label == "SLOT> 204.5" and k.turn_screen().name == "CD"  # to beat
    assert game.finished and game.winner == 0
    k.key("ENTER")
    check_end_screen(k, game)
    finish(k, "N")
    assert all(row.strip() in ("", ">") for row in k.screen()), k.screen()
    check_times(k)


def test_final_round_order_and_sudden_death(k):
    """AA reaches the target: only BB and CC play once more (not AA again); AA and BB tie,
    CC is out; sudden death: both bust (still tied), then BB leads by half a point."""
    game = mm.Game(["AA", "BB", "CC"], target=10)
    k.start(game.names, target=10, first_dice=(1, 1, 1, 2, 3, 4))
    turn = mm.Turn()
    turn.roll((1, 1, 1, 2, 3, 4))
    check_roll(k, game, turn)
    keep_and_bank(k, game, turn, [1, 2, 3])  # AA 10: target
    assert k.turn_screen().label == "SLOTRONDE"
    turn = next_turn(k, game, (4, 1, 1, 1, 3, 2))  # BB, final round
    assert k.turn_screen().label == "SLOT> 10.0"  # the score to beat
    keep_and_bank(k, game, turn, [2, 3, 4])  # BB 10: a tie
    assert next_turn(k, game, (2, 2, 3, 4, 6, 3)) is None  # CC busts
    assert game.phase == "sudden death" and game.names[game.current] == "AA"
    assert next_turn(k, game, (2, 2, 3, 3, 4, 6)) is None  # AA, sudden death: bust
    assert k.turn_screen().label == "BESLISSING" and k.turn_screen().name == "AA"
    assert next_turn(k, game, (3, 3, 4, 4, 6, 2)) is None  # BB: bust (CC is skipped)
    assert k.turn_screen().name == "BB"
    turn = next_turn(k, game, (5, 2, 3, 4, 6, 6))  # still tied: AA again
    assert k.turn_screen().label == "BESLISSING"
    keep_and_bank(k, game, turn, [1])  # AA 10.5
    assert k.turn_screen().total == 10.5
    turn = next_turn(k, game, (1, 2, 3, 4, 6, 6))
    assert k.turn_screen().name == "BB"
    keep_and_bank(k, game, turn, [1])  # BB 11
    assert game.finished and game.winner == 1
    assert [game.names[p] for p, _ in game.history] == ["AA", "BB", "CC", "AA", "BB", "AA", "BB"]
    k.key("ENTER")
    check_end_screen(k, game)
    finish(k, "J")  # a new game starts with the player count
    assert k.screen()[0].startswith("AANTAL SPELERS?"), k.screen()


def test_one_player_default_target_six_clears_and_memory(k):
    """One player, target left at 1000 (ENTER alone): six clears of six 1s in one turn
    (40 x1 ... 40 x6, bonus +10 ... +60) bank 1050 and end the game. MEM is measured before
    and after."""
    free_after_load = k.free_memory()
    game = mm.Game(["SO"], target=1000)
    k.start(game.names, target=None, first_dice=(1,) * 6)
    turn = mm.Turn()
    turn.roll((1,) * 6)
    check_roll(k, game, turn)
    for clear in range(1, 6):
        assert keep_and_roll(k, game, turn, range(1, 7), (1,) * 6) == 10 * clear
    assert turn.roll_number == 6 and turn.points == 40 * 15 + 150
    banked = keep_and_bank(k, game, turn, range(1, 7))
    assert banked == 40 * 21 + 210 == 1050
    assert game.finished and k.turn_screen().label == "EINDE"
    assert k.turn_screen().bonus_message == "MISHIMASH +60"
    k.key("ENTER")
    check_end_screen(k, game)
    finish(k, "N")
    free_at_end = k.free_memory()
    print(f"\nMEM after load {free_after_load}, after a 1-player game {free_at_end}; "
          f"dice shown {min(k.times['shown']):.2f}-{max(k.times['shown']):.2f} s after the key")
    # nine two-letter numbers (15 bytes each), two arrays (7 bytes each), a player 10 bytes
    assert free_after_load - free_at_end == 9 * 15 + 2 * 7 + 10
    assert free_at_end > 2300
    check_times(k)


def test_random_dice_game(k):
    """Two players, the program's own dice: every roll read off the screen is scored by the
    model; a player keeps all scoring dice and banks (rolls on after a clear)."""
    game = mm.Game(["R1", "R2"], target=8)
    k.start(game.names, target=8)
    turns = 0
    while not game.finished:
        turns += 1
        assert turns <= 40, game.scores
        s = k.turn_screen()
        turn = mm.Turn()
        message = ""
        while True:
            if turn.roll(s.dice):
                assert s.status == "PECH!" and s.turn == 0 and s.bonus_message == message, s.rows
                game.end_turn(None)
                break
            check_roll(k, game, turn, message)
            kept, _ = mm.best_keep(s.dice)
            positions = sorted(p + 1 for p in kept)
            if len(kept) < len(s.dice):
                keep_and_bank(k, game, turn, positions)
                break
            choose(k, positions)
            k.key("ENTER")
            _, bonus = turn.keep(kept)
            message = f"MISHIMASH +{bonus}"
            s = k.turn_screen()
        if not game.finished:
            k.key("ENTER")
    assert len(game.history) >= 2
    k.key("ENTER")
    check_end_screen(k, game)
    finish(k, "N")


def test_seven_players_final_round_and_two_end_pages(k):
    """The first of seven players reaches the target at once: the six others play the final
    round (all bust); the end screen needs two pages (six players, VERDER?, then one)."""
    game = mm.Game([f"P{i}" for i in range(1, 8)], target=10)
    k.start(game.names, target=10, first_dice=(2, 1, 1, 1, 3, 4))
    turn = mm.Turn()
    turn.roll((2, 1, 1, 1, 3, 4))
    check_roll(k, game, turn)
    keep_and_bank(k, game, turn, [2, 3, 4])
    for player in range(2, 8):
        assert next_turn(k, game, (6, 6, 4, 4, 3, 2)) is None
        s = k.turn_screen()
        assert s.name == f"P{player}" and s.label == "SLOT> 10.0", s.rows
    assert game.finished and game.winner == 0
    k.key("ENTER")
    rows = k.screen()
    assert rows[0] == "P1    10.0  P2     0.0  ", rows
    assert rows[2].startswith("P5     0.0  P6     0.0") and rows[3].startswith("VERDER?"), rows
    k.key("ENTER")
    rows = k.screen()
    assert rows[0].startswith("P7     0.0") and rows[1].strip() == "", rows
    assert rows[3].startswith("WINNAAR: P1  RONDE  1"), rows
    finish(k, "N")


def standings(k, game):
    """The screen of the S key: two players a row (name, banked total), DOEL and the target
    on row 3 (up to six players: the games here have fewer)."""
    rows = k.screen()
    cells = [f"{name}{score:8.1f}" for name, score in zip(game.names, game.scores)]
    for row in range(3):
        assert rows[row] == "  ".join(cells[2 * row:2 * row + 2]).ljust(24), rows
    assert rows[3] == f"DOEL{game.target:7d}".ljust(24), rows


def test_standings_key_during_a_turn_and_after_a_bank(k):
    """S shows every player's banked total and the target (a key brings the turn back as it
    was: dice, chosen dice, multiplier, points); S after BEWAARD shows the new totals, and
    the key after them starts the next turn."""
    game = mm.Game(["AA", "BB", "CC"], target=100)
    k.start(game.names, target=100, first_dice=(1, 1, 1, 2, 3, 4))
    turn = mm.Turn()
    turn.roll((1, 1, 1, 2, 3, 4))
    check_roll(k, game, turn)
    keep_and_bank(k, game, turn, [1, 2, 3])  # AA 10
    turn = next_turn(k, game, (5, 5, 5, 2, 3, 4))  # BB
    keep_and_roll(k, game, turn, [1, 2, 3], (2, 6, 5))  # three 5s; three dice again, x2
    choose(k, [1])  # the 2 chosen (not a combination)
    before = k.screen()
    assert before[0][12:17] == " x2  ", before  # the multiplier, labelled
    k.key("S")
    assert k.beeps == 0
    standings(k, game)
    k.key("ENTER")
    assert k.screen() == before  # the turn as it was
    choose(k, [1])  # taken back
    keep_and_bank(k, game, turn, [3])  # the 5
    k.key("S")  # at the BEWAARD key: the standings first
    standings(k, game)
    assert game.scores[1] > 0
    turn = next_turn(k, game, (1, 1, 1, 2, 3, 4))  # CC
    assert turn is not None and k.turn_screen().name == "CC"


# -- BRK and CONT: the program redraws its screen ---------------------------------------

def check_redrawn(k):
    """BRK then CONT at the key the program waits for: the screen is the one before BRK."""
    before = k.screen()
    kd.break_and_continue(k)
    assert k.screen() == before


def test_cont_redraws_the_turn_with_its_messages(k):
    """At a roll with chosen dice, with MISHIMASH +10 and ONGELDIG; after PECH!; after a
    bank that starts the final round (SLOTRONDE); on the standings (VERDER? and DOEL)."""
    game = mm.Game([f"P{i}" for i in range(1, 8)], target=20)
    k.start(game.names, target=20, first_dice=(1, 1, 1, 5, 2, 3))
    turn = mm.Turn()
    turn.roll((1, 1, 1, 5, 2, 3))
    choose(k, [1, 2])
    check_redrawn(k)  # two of three 1s chosen
    choose(k, [3, 4])
    keep_and_roll(k, game, turn, [], (5, 5))  # 1 1 1 5 kept: x2
    keep_and_roll(k, game, turn, [1, 2], (1, 1, 1, 2, 3, 4))  # a clear: six dice again
    assert k.turn_screen().bonus_message == "MISHIMASH +10"
    check_redrawn(k)
    choose(k, [4])  # the 2: not a combination
    k.key("ENTER")
    assert k.turn_screen().status == "ONGELDIG"
    check_redrawn(k)
    assert k.turn_screen().bonus_message == "MISHIMASH +10"
    choose(k, [4])
    keep_and_bank(k, game, turn, [1, 2, 3])
    assert k.turn_screen().label == "SLOTRONDE"
    check_redrawn(k)
    k.key("S")
    assert k.screen()[3].startswith("VERDER?")
    check_redrawn(k)
    k.key("ENTER")
    assert k.screen()[3].startswith("DOEL")
    check_redrawn(k)
    assert next_turn(k, game, (6, 6, 4, 4, 3, 2)) is None  # P2 busts
    check_redrawn(k)
    assert k.turn_screen().status == "PECH!"


def test_cont_on_the_end_pages_and_the_new_game_question(k):
    game = mm.Game([f"P{i}" for i in range(1, 8)], target=10)
    k.start(game.names, target=10, first_dice=(2, 1, 1, 1, 3, 4))
    turn = mm.Turn()
    turn.roll((2, 1, 1, 1, 3, 4))
    keep_and_bank(k, game, turn, [2, 3, 4])
    for _ in range(2, 8):
        assert next_turn(k, game, (6, 6, 4, 4, 3, 2)) is None
    k.key("ENTER")
    assert k.screen()[3].startswith("VERDER?")
    check_redrawn(k)
    k.key("ENTER")
    assert k.screen()[3].startswith("WINNAAR: P1")
    check_redrawn(k)
    k.key("ENTER")
    assert k.screen()[0].startswith("NIEUW SPEL? J/N")
    check_redrawn(k)
    k.key("N", wait=False)
    k.m.key_wait_ready()
    k.check_error()


def test_brk_while_busy_then_cont_shows_what_it_would_have(k):
    """BRK while the program rolls and counts after ENTER, then CONT: once it waits again
    the screen is the one it shows without the BRK."""
    game = mm.Game(["AA", "BB"], target=100)
    k.start(game.names, target=100, first_dice=(1, 5, 2, 3, 4, 6))
    choose(k, [1])
    start = k.m.snapshot()
    k.key("ENTER")
    expected = k.screen()
    for delay in (0.3, 1.0, 1.8):
        k.m.restore(start)
        k.wait_ready(forcing=False)
        k.m.press("ENTER")
        k.m.run_for(0.1)
        k.m.release("ENTER")
        kd.break_and_continue(k, after=delay)
        assert k.screen() == expected, delay

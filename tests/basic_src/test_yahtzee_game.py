"""Yahtzee games on the firmware engine (the real ROM running basic_src/yahtzee.bas, loaded
together with basic_src/kniffel.bas on a 16 KB card).

Every turn the dice, the game/turn/roll labels, the name, both box rows, the difference sum
and the score are read off the LCD text and checked against yahtzee_model; the "?" row's
messages (+100, JOKER, BEZET) too. The dice are poked into the fixed variables A-E (see
yahtzee_driver.py) to force the cases; a few turns also roll again with keys 1-5.

To keep the runtime down, the five-game match and the high-score games are short: the
turn counter R is poked to 13 (or 12) at the start of each game, so a game ends after one
(or two) rounds; the full 13-round game is the scripted two-player game.
"""

import pytest

from tests.helpers import yahtzee_model as ym
from tests.helpers import kniffel_driver as kd
from tests.helpers.kniffel_driver import resumed_machine

yd = pytest.importorskip("tests.helpers.yahtzee_driver", exc_type=ImportError)

ENGINES = [pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"]

MAX_REROLL_S = 1.0  # ENTER -> new dice on the display
MAX_NEXT_TURN_S = 4.0  # box chosen -> the next first roll (drawn last, when the keys are read)
MAX_ANSWER_S = 0.5  # any of those keys -> the first change on the display (issue 19)
EMPTY = ("--", 0)
MEM_PER_PLAYER = 2 + 24 + 20 + 5 * 8  # NM$ *2, UR$ *24, LR$ *20, PT(.,0..4)
MEM_FIXED = 5 * 7 + 7 * 18 + 7 + 8  # five array headers, CT$(6)*18, the variable WN


# -- helpers ------------------------------------------------------------------------------

@pytest.fixture(scope="module", params=ENGINES)
def loaded(request):
    """One booted machine with both programs for the module: each test starts from its
    snapshot on the same machine, so the CPU core's compiled blocks stay warm (compiling
    them again for every test would double the runtime)."""
    engine = request.param
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    machine = yd.boot(rom_dir, engine=engine)
    y = yd.Yahtzee(machine)
    y.load()
    return y, machine.snapshot()


@pytest.fixture
def game(loaded):
    y, snap = loaded
    y.m.restore(snap)
    y._index_lines()  # a test may have loaded another image
    y.reset_records()
    return y


def key_for(box):
    return ym.BOX_KEYS[ym.BOXES.index(box)]


def check_turn_start(screen, player, game_number):
    assert screen.name == player.name, screen.rows
    assert screen.game == game_number, screen.rows
    assert screen.roll == 1, screen.rows
    assert all(d in range(1, 7) for d in screen.dice), screen.rows
    assert screen.upper_row == player.upper_row(), (screen.rows, player.upper_row())
    assert screen.difference_sum == player.difference_sum, screen.rows
    assert screen.lower_row == player.lower_row(), (screen.rows, player.lower_row())
    assert screen.score == player.total, (screen.rows, player.total)
    assert not screen.prompt and screen.message == "", screen.rows
    assert screen.keys == player.key_row(), (screen.rows, player.key_row())


def expected_message(player, dice):
    words = []
    if player.bonus_due(dice):
        words.append("+100")
    if player.joker(dice):
        words.append("JOKER")
    return " ".join(words)


def scored_turn(y, player, box, dice, game_number, refuse=None, reroll=(), timing=True):
    """One turn with the dice poked: optionally roll the dice `reroll` again first (checking
    the kept ones), then poke `dice`, ENTER (the "?"), optionally a used box (refused), the
    box. Checks the screen at the start and at the "?". Returns the points of the box."""
    screen = y.game_screen()
    check_turn_start(screen, player, game_number)
    if reroll:
        for position in reroll:
            y.key(str(position))
            assert y.beeped and y.game_screen().dice[position - 1] is None
        y.key("ENTER", timing="reroll")
        after = y.game_screen()
        assert after.roll == 2
        for i in range(5):
            if i + 1 not in reroll:
                assert after.dice[i] == screen.dice[i], (screen.rows, after.rows)
    y.wait_ready()
    y.poke_dice(dice)
    y.key("ENTER", timing="prompt")
    assert y.beeped
    prompt = y.game_screen()
    assert prompt.prompt and prompt.message == expected_message(player, dice), prompt.rows
    assert prompt.keys == player.key_row(), prompt.rows  # the open boxes' keys at the "?"
    if refuse:
        y.key(key_for(refuse))
        assert y.beeped
        refused = y.game_screen()
        assert refused.prompt and refused.message.endswith("BEZET"), refused.rows
        assert refused.keys == player.key_row(), refused.rows
        assert refused.score == player.total
    points = player.book(box, dice)
    y.key(key_for(box), timing="next_turn" if timing else None)
    assert y.beeped
    return points


def check_end_screen(y, players, match, final):
    """Game scores and match totals, and the (game or overall) winner on row 4."""
    rows = y.screen()
    for i, player in enumerate(players):
        row, col = divmod(12 * i, 24)
        assert rows[row][col:col + 11] == f"{player.name}{player.total:4d}{match.totals[i]:5d}", rows
    values = match.totals if final else [p.total for p in players]
    best = ym.winners(values)
    names = " ".join(players[i].name for i in best)
    if len(best) > 1:
        expected = f"GELIJK: {names}"
    else:
        expected = f"{'EINDWINNAAR' if final else 'WINNAAR'}: {names}"
    assert rows[3] == expected.ljust(24), rows


def check_times(y):
    assert y.times["next_turn"], y.times
    assert max(y.times["next_turn"]) <= MAX_NEXT_TURN_S, y.times["next_turn"]
    assert max(y.times["reroll"], default=0) <= MAX_REROLL_S, y.times["reroll"]
    assert None not in y.times["answer"] and max(y.times["answer"]) <= MAX_ANSWER_S, \
        y.times["answer"]


def check_hiscore_screen(y, entries, place):
    rows = y.screen()
    assert rows[0].startswith("TOP 10"), rows
    for i, (name, value) in enumerate(entries, start=1):
        row, col = divmod(8 * i, 24)
        assert rows[row][col:col + 7] == f"{name}{value:5d}", (i, rows)
    tail = rows[3][16:]
    assert tail == (f"NR{place + 1:3d}" if place is not None else "").ljust(8), rows


# -- the scripted two-player game ---------------------------------------------------------

# (box, dice, options). AB fills the jahtzy box with 50 and gets the bonus three times
# (in an upper box, as a joker, and once without the joker's precondition); CD crosses the
# jahtzy box out (0): its later jahtzies give no bonus, but the joker still works.
SCRIPT_AB = [
    ("JA", (3, 3, 3, 3, 3), {}),
    ("FH", (4, 4, 4, 4, 4), {}),  # +100; box 4 open: no joker, FH 0
    ("3", (3, 3, 3, 3, 3), {"refuse": "JA"}),  # +100 in the upper box (15, +6)
    ("KS", (3, 3, 3, 3, 3), {}),  # +100, joker: KS 30
    ("6", (6, 6, 6, 2, 2), {"reroll": (4, 5)}),
    ("5", (5, 5, 5, 5, 1), {}),
    ("4", (4, 4, 4, 1, 2), {}),
    ("GS", (6, 6, 6, 6, 6), {}),  # +100, joker: GS 40
    ("2", (2, 2, 2, 1, 3), {}),  # upper 71: bonus 35
    ("1", (1, 1, 1, 2, 3), {}),
    ("DG", (2, 2, 2, 5, 6), {"reroll": (1, 2, 3, 4, 5)}),
    ("VG", (1, 2, 3, 4, 6), {}),  # 0
    ("KA", (6, 5, 4, 3, 3), {}),
]
SCRIPT_CD = [
    ("KA", (1, 2, 3, 4, 6), {}),
    ("JA", (1, 2, 3, 4, 5), {}),  # jahtzy box crossed out: 0
    ("5", (5, 5, 5, 5, 5), {}),  # no bonus (JA holds 0); box 5 was open: no joker
    ("FH", (5, 5, 5, 5, 5), {}),  # joker: FH 25, still no bonus
    ("GS", (2, 2, 2, 2, 2), {}),  # box 2 open: no joker, GS 0
    ("2", (2, 2, 3, 3, 1), {}),
    ("KS", (1, 1, 1, 1, 1), {}),  # box 1 open: no joker, KS 0
    ("1", (1, 1, 2, 3, 4), {}),
    ("3", (3, 3, 1, 2, 4), {}),
    ("4", (4, 4, 4, 4, 2), {}),
    ("6", (6, 1, 2, 3, 4), {}),
    ("DG", (2, 2, 3, 3, 1), {}),  # 0
    ("VG", (5, 5, 5, 5, 5), {}),  # joker shown (box 5 filled), VG counts the sum: 25
]


def test_script_covers_the_rules():
    ab, cd = ym.Player("AB"), ym.Player("CD")
    for player, script in ((ab, SCRIPT_AB), (cd, SCRIPT_CD)):
        for box, dice, _ in script:
            player.book(box, dice)
        assert player.finished
    assert ab.jahtzy_bonus == 400 and cd.jahtzy_bonus == 0
    assert ab.points["FH"] == 0 and ab.points["KS"] == 30 and ab.points["GS"] == 40
    assert cd.points["FH"] == 25 and cd.points["GS"] == 0 and cd.points["KS"] == 0
    assert cd.points["JA"] == 0
    assert ab.bonus == 35 and cd.bonus == 0
    assert ab.difference_sum == 74 - 63 and cd.difference_sum == 59 - 63
    assert ab.total > cd.total


def test_scripted_two_player_game(game):
    y = game
    y.start(["AB", "CD"])
    players = [ym.Player("AB"), ym.Player("CD")]
    match = ym.Match(["AB", "CD"])
    for rnd in range(ym.ROUNDS):
        for player, script in zip(players, (SCRIPT_AB, SCRIPT_CD)):
            box, dice, options = script[rnd]
            assert y.game_screen().round == rnd + 1
            last = rnd == ym.ROUNDS - 1 and player is players[1]
            scored_turn(y, player, box, dice, 1, timing=not last, **options)
    y.wait_ready()
    match.add_game([p.total for p in players])
    check_end_screen(y, players, match, final=False)
    assert y.screen()[3].startswith("WINNAAR: AB")
    y.key("ENTER")  # game 2 of the match starts with fresh score cards
    fresh = [ym.Player("AB"), ym.Player("CD")]
    check_turn_start(y.game_screen(), fresh[0], 2)
    check_times(y)
    print(f"\nnext turn {min(y.times['next_turn']):.2f}-{max(y.times['next_turn']):.2f} s, "
          f"reroll {min(y.times['reroll']):.2f}-{max(y.times['reroll']):.2f} s, "
          f"prompt {min(y.times['prompt']):.2f}-{max(y.times['prompt']):.2f} s; "
          f"box key -> waiting for keys {min(y.ready_times['next_turn']):.2f}-"
          f"{max(y.ready_times['next_turn']):.2f} s")


def test_die_keys_and_third_roll(game):
    y = game
    y.start(["XY"])
    screen = y.game_screen()
    assert tuple(y.peek_digit(letter) for letter in "ABCDE") == screen.dice
    y.key("7")  # not a die: ignored
    assert not y.beeped
    y.key("2")
    y.key("2")  # again: still chosen, no correction
    assert y.beeped and y.game_screen().dice[1] is None
    y.key("ENTER", timing="reroll")
    second = y.game_screen()
    assert second.roll == 2 and second.dice[0] == screen.dice[0] and second.dice[2:] == screen.dice[2:]
    y.key("1")
    y.key("ENTER", timing="reroll")
    third = y.game_screen()
    assert third.roll == 3 and third.prompt  # the "?" comes by itself after roll 3
    y.key("ENTER")  # not a box key
    assert not y.beeped and y.game_screen().prompt
    player = ym.Player("XY")
    points = player.book("KA", third.dice)
    y.key("C", timing="next_turn")  # the second key of kans
    assert y.beeped
    check_turn_start(y.game_screen(), player, 1)
    assert points == sum(third.dice)
    check_times(y)


# -- a five-game match (short games) --------------------------------------------------------

# one turn per player and game (KA, except AB's five equal dice in FH with the jahtzy box
# still open: 0): game winners CD, tie, AB, AB, CD; overall CD (85 to 75)
MATCH_TURNS = [
    (("FH", (4, 4, 4, 4, 4)), ("KA", (6, 6, 6, 5, 5))),
    (("KA", (4, 4, 4, 4, 4)), ("KA", (5, 5, 5, 3, 2))),
    (("KA", (6, 6, 6, 6, 5)), ("KA", (1, 1, 2, 2, 3))),
    (("KA", (6, 5, 4, 3, 2)), ("KA", (1, 2, 3, 4, 6))),
    (("KA", (1, 1, 1, 1, 2)), ("KA", (2, 2, 2, 3, 3))),
]


def test_match_script():
    match = ym.Match(["AB", "CD"])
    for turns in MATCH_TURNS:
        scores = []
        for box, dice in turns:
            player = ym.Player("XX")
            player.book(box, dice)
            scores.append(player.total)
        match.add_game(scores)
    assert match.games[0] == [0, 28]
    assert [ym.winners(g) for g in match.games] == [[1], [0, 1], [0], [0], [1]]
    assert match.finished and match.totals == [75, 85] and match.winners() == [1]


def test_five_game_match_names_the_overall_winner(game):
    y = game
    free_after_load = y.free_memory()
    y.start(["AB", "CD"])
    match = ym.Match(["AB", "CD"])
    for number, turns in enumerate(MATCH_TURNS, start=1):
        y.wait_ready()
        y.poke_int("R", 13)  # the last round: the game ends after this one
        players = [ym.Player("AB"), ym.Player("CD")]
        for player, (box, dice) in zip(players, turns):
            scored_turn(y, player, box, dice, number, timing=player is players[0])
        y.wait_ready()
        match.add_game([p.total for p in players])
        check_end_screen(y, players, match, final=number == ym.GAMES)
        y.key("ENTER")
    assert match.finished
    assert y.screen()[0].startswith("NIEUWE WEDSTRIJD? J/N")
    y.key("X")
    assert y.screen()[0].startswith("NIEUWE WEDSTRIJD? J/N")
    y.key("N", wait=False)
    y.m.key_wait_ready()
    y.check_error()
    free_at_end = y.free_memory()
    print(f"\nMEM (16 KB card, kniffel.bas + yahtzee.bas): {free_after_load} after load, "
          f"{free_at_end} after a two-player match")
    assert free_at_end == free_after_load - 2 * MEM_PER_PLAYER - MEM_FIXED
    check_times(y)


# -- the high-score list -----------------------------------------------------------------

PRESET = [("AA", 60), ("BB", 50), ("CC", 45), ("DD", 45), ("EE", 40),
          ("FF", 35), ("GG", 30), ("HH", 25), ("II", 20), ("JJ", 10)]
# (rounds played, [(box, dice), ...]): 50 ties BB (goes below), 9 is too low, 29 enters
# at place 9, 180 (two rounds: 50 + 30 + the jahtzy bonus 100) goes to the top
HISCORE_GAMES = [
    (1, [("JA", (4, 4, 4, 4, 4))]),
    (1, [("KA", (1, 1, 2, 2, 3))]),
    (1, [("KA", (6, 6, 6, 6, 5))]),
    (2, [("JA", (2, 2, 2, 2, 2)), ("KA", (6, 6, 6, 6, 6))]),
]


def test_hiscore_model_orders_like_the_program():
    table = ym.HighScores(PRESET)
    places = []
    for _, turns in HISCORE_GAMES:
        player = ym.Player("HS")
        for box, dice in turns:
            player.book(box, dice)
        places.append(table.insert("HS", player.total))
    assert places == [2, None, 8, 0]
    assert table.entries[0] == ("HS", 180) and len(table.entries) == 10


def test_fresh_list_is_empty_and_shown_with_0(game):
    y = game
    assert y.hiscores() == [EMPTY] * 10
    y.m.type_keys("{DEF}J")
    y.m.key_wait_ready()
    y.type_input("0")
    y.wait_ready()
    check_hiscore_screen(y, [EMPTY] * 10, None)
    y.key("ENTER", wait=False)
    y.m.key_wait_ready()
    assert y.screen()[0].startswith("AANTAL SPELERS?"), y.screen()


def test_no_list_when_another_program_follows_line_1999(game):
    # The program finds its list as the last line in memory (0xFFD9). With a line above
    # 1999 in memory it shows no list and goes on (documented in basic_src/yahtzee.md).
    y = game
    text = yd.KNIFFEL.read_text() + yd.SOURCE.read_text() + "5000 REM ANOTHER PROGRAM\n"
    y.load(yd.tokenize(text))
    assert y.lines[-1][2] == 5000
    y.m.type_keys("{DEF}J")
    y.m.key_wait_ready()
    y.type_input("0")
    y.m.key_wait_ready()
    assert y.screen()[0].startswith("AANTAL SPELERS?"), y.screen()
    y.check_error()


def test_hiscores_ordered_and_kept_across_clear_and_power_off(game, request):
    y = game
    y.set_hiscores(PRESET)
    y.start(["HS"])
    table = ym.HighScores(PRESET)
    match = ym.Match(["HS"])
    for number, (rounds, turns) in enumerate(HISCORE_GAMES, start=1):
        y.wait_ready()
        y.poke_int("R", 14 - rounds)
        player = ym.Player("HS")
        for box, dice in turns:
            scored_turn(y, player, box, dice, number, timing=False)
        y.wait_ready()
        match.add_game([player.total])
        check_end_screen(y, [player], match, final=False)
        y.key("ENTER")
        place = table.insert("HS", player.total)
        check_hiscore_screen(y, table.entries, place)
        assert y.hiscores() == table.entries
        y.key("ENTER")
    # Stop the program, start Kniffel (its CLEAR erases all variables), stop it, switch off.
    m = y.m
    m.tap("BRK", hold=kd.BRK_HOLD)
    m.run_for(0.3)
    m.type_keys("{CLS}{DEF}K")
    m.key_wait_ready()
    assert m.screen_text()[0].startswith("ANZAHL SPIELER?"), m.screen_text()
    m.tap("BRK", hold=kd.BRK_HOLD)
    m.run_for(0.3)
    m.tap("OFF")
    m.run_for(0.3)
    assert m.off
    card, state = m.card_data(), m.power_state()
    # A new machine from the saved card and power-off state; ON, then DEF J and 0.
    engine = m.engine.name
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    other = resumed_machine(rom_dir, card, state, engine)
    again = yd.Yahtzee(other)
    again.lines = y.lines
    other.tap("BRK")
    other.run_for(0.3)
    assert again.hiscores() == table.entries
    other.type_keys("{CLS}{DEF}J")
    other.key_wait_ready()
    assert other.screen_text()[0].startswith("AANTAL SPELERS?"), other.screen_text()
    again.type_input("0")
    again.wait_ready()
    check_hiscore_screen(again, table.entries, None)


# -- BRK and CONT: the program redraws its screen ---------------------------------------

def check_redrawn(y, dice=None):
    """BRK then CONT at the key the program waits for: the screen is the one before BRK
    (with `dice`, the poked dice in place of the rolled ones: they are drawn from A-E)."""
    before = y.screen()
    if dice:
        before[0] = "".join(f" {d}" for d in dice) + before[0][10:]
    kd.break_and_continue(y)
    assert y.screen() == before


def test_cont_at_the_prompt_keeps_the_jahtzy_messages(game):
    y = game
    y.start(["AB", "CD"])
    y.key("2")
    check_redrawn(y)
    assert y.game_screen().dice[1] is None
    y.key("ENTER")  # roll 2
    for rnd, (first, second) in enumerate((("J", "K"), ("3", "1"), ("F", "2"))):
        y.wait_ready()
        y.poke_dice((3, 3, 3, 3, 3))
        y.key("ENTER")
        prompt = y.game_screen()
        assert prompt.message == ("", "+100", "+100 JOKER")[rnd], prompt.rows
        check_redrawn(y, (3, 3, 3, 3, 3))
        if rnd == 2:
            y.key("J")  # filled: BEZET beside the +100
            assert y.game_screen().message == "+100 BEZET"
            check_redrawn(y)
        y.key(first)
        y.key("ENTER")
        y.key(second)
    assert y.game_screen().round == 4


def test_cont_on_the_end_pages_and_the_new_match_question(game):
    y = game
    names = ["AA", "BB", "CC", "DD", "EE", "FF", "GG"]
    y.start(names)
    for number in range(1, 6):
        y.wait_ready()
        y.poke_int("R", 13)
        for _ in names:
            y.key("ENTER")
            y.key("K")
        y.wait_ready()
        if number == 1:
            assert y.screen()[3].startswith("VERDER?")
            check_redrawn(y)
        y.key("ENTER")
        if number == 1:
            assert y.screen()[3].startswith(("WINNAAR", "GELIJK"))
            check_redrawn(y)
        y.key("ENTER")
        if number < 5:
            assert y.game_screen().game == number + 1
    assert y.screen()[0].startswith("NIEUWE WEDSTRIJD? J/N")
    check_redrawn(y)
    y.key("N", wait=False)
    y.m.key_wait_ready()
    y.check_error()


def test_cont_on_the_top_10(game):
    y = game
    y.m.type_keys("{DEF}J")
    y.m.key_wait_ready()
    y.type_input("0")
    y.wait_ready()
    check_redrawn(y)
    check_hiscore_screen(y, [EMPTY] * 10, None)
    y.key("ENTER", wait=False)
    y.m.key_wait_ready()
    kd.type_players(y, ["HS"], "SPELER", "NAAM?")
    y.wait_ready()
    y.poke_int("R", 13)
    y.wait_ready()
    y.poke_dice((6, 6, 6, 5, 5))
    y.key("ENTER")
    y.key("K")
    y.key("ENTER")  # past the end screen: the top 10 with this game at place 1
    check_hiscore_screen(y, [("HS", 28)] + [EMPTY] * 9, 0)
    check_redrawn(y)
    y.key("ENTER")
    assert y.game_screen().game == 2


def test_brk_while_busy_then_cont_shows_what_it_would_have(game):
    """BRK in the middle of the work after a box key, then CONT: once the program waits
    again the screen is the one it shows without the BRK."""
    y = game
    y.start(["AB", "CD"])
    y.key("ENTER")
    start = y.m.snapshot()
    y.key("K")
    expected = y.screen()
    assert y.game_screen().name == "CD"
    for delay in (0.6, 1.5, 2.5):
        y.m.restore(start)
        y.wait_ready()
        y.m.press("K")
        y.m.run_for(0.1)
        y.m.release("K")
        kd.break_and_continue(y, after=delay)
        assert y.screen() == expected, delay

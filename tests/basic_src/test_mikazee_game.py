"""Mikazee games on the firmware engine (the real ROM running basic_src/mikazee.bas).

The sheet the program keeps (SL$(0..18), the text of every sheet row, which is what the
window shows) is compared with mikazee_model after every move, the window on the LCD with
SL$, and the score on line 1 with the model's final-score formula. Dice are poked into
A-E before ENTER books them (mikazee_driver). These tests look at single situations: the
end-of-game ones put a model sheet with a few empty cells into the program's variables
(Mikazee.set_sheet) and play the last turns; whole games are in
test_mikazee_whole_games.py. Rule sets are edited with the program's editor or poked into
their card records.
"""

import pytest

from tests.helpers import kniffel_driver as kd
from tests.helpers import mikazee_model as mm
from tests.helpers.kniffel_driver import resumed_machine
from tests.helpers.mikazee_player import (
    book,
    check_sheet,
    refused,
    reroll,
    selected,
    write_set,
)

md = pytest.importorskip("tests.helpers.mikazee_driver", exc_type=ImportError)

ENGINES = [pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"]


@pytest.fixture(scope="module", params=ENGINES)
def booted(request):
    """One machine for the module: snapshots at the menu's start (before DEF M) and right
    after S started a game with the default rules (the rules read, the sheet built)."""
    engine = request.param
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    machine = md.boot(rom_dir, engine=engine)
    g = md.Mikazee(machine)
    g.load()
    menu = machine.snapshot()
    new_game(g)
    return g, menu, machine.snapshot()


@pytest.fixture
def g(booted):
    g, menu, _ = booted
    g.m.restore(menu)
    g.index_lines()
    g.cursor = (1, 0)
    yield g
    g.index_lines()


@pytest.fixture
def playing(booted):
    """A new default game: roll 1 of turn 1, cursor on column 1, row Een."""
    g, _, game = booted
    g.m.restore(game)
    g.index_lines()
    g.cursor = (1, 0)
    return g


# -- helpers ------------------------------------------------------------------------------

def new_game(g, set_index=0):
    g.start()
    for _ in range(set_index):
        g.key("RIGHT")
    g.key("S")
    g.cursor = (1, 0)
    screen = g.game()
    assert screen.roll == 1 and all(d in range(1, 7) for d in screen.dice), screen.rows
    return screen


def put_sheet(g, sheet):
    """set_sheet, then UP (wrapping to the last row) so that the program redraws the whole
    window (after a move it redraws only the row it changed)."""
    g.set_sheet(sheet)
    g.key("UP")
    column, row = g.cursor
    g.cursor = (column, (row - 1) % 19)


def near_end(rules, empty, seed=1):
    """A model sheet with every cell filled (plausible values) except `empty`."""
    import random
    rnd = random.Random(seed)
    sheet = mm.Sheet(rules)
    for c in range(1, sheet.n + 1):
        for r in range(13):
            if (c, r) not in empty:
                sheet.cells[c][r] = (r + 1) * rnd.randint(1, 4) if r < 6 else rnd.choice([0, 20, 25, 30])
    return sheet


# -- the tests ----------------------------------------------------------------------------

def test_new_sheet_and_window_scrolling(playing):
    g = playing
    screen = g.game()
    sheet = mm.Sheet(mm.default_rules())
    assert screen.rows[0][10:] == " W 1 K 1     0"
    assert screen.labels == ["1", "2", "3"] and screen.marker == (1, 0)
    assert screen.rows[1] == "1  >  .   .   .   .   . "
    check_sheet(g, sheet)
    g.key("UP")  # wraps to the last row: the window shows TOT, GEW, VLG
    g.cursor = (1, 18)
    rows = g.screen()
    assert rows[1:] == ["TOT   0   0   0   0   0 ", "GEW   1   2   3   1   1 ",
                        "VLG>  V   V   V   O   N "], rows
    g.key("LEFT")  # wraps to column 6: the window moves one column to the right
    g.cursor = (6, 18)
    rows = g.screen()
    assert rows[0][17] == "6" and rows[3] == "VLG   V   V   O   N>  I ", rows
    check_sheet(g, sheet)
    g.key("RIGHT")  # column 1 again: marker at the left
    g.cursor = (1, 18)
    assert g.screen()[3].startswith("VLG>  V")
    before = g.screen()
    g.key("ENTER")  # not a cell
    assert g.beeped and g.screen()[3].startswith("GEEN VAK") and g.screen()[:3] == before[:3]
    g.key("DOWN")  # the message goes with the next key; row 0 again
    g.cursor = (1, 0)
    assert g.screen()[1:] == ["1  >  .   .   .   .   . ", "2     .   .   .   .   . ",
                              "3     .   .   .   .   . "]


def test_first_turns_scoring_refusals_and_dice_keys(playing):
    g = playing
    sheet = mm.Sheet(mm.default_rules())
    screen = g.game()
    # dice keys choose and un-choose; an unchosen die keeps its value
    g.key("2")
    assert g.beeped and g.game().dice[1] is None
    g.key("2")
    assert g.beeped and g.game().dice == screen.dice
    g.key("7")  # not a die: ignored
    assert not g.beeped
    # roll 1 into column 6 ("ineens"): three sixes and two fours in Zes = 18
    assert book(g, sheet, 6, 5, (6, 6, 6, 4, 4)) == 18
    check_sheet(g, sheet)
    # roll again: column 6 is refused, and the fill orders of columns 5 and 4
    reroll(g, [1, 3])
    g.poke_dice((3, 3, 3, 5, 6))
    refused(g, sheet, 6, 5, "BEZET")
    refused(g, sheet, 6, 6, "ALLEEN WORP 1")
    refused(g, sheet, 5, 6, "FOUTE VOLGORDE")  # column 5 downwards: Een first
    refused(g, sheet, 4, 6, "FOUTE VOLGORDE")  # column 4 upwards: Kans first
    assert book(g, sheet, 2, 6, (3, 3, 3, 5, 6)) == 20  # the seed's example, column 2 x2
    check_sheet(g, sheet)
    assert sheet.score() == 18 + 40
    # three rolls: the dice keys do nothing after the third
    reroll(g, [1])
    reroll(g, [5])
    g.key("1")
    assert not g.beeped and g.game().dice[0] is not None
    assert book(g, sheet, 1, 11, (5, 5, 5, 5, 5)) == 50  # Mikazee in column 1
    check_sheet(g, sheet)
    # a Mikazee in a column whose Mikazee is filled: joker as large straight
    assert book(g, sheet, 1, 10, (2, 2, 2, 2, 2)) == 40
    check_sheet(g, sheet)


def test_default_rules_end_of_game_top_ten_and_memory(playing):
    g = playing
    rules = mm.default_rules()
    empty = [(1, 2), (2, 8), (3, 11), (4, 0), (5, 12), (6, 9)]
    sheet = near_end(rules, empty, seed=3)
    sheet.cells[1][:6] = [3, 6, None, 16, 15, 18]  # 58 + 9 below: the bonus with the last 3s
    sheet.cells[2][11] = 0  # Mikazee crossed out: a Mikazee may still be a full house
    put_sheet(g, sheet)
    assert not sheet.has_bonus(1)
    book(g, sheet, 1, 2, (3, 3, 3, 1, 2))
    check_sheet(g, sheet)
    assert sheet.has_bonus(1) and sheet.bonus(1) == 35
    assert book(g, sheet, 2, 8, (2, 2, 2, 2, 2)) == 25  # joker with Mikazee 0
    assert book(g, sheet, 6, 9, (1, 3, 4, 5, 2)) == 30  # small straight at once
    assert book(g, sheet, 3, 11, (6, 6, 6, 6, 6)) == 50
    check_sheet(g, sheet)
    assert book(g, sheet, 4, 0, (1, 1, 2, 3, 4)) == 2
    assert book(g, sheet, 5, 12, (6, 6, 5, 5, 4)) == 26
    assert sheet.finished
    rows = g.screen()
    assert rows[0].startswith("EINDE SPEL") and int(rows[0][18:]) == sheet.score(), rows
    check_sheet(g, sheet, score=False)
    final = sheet.score()
    totals = [sheet.total(c) for c in range(1, 7)]
    assert final == sum(w * t for w, t in zip([1, 2, 3, 1, 1, 1], totals))
    # the end: a new top score, the name, the top 10
    g.key("ENTER", wait=False)
    g.m.key_wait_ready(30)
    assert g.screen()[0].startswith("NIEUWE TOPSCORE") and int(g.screen()[0][15:]) == final
    g.type_input("ANNA")
    g.wait_ready()
    rows = g.screen()
    assert rows[0].startswith("TOP 10 SET 1 MIKAZEE")
    assert rows[1][:12] == f" 1 ANNA{final:5d}" and rows[1][12:] == " 2 ----    0"
    assert g.card_sets()[0][2] == mm.top_insert(mm.EMPTY_TOP, "ANNA", final)[0]
    g.key("ENTER")
    assert g.screen()[1][:12] == " 7 ----    0" and g.screen()[2][12:] == "10 ----    0"
    g.key("ENTER")
    assert g.screen()[0].startswith("MIKAZEE SET 1")
    g.m.tap("BRK", hold=kd.BRK_HOLD)
    g.m.run_for(0.3)
    size = len(md.program_image())
    free = g.free_memory()
    print(f"\nmikazee.bas: {size} bytes tokenized; MEM after a game {free}")
    assert free > 32768 - 4000 - size - 3000


def refused_reroll(g, message):
    """A die key when rolling again would leave no legal cell: two beeps, the message on
    line 4, no die chosen, line 1 unchanged."""
    before = g.game()
    g.key("3")
    rows = g.screen()
    assert g.beeped and rows[3].startswith(message), rows
    after = g.game()
    assert after.dice == before.dice and None not in after.dice and rows[0] == before.rows[0]
    g.key("ENTER")  # ENTER books (no die chosen): the move the rules allow is still there


def test_no_dead_end_with_only_ineens_cells_left(playing):
    """Default rules: only two "ineens" cells (column 6) left. Choosing a die would make
    every cell illegal: refused with GEEN WORP:INEENS; the game finishes."""
    g = playing
    rules = mm.default_rules()
    sheet = near_end(rules, [(6, 4), (6, 5)], seed=5)
    put_sheet(g, sheet)
    g.move_to(6, 4, 6)
    assert mm.MESSAGES[sheet.reroll_problem(1)] == "GEEN WORP:INEENS"
    dice = g.game().dice
    refused_reroll(g, "GEEN WORP:INEENS")
    sheet.book(6, 4, dice, 1)
    check_sheet(g, sheet)
    assert book(g, sheet, 6, 5, (6, 6, 6, 1, 2)) == 18
    assert sheet.finished and g.screen()[0].startswith("EINDE SPEL")
    assert int(g.screen()[0][18:]) == sheet.score()


def test_no_dead_end_with_only_in_twee_and_ineens_cells_left(g):
    """Column 1 "in twee keer", column 2 "ineens": a second roll is allowed while an "in
    twee" cell is open, a third is refused with GEEN WORP:2 KEER; at roll 1 with only
    "ineens" cells open, GEEN WORP:INEENS; the game finishes."""
    rules = mm.default_rules()
    rules.update(columns=2, order1=4, order2=3)
    write_set(g, 3, "TWEE", rules)
    new_game(g, set_index=3)
    sheet = near_end(rules, [(1, 0), (1, 1), (2, 5)], seed=6)
    put_sheet(g, sheet)
    assert sheet.reroll_problem(1) is None
    reroll(g, [1, 2])
    assert mm.MESSAGES[sheet.reroll_problem(2)] == "GEEN WORP:2 KEER"
    g.move_to(1, 0, 2)
    dice = g.game().dice
    refused_reroll(g, "GEEN WORP:2 KEER")
    sheet.book(1, 0, dice, 2)
    check_sheet(g, sheet)
    reroll(g, [4])
    refused(g, sheet, 2, 5, "ALLEEN WORP 1")
    assert book(g, sheet, 1, 1, (2, 2, 2, 5, 5)) == 6  # "in twee" at roll 2
    # only the "ineens" cell: no re-roll at all
    assert mm.MESSAGES[sheet.reroll_problem(1)] == "GEEN WORP:INEENS"
    g.move_to(2, 5, 2)
    dice = g.game().dice
    refused_reroll(g, "GEEN WORP:INEENS")
    sheet.book(2, 5, dice, 1)
    assert sheet.finished and g.screen()[0].startswith("EINDE SPEL")
    check_sheet(g, sheet, score=False)
    assert int(g.screen()[0][18:]) == sheet.score()


def test_edited_rule_set_kolom_voor_kolom_in_twee_and_bonuses(g):
    g.start()
    assert g.screen() == ["MIKAZEE SET 1 MIKAZEE   ", "S=SPEL   R=REGELS       ",
                          "T=TOP 10  <>=ANDERE SET ", "O=BAND OPSLAAN L=LADEN  "]
    g.key("RIGHT")  # set 2
    assert g.screen()[0].startswith("MIKAZEE SET 2 SET 2")
    g.key("R")
    assert selected(g) == ("KOLOMMEN", "6")
    for _ in range(3):
        g.key("LEFT")  # 6 -> 3 columns
    assert selected(g) == ("KOLOMMEN", "3")
    g.key("DOWN")  # K1 VOLGORDE: VRIJ -> LI->RE -> KOL/KOL (LEFT wraps)
    g.key("LEFT")
    g.key("LEFT")
    g.key("DOWN")
    g.key("LEFT")
    g.key("LEFT")
    g.key("DOWN")
    for _ in range(3):
        g.key("LEFT")  # K3: VRIJ -> LI->RE -> KOL/KOL -> IN TWEE
    assert selected(g) == ("K3 VOLGORDE", "IN TWEE")
    for _ in range(13):
        g.key("UP")  # 3 2 1 0, wraps to 37 ... 28
    assert selected(g) == ("..OOK BIJ MIK=0", "NEE")
    g.key("RIGHT")
    g.key("UP")  # 27 extra Mikazee bonus
    g.key("ENTER", wait=False)
    g.type_input("100")
    g.wait_ready()
    g.key("UP")  # 26 Mikazee = full house
    g.key("RIGHT")
    assert selected(g) == ("MIKAZEE=FULL H.", "JA")
    for _ in range(5):
        g.key("UP")  # 21 bonus for all columns
    g.key("ENTER", wait=False)
    g.type_input("77")
    g.wait_ready()
    g.key("UP")
    g.key("UP")  # 19
    assert selected(g) == ("BONUS VANAF", "63")
    g.key("ENTER", wait=False)
    g.type_input("50")
    g.wait_ready()
    assert selected(g) == ("BONUS VANAF", "50")
    g.key("N", wait=False)
    g.type_input("TEST")
    g.wait_ready()
    g.key("S")
    assert g.screen()[0].startswith("MIKAZEE SET 2 TEST")
    rules = mm.default_rules()
    rules.update(columns=3, order1=5, order2=5, order3=4, bonus_from=50, all_bonus=77,
                 mik_is_fh=1, extra_mik=100, extra_if_zero=1)
    name, stored, top = g.card_sets()[1]
    assert name == "TEST   " and stored == rules and top == mm.EMPTY_TOP
    assert g.card_sets()[0][1] == mm.default_rules()  # set 1 untouched
    # play with it: column 2 waits for column 1, column 3 takes at most two rolls
    g.key("S")
    g.cursor = (1, 0)
    sheet = near_end(rules, [(1, 0), (2, 8), (2, 11), (3, 12)], seed=5)
    sheet.cells[1][11] = 0
    sheet.cells[1][1:6] = [4, 9, 12, 10, 12]  # 47: the five 1s below give the bonus (50)
    sheet.cells[2][:6] = [5, 10, 15, 8, 15, 6]  # 59: bonus in column 2
    sheet.cells[3][:6] = [2, 4, 6, 8, 10, 30]  # 60: bonus in column 3
    put_sheet(g, sheet)
    refused(g, sheet, 2, 8, "VORIGE KOL.OPEN")
    assert book(g, sheet, 1, 0, (1, 1, 1, 1, 1)) == 5  # extra Mikazee: +100 (Mikazee 0)
    assert sheet.extra[1] == 100
    assert all(sheet.has_bonus(c) for c in (1, 2, 3))  # every column: +77 once
    check_sheet(g, sheet)
    reroll(g, [1])
    reroll(g, [2])
    refused(g, sheet, 3, 12, "MAX 2 WORPEN")
    # column 1 is full now; five equal in FH with column 2's Mikazee empty: Mikazee = FH
    assert book(g, sheet, 2, 8, (4, 4, 4, 4, 4)) == 25
    assert book(g, sheet, 2, 11, (1, 2, 3, 4, 6)) == 0
    check_sheet(g, sheet)
    reroll(g, [3])
    assert book(g, sheet, 3, 12, (2, 2, 2, 2, 2)) == 10  # at roll 2: allowed
    assert sheet.finished
    assert int(g.screen()[0][18:]) == sheet.score()
    assert sheet.score() == sheet.total(1) + 2 * sheet.total(2) + 3 * sheet.total(3) + 77
    check_sheet(g, sheet, score=False)


def test_left_to_right_joker_options_and_full_house(g):
    rules = mm.default_rules()
    rules.update(columns=2, order1=6, order2=6, mik_is_fh=0, joker_if_zero=0,
                 joker_upper_filled=1, joker_3k=40, extra_mik=50, extra_all_filled=1,
                 fh=20, ks=25, gs=35, mik=60)
    write_set(g, 2, "LINKS", rules)
    sheet = mm.Sheet(rules)
    new_game(g, set_index=2)
    assert g.get_string("SL", 18).rstrip() == "   L   L"
    refused(g, sheet, 2, 0, "LINKS NOG LEEG")
    assert book(g, sheet, 1, 11, (4, 4, 4, 4, 4)) == 60
    assert book(g, sheet, 2, 11, (1, 1, 2, 2, 3)) == 0  # the left cell is filled
    # five 3s: "Drie" of column 1 not filled -> no joker minimum; extra bonus (all Mikazees)
    assert book(g, sheet, 1, 6, (3, 3, 3, 3, 3)) == 15
    assert sheet.extra[1] == 50
    assert book(g, sheet, 1, 2, (3, 3, 3, 3, 3)) == 15
    assert sheet.extra[1] == 100
    assert book(g, sheet, 1, 8, (3, 3, 3, 3, 3)) == 25  # "Drie" filled now: joker (FH 25)
    assert sheet.extra[1] == 150
    check_sheet(g, sheet)
    # column 2's Mikazee is 0: no joker (option), no extra bonus (default: Mikazee > 0)
    assert book(g, sheet, 2, 8, (5, 5, 5, 5, 5)) == 0
    assert sheet.extra[2] == 0
    check_sheet(g, sheet)


def test_top_ten_survives_kniffel_clear_and_power_off(g, request):
    from pc1360.tokenizer import tokenize
    both = (md.ROOT / "basic_src" / "kniffel.bas").read_text() + md.SOURCE.read_text()
    g.load(tokenize(both))  # Kniffel's lines 1-510 in front, as on the shared card
    rules = mm.default_rules()
    rules.update(columns=1, order1=0, weight1=2)
    top = [("OLD ", 500), ("LOW ", 10)] + mm.EMPTY_TOP[2:]
    write_set(g, 1, "EEN KOL", rules, top)
    new_game(g, set_index=1)
    sheet = near_end(rules, [(1, 12)], seed=7)
    put_sheet(g, sheet)
    book(g, sheet, 1, 12, (6, 6, 6, 6, 5))
    final = sheet.score()
    assert 10 < final < 500, final
    g.key("ENTER", wait=False)
    g.m.key_wait_ready(30)
    g.type_input("BERT")
    g.wait_ready()
    expected = mm.top_insert(top, "BERT", final)[0]
    assert g.card_sets()[1][2] == expected
    g.key("ENTER")
    g.key("ENTER")
    m = g.m
    m.tap("BRK", hold=kd.BRK_HOLD)
    m.run_for(0.3)
    m.type_keys("{CLS}{DEF}K")  # Kniffel's CLEAR erases every variable
    m.key_wait_ready()
    assert m.screen_text()[0].startswith("ANZAHL SPIELER?")
    m.tap("BRK", hold=kd.BRK_HOLD)
    m.run_for(0.3)
    m.tap("OFF")
    m.run_for(0.3)
    assert m.off
    card, state = m.card_data(), m.power_state()
    engine = m.engine.name
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    other = resumed_machine(rom_dir, card, state, engine)
    again = md.Mikazee(other)
    again.lines = g.lines
    other.tap("BRK", hold=kd.BRK_HOLD)
    other.run_for(0.3)
    assert again.card_sets()[1][2] == expected
    other.type_keys("{CLS}")
    again.start()
    again.key("RIGHT")
    again.key("T")
    rows = other.screen_text()
    assert rows[0].startswith("TOP 10 SET 2 EEN KOL")
    assert rows[1] == f" 1 OLD   500 2 BERT{final:5d}", rows
    assert rows[2] == " 3 LOW    10 4 ----    0"


def test_rule_set_to_tape_and_back(g, request):
    """O writes the set shown with PRINT#; L (J) reads it into another set with INPUT#:
    the firmware's own cassette routines through the emulated recorder (Xout recorded,
    played back into Xin)."""
    from emulator.connectors.cassette import RECORD_RATE, signal_edges
    rules = mm.default_rules()
    rules.update(columns=4, order2=mm.LEFT_TO_RIGHT, weight3=7, extra_mik=123, joker_kans=999)
    top = [("KEEP", 77)] + mm.EMPTY_TOP[1:]
    write_set(g, 0, "TAPE", rules, top)
    write_set(g, 2, "OTHER", mm.default_rules(), top)
    cassette = g.m.cassette
    try:
        g.start()
        g.key("O")
        assert g.screen()[0].startswith("BAND: OPNEMEN")
        cassette.record()
        g.key("ENTER", wait=False)
        g.wait_ready(timeout=120)
        recording = cassette.stop()
        assert g.screen()[0].startswith("MIKAZEE SET 1 TAPE")
        g.key("RIGHT")
        g.key("RIGHT")
        g.key("L")
        assert g.screen()[0].startswith("SET 3 OVERSCHRIJVEN?")
        cassette.insert(signal_edges(recording.samples(), RECORD_RATE))
        g.key("J", wait=False)
        g.wait_ready(timeout=180)
    finally:
        cassette.eject()
        cassette.stop()
    assert g.screen()[0].startswith("MIKAZEE SET 3 TAPE")
    sets = g.card_sets()
    assert sets[2] == ("TAPE   ", rules, mm.EMPTY_TOP)  # loaded: its top 10 starts empty
    assert sets[0] == ("TAPE   ", rules, top)  # the saved set is unchanged


# -- BRK and CONT: the program redraws its screen ---------------------------------------

def check_redrawn(g):
    """BRK then CONT at the key the program waits for: the screen is the one before BRK."""
    before = g.screen()
    kd.break_and_continue(g)
    assert g.screen() == before


def test_cont_redraws_the_game(playing):
    """A chosen die, a refusal message, the sum rows in the window, the end line."""
    g = playing
    check_redrawn(g)
    g.key("2")
    check_redrawn(g)
    assert g.game().dice[1] is None
    g.key("ENTER")  # roll 2
    g.key("ENTER")  # into Een of column 1
    g.key("ENTER")  # the same cell: BEZET
    assert g.screen()[3].startswith("BEZET")
    check_redrawn(g)
    g.key("UP")  # wraps to VLG: the window shows TOT, GEW, VLG
    g.cursor = (1, 18)
    g.key("UP")
    g.key("UP")  # TOT: the marker on a sum row
    g.cursor = (1, 16)
    check_redrawn(g)
    check_sheet(g, g_sheet_after_one_booking(g))


def g_sheet_after_one_booking(g):
    """The model's sheet of test_cont_redraws_the_game: Een of column 1 booked with the
    dice that roll 2 showed (read back from the program's SL$)."""
    sheet = mm.Sheet(mm.default_rules())
    sheet.cells[1][0] = int(g.get_string("SL", 0)[:4])
    return sheet


def test_cont_redraws_the_menu_the_editor_and_the_top_ten(g):
    g.start()
    check_redrawn(g)
    g.key("R")
    g.key("DOWN")
    check_redrawn(g)
    assert selected(g) == ("K1 VOLGORDE", "VRIJ")
    g.key("A")
    g.key("T")
    check_redrawn(g)
    g.key("ENTER")
    check_redrawn(g)
    g.key("ENTER")
    assert g.screen()[0].startswith("MIKAZEE SET 1")
    g.key("O")
    check_redrawn(g)
    assert g.screen()[0].startswith("BAND: OPNEMEN")


def test_brk_while_busy_then_cont_shows_what_it_would_have(g):
    """BRK while S builds the sheet, and while the program works off a booking (the steps
    between the polls), then CONT: the screen is the one it shows without the BRK."""
    g.start()
    for key, delays in (("S", (0.6, 1.5)), ("ENTER", (0.5, 1.2, 2.0))):
        start = g.m.snapshot()
        g.key(key)
        expected = g.screen()
        for delay in delays:
            g.m.restore(start)
            g.wait_ready()
            g.m.press(key)
            g.m.run_for(0.15)
            g.m.release(key)
            kd.break_and_continue(g, after=delay)
            assert g.screen() == expected, (key, delay)
        g.m.restore(start)
        g.key(key)

"""Whole Mikazee games (13 x N turns) played with keys through basic_src/mikazee.bas and
checked move by move against mikazee_model: the default rules and three edited rule sets
that together use every fill order and every option of the seed's "Spelregels wijzigen".

The built-in engine plays every game; the firmware engine (the real ROM, slow) the default
game and the set edited through the program's rule editor. Kniffel is on the card in front
of Mikazee, as on a new card. The wall time of each game is printed (pytest -s).
"""

import time

import pytest

from pc1360.tokenizer import tokenize
from tests.helpers import kniffel_driver as kd
from tests.helpers import mikazee_driver as md
from tests.helpers import mikazee_model as mm
from tests.helpers import mikazee_player as mp

BOTH_ENGINES = pytest.mark.parametrize(
    "loaded", ["builtin", pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow])],
    indirect=True)
BUILTIN_ONLY = pytest.mark.parametrize("loaded", ["builtin"], indirect=True)
MAX_ANSWER_S = 0.5  # every key -> the first change on the display (issue 19)


@pytest.fixture(scope="module")
def loaded(request):
    """A 32 KB card with Kniffel and Mikazee; the snapshot is at the prompt after loading,
    with the MEM shown then."""
    engine = request.param
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    g = md.Mikazee(md.boot(rom_dir, engine=engine))
    both = (md.ROOT / "basic_src" / "kniffel.bas").read_text() + md.SOURCE.read_text()
    g.load(tokenize(both))
    free = g.free_memory()
    g.m.type_keys("{CLS}")
    return g, g.m.snapshot(), free


@pytest.fixture
def g(loaded):
    g, snap, _ = loaded
    g.m.restore(snap)
    g.index_lines()
    return g


# -- rule sets -------------------------------------------------------------------------------

def edited_rules():
    """Set 2 as the editor test below makes it."""
    rules = mm.default_rules()
    rules.update(columns=3, order1=mm.COLUMN_BY_COLUMN, order2=mm.COLUMN_BY_COLUMN,
                 order3=mm.IN_TWO, weight3=5, bonus_from=50, all_bonus=77, mik=70,
                 mik_is_fh=1, extra_mik=100, extra_if_zero=1)
    return rules


def links_rules():
    """Left to right (the first column free of it, the second bound to it), column by
    column after a different order (no restriction), at once; joker and extra-Mikazee
    options the other way round from the defaults."""
    rules = mm.default_rules()
    rules.update(columns=4, order1=mm.LEFT_TO_RIGHT, order2=mm.LEFT_TO_RIGHT,
                 order3=mm.COLUMN_BY_COLUMN, order4=mm.AT_ONCE,
                 weight1=2, weight2=0, weight3=1, weight4=3, bonus_from=30, bonus=10,
                 all_bonus=55, fh=20, ks=25, gs=35, mik=60, extra_mik=50, extra_if_zero=0,
                 extra_all_filled=1, joker_3k=40, joker_car=45, joker_kans=99,
                 joker_if_zero=0, joker_upper_filled=1)
    return rules


def kolom_rules():
    """Column by column as the first column, left to right after a different order,
    downwards; the bonus from the start; extra Mikazees only on a Mikazee above 0."""
    rules = mm.default_rules()
    rules.update(columns=3, order1=mm.COLUMN_BY_COLUMN, order2=mm.LEFT_TO_RIGHT,
                 order3=mm.DOWN, weight1=1, weight2=4, weight3=2, bonus_from=0, bonus=5,
                 all_bonus=11, mik=45, extra_mik=30, joker_3k=33, joker_car=44,
                 joker_kans=55)
    return rules


# -- playing -------------------------------------------------------------------------------

def start_game(g, slot):
    g.start()
    for _ in range(slot):
        g.key("RIGHT")
    g.key("S")
    g.cursor = (1, 0)
    assert g.game().roll == 1


def finish(g, player, slot, name, top):
    """The end screen, then ENTER: the name if the score entered the top 10, the top 10
    shown and kept in the set's card record, the menu."""
    sheet = player.sheet
    final = sheet.score()
    rows = g.screen()
    assert rows[0].startswith("EINDE SPEL") and int(rows[0][18:]) == final, rows
    weights = [mm.weight(sheet.rules, c) for c in sheet.cells]
    sums = g.sums()
    totals = [sums[(c, 4)] for c in sheet.cells]
    all_bonus = sheet.rules["all_bonus"] * all(sheet.has_bonus(c) for c in sheet.cells)
    assert final == sum(w * t for w, t in zip(weights, totals)) + all_bonus
    expected, place = mm.top_insert(top, name, final)
    g.key("ENTER", wait=False)
    if place is not None:
        assert g.m.key_wait_ready(30), g.screen()
        assert g.screen()[0] == f"NIEUWE TOPSCORE{final:9d}", g.screen()
        g.type_input(name)
    g.wait_ready()
    shown = g.screen()
    assert shown[0].startswith(f"TOP 10 SET {slot + 1}"), shown
    for i in range(3):
        (n0, s0), (n1, s1) = expected[2 * i], expected[2 * i + 1]
        assert shown[1 + i] == f"{2 * i + 1:2d} {n0}{s0:5d}{2 * i + 2:2d} {n1}{s1:5d}", shown
    assert g.card_sets()[slot][2] == expected
    g.key("ENTER")
    g.key("ENTER")
    assert g.screen()[0].startswith(f"MIKAZEE SET {slot + 1}"), g.screen()
    return final


def play(g, rules, slot, seed, wanted_refusals, name, top=mm.EMPTY_TOP):
    began = time.perf_counter()
    emulated = g.m.emulated_seconds
    g.keys = 0
    g.answers = []
    start_game(g, slot)
    player = mp.Player(g, rules, seed)
    mp.check_sheet(g, player.sheet)
    player.play(wanted_refusals)
    assert player.refusals >= set(wanted_refusals), player.refusals
    final = finish(g, player, slot, name, top)
    shown = [a for a in g.answers if a is not None]
    print(f"\nmikazee {g.m.engine.name} set {slot + 1}: {13 * player.sheet.n} turns, "
          f"{g.keys} keys, score {final}, {g.m.emulated_seconds - emulated:.0f} emulated s, "
          f"{time.perf_counter() - began:.1f} s wall; first answer {min(shown):.2f}-"
          f"{max(shown):.2f} s after the key")
    assert None not in g.answers and max(g.answers) <= MAX_ANSWER_S, g.answers
    return player


# -- the games -------------------------------------------------------------------------------

@BOTH_ENGINES
def test_default_rules_whole_game_and_memory(g, loaded):
    player = play(g, mm.default_rules(), 0, seed=11, name="ANNA",
                  wanted_refusals={"GEEN VAK", "BEZET", "FOUTE VOLGORDE", "ALLEEN WORP 1"})
    assert {"zero", "bonus", "joker", "extra mikazee"} <= player.events, player.events
    g.m.tap("BRK", hold=kd.BRK_HOLD)
    g.m.run_for(0.3)
    before, after = loaded[2], g.free_memory()
    print(f"mikazee.bas {len(md.program_image())} bytes; with Kniffel on the card "
          f"MEM {before} after loading, {after} after a game")
    assert 0 < before - after < 3000


@BOTH_ENGINES
def test_rule_set_edited_with_the_editor_whole_game(g):
    g.start()
    g.key("RIGHT")
    g.key("R")
    steps = [("KOLOMMEN", ["LEFT"] * 3, "3"), ("K1 VOLGORDE", ["LEFT"] * 2, "KOL/KOL"),
             ("K2 VOLGORDE", ["LEFT"] * 2, "KOL/KOL"), ("K3 VOLGORDE", ["LEFT"] * 3, "IN TWEE"),
             ("K3 GEWICHT", "5", "5"), ("BONUS VANAF", "50", "50"),
             ("BONUS ALLE KOL.", "77", "77"), ("MIKAZEE", "70", "70"),
             ("MIKAZEE=FULL H.", ["RIGHT"], "JA"), ("EXTRA MIKAZEE", "100", "100"),
             ("..OOK BIJ MIK=0", ["RIGHT"], "JA")]
    for field, change, shown in steps:
        for _ in range(38):
            if mp.selected(g)[0] == field:
                break
            g.key("DOWN")
        assert mp.selected(g)[0] == field, g.screen()
        if isinstance(change, list):
            for key in change:
                g.key(key)
        else:
            g.key("ENTER", wait=False)
            g.type_input(change)
            g.wait_ready()
        assert mp.selected(g) == (field, shown)
    g.key("N", wait=False)
    g.type_input("EDIT")
    g.wait_ready()
    g.key("S")
    rules = edited_rules()
    assert g.card_sets()[1] == ("EDIT   ", rules, mm.EMPTY_TOP)
    g.m.tap("BRK", hold=kd.BRK_HOLD)  # a new start: the game reads the set from the card
    g.m.run_for(0.3)
    g.m.type_keys("{CLS}")
    player = play(g, rules, 1, seed=5, name="EDIT",
                  wanted_refusals={"VORIGE KOL.OPEN", "MAX 2 WORPEN", "BEZET"})
    assert {"mikazee as full house", "extra bonus", "extra bonus with mikazee 0", "joker",
            "bonus", "bonus in every column"} <= player.events, player.events


@BUILTIN_ONLY
def test_left_to_right_at_once_and_strict_options_whole_game(g):
    rules = links_rules()
    top = [("OLD ", 2000), ("MID ", 900), ("LOW ", 100)] + mm.EMPTY_TOP[3:]
    mp.write_set(g, 2, "LINKS", rules, top)
    player = play(g, rules, 2, seed=8, name="LIRE", top=top,
                  wanted_refusals={"LINKS NOG LEEG", "ALLEEN WORP 1", "GEEN VAK"})
    assert {"joker", "joker refused: mikazee 0", "joker refused: upper row empty",
            "extra bonus", "extra refused: mikazee 0", "extra refused: not all mikazees",
            "bonus", "left to right first", "column by column after another order"} \
        <= player.events, player.events


@BUILTIN_ONLY
def test_column_by_column_first_and_bonus_from_the_start_whole_game(g):
    rules = kolom_rules()
    mp.write_set(g, 3, "KOLOM", rules)
    player = play(g, rules, 3, seed=3, name="KOL",
                  wanted_refusals={"FOUTE VOLGORDE", "BEZET"})
    assert {"joker", "extra bonus", "extra refused: mikazee 0", "bonus in every column",
            "left to right after another order", "column by column first"} <= player.events, \
        player.events


"""The Mikazee rules model (mikazee_model) against the seed's examples, and the program's
scoring formulas (basic_src/mikazee.bas lines 2268-2280, transcribed) against the model for
all 7776 rolls (no emulator)."""

import itertools

import pytest

from tests.helpers import mikazee_model as mm

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


@pytest.fixture
def rules():
    return mm.default_rules()


# -- the seed's examples -----------------------------------------------------------------

def test_upper_rows_count_only_their_face(rules):
    dice = (6, 6, 6, 4, 4)  # "drie zessen en twee vieren"
    assert mm.base_score(rules, 5, dice) == 18
    assert mm.base_score(rules, 3, dice) == 8
    assert mm.base_score(rules, 0, dice) == 0


def test_three_of_a_kind_and_carre(rules):
    assert mm.base_score(rules, 6, (3, 3, 3, 5, 6)) == 20  # the seed's example
    assert mm.base_score(rules, 6, (3, 3, 2, 5, 6)) == 0
    assert mm.base_score(rules, 7, (3, 3, 3, 5, 6)) == 0
    assert mm.base_score(rules, 7, (2, 2, 2, 2, 6)) == 14


def test_fixed_values(rules):
    assert mm.base_score(rules, 8, (1, 1, 6, 6, 6)) == 25
    assert mm.base_score(rules, 8, (6, 6, 6, 6, 6)) == 0  # five equal: no full house
    assert mm.base_score(rules, 9, (3, 4, 5, 6, 1)) == 30
    assert mm.base_score(rules, 9, (2, 3, 4, 5, 5)) == 30
    assert mm.base_score(rules, 9, (1, 2, 3, 5, 6)) == 0
    assert mm.base_score(rules, 10, (1, 2, 3, 4, 5)) == 40
    assert mm.base_score(rules, 10, (2, 3, 4, 5, 6)) == 40
    assert mm.base_score(rules, 10, (1, 2, 3, 4, 6)) == 0
    assert mm.base_score(rules, 11, (4, 4, 4, 4, 4)) == 50
    assert mm.base_score(rules, 12, (1, 2, 3, 4, 6)) == 16


def test_mikazee_as_full_house_option(rules):
    rules["mik_is_fh"] = 1
    assert mm.base_score(rules, 8, (6, 6, 6, 6, 6)) == 25


def test_joker_in_a_column_whose_mikazee_is_filled_even_with_zero(rules):
    sheet = mm.Sheet(rules)
    five = (2, 2, 2, 2, 2)
    assert sheet.points(1, 8, five) == (0, 0)  # Mikazee of column 1 still empty
    sheet.book(1, 11, (1, 2, 3, 4, 6), 1)  # Mikazee crossed out with 0
    assert sheet.points(1, 8, five) == (25, 0)
    assert sheet.points(1, 9, five) == (30, 0)
    assert sheet.points(1, 10, five) == (40, 0)
    assert sheet.points(1, 6, five) == (10, 0)  # no minimum for three of a kind by default
    assert sheet.points(1, 1, five) == (10, 0)
    assert sheet.points(2, 8, five) == (0, 0)  # another column: its Mikazee is empty


def test_joker_options(rules):
    rules.update(joker_if_zero=0, joker_upper_filled=1, joker_3k=33)
    sheet = mm.Sheet(rules)
    sheet.book(1, 11, (1, 2, 3, 4, 6), 1)
    five = (2, 2, 2, 2, 2)
    assert sheet.points(1, 8, five) == (0, 0)  # Mikazee is 0: no joker
    sheet.cells[1][11] = 50
    assert sheet.points(1, 8, five) == (0, 0)  # "Twee" not filled yet
    sheet.book(1, 1, (2, 1, 1, 1, 1), 1)
    assert sheet.points(1, 8, five) == (25, 0)
    assert sheet.points(1, 6, five) == (33, 0)


def test_extra_mikazee_bonus_options(rules):
    rules["extra_mik"] = 100
    sheet = mm.Sheet(rules)
    five = (5, 5, 5, 5, 5)
    sheet.book(1, 11, (1, 2, 3, 4, 6), 1)
    assert sheet.points(1, 12, five) == (25, 0)  # Mikazee 0: no bonus by default
    rules["extra_if_zero"] = 1
    sheet = mm.Sheet(rules)
    sheet.book(1, 11, (1, 2, 3, 4, 6), 1)
    assert sheet.points(1, 12, five) == (25, 100)
    rules["extra_all_filled"] = 1
    sheet = mm.Sheet(rules)
    sheet.book(1, 11, (1, 2, 3, 4, 6), 1)
    assert sheet.points(1, 12, five) == (25, 0)  # not every column's Mikazee is filled
    for column in range(2, 7):
        sheet.cells[column][11] = 50
    assert sheet.points(1, 12, five) == (25, 100)
    sheet.book(1, 12, five, 1)
    assert sheet.total(1) == 125


def test_fill_orders(rules):
    sheet = mm.Sheet(rules)
    dice = (1, 2, 3, 4, 5)
    assert sheet.check(4, 0, 1) == "order"  # column 4 upwards: Kans first
    assert sheet.check(4, 12, 1) is None
    assert sheet.check(5, 12, 1) == "order"  # column 5 downwards: Een first
    assert sheet.check(5, 0, 1) is None
    assert sheet.check(6, 3, 2) == "at_once"
    assert sheet.check(6, 3, 1) is None
    sheet.book(4, 12, dice, 3)
    assert sheet.check(4, 11, 1) is None and sheet.check(4, 10, 1) == "order"
    sheet.book(5, 0, dice, 3)
    assert sheet.check(5, 1, 1) is None and sheet.check(5, 2, 1) == "order"
    assert sheet.check(5, 0, 1) == "filled"
    assert sheet.check(1, 13, 1) == "no_box"
    with pytest.raises(mm.Refused) as refused:
        sheet.book(6, 0, dice, 2)
    assert refused.value.message == "ALLEEN WORP 1"


def test_column_by_column_and_left_to_right():
    rules = mm.default_rules()
    rules.update(columns=4, order1=mm.COLUMN_BY_COLUMN, order2=mm.COLUMN_BY_COLUMN,
                 order3=mm.LEFT_TO_RIGHT, order4=mm.LEFT_TO_RIGHT)
    sheet = mm.Sheet(rules)
    assert sheet.check(1, 5, 3) is None  # first column: no previous column
    assert sheet.check(2, 5, 3) == "column"
    assert sheet.check(3, 5, 3) is None  # previous column is "column by column": free
    assert sheet.check(4, 5, 3) == "left"
    sheet.cells[1] = [0] * 13
    assert sheet.check(2, 5, 3) is None
    sheet.book(3, 5, (6, 6, 1, 2, 3), 3)
    assert sheet.check(4, 5, 3) is None and sheet.check(4, 4, 3) == "left"
    rules.update(order2=mm.IN_TWO)
    assert mm.Sheet(rules).check(2, 0, 3) == "in_two"
    assert mm.Sheet(rules).check(2, 0, 2) is None


def test_weights_bonus_and_final_score(rules):
    sheet = mm.Sheet(rules)
    for column in range(1, 7):
        for row in range(6):
            sheet.cells[column][row] = 3 * (row + 1)  # 63: bonus
    sheet.cells[2][0] = 0  # column 2 misses it (60)
    assert [sheet.bonus(c) for c in range(1, 7)] == [35, 0, 35, 35, 35, 35]
    totals = [sheet.total(c) for c in range(1, 7)]
    assert totals == [98, 60, 98, 98, 98, 98]
    assert sheet.score() == 98 + 2 * 60 + 3 * 98 + 98 * 3
    rules["all_bonus"] = 500
    sheet.rules = rules
    assert sheet.score() == 98 + 2 * 60 + 3 * 98 + 98 * 3
    sheet.cells[2][0] = 3
    assert sheet.score() == 98 + 2 * 98 + 3 * 98 + 98 * 3 + 500


def test_card_records_round_trip(rules):
    lines = mm.rule_lines("MIKAZEE", rules)
    lengths = [len(text) for text in lines]
    assert mm.decode_rule_lines(lines) == ("MIKAZEE", rules)
    rules.update(bonus_from=999, extra_mik=1000 - 1, columns=9, order9=mm.IN_TWO, weight9=9)
    lines = mm.rule_lines("X", rules)
    assert [len(text) for text in lines] == lengths  # fixed places: the program POKEs them
    assert mm.decode_rule_lines(lines) == ("X      ", rules)
    assert lines[1].endswith(",7,1,20")  # 7 columns neither ineens nor in twee, 1 in twee
    assert lines[2] == '"   1   2   3   1   1   1   1   1   9"'
    assert lines[3] == '"   V   V   V   O   N   I   V   V   2"'
    top = [("AB  ", 32767), ("CDEF", 0)] + mm.EMPTY_TOP[2:]
    assert mm.decode_top(mm.encode_top(top)) == top
    assert len(mm.encode_top(top)) == mm.RECORD_CHARS


def test_top_ten_insertion():
    top = list(mm.EMPTY_TOP)
    top, place = mm.top_insert(top, "A", 100)
    assert place == 0 and top[0] == ("A   ", 100)
    top, place = mm.top_insert(top, "B", 100)
    assert place == 1  # below an equal score
    top, place = mm.top_insert(top, "C", 0)
    assert place is None
    for i in range(10):
        top, _ = mm.top_insert(top, f"P{i}", 200 + i)
    assert [s for _, s in top] == list(range(209, 199, -1))
    assert mm.top_insert(top, "Z", 200)[1] is None


# -- the program's formulas (transcribed from mikazee.bas) against the model ----------------

def program_points(rules, row, dice):
    a, b, c, d, e = dice
    t = a + b + c + d + e
    m = sum(x == y for x, y in itertools.combinations(dice, 2))  # equal pairs (line 2271)
    if row < 6:
        h = row + 1
        return h * sum(x == h for x in dice)
    if row == 6:
        return t * (m > 2)
    if row == 7:
        return t * (m > 5)
    if row == 8:
        return rules["fh"] * ((m == 4) + (m == 10) * rules["mik_is_fh"])
    h = 0
    for x in dice:
        h |= 2 ** x  # H=HC(A) OR HC(B) OR HC(C) OR HC(D) OR HC(E), HC(I)=2^I
    if row == 9:
        return rules["ks"] * (((h & 30) == 30) + ((h & 60) == 60) + ((h & 120) == 120) > 0)
    if row == 10:
        return rules["gs"] * ((h == 62) + (h == 124))
    if row == 11:
        return rules["mik"] * (h == 2 ** a)
    return t


@pytest.mark.parametrize("mik_is_fh", [0, 1])
def test_program_formulas_match_the_model_for_every_roll(rules, mik_is_fh):
    rules["mik_is_fh"] = mik_is_fh
    for dice in ALL_ROLLS:
        for row in range(13):
            assert program_points(rules, row, dice) == mm.base_score(rules, row, dice), (row, dice)


# -- no dead ends: a re-roll that would leave no legal entry is refused -------------------

def program_reroll_refusal(rules, sheet, roll):
    """Lines 2210-2213, 2370-2371 and 2327, transcribed: CS(0,0) counts the open cells of
    the columns a re-roll leaves usable (13 per column that is neither "ineens" nor "in
    twee keer", one less per booking there), CS(0,1) those of "in twee keer" columns; the
    first die key of a roll is refused when CS(0,0)=0 and CS(0,1)*(W<2)=0 (message 8+(W=2))."""
    free = two = 0
    for c in range(1, sheet.n + 1):
        how = mm.order(rules, c)
        free += 13 * ((how - 3) * (how - 4) > 0)
        two += 13 * (how == 4)
    for c in range(1, sheet.n + 1):
        how = mm.order(rules, c)
        for v in sheet.cells[c]:
            if v is not None:
                two -= how == 4
                free -= (how - 3) * (how - 4) > 0
    if free == 0 and two * (roll < 2) == 0:
        return "reroll_at_once" if roll == 1 else "reroll_in_two"
    return None


LAYOUTS = [[0], [0, 3], [3, 0, 4], [4, 3], [3], [4], [3, 4]]


@pytest.mark.parametrize("fill_order", range(7), ids=["vrij", "omhoog", "omlaag", "ineens",
                                                      "in-twee", "kolom-voor-kolom",
                                                      "links-rechts"])
def test_every_game_can_be_finished_for_every_fill_order(fill_order):
    """Whole random games (re-rolling whenever the rules let the player, booking any allowed
    cell) with columns of `fill_order` next to "ineens" / "in twee keer" columns: at every
    roll there is a cell to book, and the program's refusal rule agrees with the model's
    (a re-roll is refused exactly when it would leave no allowed cell)."""
    import random
    rnd = random.Random(fill_order)
    met = set()
    for layout in LAYOUTS:
        orders = [fill_order if o == 0 else o for o in layout]
        orders = [fill_order] * 2 + orders if fill_order in (5, 6) else orders
        rules = mm.default_rules()
        rules["columns"] = len(orders)
        for c, how in enumerate(orders, start=1):
            rules[f"order{c}"] = how
        for _ in range(15):
            sheet = mm.Sheet(rules)
            while not sheet.finished:
                roll = 1
                while roll < 3 and rnd.random() < 0.7:
                    problem = sheet.reroll_problem(roll)
                    assert problem == program_reroll_refusal(rules, sheet, roll)
                    if problem:
                        met.add(problem)
                        assert not sheet.allowed(roll + 1)
                        break
                    assert sheet.allowed(roll + 1)
                    roll += 1
                allowed = sheet.allowed(roll)
                assert allowed, (orders, roll, sheet.cells)
                sheet.book(*rnd.choice(allowed), (1, 2, 3, 4, 5), roll)
    assert met == {"reroll_at_once", "reroll_in_two"}

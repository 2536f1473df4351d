"""Unit tests of the Kniffel rule model (kniffel_model.py), plus checks that the formulas and
the key table of basic_src/kniffel.bas agree with it for every possible roll (no emulator)."""

import itertools
import re
from pathlib import Path

import pytest

from tests.helpers import kniffel_model as km

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "kniffel.bas"
ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


# -- the 13 methods ---------------------------------------------------------------------

@pytest.mark.parametrize("method, dice, points", [
    ("1", (1, 1, 2, 3, 1), 3),
    ("2", (2, 2, 2, 2, 5), 8),
    ("3", (3, 3, 3, 3, 1), 12),
    ("4", (1, 2, 3, 5, 6), 0),
    ("5", (5, 5, 1, 1, 1), 10),
    ("6", (6, 6, 6, 6, 6), 30),
])
def test_upper_methods_count_only_their_face(method, dice, points):
    assert km.score(method, dice) == points


def test_documented_examples():
    # the examples of the documentation: FH 4 4 4 2 2, KS 2 3 4 5 3, GS 2 3 4 5 6
    assert km.score("FH", (4, 4, 4, 2, 2)) == 25
    assert km.score("KS", (2, 3, 4, 5, 3)) == 30
    assert km.score("GS", (2, 3, 4, 5, 6)) == 40


@pytest.mark.parametrize("dice, dp, vp", [
    ((3, 3, 3, 1, 2), 12, 0),
    ((6, 6, 6, 6, 2), 26, 26),
    ((5, 5, 5, 5, 5), 25, 25),
    ((2, 2, 3, 3, 1), 0, 0),
    ((4, 4, 4, 1, 1), 14, 0),
])
def test_three_and_four_of_a_kind_count_all_dice(dice, dp, vp):
    assert km.score("DP", dice) == dp
    assert km.score("VP", dice) == vp


@pytest.mark.parametrize("dice, points", [
    ((4, 4, 4, 2, 2), 25),
    ((1, 6, 1, 6, 6), 25),
    ((3, 3, 3, 3, 3), 25),  # five equal: three equal and the other two equal too
    ((3, 3, 3, 3, 2), 0),
    ((2, 2, 3, 3, 1), 0),
    ((1, 2, 3, 4, 5), 0),
])
def test_full_house(dice, points):
    assert km.score("FH", dice) == points


def test_full_house_strict_reading_is_available():
    assert km.score("FH", (3, 3, 3, 3, 3), five_equal_is_full_house=False) == 0
    assert km.score("FH", (3, 3, 3, 2, 2), five_equal_is_full_house=False) == 25


@pytest.mark.parametrize("dice, ks, gs", [
    ((1, 2, 3, 4, 6), 30, 0),
    ((2, 3, 4, 5, 3), 30, 0),
    ((6, 5, 4, 3, 3), 30, 0),
    ((1, 2, 3, 4, 5), 30, 40),
    ((2, 3, 4, 5, 6), 30, 40),
    ((1, 2, 3, 5, 6), 0, 0),
    ((1, 3, 4, 5, 6), 30, 0),
    ((1, 1, 2, 2, 3), 0, 0),
])
def test_straights(dice, ks, gs):
    assert km.score("KS", dice) == ks
    assert km.score("GS", dice) == gs


def test_kniffel_and_chance():
    assert km.score("KN", (2, 2, 2, 2, 2)) == 50
    assert km.score("KN", (2, 2, 2, 2, 3)) == 0
    assert km.score("CH", (1, 2, 3, 4, 6)) == 16
    assert km.score("CH", (6, 6, 6, 6, 6)) == 30


def test_every_method_has_a_non_matching_roll_that_scores_zero():
    for method in km.METHODS[:-1]:  # CH always scores
        assert any(km.score(method, dice) == 0 for dice in ALL_ROLLS), method


def test_bad_dice_and_methods_are_refused():
    with pytest.raises(ValueError):
        km.score("1", (1, 2, 3, 4))
    with pytest.raises(ValueError):
        km.score("1", (0, 2, 3, 4, 5))
    with pytest.raises(ValueError):
        km.score("XX", (1, 2, 3, 4, 5))


# -- the score card ---------------------------------------------------------------------

def test_distance_examples_of_the_documentation():
    player = km.Player("AB")
    assert player.distance == 0
    player.book("3", (3, 3, 3, 3, 1))  # four 3s: one more than assumed
    assert player.distance == 3
    player.book("5", (5, 5, 1, 2, 6))  # two 5s: one fewer than assumed
    assert player.distance == 3 - 5
    player.book("1", (2, 3, 4, 5, 6))  # no 1s: zero points
    assert player.distance == -2 - 3


def test_bonus_reached_with_three_of_each_face():
    player = km.Player("AB")
    for face in range(1, 7):
        others = [x for x in (1, 2, 3) if x != face][:2]
        player.book(str(face), (face, face, face, *others))
    assert player.upper_sum == 63
    assert player.distance == 0
    assert player.bonus == 35
    assert player.total == 63 + 35


def test_bonus_missed_at_62():
    player = km.Player("AB")
    rolls = {1: 2, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3}  # one 1 short
    for face, count in rolls.items():
        other = 2 if face == 1 else 1
        player.book(str(face), (face,) * count + (other,) * (5 - count))
    assert player.upper_sum == 62
    assert player.distance == -1
    assert player.bonus == 0
    assert player.total == 62


def test_bonus_counts_as_soon_as_reached():
    player = km.Player("AB")
    player.book("6", (6, 6, 6, 6, 6))
    player.book("5", (5, 5, 5, 5, 5))
    assert player.bonus == 0
    player.book("4", (4, 4, 4, 1, 1))
    assert player.upper_sum == 67 and player.bonus == 35 and player.total == 102


def test_a_method_can_be_booked_only_once():
    player = km.Player("AB")
    player.book("KN", (1, 2, 3, 4, 5))
    with pytest.raises(km.MethodUsed):
        player.book("KN", (6, 6, 6, 6, 6))
    assert player.points == {"KN": 0}
    assert player.open_methods() == [m for m in km.METHODS if m != "KN"]


def test_finished_after_thirteen_methods():
    player = km.Player("AB")
    for method in km.METHODS:
        assert not player.finished
        player.book(method, (1, 1, 1, 1, 1))
    assert player.finished


def test_winners_single_and_tie():
    assert km.winners([10, 30, 20]) == [1]
    assert km.winners([30, 10, 30]) == [0, 2]
    assert km.winners([5]) == [0]


def test_best_open_method_prefers_points_then_order():
    player = km.Player("AB")
    assert km.best_open_method(player, (6, 6, 6, 6, 6)) == "KN"
    player.book("KN", (1, 2, 3, 4, 6))
    assert km.best_open_method(player, (6, 6, 6, 6, 6)) == "6"
    player = km.Player("CD")
    for method in km.METHODS[:-1]:
        player.book(method, (1, 1, 1, 1, 1))
    assert km.best_open_method(player, (1, 2, 3, 4, 6)) == "CH"


def test_method_row_texts():
    assert km.method_row_texts(set()) == ("1 2 3 4 5 6", "DP VP FH KS GS KN CH")
    assert km.method_row_texts({"1", "6", "DP", "CH"}) == ("- 2 3 4 5 -", "-- VP FH KS GS KN --")


def test_keys_choose_every_method_once():
    assert sorted(km.KEY_TO_METHOD.values()) == sorted(km.METHODS)
    assert len(set(km.METHOD_KEYS)) == 13


# -- the program's formulas and tables against the model (every roll) -------------------

def basic_formulas(method, dice):
    """The arithmetic of kniffel.bas lines 60-92, transcribed: T = sum, X = number of equal
    pairs; KS from the presence flags F..K of faces 1..6; comparisons give 1 or 0."""
    a, b, c, d, e = dice
    t = a + b + c + d + e
    x = sum(p == q for p, q in itertools.combinations(dice, 2))
    m = km.METHODS.index(method) + 1
    if m <= 6:
        return m * ((a == m) + (b == m) + (c == m) + (d == m) + (e == m))
    if m == 7:
        return t * (x > 2)
    if m == 8:
        return t * (x > 5)
    if m == 9:
        return 25 * ((x == 4) + (x == 10))
    if m == 10:
        f, g, h, i, j, k = ((face in dice) for face in range(1, 7))
        return 30 * (h * i * (f * g + g * j + j * k) > 0)
    if m == 11:
        return 40 * (x == 0) * ((t == 15) + (t == 20))
    if m == 12:
        return 50 * (x == 10)
    return t


@pytest.mark.parametrize("method", km.METHODS)
def test_program_formulas_agree_with_the_model_for_every_roll(method):
    for dice in ALL_ROLLS:
        assert basic_formulas(method, dice) == km.score(method, dice), (method, dice)


def _source_text():
    return SOURCE.read_text(encoding="utf-8")


def test_program_formulas_are_the_ones_transcribed():
    # If the program's scoring lines change, basic_formulas above must change with them.
    text = _source_text()
    for fragment in (
            "X=(A=B)+(A=C)+(A=D)+(A=E)+(B=C)+(B=D)+(B=E)+(C=D)+(C=E)+(D=E)",
            "N=M*((A=M)+(B=M)+(C=M)+(D=M)+(E=M))",
            "N=N*(X>2)", "N=N*(X>5)", "N=25*((X=4)+(X=10))",
            "N=30*(H*I*(F*G+G*J+J*K)>0)", "N=40*(X=0)*((T=15)+(T=20))", "N=50*(X=10)",
            "IF U<63 IF U+N>62 LET PT(Q,0)=PT(Q,0)+35", "PT(Q,2)=PT(Q,2)+N-3*M"):
        assert fragment in text, fragment


def test_program_key_table_matches_the_documented_keys():
    # line 64/65: O=ASC Y$-48 (1..38), M=ASC MID$(table,O,1)-64
    match = re.search(r'M=ASC MID\$\("([^"]+)",O,1\)-64', _source_text())
    assert match
    table = match.group(1)
    assert len(table) == 38
    mapping = {chr(48 + i + 1): ord(ch) - 64 for i, ch in enumerate(table) if ch != "@"}
    expected = {key: i + 1 for i, key in enumerate(km.METHOD_KEYS)}
    assert mapping == expected


def test_program_struck_positions_match_the_rows():
    # used methods are found and struck at 2*M-1 (row "1 2 3 4 5 6") and 3*M-20
    # (row "DP VP FH KS GS KN CH"), M = 1..13
    upper, lower = km.method_row_texts(set())
    for m in range(1, 7):
        assert upper[2 * m - 2] == km.METHODS[m - 1]
        tail = upper[len(upper) - (12 - 2 * m):] if 12 - 2 * m else ""  # RIGHT$(s,12-2*M)
        assert upper[:2 * m - 2] + "-" + tail == km.method_row_texts({km.METHODS[m - 1]})[0]
    for m in range(7, 14):
        assert lower[3 * m - 21:3 * m - 19] == km.METHODS[m - 1]
        tail = lower[len(lower) - (39 - 3 * m):] if 39 - 3 * m else ""
        assert lower[:3 * m - 21] + "--" + tail == km.method_row_texts({km.METHODS[m - 1]})[1]

"""Unit tests of the Yahtzee rule model (yahtzee_model.py), plus checks that the formulas,
the key table and the difference table of basic_src/yahtzee.bas agree with it for every
possible roll (no emulator: the BASIC expressions are transliterated below)."""

import itertools
import re
from pathlib import Path

import pytest

from tests.helpers import yahtzee_model as ym

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "yahtzee.bas"
ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def source_line(number):
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        if text.startswith(f"{number} "):
            return text
    raise LookupError(number)


def line_with(fragment):
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        if fragment in text:
            return text
    raise LookupError(fragment)


# -- the seed's examples ----------------------------------------------------------------

def test_seed_examples():
    assert ym.score("5", (3, 5, 2, 5, 5)) == 15
    assert ym.score("DG", (3, 5, 2, 5, 5)) == 20
    assert ym.score("VG", (3, 3, 3, 5, 3)) == 17
    assert ym.score("KS", (6, 2, 1, 4, 3)) == 30
    assert ym.score("GS", (1, 2, 3, 4, 5)) == 40
    assert ym.score("FH", (2, 2, 6, 2, 6)) == 25
    assert ym.score("KA", (2, 4, 1, 6, 4)) == 17
    assert ym.score("JA", (2, 2, 2, 2, 2)) == 50


def test_seed_bookkeeping_example():
    # four 3s = 12 (+3), two 5s = 10 (-5), four 2s = 8 (+2): back to 0
    p = ym.Player("AB")
    p.book("3", (3, 3, 3, 3, 1))
    p.book("5", (5, 5, 1, 2, 3))
    assert (p.difference("3"), p.difference("5"), p.difference_sum) == (3, -5, -2)
    p.book("2", (2, 2, 2, 2, 6))
    assert p.difference("2") == 2 and p.difference_sum == 0
    assert p.upper_row() == "  1 +2 +3  4 -5  6     0"


def test_upper_bonus_at_63():
    p = ym.Player("AB")
    for face in range(1, 7):
        p.book(str(face), (face, face, face, 1 if face != 1 else 2, 2 if face != 2 else 3))
    assert p.upper_sum == 63 and p.bonus == 35 and p.difference_sum == 0
    r = ym.Player("EF")
    r.book("6", (6, 6, 6, 6, 6))
    r.book("5", (5, 5, 5, 5, 5))
    assert r.upper_sum == 55 and r.bonus == 0
    r.book("1", (1, 1, 1, 1, 1))
    assert r.upper_sum == 60 and r.bonus == 0
    r.book("2", (2, 2, 1, 3, 4))
    assert r.upper_sum == 64 and r.bonus == 35 and r.total == 64 + 35


@pytest.mark.parametrize("dice, fh", [
    ((2, 2, 6, 2, 6), 25), ((3, 3, 3, 3, 3), 0), ((3, 3, 3, 3, 2), 0), ((1, 2, 3, 4, 5), 0),
])
def test_five_equal_are_no_full_house(dice, fh):
    assert ym.score("FH", dice) == fh


# -- jahtzy bonus and joker ----------------------------------------------------------------

def test_bonus_only_with_50_in_the_jahtzy_box():
    p = ym.Player("AB")
    p.book("JA", (4, 4, 4, 4, 4))
    assert p.book("4", (4, 4, 4, 4, 4)) == 20 and p.jahtzy_bonus == 100
    assert p.book("DG", (1, 1, 1, 1, 1)) == 5 and p.jahtzy_bonus == 200
    q = ym.Player("CD")
    q.book("JA", (1, 2, 3, 4, 6))  # crossed out
    assert q.points["JA"] == 0
    q.book("4", (4, 4, 4, 4, 4))
    assert q.jahtzy_bonus == 0 and q.total == 20


def test_no_bonus_for_the_first_jahtzy_or_with_the_box_open():
    p = ym.Player("AB")
    p.book("6", (6, 6, 6, 6, 6))  # jahtzy box still open: no bonus
    assert p.jahtzy_bonus == 0
    p.book("JA", (2, 2, 2, 2, 2))
    assert p.jahtzy_bonus == 0 and p.points["JA"] == 50


@pytest.mark.parametrize("box, value", [("FH", 25), ("KS", 30), ("GS", 40)])
def test_joker_needs_the_jahtzy_box_and_the_upper_box_filled(box, value):
    dice = (5, 5, 5, 5, 5)
    open_ja = ym.Player("AB")
    open_ja.book("5", (5, 1, 2, 3, 4))
    assert not open_ja.joker(dice) and open_ja.value(box, dice) == 0
    open_upper = ym.Player("CD")
    open_upper.book("JA", (1, 1, 1, 1, 1))
    assert not open_upper.joker(dice) and open_upper.value(box, dice) == 0
    for ja_dice in ((1, 1, 1, 1, 1), (1, 2, 3, 4, 6)):  # 50 or 0 in the jahtzy box
        both = ym.Player("EF")
        both.book("JA", ja_dice)
        both.book("5", (5, 5, 1, 2, 3))
        assert both.joker(dice) and both.book(box, dice) == value


def test_open_upper_box_is_not_forced():
    # reading of the seed: the filled upper box is only the joker's precondition
    p = ym.Player("AB")
    p.book("JA", (3, 3, 3, 3, 3))
    assert p.book("KA", (6, 6, 6, 6, 6)) == 30 and p.jahtzy_bonus == 100
    assert "6" not in p.points


def test_lower_row_and_used_boxes():
    p = ym.Player("AB")
    assert p.lower_row() == "DG VG KS GS FH KA JA"
    p.book("JA", (2, 2, 2, 2, 2))
    p.book("KS", (1, 2, 3, 4, 6))
    assert p.lower_row() == "DG VG -- GS FH KA 50"
    q = ym.Player("CD")
    q.book("JA", (1, 2, 3, 4, 6))
    assert q.lower_row() == "DG VG KS GS FH KA --"
    with pytest.raises(ym.BoxUsed):
        q.book("JA", (1, 1, 1, 1, 1))


def test_match_and_highscores():
    m = ym.Match(["AB", "CD", "EF"])
    for scores in ([100, 200, 150], [300, 100, 150], [100, 100, 100], [10, 10, 10], [5, 5, 5]):
        m.add_game(scores)
    assert m.finished and m.totals == [515, 415, 415] and m.winners() == [0]
    h = ym.HighScores()
    assert [h.insert(n, v) for n, v in (("A", 5), ("B", 9), ("C", 5), ("D", 7))] == [0, 0, 2, 1]
    assert h.entries == [("B", 9), ("D", 7), ("A", 5), ("C", 5)]
    for i in range(10):
        h.insert("X", 6)
    assert len(h.entries) == 10 and h.entries[-1] == ("X", 6) and h.insert("Z", 6) is None


# -- the program's formulas (transliterated) against the model, all 7776 rolls ------------

def program_points(box, dice, joker):
    """The program's expressions, as written in lines 1060 and 1081-1093."""
    a, b, c, d, e = dice
    t = sum(dice)
    x = ((a == b) + (a == c) + (a == d) + (a == e) + (b == c) + (b == d) + (b == e)
         + (c == d) + (c == e) + (d == e))
    v = int(joker)
    if box in ym.UPPER:
        m = int(box)
        return m * ((a == m) + (b == m) + (c == m) + (d == m) + (e == m))
    flags = {face: 0 for face in range(1, 7)}
    for face in dice:
        flags[face] = 1
    f, g, h, i, j, k = (flags[n] for n in range(1, 7))
    return {
        "DG": t * (x > 2),
        "VG": t * (x > 5),
        "KS": 30 * (h * i * (f * g + g * j + j * k) + v > 0),
        "GS": 40 * ((x == 0) * ((t == 15) + (t == 20)) + v),
        "FH": 25 * ((x == 4) + v),
        "KA": t,
        "JA": 50 * (x == 10),
    }[box]


def test_formula_lines_are_the_transliterated_ones():
    line_with("X=(A=B)+(A=C)+(A=D)+(A=E)+(B=C)+(B=D)+(B=E)+(C=D)+(C=E)+(D=E)")
    for fragment in ("N=T*(X>2)", "N=T*(X>5)", "N=30*(H*I*(F*G+G*J+J*K)+V>0)",
                     "N=40*((X=0)*((T=15)+(T=20))+V)", "N=25*((X=4)+V)", "N=T:", "N=50*(X=10)",
                     "N=M*((A=M)+(B=M)+(C=M)+(D=M)+(E=M))"):
        line_with(fragment)
    # only for five equal dice, at the "?": the jahtzy box as shown in row 3 ("JA" open,
    # "--" filled with 0, "50"): U the bonus (50 there), V the joker (filled, and the
    # upper box of the face A filled: its cell no longer the open " A")
    assert "IF A=B IF B=C IF C=D IF D=E GOSUB 1140" in line_with("GOSUB 1140")
    assert source_line(1140).endswith('Y$=MID$(LR$(Q),19,1): U=(Y$="5"): V=(Y$<"A")')
    assert source_line(1141).endswith(
        'IF V LET V=(MID$(UR$(Q),3*A-1,2)<>MID$("  1  2  3  4  5  6",3*A-1,2))')
    assert "IF U LET PT(Q,0)=PT(Q,0)+100" in line_with("PT(Q,0)+100")


@pytest.mark.parametrize("box", ym.BOXES)
def test_formulas_match_the_model_for_every_roll(box):
    for dice in ALL_ROLLS:
        joker = ym.is_jahtzy(dice)  # the program's V can be 1 only for five equal dice
        for v in (False, joker):
            assert program_points(box, dice, v) == ym.score(box, dice, joker=v), (box, dice, v)


def test_key_table():
    table = re.search(r'M=ASC MID\$\("([@A-M]+)",O,1\)-64', SOURCE.read_text()).group(1)
    # keys past the table's end read "" there (ASC "" is 0), so only O<1 is tested
    assert len(table) == 41 and "IF O<1" in line_with("O=ASC Y$-48: IF O<1")
    keys = {chr(48 + i + 1): ord(ch) - 64 for i, ch in enumerate(table) if ch != "@"}
    expected = {key: ym.BOXES.index(box) + 1 for key, box in zip(ym.BOX_KEYS, ym.BOXES)}
    expected.update({key: ym.BOXES.index(box) + 1 for key, box in ym.ALIAS_KEYS.items()})
    assert keys == expected


def test_difference_table_matches_the_model():
    text = SOURCE.read_text()
    cells = dict(re.findall(r'CT\$\((\d)\)="([-+ 0-9]{18})"', text))
    assert sorted(cells) == list("123456")
    for face in range(1, 7):
        for count in range(6):
            p = ym.Player("AB")
            dice = (face,) * count + tuple(f for f in range(1, 7) if f != face)[:5 - count]
            p.book(str(face), dice)
            cell = cells[str(face)][3 * count:3 * count + 3]
            assert cell == p.upper_row()[3 * face - 3:3 * face], (face, count, cell)

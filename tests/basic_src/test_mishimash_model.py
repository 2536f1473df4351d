"""Unit tests of the MISHIMASH rule model (mishimash_model.py), and the program's counting,
choosing and scoring lines run in Python (a small evaluator for just those lines) against
the model for every roll and every choice of dice (no emulator)."""

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import mishimash_model as mm

SOURCE = Path(__file__).resolve().parents[2] / "basic_src" / "mishimash.bas"


# -- scoring, as the seed lists it ----------------------------------------------------------

@pytest.mark.parametrize("dice, kept, points", [
    ((1, 2, 3, 4, 6, 6), [0], 1),  # a single 1
    ((5, 2, 3, 4, 6, 6), [0], 0.5),  # a single 5
    ((1, 1, 1, 2, 3, 4), [0, 1, 2], 10),  # three 1s
    ((2, 2, 2, 3, 4, 6), [0, 1, 2], 2),  # three equal 2-6: the face
    ((6, 6, 6, 2, 3, 4), [0, 1, 2], 6),
    ((4, 4, 4, 4, 2, 3), [0, 1, 2, 3], 8),  # four equal: 2x
    ((3, 3, 3, 3, 3, 2), [0, 1, 2, 3, 4], 9),  # five equal: 3x
    ((5, 5, 5, 5, 5, 5), range(6), 20),  # six equal: 4x
    ((1, 1, 1, 1, 1, 1), range(6), 40),
    ((1, 1, 1, 1), range(4), 20),
    ((6, 2, 4, 1, 3, 5), range(6), 15),  # the straight
    ((2, 3, 2, 3, 6, 6), range(6), 10),  # three pairs
    ((1, 1, 5, 5, 4, 4), range(6), 10),
    ((1, 5), [0, 1], 1.5),  # two independent singles
    ((1, 1, 1, 5, 5, 5), range(6), 15),  # two independent triples
    ((5, 5, 5, 1, 2, 3), [0, 1, 2, 3], 6),
])
def test_points_of_the_seed(dice, kept, points):
    assert mm.keep_points(dice, kept) == points


@pytest.mark.parametrize("dice, kept", [
    ((5, 5, 5, 1, 2, 3), [0]),  # one 5 out of three equal: split
    ((5, 5, 5, 1, 2, 3), [0, 1, 3]),
    ((1, 1, 1, 1, 2, 3), [0, 1, 2]),  # three of four equal
    ((1, 2, 3, 4, 5, 6), [0]),  # the 1 of a straight
    ((1, 2, 3, 4, 5, 6), [0, 4]),
    ((1, 1, 5, 5, 4, 4), [0, 1]),  # the 1s of three pairs
    ((1, 2, 3, 4, 6, 6), [0, 1]),  # a 2 scores nothing
    ((2, 2, 3, 4, 6, 6), [0, 1]),  # nor does a pair of 2s
    ((1, 5), []),  # at least one combination
])
def test_splits_and_dead_dice_are_refused(dice, kept):
    with pytest.raises(mm.Refused):
        mm.keep_points(dice, kept)


def test_independent_combinations_may_be_taken_alone():
    dice = (1, 5, 5, 5, 2, 1)
    assert mm.keep_points(dice, [0]) == 1
    assert mm.keep_points(dice, [5]) == 1
    assert mm.keep_points(dice, [1, 2, 3]) == 5
    assert mm.keep_points(dice, [0, 1, 2, 3, 5]) == 7
    assert [c.name for c in mm.combinations(dice)] == ["single 1", "single 1", "3x5"]


@pytest.mark.parametrize("dice, bust", [
    ((2, 3, 4, 6, 2, 3), True),
    ((2, 2, 3, 3, 4, 4), False),  # three pairs without 1 or 5
    ((2, 2, 3, 3, 4, 6), True),
    ((2, 2, 2, 3, 4, 6), False),
    ((6,), True), ((5,), False), ((3, 3), True), ((4, 4, 4), False),
    ((2, 2, 2, 2, 6, 6), False),  # four 2s (4+2 is not three pairs, still scores)
])
def test_bust(dice, bust):
    assert mm.is_bust(dice) == bust


def test_four_and_a_pair_is_not_three_pairs():
    assert mm.combinations((2, 2, 2, 2, 6, 6)) == [
        mm.Combination("4x2", frozenset(range(4)), 4)]
    with pytest.raises(mm.Refused):
        mm.keep_points((2, 2, 2, 2, 6, 6), range(6))


def test_bad_rolls():
    for dice in ((), (0, 1), (7,), (1,) * 7):
        with pytest.raises(ValueError):
            mm.combinations(dice)


# -- a turn -------------------------------------------------------------------------------

def test_multiplier_applies_to_each_roll_only():
    turn = mm.Turn()
    assert not turn.roll((1, 2, 3, 4, 6, 6))
    assert turn.keep([0]) == (1, 0)  # roll 1: x1
    assert not turn.roll((5, 5, 5, 2, 3))
    assert turn.keep([0, 1, 2]) == (10, 0)  # roll 2: 5 x2
    assert not turn.roll((1, 3))
    assert turn.keep([0]) == (3, 0)  # roll 3: 1 x3
    assert turn.points == 14
    assert turn.dice_left == 1
    assert turn.bank() == 14 and turn.over


def test_mishimash_bonus_rises_and_is_never_multiplied():
    turn = mm.Turn()
    turn.roll((1, 2, 3, 4, 5, 6))
    assert turn.keep(range(6)) == (15, 10)  # first clear: +10
    assert turn.dice_left == 6
    turn.roll((1, 1, 1, 5, 5, 5))
    assert turn.keep(range(6)) == (30, 20)  # roll 2: (10+5) x2, second clear +20
    turn.roll((2, 2, 3, 3, 6, 6))
    assert turn.keep(range(6)) == (30, 30)  # roll 3: 10 x3, third clear +30
    assert turn.clears == 3 and turn.points == 15 + 10 + 30 + 20 + 30 + 30
    turn.roll((1, 2, 2, 3, 4, 6))
    assert turn.keep([0]) == (4, 0)
    assert turn.bank() == 139


def test_clear_over_several_rolls():
    turn = mm.Turn()
    turn.roll((1, 5, 2, 3, 4, 4))
    turn.keep([0, 1])
    turn.roll((1, 1, 1, 5))
    assert turn.keep(range(4)) == (2 * 10.5, 10)
    assert turn.dice_left == 6


def test_bust_loses_everything_unbanked_including_the_bonus():
    turn = mm.Turn()
    turn.roll((1, 1, 1, 5, 5, 5))
    turn.keep(range(6))
    assert turn.points == 25
    assert turn.roll((2, 2, 3, 3, 4, 6))
    assert turn.over and turn.busted and turn.points == 0


def test_refused_keep_changes_nothing():
    turn = mm.Turn()
    turn.roll((5, 5, 5, 1, 2, 3))
    with pytest.raises(mm.Refused):
        turn.keep([0])
    assert turn.points == 0 and turn.dice_left == 6
    assert turn.keep([0, 1, 2, 3]) == (6, 0)
    with pytest.raises(ValueError):
        turn.keep([0])  # keep once per roll
    with pytest.raises(ValueError):
        turn.roll((1, 2, 3))  # two dice are left


# -- the game -----------------------------------------------------------------------------

def test_target_reached_by_a_middle_player_lets_only_the_later_ones_play():
    game = mm.Game(["AA", "BB", "CC", "DD"], target=50)
    for banked in (10, 20, 30, 40):
        game.end_turn(banked)
    assert game.round == 2 and game.current == 0 and game.label == "RONDE 2"
    game.end_turn(None)  # AA busts
    assert game.end_turn(35)  # BB reaches 55: final round for CC and DD only
    assert game.phase == "final" and game.current == 2 and game.label == "SLOT> 55.0"
    assert not game.end_turn(30)  # CC 60: no second trigger
    assert game.to_beat() == 60 and game.label == "SLOT> 60.0"  # DD must beat CC now
    assert game.current == 3
    game.end_turn(None)
    assert game.finished and game.winner == 2  # CC 60 beats BB 55
    assert [p for p, _ in game.history] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_target_reached_by_the_last_player_ends_at_once():
    game = mm.Game(["AA", "BB"], target=20)
    game.end_turn(5)
    assert game.end_turn(25)
    assert game.finished and game.winner == 1


def test_one_player_ends_when_the_target_is_banked():
    game = mm.Game(["SO"], target=30)
    game.end_turn(12)
    game.end_turn(None)
    assert game.round == 3 and not game.finished
    assert game.end_turn(18.5)
    assert game.finished and game.winner == 0 and game.round == 3 and game.scores == [30.5]


def test_sudden_death_until_one_leads():
    game = mm.Game(["AA", "BB", "CC"], target=20)
    game.end_turn(20)  # AA reaches the target: BB and CC play once more
    game.end_turn(20)
    game.end_turn(5)
    assert game.phase == "sudden death" and game.current == 0 and game.label == "BESLISSING"
    game.end_turn(None)
    assert game.current == 1  # CC is not tied: only AA and BB play
    game.end_turn(None)
    assert not game.finished and game.current == 0  # still tied: another round
    game.end_turn(3)
    game.end_turn(3.5)
    assert game.finished and game.winner == 1
    assert game.history[3:] == [(0, "sudden death"), (1, "sudden death"),
                                (0, "sudden death"), (1, "sudden death")]


def test_sudden_death_skips_the_first_player_when_not_tied():
    game = mm.Game(["AA", "BB", "CC"], target=10)
    game.end_turn(1)
    game.end_turn(10)
    game.end_turn(10)
    assert game.phase == "sudden death" and game.current == 1


# -- the program's lines, run in Python -------------------------------------------------------

def program_lines():
    lines = {}
    for text in SOURCE.read_text(encoding="utf-8").splitlines():
        number, body = text.split(" ", 1)
        lines[int(number)] = body
    return lines


KEYWORDS = {"IF", "LET", "GOTO", "GOSUB", "PRINT", "CURSOR", "BEEP", "RETURN", "USING",
            "REM", "CHR$", "STR$", "ASC", "RND", "MID$", "LEFT$"}
IGNORED = {"GOSUB", "PRINT", "CURSOR", "BEEP", "RETURN", "REM"}  # no effect on the numbers
TOKEN = re.compile(r'\s*(?:(\d+(?:\.\d+)?)|([A-Z][A-Z0-9]*\$?)'
                   r'|(<>|<=|>=|[-+*/=<>(),;:])|("[^"]*"))')


class MiniBasic:
    """Just enough PC-1360 BASIC for the program's arithmetic lines: LET (also implied),
    IF (a false condition skips the rest of the line), GOTO, fixed variables A-Z and A(n)
    as the same storage, two-letter variables, + - * /, comparisons giving 1 or 0 and the
    PC-1360 precedence (comparisons below + -). Statements that only draw, beep or call
    (PRINT, CURSOR, BEEP, GOSUB, RETURN) are skipped. Numbers are floats (exact for the
    program's halves). Each line
    is translated once into a Python function (returns a GOTO target or None)."""

    def __init__(self, lines):
        self.lines = lines
        self.vars = Counter()
        self._code = {}

    def __getitem__(self, name):
        return self.vars[name]

    def __setitem__(self, name, value):
        self.vars[name] = float(value)

    def run(self, start, stop):
        """Run from line `start`; returns the target of a GOTO that leaves the lines
        start..stop, or None when execution passes `stop`."""
        numbers = sorted(n for n in self.lines if start <= n <= stop)
        i = 0
        while i < len(numbers):
            target = self._function(numbers[i])(self.vars)
            if target is None:
                i += 1
            elif start <= target <= stop:
                i = numbers.index(target)
            else:
                return target
        return None

    def _function(self, number):
        if number not in self._code:
            body = self.lines[number]
            self.tokens = [next(x for x in t if x) for t in TOKEN.findall(body)]
            self.pos = 0
            code = ["def line(v):"]
            while self.pos < len(self.tokens):
                code += self._statement()
            code.append("    return None")
            scope = {"F": float, "_cmp": _compare, "_cell": _cell}
            exec("\n".join(code), scope)  # noqa: S102 (our own translation of the source)
            self._code[number] = scope["line"]
        return self._code[number]

    def _peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self, expected=None):
        token = self._peek()
        if expected is not None and token != expected:
            raise SyntaxError(f"{expected} expected, not {token} in {self.tokens}")
        self.pos += 1
        return token

    def _statement(self):
        token = self._peek()
        if token == ":":
            self._take()
            return []
        if token == "REM":
            self.pos = len(self.tokens)
            return []
        if token in IGNORED:
            while self._peek() not in (None, ":"):
                self._take()
            return []
        if token == "IF":
            self._take()
            return [f"    if not ({self._expr()}): return None"]
        if token == "GOTO":
            self._take()
            return [f"    return {int(self._take())}"]
        if token == "LET":
            self._take()
        cell = self._target()
        self._take("=")
        return [f"    v[{cell}] = {self._expr()}"]

    def _target(self):
        name = self._take()
        if name in KEYWORDS or not re.fullmatch(r"[A-Z][A-Z0-9]?", name):
            raise SyntaxError(f"not a variable: {name} in {self.tokens}")
        if name == "A" and self._peek() == "(":
            self._take()
            index = self._expr()
            self._take(")")
            return f"_cell({index})"
        return repr(name)

    def _expr(self):  # comparisons (lowest)
        left = self._sum()
        while self._peek() in ("=", "<>", "<", ">", "<=", ">="):
            op = self._take()
            left = f"_cmp({left}, {op!r}, {self._sum()})"
        return left

    def _sum(self):
        code = self._product()
        while self._peek() in ("+", "-"):
            code = f"({code} {self._take()} {self._product()})"
        return code

    def _product(self):
        code = self._unary()
        while self._peek() in ("*", "/"):
            code = f"({code} {self._take()} {self._unary()})"
        return code

    def _unary(self):
        token = self._peek()
        if token == "-":
            self._take()
            return f"(-{self._unary()})"
        if token == "(":
            self._take()
            code = self._expr()
            self._take(")")
            return code
        if re.fullmatch(r"\d+(\.\d+)?", token):
            self._take()
            return repr(float(token))
        return f"v[{self._target()}]"


def _compare(left, op, right):
    return float({"=": left == right, "<>": left != right, "<": left < right,
                  ">": left > right, "<=": left <= right, ">=": left >= right}[op])


def _cell(index):
    """A(n) is the fixed variable number n (A(1) = A ... A(26) = Z)."""
    assert index == int(index) and 1 <= index <= 26, index
    return chr(64 + int(index))


def line_of(fragment):
    return next(n for n, body in program_lines().items() if fragment in body)


# The program's pieces, found by their text so that renumbering does not break the test.
COUNT_FROM = line_of("M=0: N=0: O=0")  # after the dice are shown: count, six-dice combo
BUST_LINE = line_of('PRINT "PECH!"')
TOGGLE_FROM = line_of("K=A(I): CURSOR 23+2*I")
CHECK_FROM = line_of("J=0: K=0:")
ACCEPTED = line_of("IF G=0 LET MC=MC+1")


def basic_roll(basic, dice):
    """Put a roll into A-F and G as the rolling lines leave it; run the counting lines.
    True when the program finds a score (it goes to its key loop), False for a bust."""
    for i in range(6):
        basic[chr(65 + i)] = dice[i] if i < len(dice) else 0
    basic["G"] = len(dice)
    return basic.run(COUNT_FROM, BUST_LINE) is not None  # a GOTO to the key loop


def basic_choose(basic, position):
    """A digit key for die `position` (1-based): the program's toggle lines."""
    basic["I"] = position
    basic.run(TOGGLE_FROM, TOGGLE_FROM + 2)


def basic_action(basic, roll_number=1, turn_points=0, clears=0):
    """ENTER/B with the chosen dice: None if refused, else (Z, G, MC) after the keep."""
    basic["WP"], basic["Z"], basic["MC"] = roll_number, turn_points, clears
    if basic.run(CHECK_FROM, ACCEPTED) is not None:
        return None
    return basic["Z"], basic["G"], basic["MC"]


def all_rolls():
    for n in range(1, 7):
        yield from itertools.combinations_with_replacement(range(1, 7), n)


def keep_choices(dice):
    """Every distinct choice (0-based positions): per face, the first k dice of that face."""
    faces = sorted(set(dice))
    where = {f: [i for i, d in enumerate(dice) if d == f] for f in faces}
    for counts in itertools.product(*(range(len(where[f]) + 1) for f in faces)):
        yield [i for f, k in zip(faces, counts) for i in where[f][:k]]


def test_program_finds_busts_like_the_model():
    basic = MiniBasic(program_lines())
    for dice in all_rolls():
        for order in {dice, tuple(reversed(dice))}:
            assert basic_roll(basic, order) == (not mm.is_bust(order)), order


def test_program_scores_every_choice_like_the_model():
    basic = MiniBasic(program_lines())
    checked = refused = 0
    for dice in all_rolls():
        if mm.is_bust(dice):
            continue
        for kept in keep_choices(dice):
            assert basic_roll(basic, dice)
            for position in kept:
                basic_choose(basic, position + 1)
            # the 3rd roll of a turn with 7.5 points and one clear so far
            result = basic_action(basic, roll_number=3, turn_points=7.5, clears=1)
            try:
                points = mm.keep_points(dice, kept)
            except mm.Refused:
                assert result is None, (dice, kept, result)
                refused += 1
                continue
            left = len(dice) - len(kept)
            bonus = 20 if left == 0 else 0
            assert result == (7.5 + 3 * points + bonus, left or 6, 1 + (left == 0)), (dice, kept)
            checked += 1
    assert checked > 2000 and refused > 2000


def test_choosing_twice_takes_the_die_back():
    basic = MiniBasic(program_lines())
    dice = (5, 5, 5, 1, 2, 3)
    assert basic_roll(basic, dice)
    for position in (1, 2, 3, 4, 4, 1):
        basic_choose(basic, position)
    assert [basic[c] for c in "ABCDEF"] == [5, 11, 11, 1, 2, 3]  # +6: chosen
    assert basic_action(basic) is None  # two of three 5s
    basic_choose(basic, 1)
    assert basic_action(basic) == (5, 3, 0)


def test_evaluator_precedence():
    basic = MiniBasic({1: "K=2+3*4=14: J=-2*3+1: I=1+2<4*1: H=7/2: A(A+2)=5: IF 0 LET H=0"})
    basic["A"] = 1
    basic.run(1, 1)
    assert (basic["K"], basic["J"], basic["I"], basic["H"]) == (1, -5, 1, 3.5)
    assert basic["C"] == 5

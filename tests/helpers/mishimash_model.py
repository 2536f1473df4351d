"""An independent model of the MISHIMASH rules (seed 003_28e5f3da6b4b5d35.txt), the oracle
for the tests of basic_src/mishimash.bas. It works on dice positions and combinations, not
on the program's counting formulas.

Readings of the seed where it is not explicit (basic_src/mishimash.md, "Rules"):
- A roll's scoring combinations: the straight 1-6 (six dice) and three pairs (six dice,
  three different faces twice each) take the whole roll; otherwise all dice of a face
  shown three or more times form one combination, and every other 1 or 5 is a
  combination of its own (a single). Combinations never overlap.
- "Indivisible": the kept dice must be a union of whole combinations of the roll; so the
  straight and three pairs must be kept whole, three or more equal dice all together,
  singles one by one.
- The MISHIMASH bonus belongs to the turn's unbanked points (a later bust loses it too);
  it is earned when the kept dice are all the dice of the roll, also when the player then
  banks.
- End: after a bank that reaches the target (the first time), the players after the banker
  in the order play once more (none if the banker is the last in the order); then the
  highest score wins; players tied for it play sudden-death rounds (one turn each, in
  order, scores added) until one leads.
"""

from collections import Counter
from dataclasses import dataclass

SINGLE_POINTS = {1: 1, 5: 0.5}
STRAIGHT_POINTS = 15
THREE_PAIRS_POINTS = 10
MISHIMASH_STEP = 10  # the k-th clear of a turn gives k * 10


class Refused(ValueError):
    """The kept dice are not a union of whole scoring combinations (or none)."""


def three_equal_points(face):
    return 10 if face == 1 else face


def equal_points(face, count):
    """Three, four, five, six equal: 1x, 2x, 3x, 4x the value of three equal."""
    return three_equal_points(face) * (count - 2)


@dataclass(frozen=True)
class Combination:
    name: str
    positions: frozenset  # 0-based positions in the roll
    points: float


def combinations(dice):
    """The scoring combinations of a roll (a sequence of faces), in a fixed order."""
    dice = tuple(dice)
    if not 1 <= len(dice) <= 6 or any(d not in range(1, 7) for d in dice):
        raise ValueError(f"not a roll: {dice}")
    everything = frozenset(range(len(dice)))
    counts = Counter(dice)
    if len(dice) == 6 and sorted(dice) == [1, 2, 3, 4, 5, 6]:
        return [Combination("straight", everything, STRAIGHT_POINTS)]
    if len(dice) == 6 and sorted(counts.values()) == [2, 2, 2]:
        return [Combination("three pairs", everything, THREE_PAIRS_POINTS)]
    found = []
    for face in sorted(counts):
        where = [i for i, d in enumerate(dice) if d == face]
        if counts[face] >= 3:
            found.append(Combination(f"{counts[face]}x{face}", frozenset(where),
                                     equal_points(face, counts[face])))
        elif face in SINGLE_POINTS:
            found += [Combination(f"single {face}", frozenset([i]), SINGLE_POINTS[face])
                      for i in where]
    return found


def is_bust(dice):
    return not combinations(dice)


def keep_points(dice, kept):
    """The points (before the multiplier) of keeping the dice at the 0-based positions
    `kept`; Refused if that is not allowed."""
    kept = frozenset(kept)
    if not kept:
        raise Refused("nothing kept")
    covered = set()
    points = 0
    for combo in combinations(dice):
        inside = combo.positions & kept
        if inside and inside != combo.positions:
            raise Refused(f"{combo.name} split")
        if inside:
            covered |= combo.positions
            points += combo.points
    if covered != kept:
        raise Refused("a kept die is in no combination")
    return points


def best_keep(dice):
    """All combinations of the roll (the positions, 0-based) and their points."""
    kept = frozenset().union(*(c.positions for c in combinations(dice)))
    return kept, keep_points(dice, kept) if kept else 0


class Turn:
    """One player's turn: rolls, kept dice, the unbanked points."""

    def __init__(self):
        self.roll_number = 0  # also the multiplier of the current roll
        self.points = 0  # unbanked points of the turn
        self.clears = 0  # MISHIMASH clears so far
        self.dice_left = 6  # dice to roll next
        self.dice = ()
        self.over = False
        self.busted = False

    def roll(self, dice):
        """The roll came out as `dice`; returns True for a bust (the turn is then over)."""
        dice = tuple(dice)
        if self.over or len(dice) != self.dice_left:
            raise ValueError(f"cannot roll {dice} now")
        self.roll_number += 1
        self.dice = dice
        if is_bust(dice):
            self.points = 0
            self.over = self.busted = True
        return self.busted

    def keep(self, kept):
        """Keep the dice at the 0-based positions `kept`; returns (points added by the
        combinations, MISHIMASH bonus). Refused leaves the turn unchanged."""
        if self.over or not self.dice:
            raise ValueError("nothing to keep")
        gained = keep_points(self.dice, kept) * self.roll_number
        self.points += gained
        self.dice_left -= len(frozenset(kept))
        self.dice = ()
        bonus = 0
        if self.dice_left == 0:
            self.clears += 1
            bonus = MISHIMASH_STEP * self.clears
            self.points += bonus
            self.dice_left = 6
        return gained, bonus

    def bank(self):
        if self.over or self.dice:
            raise ValueError("keep dice before banking")
        self.over = True
        return self.points


class Game:
    """Players, target, the order of turns, the final round and sudden death."""

    def __init__(self, names, target=1000):
        self.names = list(names)
        self.target = target
        self.scores = [0] * len(self.names)
        self.current = 0
        self.round = 1
        self.phase = "normal"  # "final", "sudden death"
        self.tie_score = None
        self.winner = None
        self.history = []  # (player index, phase) of every turn played

    @property
    def finished(self):
        return self.winner is not None

    @property
    def label(self):
        """The program's row-1 label for the turn about to be played."""
        if self.phase == "final":  # the score to beat: the best banked total
            return " ".join(f"SLOT>{self.to_beat():7.1f}".split())
        return {"normal": f"RONDE {self.round}", "sudden death": "BESLISSING"}[self.phase]

    def to_beat(self):
        """In the final round: the highest banked total (beat it to win, equal it to tie)."""
        return max(self.scores)

    def end_turn(self, banked):
        """The current player's turn ended with `banked` points (None: a bust). Returns
        True when this bank started the final round (the target is checked only here)."""
        if self.finished:
            raise ValueError("game over")
        self.history.append((self.current, self.phase))
        started = False
        if banked is not None:
            self.scores[self.current] += banked
            if self.phase == "normal" and self.scores[self.current] >= self.target:
                self.phase = "final"
                started = True
        self.current += 1
        n = len(self.names)
        if self.phase == "normal":
            if self.current == n:
                self.current = 0
                self.round += 1
        elif self.phase == "final":
            if self.current == n:
                self._decide()
        else:
            self._next_tied()
        return started

    def _next_tied(self):
        while self.current < len(self.names) and self.scores[self.current] != self.tie_score:
            self.current += 1
        if self.current == len(self.names):
            self._decide()

    def _decide(self):
        best = max(self.scores)
        leaders = [i for i, s in enumerate(self.scores) if s == best]
        if len(leaders) == 1:
            self.winner = leaders[0]
            return
        self.phase = "sudden death"
        self.tie_score = best
        self.current = 0
        self._next_tied()

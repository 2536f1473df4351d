"""An independent Python model of the Kniffel rules of the mijan.de documentation.

It is the oracle the game tests check the BASIC program (basic_src/kniffel.bas) against.
It is written from the rules, not from the BASIC listing: the listing counts pairs of
equal dice, this model counts faces.

Rules (seed documentation, "Die 13 Zählmethoden"):
- 1-6: only dice showing that face count (sum of those dice).
- Bonus 35 when the points of methods 1-6 add up to at least 63.
- DP / VP: sum of all dice when at least 3 / 4 dice show the same face.
- FH: 25 when three dice show the same face and the other two also show the same face.
  Reading used here (and in the program): five equal dice also satisfy this (three equal,
  and the remaining two equal as well), so a Kniffel may be booked as a full house.
- KS: 30 when at least four dice show consecutive faces. GS: 40 when all five do.
- KN: 50 when all five dice show the same face. CH: sum of all dice.
- A roll that does not meet the method's rule scores 0. Each method once per player.
- The "upper number" on the display: how far the player is from the 63 needed for the
  bonus, assuming three dice of the face for every 1-6 method still open, i.e. the sum
  over the used methods 1-6 of (points - 3 * face).
"""

from collections import Counter

METHODS = ("1", "2", "3", "4", "5", "6", "DP", "VP", "FH", "KS", "GS", "KN", "CH")
# The key that chooses each method in the program (keys 1-6, then letters).
METHOD_KEYS = ("1", "2", "3", "4", "5", "6", "D", "V", "F", "S", "G", "K", "C")
KEY_TO_METHOD = {key: METHODS[i] for i, key in enumerate(METHOD_KEYS)}
UPPER = METHODS[:6]
BONUS_THRESHOLD = 63
BONUS = 35
ROUNDS = 13
FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, KNIFFEL = 25, 30, 40, 50


def _check_dice(dice):
    dice = tuple(dice)
    if len(dice) != 5 or any(d not in range(1, 7) for d in dice):
        raise ValueError(f"five dice 1-6 expected, got {dice!r}")
    return dice


def is_full_house(dice, five_equal_counts=True):
    counts = sorted(Counter(_check_dice(dice)).values())
    return counts == [2, 3] or (five_equal_counts and counts == [5])


def longest_run(dice):
    faces = set(_check_dice(dice))
    best = run = 0
    for face in range(1, 7):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def score(method, dice, five_equal_is_full_house=True):
    """Points for booking `dice` under `method` (a code of METHODS)."""
    dice = _check_dice(dice)
    counts = Counter(dice)
    most = max(counts.values())
    total = sum(dice)
    if method in UPPER:
        face = int(method)
        return face * counts[face]
    if method == "DP":
        return total if most >= 3 else 0
    if method == "VP":
        return total if most >= 4 else 0
    if method == "FH":
        return FULL_HOUSE if is_full_house(dice, five_equal_is_full_house) else 0
    if method == "KS":
        return SMALL_STRAIGHT if longest_run(dice) >= 4 else 0
    if method == "GS":
        return LARGE_STRAIGHT if longest_run(dice) == 5 else 0
    if method == "KN":
        return KNIFFEL if most == 5 else 0
    if method == "CH":
        return total
    raise ValueError(f"unknown method {method!r}")


class MethodUsed(ValueError):
    """A method booked a second time: the program refuses it."""


class Player:
    """One player's score card."""

    def __init__(self, name):
        self.name = name
        self.points = {}  # method -> points booked

    @property
    def used(self):
        return set(self.points)

    @property
    def upper_sum(self):
        return sum(p for m, p in self.points.items() if m in UPPER)

    @property
    def bonus(self):
        return BONUS if self.upper_sum >= BONUS_THRESHOLD else 0

    @property
    def total(self):
        return sum(self.points.values()) + self.bonus

    @property
    def distance(self):
        """The display's upper number: deviation from 63 with three dice assumed in every
        open method 1-6."""
        return sum(p - 3 * int(m) for m, p in self.points.items() if m in UPPER)

    @property
    def finished(self):
        return len(self.points) == len(METHODS)

    def open_methods(self):
        return [m for m in METHODS if m not in self.points]

    def book(self, method, dice):
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}")
        if method in self.points:
            raise MethodUsed(method)
        points = score(method, dice)
        self.points[method] = points
        return points


def winners(totals):
    """Indices of every player with the highest total (more than one = a tie)."""
    totals = list(totals)
    best = max(totals)
    return [i for i, t in enumerate(totals) if t == best]


def best_open_method(player, dice):
    """A simple strategy: the open method with the most points for `dice` (ties: the first
    in METHODS order). Used by the game tests to play adaptively."""
    return max(player.open_methods(), key=lambda m: (score(m, dice), -METHODS.index(m)))


def key_row_text(used):
    """Row 4 at the "?" (columns 1-18): the key of every DP-CH method under the letter of
    its name in row 3 (D under the P of DP: column 0 holds the "?"), '-' once it is used."""
    row = [" "] * 18
    for method, key, column in zip(METHODS[6:], METHOD_KEYS[6:], (1, 3, 6, 10, 12, 15, 18)):
        row[column - 1] = "-" if method in used else key
    return "".join(row)


def method_row_texts(used):
    """The display's method rows 2 and 3 (without the numbers) for a set of used methods:
    used codes are replaced by '-' (1-6) or '--' (DP-CH)."""
    upper = " ".join("-" if m in used else m for m in UPPER)
    lower = " ".join("--" if m in used else m for m in METHODS[6:])
    return upper, lower

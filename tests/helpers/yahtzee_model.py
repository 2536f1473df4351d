"""An independent Python model of the Yahtzee ("jahtzy") rules of the Dutch seed text.

It is the oracle the game tests check basic_src/yahtzee.bas against. It is written from
the rules (it counts faces), not from the BASIC listing (which counts pairs of equal dice).

Rules (seed 004, "Hoe speel je het dobbelspel?"):
- Five dice, at most three rolls a turn; the roll may be entered after roll 1, 2 or 3.
  Every one of the 13 boxes is filled once; a roll that does not fit scores 0 there.
- 1-6 ("bovenste vakken"): face x number of dice showing it. 35 bonus points when the
  upper boxes add up to 63 or more.
- Bookkeeping per upper box: points - 3 x face ("4 drieen = 12 (+3)", "2 vijven = 10 (-5)");
  the sum of these differences tells how far the player is from the bonus.
- Drie gelijke / vier gelijke (DG / VG): sum of all dice with at least 3 / 4 equal.
- Kleine straat (KS) 30: four consecutive faces. Grote straat (GS) 40: five.
- Full house (FH) 25: three equal and a pair. Five equal dice are not a full house
  ("5 gelijke telt niet als Full House, tenzij het vak reeds ingevuld is"), except as a
  joker (below).
- Kans (KA): sum of all dice. Jahtzy (JA) 50: five equal dice.
- Jahtzy bonus: 100 for the second and every further jahtzy of a game, only when the
  JA box holds 50 (not 0). The roll is entered in another box in the same turn.
- Joker: when the JA box is filled (0 or 50) AND the upper box of the jahtzy's face is
  filled, the jahtzy also counts as full house 25, small straight 30 or large straight 40.
  Reading used here (and in the program): when that upper box is still open there is no
  joker (FH/KS/GS score 0 for five equal dice) and nothing forces the player into the
  upper box; the seed states the filled upper box only as a precondition ("Voorwaarde").
  The bonus does not depend on that precondition.
"""

from collections import Counter

BOXES = ("1", "2", "3", "4", "5", "6", "DG", "VG", "KS", "GS", "FH", "KA", "JA")
BOX_KEYS = ("1", "2", "3", "4", "5", "6", "D", "V", "S", "G", "F", "K", "J")
ALIAS_KEYS = {"C": "KA", "Y": "JA"}  # second keys for kans and jahtzy
UPPER = BOXES[:6]
LOWER = BOXES[6:]
BONUS_THRESHOLD, BONUS = 63, 35
FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, JAHTZY, JAHTZY_BONUS = 25, 30, 40, 50, 100
ROUNDS = 13
GAMES = 5  # a match ("wedstrijd van vijf ronden")
TOP = 10  # length of the high-score list


def check_dice(dice):
    dice = tuple(dice)
    if len(dice) != 5 or any(d not in range(1, 7) for d in dice):
        raise ValueError(f"five dice 1-6 expected, got {dice!r}")
    return dice


def is_jahtzy(dice):
    return len(set(check_dice(dice))) == 1


def longest_run(dice):
    faces = set(check_dice(dice))
    best = run = 0
    for face in range(1, 7):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def score(box, dice, joker=False):
    """Points for `dice` in `box`; joker=True: the joker rule applies to this jahtzy."""
    dice = check_dice(dice)
    counts = Counter(dice)
    most = max(counts.values())
    total = sum(dice)
    if box in UPPER:
        return int(box) * counts[int(box)]
    if box == "DG":
        return total if most >= 3 else 0
    if box == "VG":
        return total if most >= 4 else 0
    if box == "KS":
        return SMALL_STRAIGHT if longest_run(dice) >= 4 or joker else 0
    if box == "GS":
        return LARGE_STRAIGHT if longest_run(dice) == 5 or joker else 0
    if box == "FH":
        return FULL_HOUSE if sorted(counts.values()) == [2, 3] or joker else 0
    if box == "KA":
        return total
    if box == "JA":
        return JAHTZY if most == 5 else 0
    raise ValueError(f"unknown box {box!r}")


class BoxUsed(ValueError):
    """A box filled a second time: the program refuses it."""


class Player:
    """One player's score card for one game."""

    def __init__(self, name):
        self.name = name
        self.points = {}  # box -> points entered
        self.jahtzy_bonus = 0  # 100 per extra jahtzy

    # -- rules -----------------------------------------------------------------------
    def joker(self, dice):
        return is_jahtzy(dice) and "JA" in self.points and str(dice[0]) in self.points

    def bonus_due(self, dice):
        return is_jahtzy(dice) and self.points.get("JA") == JAHTZY

    def value(self, box, dice):
        """What `box` would score now (without the jahtzy bonus)."""
        return score(box, dice, joker=self.joker(dice))

    def book(self, box, dice):
        """Enter `dice` in `box`; returns the points of the box (the bonus is separate)."""
        if box not in BOXES:
            raise ValueError(f"unknown box {box!r}")
        if box in self.points:
            raise BoxUsed(box)
        dice = check_dice(dice)
        if self.bonus_due(dice):
            self.jahtzy_bonus += JAHTZY_BONUS
        points = self.value(box, dice)
        self.points[box] = points
        return points

    # -- totals ----------------------------------------------------------------------
    @property
    def used(self):
        return set(self.points)

    @property
    def upper_sum(self):
        return sum(p for b, p in self.points.items() if b in UPPER)

    @property
    def bonus(self):
        return BONUS if self.upper_sum >= BONUS_THRESHOLD else 0

    @property
    def total(self):
        return sum(self.points.values()) + self.bonus + self.jahtzy_bonus

    def difference(self, box):
        """The seed's note next to an upper box: points - 3 x face."""
        return self.points[box] - 3 * int(box)

    @property
    def difference_sum(self):
        return sum(self.difference(b) for b in UPPER if b in self.points)

    @property
    def finished(self):
        return len(self.points) == len(BOXES)

    def open_boxes(self):
        return [b for b in BOXES if b not in self.points]

    # -- the program's display rows -----------------------------------------------------
    def upper_row(self):
        """Row 2: per upper box 3 characters, the face while open, else the signed
        difference; then the signed sum of the differences right-aligned in columns 20-23."""
        cells = [f"{box:>3}" if box not in self.points else f"{signed(self.difference(box)):>3}"
                 for box in UPPER]
        return "".join(cells) + "  " + f"{signed(self.difference_sum):>4}"

    def key_row(self):
        """Row 4 columns 1-18: the key of every lower box under the letter of its name in
        row 3 that it is (D under the G of DG, column 0 holding the "?"), '-' once filled."""
        row = [" "] * 18
        for box, key, column in zip(LOWER, BOX_KEYS[6:], (1, 3, 7, 9, 12, 15, 18)):
            row[column - 1] = "-" if box in self.points else key
        return "".join(row)

    def lower_row(self):
        """Row 3 without the score: used boxes '--', the jahtzy box '50' when it holds 50."""
        cells = []
        for box in LOWER:
            if box not in self.points:
                cells.append(box)
            elif box == "JA" and self.points[box] == JAHTZY:
                cells.append("50")
            else:
                cells.append("--")
        return " ".join(cells)


def signed(value):
    return f"+{value}" if value > 0 else str(value)


def best_open_box(player, dice):
    """A simple strategy: the open box with the most points (ties: first in BOXES)."""
    return max(player.open_boxes(), key=lambda b: (player.value(b, dice), -BOXES.index(b)))


def winners(totals):
    totals = list(totals)
    best = max(totals)
    return [i for i, t in enumerate(totals) if t == best]


class Match:
    """Running totals over the games of a match."""

    def __init__(self, names):
        self.names = list(names)
        self.totals = [0] * len(self.names)
        self.games = []  # one list of game scores per finished game

    def add_game(self, scores):
        scores = list(scores)
        self.games.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores)]

    @property
    def finished(self):
        return len(self.games) == GAMES

    def winners(self):
        return winners(self.totals)


class HighScores:
    """Top 10 of one-player games: best first; a new score goes below equal ones."""

    def __init__(self, entries=()):
        self.entries = list(entries)  # (name, score)

    def insert(self, name, value):
        """Returns the 0-based place, or None when the score does not get in."""
        for place, (_, other) in enumerate(self.entries):
            if value > other:
                break
        else:
            place = len(self.entries)
        if place >= TOP:
            return None
        self.entries.insert(place, (name, value))
        del self.entries[TOP:]
        return place

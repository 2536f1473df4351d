"""An independent Python model of the Mikazee 1.3 rules (the seed text, Peter Jager 1998-2000)
as basic_src/mikazee.bas reads them: the oracle of the mikazee tests.

Rules are a dict of the 38 fields the program keeps per rule set (FIELDS, in the program's
order); `default_rules()` is the seed's first part ("Spelregels"). A Sheet holds one game:
cells[column][row] (None = empty), the per-column sums, the extra-Mikazee bonuses, and
answers whether a move is allowed (fill orders) and what it scores.

Readings where the seed is not explicit (also in basic_src/mikazee.md):
- Upper bonus: the seed names the setting but gives no default; 63 -> 35 as in Yahtzee.
  A column "has its bonus" when its upper sum >= the threshold (so threshold 0 means from
  the start); the extra bonus for all columns is added once, unweighted.
- Joker ("minimale waarde van een extra Mikazee"): one minimum per lower row (3K, carre,
  FH, KS, GS, Kans); defaults FH 25, KS 30, GS 40, the others 0, option "even if the
  Mikazee is 0" on: that is the seed's default rule (a Mikazee may be entered as full
  house or a straight in a column whose Mikazee is filled, also with 0). The joker
  applies to the lower rows only; the upper rows always count the dice.
- Extra-Mikazee bonus (default 0) is added to the column's total (weighted with it).
- Five equal dice booked in "Full house" in a column whose Mikazee is empty score 0
  unless "Mikazees count as full house" is on.
"""

ROWS = ["1", "2", "3", "4", "5", "6", "3K", "CAR", "FH", "KS", "GS", "MIK", "KAN"]
UPPER = range(6)
MIK = 11
KANS = 12

FREE, UP, DOWN, AT_ONCE, IN_TWO, COLUMN_BY_COLUMN, LEFT_TO_RIGHT = range(7)
ORDER_LETTERS = "VONI2KL"

# field index -> name (the program's RU(0..37))
FIELDS = (["columns"] + [f"order{c}" for c in range(1, 10)] + [f"weight{c}" for c in range(1, 10)]
          + ["bonus_from", "bonus", "all_bonus", "fh", "ks", "gs", "mik", "mik_is_fh",
             "extra_mik", "extra_if_zero", "extra_all_filled",
             "joker_3k", "joker_car", "joker_fh", "joker_ks", "joker_gs", "joker_kans",
             "joker_if_zero", "joker_upper_filled"])
assert len(FIELDS) == 38
SINGLE_CHAR_FIELDS = 19  # fields 0-18 take one character in the card record, 19-37 two
JOKER_FIELD = {6: "joker_3k", 7: "joker_car", 8: "joker_fh", 9: "joker_ks", 10: "joker_gs",
               12: "joker_kans"}

DEFAULT_VALUES = [6, 0, 0, 0, 1, 2, 3, 0, 0, 0, 1, 2, 3, 1, 1, 1, 1, 1, 1, 63, 35, 0, 25, 30, 40,
                  50, 0, 0, 0, 0, 0, 0, 25, 30, 40, 0, 1, 0]


def default_rules():
    return dict(zip(FIELDS, DEFAULT_VALUES))


def field_max(index):
    if index == 0:
        return 9
    if 1 <= index <= 9:
        return 6
    if 10 <= index <= 18:
        return 9
    if FIELDS[index] in ("mik_is_fh", "extra_if_zero", "extra_all_filled", "joker_if_zero",
                         "joker_upper_filled"):
        return 1
    return 999


def field_min(index):
    return 1 if index == 0 else 0


def order(rules, column):
    """Fill order of column 1..N."""
    return rules[f"order{column}"]


def weight(rules, column):
    return rules[f"weight{column}"]


# -- card records: per rule set four DATA lines and a REM line (2901-2905, 2906-2910 ...) --
# DATA 1: "name" (7 characters), fields 0-18 (one digit each), fields 19-23 (three digits)
# DATA 2: fields 24-37 (three digits), then the columns that are neither "ineens" nor "in
#         twee keer", those that are "in twee keer" (one digit each), the sum of the
#         weights (two digits): the start of a game needs them without a loop
# DATA 3, 4: the sheet rows GEW and VLG as the game shows them (36 characters)
# REM: the top 10 (RECORD_CHARS characters, below)
RECORD_CHARS = 70
RULE_LINES = 4
LINES_PER_SET = RULE_LINES + 1
DIGIT0 = 48  # a digit of the top 10 is chr(48 + d), d = 0..31
ROW_CHARS = 36  # SL$(17), SL$(18): 4 characters for each of up to nine columns


def sheet_row(rules, row):
    """The text of the sheet rows GEW (17) and VLG (18) for `rules`, as stored."""
    cells = [f"{weight(rules, c):4d}" if row == 17 else "   " + ORDER_LETTERS[order(rules, c)]
             for c in range(1, rules["columns"] + 1)]
    return "".join(cells).ljust(ROW_CHARS)


def rule_lines(name, rules):
    """The bodies (after DATA) of the four DATA lines of a rule set."""
    values = [rules[f] for f in FIELDS]
    columns = range(1, rules["columns"] + 1)
    free = sum(order(rules, c) not in (AT_ONCE, IN_TWO) for c in columns)
    in_two = sum(order(rules, c) == IN_TWO for c in columns)
    weights = sum(weight(rules, c) for c in columns)
    first = f'"{(name + " " * 7)[:7]}",' + ",".join(str(v) for v in values[:SINGLE_CHAR_FIELDS])
    first += "," + ",".join(f"{v:03d}" for v in values[SINGLE_CHAR_FIELDS:24])
    second = ",".join(f"{v:03d}" for v in values[24:]) + f",{free},{in_two},{weights:02d}"
    return [first, second, f'"{sheet_row(rules, 17)}"', f'"{sheet_row(rules, 18)}"']


def decode_rule_lines(lines):
    """(name, rules) from the four DATA bodies (as the program READs them)."""
    first, second = lines[0], lines[1]
    name = first[1:8]
    items = first[10:].split(",") + second.split(",")
    return name, dict(zip(FIELDS, (int(v) for v in items[:len(FIELDS)])))


EMPTY_TOP = [("----", 0)] * 10


def encode_top(entries):
    out = ""
    for name, score in entries:
        out += (name + "    ")[:4]
        out += "".join(chr(DIGIT0 + d) for d in (score // 1024, score // 32 % 32, score % 32))
    return out


def decode_top(text):
    entries = []
    for i in range(10):
        chunk = text[7 * i:7 * i + 7]
        score = sum((ord(ch) - DIGIT0) * w for ch, w in zip(chunk[4:], (1024, 32, 1)))
        entries.append((chunk[:4], score))
    return entries


def top_insert(entries, name, score):
    """The program's rule: a score enters when it beats the 10th; it goes below equal ones.
    Returns (new entries, place 0-9 or None)."""
    entries = list(entries)
    if score <= entries[9][1]:
        return entries, None
    place = 9
    while place > 0 and entries[place - 1][1] < score:
        place -= 1
    entries.insert(place, ((name + "    ")[:4], score))
    return entries[:10], place


# -- scoring ----------------------------------------------------------------------------
def counts(dice):
    return [0] + [list(dice).count(face) for face in range(1, 7)]


def is_small_straight(dice):
    s = set(dice)
    return any({a, a + 1, a + 2, a + 3} <= s for a in (1, 2, 3))


def is_large_straight(dice):
    return sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])


def base_score(rules, row, dice):
    """The points of `dice` in `row` without joker."""
    c = counts(dice)
    most = max(c)
    total = sum(dice)
    if row in UPPER:
        return (row + 1) * c[row + 1]
    if row == 6:
        return total if most >= 3 else 0
    if row == 7:
        return total if most >= 4 else 0
    if row == 8:
        full = sorted(x for x in c if x) == [2, 3]
        return rules["fh"] if full or (most == 5 and rules["mik_is_fh"]) else 0
    if row == 9:
        return rules["ks"] if is_small_straight(dice) else 0
    if row == 10:
        return rules["gs"] if is_large_straight(dice) else 0
    if row == MIK:
        return rules["mik"] if most == 5 else 0
    return total


class Refused(Exception):
    """A move the rules do not allow; .message is what the program shows on line 4."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


MESSAGES = {"no_box": "GEEN VAK", "filled": "BEZET", "order": "FOUTE VOLGORDE",
            "at_once": "ALLEEN WORP 1", "in_two": "MAX 2 WORPEN",
            "column": "VORIGE KOL.OPEN", "left": "LINKS NOG LEEG",
            "reroll_at_once": "GEEN WORP:INEENS", "reroll_in_two": "GEEN WORP:2 KEER"}


class Sheet:
    def __init__(self, rules):
        self.rules = dict(rules)
        self.n = rules["columns"]
        self.cells = {c: [None] * 13 for c in range(1, self.n + 1)}
        self.extra = {c: 0 for c in range(1, self.n + 1)}  # extra-Mikazee bonuses

    # -- state ---------------------------------------------------------------------------
    def filled(self, column, row):
        return self.cells[column][row] is not None

    def upper(self, column):
        return sum(v for v in self.cells[column][:6] if v is not None)

    def lower(self, column):
        return sum(v for v in self.cells[column][6:] if v is not None)

    def has_bonus(self, column):
        return self.upper(column) >= self.rules["bonus_from"]

    def bonus(self, column):
        return self.rules["bonus"] if self.has_bonus(column) else 0

    def total(self, column):
        return self.upper(column) + self.bonus(column) + self.lower(column) + self.extra[column]

    def score(self):
        s = sum(weight(self.rules, c) * self.total(c) for c in self.cells)
        if all(self.has_bonus(c) for c in self.cells):
            s += self.rules["all_bonus"]
        return s

    def turns_done(self):
        return sum(v is not None for col in self.cells.values() for v in col)

    @property
    def finished(self):
        return self.turns_done() == 13 * self.n

    # -- moves ---------------------------------------------------------------------------
    def check(self, column, row, roll):
        """None if the move is allowed, else the key of MESSAGES."""
        if row > 12:
            return "no_box"
        if self.filled(column, row):
            return "filled"
        how = order(self.rules, column)
        col = self.cells[column]
        if how == UP and row < 12 and col[row + 1] is None:
            return "order"
        if how == DOWN and row > 0 and col[row - 1] is None:
            return "order"
        if how == AT_ONCE and roll > 1:
            return "at_once"
        if how == IN_TWO and roll > 2:
            return "in_two"
        if how == COLUMN_BY_COLUMN and column > 1 and order(self.rules, column - 1) == COLUMN_BY_COLUMN:
            if any(v is None for v in self.cells[column - 1]):
                return "column"
        if how == LEFT_TO_RIGHT and column > 1 and order(self.rules, column - 1) == LEFT_TO_RIGHT:
            if self.cells[column - 1][row] is None:
                return "left"
        return None

    def points(self, column, row, dice):
        """(points, extra-Mikazee bonus) of booking `dice` at (column, row)."""
        rules = self.rules
        points = base_score(rules, row, dice)
        extra = 0
        five = len(set(dice)) == 1
        mik = self.cells[column][MIK]
        if five and row != MIK and mik is not None:
            if row in JOKER_FIELD:
                upper_ok = not rules["joker_upper_filled"] or self.filled(column, dice[0] - 1)
                if upper_ok and (rules["joker_if_zero"] or mik > 0):
                    points = max(points, rules[JOKER_FIELD[row]])
            if rules["extra_if_zero"] or mik > 0:
                if not rules["extra_all_filled"] or all(self.filled(c, MIK) for c in self.cells):
                    extra = rules["extra_mik"]
        return points, extra

    def book(self, column, row, dice, roll):
        problem = self.check(column, row, roll)
        if problem:
            raise Refused(MESSAGES[problem])
        points, extra = self.points(column, row, dice)
        self.cells[column][row] = points
        self.extra[column] += extra
        return points

    def allowed(self, roll):
        return [(c, r) for c in self.cells for r in range(13) if self.check(c, r, roll) is None]

    def reroll_problem(self, roll):
        """None if rolling again after roll `roll` leaves a cell the rules allow, else the
        key of MESSAGES (the re-roll is refused: it would leave no legal entry, only
        "ineens" / "in twee keer" cells being open)."""
        if self.finished or roll >= 3 or self.allowed(roll + 1):
            return None
        return "reroll_at_once" if roll == 1 else "reroll_in_two"

    # -- the sheet as the program shows it ---------------------------------------------------
    def row_text(self, row):
        """SL$(row): 4 characters per column."""
        out = ""
        for c in range(1, self.n + 1):
            if row < 13:
                v = self.cells[c][row]
                out += "   ." if v is None else f"{v:4d}"
            elif row == 13:
                out += f"{self.upper(c):4d}"
            elif row == 14:
                out += f"{self.bonus(c):4d}"
            elif row == 15:
                out += f"{self.extra[c]:4d}"
            elif row == 16:
                out += f"{self.total(c):4d}"
            elif row == 17:
                out += f"{weight(self.rules, c):4d}"
            else:
                out += "   " + ORDER_LETTERS[order(self.rules, c)]
        return out


LABELS = ROWS + ["BOV", "BON", "XMI", "TOT", "GEW", "VLG"]


def best_move(sheet, dice, roll):
    """A simple player: the allowed cell with the most points (ties: fewest columns left of
    it, then lowest row)."""
    options = sheet.allowed(roll)
    return max(options, key=lambda cr: (sum(sheet.points(*cr, dice)), -cr[0], -cr[1]))

"""A scripted Mikazee player for whole games through the program's own keys, checked move by
move against mikazee_model (used by test_mikazee_whole_games.py).

Every turn goes through the program's key handling: the dice keys 1-5 and ENTER for
re-rolls, the arrow keys to the cell, ENTER to book. Only the dice that are booked are
chosen by the script: they are poked into A-E (where the program reads them when it books)
right before that ENTER, so a seeded game is the same on both engines and can be steered
towards bonuses, jokers and extra Mikazees. The cell is one of the few allowed cells
nearest the cursor (few arrow keys), the dice are made for that cell (or, now and then,
a zero or five equal dice), and some turns first try a move the rules refuse.

After every move the program's sheet (SL$, its sums, the window, the score on line 1) is
compared with the model; `events` records what the game exercised, so that a test can
insist that its rule set's options really came up.
"""

import random

from tests.helpers import mikazee_driver as md
from tests.helpers import mikazee_model as mm

ROW_COUNT = 19  # sheet rows the cursor moves over (13 cells + 6 sum rows)


class GameMismatch(AssertionError):
    pass


def expect(condition, what, *context):
    if not condition:
        raise GameMismatch(f"{what}: {context!r}")


# -- checks shared with test_mikazee_game.py -----------------------------------------------

def sheet_rows(g):
    """SL$(0..18) with one walk of the variable area."""
    addr, _, size = g.variables()[("SL", "str[]")]
    mem = g.m.mem
    return [bytes(mem[addr + size * i:addr + size * (i + 1)]).split(b"\0")[0].decode("latin-1")
            for i in range(ROW_COUNT)]


SUM_ROWS = {13: 0, 14: 2, 15: 3, 16: 4}  # BOV BON XMI TOT -> the j of CS(column, j)


def check_sheet(g, sheet, score=True):
    """SL$ (the cell rows, GEW and VLG) and CS (the sums BOV, BON, XMI, TOT) are the model's
    sheet; the window shows them (with the '>' at g.cursor); line 1 shows the model's
    final-score formula."""
    rows = sheet_rows(g)
    sums = g.sums()
    for row in range(ROW_COUNT):
        expected = sheet.row_text(row)
        if row in SUM_ROWS:  # numbers, drawn with PRINT USING
            rows[row] = "".join(f"{sums[(c, SUM_ROWS[row])]:4d}" for c in range(1, sheet.n + 1))
        elif row > 16:  # GEW and VLG as the card record keeps them
            expected = expected.ljust(mm.ROW_CHARS)
        if sheet.n < 5:
            expected = expected.ljust(20)
            rows[row] = rows[row].ljust(20)
        expect(rows[row] == expected, f"row {mm.LABELS[row]}", rows[row], expected)
    top, left = g.get_number("V"), g.get_number("U")
    screen = g.screen()
    column, line = g.cursor
    for i in range(3):
        row = top + i
        text = mm.LABELS[row].ljust(3) + rows[row][4 * left - 4:4 * left + 16]
        if line == row:
            at = 3 + 4 * (column - left)
            text = text[:at] + ">" + text[at + 1:]
        expect(screen[1 + i][:23] == text.ljust(23), "window", screen, text)
    if score:
        expect(g.game().score == sheet.score(), "score on line 1", screen, sheet.score())


def book(g, sheet, column, row, dice):
    """Cursor to (column, row), poke the dice, ENTER: booked as the model books it."""
    g.move_to(column, row, sheet.n)
    roll = g.game().roll
    g.poke_dice(dice)
    g.key("ENTER")
    expect(g.beeped, "no beep for a booking", g.screen())
    return sheet.book(column, row, dice, roll)


def refused(g, sheet, column, row, message):
    """Cursor to (column, row), ENTER: refused with `message` on line 4, same turn, and the
    model refuses it for the same reason."""
    g.move_to(column, row, sheet.n)
    before = g.screen()
    g.key("ENTER")
    rows = g.screen()
    expect(g.beeped and rows[3].startswith(message), f"refusal {message}", rows)
    expect(rows[0] == before[0], "a refusal changed line 1", before, rows)
    expect(mm.MESSAGES.get(sheet.check(column, row, g.game().roll)) == message,
           "the model does not refuse it so", column, row, message)


def reroll(g, positions):
    """Choose the dice at `positions` (1-5) with their keys, ENTER: the next roll keeps the
    others."""
    before = g.game()
    for pos in positions:
        g.key(str(pos))
        expect(g.beeped, f"no beep for die key {pos}", g.screen())
    chosen = g.game()
    expect(all(chosen.dice[p - 1] is None for p in positions), "dice not chosen", chosen.rows)
    g.key("ENTER")
    after = g.game()
    expect(after.roll == before.roll + 1, "roll number", before.rows, after.rows)
    expect(all(after.dice[i] == before.dice[i] for i in range(5) if i + 1 not in positions),
           "a kept die changed", before.rows, after.rows)
    return after


# -- the player ----------------------------------------------------------------------------

def cursor_distance(cursor, cell, n):
    (c0, r0), (c1, r1) = cursor, cell
    dr, dc = (r1 - r0) % ROW_COUNT, (c1 - c0) % n
    return min(dr, ROW_COUNT - dr) + min(dc, n - dc)


class Player:
    def __init__(self, g, rules, seed):
        self.g = g
        self.rules = rules
        self.sheet = mm.Sheet(rules)
        self.rnd = random.Random(seed)
        self.events = set()
        self.refusals = set()
        self.wanted_refusals = set()  # messages still worth a detour

    # -- dice ------------------------------------------------------------------------------
    def others(self, avoid, count):
        return [self.rnd.choice([f for f in range(1, 7) if f not in avoid]) for _ in range(count)]

    def dice_for(self, column, row):
        """Dice aimed at (column, row): mostly a good roll, sometimes a zero, and five equal
        dice where a joker or an extra Mikazee may come into play."""
        rnd, sheet = self.rnd, self.sheet
        mik = sheet.cells[column][mm.MIK]
        chance_five = 0.8 if row == 8 and mik is None else 0.3 if mik is not None else 0.05
        if row != mm.MIK and rnd.random() < chance_five:
            face = row + 1 if row in mm.UPPER and rnd.random() < 0.7 else rnd.randint(1, 6)
            dice = [face] * 5
        elif rnd.random() < 0.1:
            dice = [rnd.randint(1, 6) for _ in range(5)]  # whatever it scores, often 0
        elif row in mm.UPPER:
            face = row + 1
            k = rnd.choice([2, 3, 3, 4, 4])
            dice = [face] * k + self.others({face}, 5 - k)
        elif row in (6, 7):
            face = rnd.randint(1, 6)
            k = 3 + (row == 7) + rnd.randint(0, 1)
            dice = [face] * k + self.others({face}, 5 - k)
        elif row == 8:
            a, b = rnd.sample(range(1, 7), 2)
            dice = [a, a, a, b, b]
        elif row == 9:
            start = rnd.randint(1, 3)
            dice = list(range(start, start + 4)) + [rnd.randint(1, 6)]
        elif row == 10:
            start = rnd.randint(1, 2)
            dice = list(range(start, start + 5))
        elif row == mm.MIK:
            # crossed out in the even columns: the options for a Mikazee of 0 come up
            dice = [1, 2, 3, 5, 5] if column % 2 == 0 else [rnd.randint(1, 6)] * 5
        else:
            dice = [rnd.randint(1, 6) for _ in range(5)]
        rnd.shuffle(dice)
        return tuple(dice)

    # -- what a booking exercised -------------------------------------------------------------
    def note(self, column, row, dice, before_extra, had_bonus):
        sheet, rules = self.sheet, self.rules
        points = sheet.cells[column][row]
        base = mm.base_score(rules, row, dice)
        mik = sheet.cells[column][mm.MIK]
        five = len(set(dice)) == 1
        if points == 0:
            self.events.add("zero")
        if five and row == 8 and base and mik is None:
            self.events.add("mikazee as full house")
        if five and row != mm.MIK and mik is not None:
            self.events.add("extra mikazee")
            if row in mm.JOKER_FIELD:
                minimum = rules[mm.JOKER_FIELD[row]]
                if points > base:
                    self.events.add("joker")
                elif minimum > base:
                    if not (rules["joker_if_zero"] or mik > 0):
                        self.events.add("joker refused: mikazee 0")
                    else:
                        self.events.add("joker refused: upper row empty")
            if sheet.extra[column] > before_extra:
                self.events.add("extra bonus" + (" with mikazee 0" if mik == 0 else ""))
            elif rules["extra_mik"]:
                if not (rules["extra_if_zero"] or mik > 0):
                    self.events.add("extra refused: mikazee 0")
                else:
                    self.events.add("extra refused: not all mikazees")
        if sheet.has_bonus(column) and not had_bonus:
            self.events.add("bonus")
        self.note_order(column, row)

    def note_order(self, column, row):
        """Bookings that the seed's condition on the column before leaves free."""
        sheet = self.sheet
        how = mm.order(self.rules, column)
        before = mm.order(self.rules, column - 1) if column > 1 else None
        if how == mm.LEFT_TO_RIGHT:
            if column == 1:
                self.events.add("left to right first")
            elif before != how and sheet.cells[column - 1][row] is None:
                self.events.add("left to right after another order")
        if how == mm.COLUMN_BY_COLUMN:
            if column == 1:
                self.events.add("column by column first")
            elif before != how and None in sheet.cells[column - 1]:
                self.events.add("column by column after another order")

    # -- a turn ----------------------------------------------------------------------------
    def nearest(self, cells, k=3):
        g, n = self.g, self.sheet.n
        ranked = sorted(cells, key=lambda cell: (cursor_distance(g.cursor, cell, n), self.rnd.random()))
        return self.rnd.choice(ranked[:k])

    def try_refusal(self, roll):
        """Now and then, and always for a message not seen yet if it is near: a refused
        move."""
        g, sheet = self.g, self.sheet
        candidates = []
        for column in sheet.cells:
            for row in range(ROW_COUNT):
                problem = sheet.check(column, row, roll)
                if problem:
                    message = mm.MESSAGES[problem]
                    fresh = message in self.wanted_refusals
                    if cursor_distance(g.cursor, (column, row), sheet.n) <= (6 if fresh else 2):
                        candidates.append((not fresh, column, row, message))
        if not candidates:
            return
        candidates.sort(key=lambda c: (c[0], cursor_distance(g.cursor, c[1:3], sheet.n)))
        stale, column, row, message = candidates[0]
        if stale and self.rnd.random() > 0.08:
            return
        refused(g, sheet, column, row, message)
        self.refusals.add(message)
        self.wanted_refusals.discard(message)

    def turn(self):
        g, sheet, rnd = self.g, self.sheet, self.rnd
        roll = 1
        self.try_refusal(roll)
        for _ in range(2):
            if rnd.random() > 0.4 or not sheet.allowed(roll + 1):
                break
            reroll(g, sorted(rnd.sample(range(1, 6), rnd.randint(1, 3))))
            roll += 1
            self.try_refusal(roll)
        allowed = sheet.allowed(roll)
        mikazees = [cell for cell in allowed if cell[1] == mm.MIK]
        # a Mikazee box early now and then: jokers and extra Mikazees need it filled
        if mikazees and rnd.random() < 0.15:
            column, row = self.nearest(mikazees, k=1)
        else:
            column, row = self.nearest(allowed)
        dice = self.dice_for(column, row)
        before_extra, had_bonus = sheet.extra[column], sheet.has_bonus(column)
        book(g, sheet, column, row, dice)
        self.note(column, row, dice, before_extra, had_bonus)
        check_sheet(g, sheet, score=not sheet.finished)

    def play(self, wanted_refusals=()):
        """13 x N turns from the first roll of a new game; returns at the end screen."""
        self.wanted_refusals = set(wanted_refusals)
        while not self.sheet.finished:
            self.turn()
        if all(self.sheet.has_bonus(c) for c in self.sheet.cells):
            self.events.add("bonus in every column")
        return self.g.game(finished=True)


def selected(g):
    """(field name, value) of the editor line marked with '>'."""
    rows = [row for row in g.screen()[1:] if row.startswith(">")]
    expect(len(rows) == 1, "no single selected field", g.screen())
    return rows[0][1:17].strip(), rows[0][17:].strip()


def write_set(g, slot, name, rules, top=mm.EMPTY_TOP):
    """Poke a rule set and its top 10 into the card records (DATA and REM lines 2901-2920)."""
    texts = mm.rule_lines(name, rules) + [mm.encode_top(top)]
    for number, text in zip(md.SET_LINES[slot], texts):
        start = g.text_start(number)
        expect(len(g.line_text(number)) == len(text), "record length", number, text)
        for i, ch in enumerate(text):
            g.m.poke(start + i, ord(ch))

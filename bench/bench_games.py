"""How fast the dice games of basic_src/ answer their keys, on the firmware engine (issue 19).

    python bench/bench_games.py [--rom DIR] [--src DIR] [--only GAME ...]

Each game is played by a scripted player through every kind of key it has (bench/
game_probe.py: the player presses a key only when the program reads the keyboard). For
each kind the table gives, in emulated seconds from the press (max over the presses, and
the min when it differs):

- shown: the first visible change of the display (the target: 0.5 s or less);
- done: the last change before the program reads keys again (the answer complete);
- ready: when the program reads keys again (INKEY$ or the key-wait loop of INPUT).

--src points at another copy of basic_src/ (e.g. a checkout of an older commit), so the
same script measures before and after a change. Needs the ROM set (../shared/roms/pc1360).
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.game_probe import Probe, ProbeError, sources  # noqa: E402

DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
NAMES = [chr(65 + i // 26) + chr(65 + i % 26) for i in range(256)]


def players(probe, count, prompt_kind, name_kind, last_kind):
    probe.answer(str(count), prompt_kind)
    for i, name in enumerate(NAMES[:count]):
        probe.answer(name, last_kind if i == count - 1 else name_kind)


# -- Kniffel ---------------------------------------------------------------------------
KNIFFEL_METHODS = "123456DVFSGKC"


def kniffel_turn(probe, turn, method, last, word="method", equal=False):
    """One turn: re-rolls on some turns, then the method key (Yahtzee: the box key).
    equal: five 5s poked into the dice A-E, then ENTER (Yahtzee's jahtzy check)."""
    if equal:
        for letter in "ABCDE":
            probe.poke_number(letter, 5)
        probe.key("ENTER", "ENTER without die, five equal dice: ?")
    elif turn % 3 == 0:
        probe.key("1", "die key")
        probe.key("3", "die key")
        probe.key("ENTER", "ENTER: re-roll")
        probe.key("2", "die key")
        probe.key("ENTER", "ENTER: third roll, ? by itself")
    else:
        probe.key("ENTER", "ENTER without die: ?")
    probe.key(method, f"{word} key: last of the game" if last else f"{word} key: next turn")


def kniffel(rom, src, count=8, rounds=13):
    probe = Probe(rom, 8, sources(src, "kniffel.bas"))
    probe.define("K", "DEF K: player question")
    probe.seed()
    players(probe, count, "ENTER player count", "ENTER name", "ENTER last name: first roll")
    if rounds < 13:
        probe.poke_number("R", 14 - rounds)
    turn = 0
    for r in range(13 - rounds, 13):
        for p in range(count):
            if r == 13 - rounds + 1 and p == 0:
                probe.key("ENTER")
                probe.key(KNIFFEL_METHODS[r - 1], "used method refused (BELEGT)")
                probe.key(KNIFFEL_METHODS[r])
            else:
                kniffel_turn(probe, turn, KNIFFEL_METHODS[r], r == 12 and p == count - 1)
            turn += 1
    while probe.screen()[3].startswith("WEITER?"):
        probe.key("ENTER", "end screen: WEITER? key")
    probe.key("ENTER", "end screen key: NEUES SPIEL?")
    probe.key("J", "J: new game")
    return probe


# -- Yahtzee ---------------------------------------------------------------------------
YAHTZEE_BOXES = "123456DVSGFKJ"


def yahtzee_game(probe, count, game):
    """One game of the match, shortened to rounds 1, 2 and 13 (R poked in round 2)."""
    turn = 0
    for r in (0, 1, 12):
        for p in range(count):
            if r == 1 and p == 0:
                probe.poke_number("R", 12)
                if game == 1:
                    probe.key("ENTER")
                    probe.key(YAHTZEE_BOXES[0], "used box refused (BEZET)")
                    probe.key(YAHTZEE_BOXES[r])
                    continue
            last = r == 12 and p == count - 1
            kniffel_turn(probe, turn, YAHTZEE_BOXES[r], last, "box", equal=(r, p) == (1, 1))
            turn += 1
    while probe.screen()[3].startswith("VERDER?"):
        probe.key("ENTER", "end screen: VERDER? key")


def yahtzee(rom, src, count=8):
    probe = Probe(rom, 16, sources(src, "kniffel.bas", "yahtzee.bas"))
    probe.define("J", "DEF J: player question")
    probe.seed()
    if count == 1:
        probe.answer("0", "0 at the player question: top 10")
        probe.key("ENTER", "key after the top 10: player question")
    players(probe, count, "ENTER player count", "ENTER name", "ENTER last name: first roll")
    for game in range(1, 6):
        yahtzee_game(probe, count, game)
        if count == 1:
            probe.key("ENTER", "end screen key: top 10")
        if game < 5:
            probe.key("ENTER", "key between games: next game's first roll")
        else:
            probe.key("ENTER", "end screen key: NIEUWE WEDSTRIJD?")
    probe.key("N", "N: end")
    return probe


# -- Mikazee ---------------------------------------------------------------------------
def mikazee_book(probe, cursor, row, turn, kind="ENTER: score entry"):
    """Re-roll on some turns, move the cursor down column 1 to `row`, enter the dice."""
    if turn % 2 == 0:
        probe.key("1", "die key")
        probe.key("2", "die key")
        probe.key("ENTER", "ENTER: re-roll")
    while cursor[1] != row:
        before = probe.screen()
        timing = probe.key("DOWN")
        after = probe.screen()
        moved = [r[:3] for r in before[1:]] != [r[:3] for r in after[1:]]
        label = "arrow: window pages" if moved else "arrow: cursor only"
        probe.note(label, timing)
        cursor[1] = (cursor[1] + 1) % 19
    probe.key("ENTER", kind)


def mikazee(rom, src):
    probe = Probe(rom, 32, sources(src, "mikazee.bas"))
    probe.define("M", "DEF M: menu")
    menu = probe.m.snapshot()
    probe.key("S", "S: start a game, 6 columns")
    probe.seed()
    cursor = [1, 0]
    for turn in range(6):
        if turn == 1:
            probe.key("UP")
            probe.key("ENTER", "ENTER on a filled cell (BEZET)")
            probe.key("DOWN")
        mikazee_book(probe, cursor, turn, turn)
    probe.key("RIGHT", "arrow: cursor only")
    probe.key("LEFT", "arrow: cursor only")
    for _ in range(5):  # column 6: "ineens" (the first roll only) in the default rules
        probe.key("RIGHT")
    for _ in range(3):  # rows 6-8 (3K, carre, full house), booked at the first roll
        probe.key("DOWN")
        probe.key("ENTER", "ENTER: score entry, \"ineens\" column")
    probe.m.restore(menu)
    probe.key("R", "R: rule editor")
    for key in ("DOWN", "DOWN", "UP", "UP"):
        probe.key(key, "editor: UP/DOWN")
    for _ in range(5):
        probe.key("LEFT", "editor: LEFT/RIGHT value")
    probe.key("S", "editor: S save (rules changed)")
    probe.key("S", "S: start a game, 1 column")
    cursor = [1, 0]
    for turn in range(13):
        mikazee_book(probe, cursor, turn, turn,
                     "ENTER: last score entry (EINDE SPEL)" if turn == 12 else "ENTER: score entry")
    probe.key("ENTER", "ENTER after EINDE SPEL: NAAM?")
    probe.answer("ABCD", "ENTER name: top 10")
    probe.key("ENTER", "top 10 key: page 2")
    probe.key("ENTER", "top 10 key: menu")
    probe.key("T", "T: top 10")
    probe.key("ENTER", "top 10 key: page 2")
    probe.key("ENTER", "top 10 key: menu")
    probe.key("RIGHT", "RIGHT: next set")
    probe.key("R", "R: rule editor, another set")
    probe.key("D", "editor: D default rules")
    probe.key("A", "editor: A back to the menu")
    return probe


# -- MISHIMASH -------------------------------------------------------------------------
def mishimash_choice(dice):
    """Positions (1-based) of the dice to keep: every die of a face shown 3+ times, the 1s
    and 5s; all six for a straight or three pairs."""
    counts = {face: dice.count(face) for face in set(dice)}
    if len(dice) == 6 and (len(counts) == 6 or sorted(counts.values()) == [2, 2, 2]):
        return list(range(1, 7))
    return [i for i, face in enumerate(dice, 1) if counts[face] >= 3 or face in (1, 5)]


def mishimash_dice(rows):
    return [int(rows[0][c]) for c in (1, 3, 5, 7, 9, 11) if rows[0][c].isdigit()]


def mishimash(rom, src, count=3):
    probe = Probe(rom, 8, sources(src, "mishimash.bas"))
    probe.define("X", "DEF X: player question")
    probe.seed()
    probe.answer(str(count), "ENTER player count")
    for name in NAMES[:count]:
        probe.answer(name, "ENTER name")
    probe.answer("150", "ENTER target: first roll")
    turn = 0
    while True:
        rows = probe.screen()
        if rows[3].startswith("WINNAAR"):
            break
        if "PECH!" in rows[3] or "BEWAARD" in rows[3]:
            if turn % 4 == 1:
                probe.key("S", "S after a bank/bust: standings")
                probe.key("ENTER", "key after the standings: next player")
            else:
                probe.key("ENTER", "key after a bank/bust: next player")
            turn += 1
            continue
        dice = mishimash_dice(rows)
        keep = mishimash_choice(dice)
        if turn % 5 == 2 and len(keep) < len(dice):
            spare = next(i for i in range(1, len(dice) + 1) if i not in keep)
            probe.key(str(spare), "die key")
            probe.key("ENTER", "ENTER refused (ONGELDIG)")
            probe.key(str(spare), "die key")
        if turn % 4 == 3 and keep:
            probe.key("S", "S: standings")
            probe.key("ENTER", "key after the standings: turn back")
        for i in keep:
            probe.key(str(i), "die key")
        left = len(dice) - len(keep)
        points = float(probe.screen()[2][5:12])
        if left == 0 or (left >= 3 and points < 10):
            probe.key("ENTER", "ENTER: roll again")
        else:
            probe.key("B", "B: bank")
    probe.key("ENTER", "end screen key: NIEUW SPEL?")
    probe.key("N", "N: end")
    return probe


# -- the table -------------------------------------------------------------------------
def span(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    low, high = min(values), max(values)
    return f"{high:5.2f}" if high - low < 0.005 else f"{low:5.2f}-{high:5.2f}"


def table(title, probe):
    print(f"\n{title}")
    print(f"| {'key':44s} | {'n':>3s} | {'shown':>11s} | {'done':>11s} | {'ready':>11s} |")
    print(f"|{'-' * 46}|{'-' * 5}|{'-' * 13}|{'-' * 13}|{'-' * 13}|")
    for record in probe.records.values():
        times = record.times
        print(f"| {record.label:44s} | {len(times):3d} | {span(t.shown for t in times):>11s} | "
              f"{span(t.done for t in times):>11s} | {span(t.ready for t in times):>11s} |",
              flush=True)


GAMES = {
    "kniffel": ("Kniffel, 8 players, 8 KB card", kniffel),
    "kniffel58": ("Kniffel, 58 players (only round 13), 8 KB card",
                  lambda rom, src: kniffel(rom, src, count=58, rounds=1)),
    "yahtzee": ("Yahtzee, 8 players, match of 5 games (rounds 1, 2, 13), 16 KB card with Kniffel",
                yahtzee),
    "yahtzee1": ("Yahtzee, 1 player, top 10, 16 KB card with Kniffel",
                 lambda rom, src: yahtzee(rom, src, count=1)),
    "mikazee": ("Mikazee, alone on a 32 KB card", mikazee),
    "mishimash": ("MISHIMASH, 3 players, target 150, 8 KB card", mishimash),
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM)
    parser.add_argument("--src", type=Path, default=ROOT / "basic_src")
    parser.add_argument("--only", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    args = parser.parse_args(argv)
    for name in args.only:
        title, play = GAMES[name]
        try:
            probe = play(args.rom, args.src)
        except ProbeError as exc:
            print(f"{title}: {exc}", file=sys.stderr)
            return 1
        table(title, probe)
    return 0


if __name__ == "__main__":
    sys.exit(main())

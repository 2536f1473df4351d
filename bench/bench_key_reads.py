"""How the four games read their keys, on both engines: the figures behind the key driver's
hold (emulator/machine/facade.py: POLL_GAP, POLL_HOLD, KEY_HOLD).

    python bench/bench_key_reads.py [--rom DIR] [--trials N] [--engine E] [--only GAME ...]
                                    [--together]

Each game, alone on its card (--together: all four on a 32 KB card, as the README's recipe
puts them, where a GOTO takes longer in the games further down), is started by a key
script (so the script's {READY} is exercised too) until it polls INKEY$ for a key; from
there, for each of its key states:

- poll gaps: the cycles between two reads of the key's matrix line over 2 emulated seconds
  (the longest and the mean): a key held for less than the longest can fall between;
- misses: N presses at random moments of the poll loop (each from the same snapshot),
  held a fixed 45 ms (the old driver) and held by the machine's driver (tap: until read),
  counting the presses the program never read, and those it read twice while held.
"""

import argparse
import itertools
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_ROM = ROOT.parent / "shared" / "roms" / "pc1360"
GAP_SECONDS = 2.0
OLD_HOLD = 0.045
# game: (source, card KB, [(state, key script from the prompt to it, key pressed there)])
GAMES = {
    "kniffel": ("kniffel.bas", 8, [("dice", "{DEF}K1{ENTER}AB{ENTER}{READY}", "1"),
                                   ("method", "{ENTER}{READY}", "D")]),
    "yahtzee": ("yahtzee.bas", 16, [("dice", "{DEF}J1{ENTER}AB{ENTER}{READY}", "1"),
                                    ("box", "{ENTER}{READY}", "D")]),
    "mikazee": ("mikazee.bas", 16, [("menu", "{DEF}M{READY}", "1")]),
    "mishimash": ("mishimash.bas", 8, [("dice", "{DEF}X1{ENTER}AB{ENTER}{ENTER}{READY}", "1")]),
}


def booted(engine, rom, card_kb):
    from emulator.machine.facade import PC1360

    machine = PC1360(engine=engine, card_kb=card_kb, rom_dir=rom if engine == "firmware" else None)
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    return machine


def poll_gaps(machine, key):
    from pc1360.facts import CYCLES_PER_SECOND

    lines = machine.keyboard.reads(key)
    stamps = []
    end = machine.cycles + round(GAP_SECONDS * CYCLES_PER_SECOND)
    while machine.cycles < end:
        count = lines.count
        machine.run_cycles(256)
        if lines.count != count:
            stamps.append(lines.last)
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    return max(gaps), sum(gaps) / len(gaps)


def presses(machine, snap, key, trials, spread, hold, rng):
    """(missed, read twice) of `trials` presses at random moments up to `spread` cycles in."""
    missed = twice = 0
    for _ in range(trials):
        machine.restore(snap)
        machine.run_cycles(rng.randrange(1, spread))
        reads = machine.tap(key, hold=hold, ready=False)
        missed += reads == 0
        twice += reads > 1
    return missed, twice


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--engine", choices=("firmware", "builtin"), action="append")
    parser.add_argument("--only", nargs="+", choices=sorted(GAMES))
    parser.add_argument("--together", action="store_true")
    args = parser.parse_args()
    from pc1360.facts import CYCLES_PER_SECOND
    from pc1360.tokenizer import tokenize

    rng = random.Random(1360)
    ms = 1000 / CYCLES_PER_SECOND
    print(f"{'engine':9}{'game':10}{'state':8}{'key':4}{'longest gap':>13}{'mean':>9}"
          f"{'45 ms: missed':>15}{'twice':>7}{'until read: missed':>20}{'twice':>7}")
    for engine in args.engine or ("firmware", "builtin"):
        for game in args.only or GAMES:
            source, card_kb, states = GAMES[game]
            sources = [GAMES[other][0] for other in GAMES] if args.together else [source]
            machine = booted(engine, args.rom, 32 if args.together else card_kb)
            machine.load_program(tokenize("".join((ROOT / "basic_src" / name).read_text()
                                                  for name in sources)))
            for state, script, key in states:
                machine.type_keys(script)
                snap = machine.snapshot()
                longest, mean = poll_gaps(machine, key)
                old = presses(machine, snap, key, args.trials, 2 * longest, OLD_HOLD, rng)
                new = presses(machine, snap, key, args.trials, 2 * longest, None, rng)
                machine.restore(snap)
                print(f"{engine:9}{game:10}{state:8}{key:4}{longest * ms:10.1f} ms{mean * ms:6.1f} ms"
                      f"{old[0]:>9}/{args.trials}{old[1]:>7}{new[0]:>14}/{args.trials}{new[1]:>7}",
                      flush=True)


if __name__ == "__main__":
    main()

"""Statements per second of the built-in engine in turbo (no real-time pacing).

Runs a few small loops through BuiltinEngine.run() (the engine of a PC1360 facade, which
is not run itself) and prints statements per wall second for each (and per CPU second).
The goal for simple statements is 200,000/s;
the real PC-1360 manages about 60 (docs/basic_language.md §6: ~30 loops of `A=A+1:GOTO 10` per
second).

    python bench/bench_builtin.py [seconds per loop]
"""

import sys
import time

from emulator.builtin.states import State
from emulator.machine.facade import PC1360
from pc1360.tokenizer import parse_program

LOOPS = {
    "A=A+1:GOTO 10": ("10 A=A+1:GOTO 10", 2),
    "FOR/NEXT": ("10 FOR I=1 TO 1E9:NEXT I", 1),
    "A=A+1 x4": ("10 A=A+1:B=B+1:C=C+1:D=D+1:GOTO 10", 5),
    "IF/GOSUB": ('10 IF A<1E9 GOSUB 20:GOTO 10\n20 A=A+1:RETURN', 4),
    "string": ('10 B$=LEFT$("HELLO",3)+"X":A=A+1:GOTO 10', 3),
}


def measure(source, per_loop, seconds):
    engine = PC1360(engine="builtin").engine
    interp = engine.interp
    interp.program.init_card(0x8000)
    for line in parse_program(source).lines:
        interp.program.store(line.number, line.body)
    interp.start_program()
    engine.state = State.RUNNING
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        engine.run(2_560_000)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    # every loop adds 1 to A (the FOR loop counts in I)
    letter = "I" if "FOR" in source else "A"
    loops = int(interp.vars.load(interp.vars.fixed(ord(letter), False)))
    return loops * per_loop / elapsed, loops * per_loop / cpu


def main(argv):
    seconds = float(argv[1]) if len(argv) > 1 else 2.0
    # CPU time as well as wall time: on a shared machine the wall figure understates
    print(f"{'loop':16s} {'per wall s':>12s} {'per CPU s':>12s}   (statements)")
    for name, (source, per_loop) in LOOPS.items():
        wall, cpu = measure(source, per_loop, seconds)
        print(f"{name:16s} {wall:12,.0f} {cpu:12,.0f}")


if __name__ == "__main__":
    main(sys.argv)

"""Front-end cost: time to the first frame, and CPU use while the machine idles at a prompt.

    python3 bench/bench_frontend.py [--seconds 5] [--rom DIR] [--zoom 2]

Runs the real firmware when a ROM set is found (booted to the RUN-mode prompt first), else
a machine whose display never changes. Uses SDL's dummy video and audio drivers unless
SDL_VIDEODRIVER / SDL_AUDIODRIVER are set. Idle CPU = process CPU time / wall time.
"""

import time

STARTED = time.perf_counter()

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

DEFAULT_ROM_DIR = ROOT.parent / "shared" / "roms" / "pc1360"


class IdleMachine:
    """The facade's API with a blank, never-changing display (no ROM set at hand)."""

    def __init__(self):
        self.mem = bytearray(0x10000)
        self.cycles = 0

    def run_cycles(self, n):
        self.cycles += n
        return n

    def press(self, key):
        pass

    def release(self, key):
        pass

    def pixels(self):
        return [[0] * 150 for _ in range(32)]

    def symbols(self):
        return set()


def build_machine(rom_dir, boot):
    if not (rom_dir / "cpu-1360.rom").is_file():
        return IdleMachine(), "idle stand-in machine (no ROM set)"
    from emulator.machine.facade import PC1360

    machine = PC1360(rom_dir=rom_dir)
    if boot:
        machine.key_wait_ready(5.0)
        if "CLEAR O.K." in "".join(machine.screen_text()):
            machine.type_keys("Y")
            machine.key_wait_ready(5.0)
    return machine, "firmware at the RUN-mode prompt"


def report(window_class, machine, args, what):
    """Run the window for args.seconds at real speed and print its CPU use."""
    window = window_class(machine, SimpleNamespace(zoom=args.zoom, mute=True))
    window.frame()
    cpu0, wall0, frames0, draws0 = time.process_time(), time.perf_counter(), window.frames, window.lcd_draws
    window.run(seconds=args.seconds)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    frames, draws = window.frames - frames0, window.lcd_draws - draws0
    window.close()
    print(f"{what}: {100 * cpu / wall:.1f}% of one core over {wall:.1f} s, "
          f"{frames / wall:.1f} fps, {draws} LCD redraws")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rom", type=Path, default=DEFAULT_ROM_DIR)
    parser.add_argument("--zoom", type=int, default=2)
    args = parser.parse_args()

    before_import = time.perf_counter()
    import pygame  # noqa: F401  (timed on its own: most of the start-up is pygame's imports)
    pygame_import = time.perf_counter() - before_import
    from emulator.frontend.app import Window

    # first frame: from process start, with a machine just switched on
    machine, _ = build_machine(args.rom, boot=False)
    window = Window(machine, SimpleNamespace(zoom=args.zoom, mute=True))
    window.frame()
    first_frame = time.perf_counter() - STARTED
    first_frame_cpu = time.process_time()
    window.close()
    print(f"time to first frame: {first_frame:.3f} s from process start ({first_frame_cpu:.3f} s CPU), "
          f"of which importing pygame {pygame_import:.3f} s")

    machine, what = build_machine(args.rom, boot=True)
    report(Window, machine, args, f"idle at a prompt ({what})")
    if not isinstance(machine, IdleMachine):
        # the other end: a program that changes the display all the time
        machine.type_keys("{MODE}10 WAIT 0:PRINT I:I=I+1:GOTO 10{ENTER}{MODE}RUN{ENTER}")
        report(Window, machine, args, "running a program that redraws the LCD")
    return 0


if __name__ == "__main__":
    sys.exit(main())

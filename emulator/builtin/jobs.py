"""Transfer jobs: OPEN, CLOSE, LOAD, SAVE and LPRINT on the SIO (serial_io.py), CSAVE,
CLOAD, MERGE, CHAIN, PRINT# and INPUT# on the cassette (tape_io.py).

A job is a generator that does its pin work and yields the cycles to wait before the
next; it runs in the engine state SERIAL or TAPE, and `progress()` makes the machine's
now() exact meanwhile. The generator is no state that can be kept: a snapshot or a
power-off state taken during a transfer does not keep the job (on going on from it the
statement is over).
"""

from dataclasses import dataclass

from emulator.builtin.basic_errors import BasicError
from emulator.builtin.serial_io import JOBS, get_port
from emulator.builtin.states import State
from emulator.builtin.tape_io import SILENT, TAPE_JOBS


@dataclass
class JobState:
    writing: bool = False           # the tape job writes (BRK is not read then)


class Jobs:
    """The running transfer (`state`: JobState; the job itself in `job`)."""

    def __init__(self, host, pins, interp, core, runtime):
        self.host = host
        self.mem = host.mem
        self.pins = pins
        self.interp = interp
        self.core = core
        self.runtime = runtime
        self.state = JobState()
        self.job = None             # [generator, cycles it still waits]
        self.offset = 0             # cycles of the current run() call before a pin access

    def progress(self):
        """Cycles of the current run() call so far, for the machine's now()."""
        return self.offset

    def start_serial(self, kind, *args):
        settings, _ = get_port(self.mem)
        self.job = [JOBS[kind](self, settings, *args), 0]
        self.core.state = State.SERIAL

    def start_tape(self, kind, args):
        self.job = [TAPE_JOBS[kind](self, *args), 0]
        self.state.writing = kind == "write"
        self.core.state = State.TAPE

    def run(self, budget, offset):
        """Run the job for up to `budget` cycles; `offset` cycles of this run() call
        went before. Returns the cycles used."""
        entry = self.job
        if entry is None:                           # a snapshot dropped the job
            self._done()
            return 0
        used = 0
        try:
            while used < budget:
                if entry[1] > 0:
                    step = min(entry[1], budget - used)
                    entry[1] -= step
                    used += step
                    continue
                self.offset = offset + used
                try:
                    entry[1] = next(entry[0])
                except StopIteration:
                    self._done()
                    break
                except BasicError as err:
                    self.job = None
                    self.runtime.show_error(err.code, self.interp.line)
                    break
        finally:
            self.offset = 0
        return max(used, 1)

    def _done(self):
        self.job = None
        self.core.state = State.RUNNING if self.interp.running else State.IDLE

    def tape_break(self):
        """BRK while the tape runs: writing does not read it; a read stops, with `>`
        after a typed line and BREAK IN line in a program (as the firmware does)."""
        if self.state.writing:
            return
        self.job = None
        self.pins.xout(SILENT)
        if self.interp.line_addr is not None:
            self.runtime.stop_with(b"BREAK", keep_position=True)
        else:
            self.runtime.end_quietly()

    def drop(self):
        """A snapshot or power-off state is put back: no job runs."""
        self.job = None

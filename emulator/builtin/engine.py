"""BuiltinEngine: the ROM-less engine behind the machine facade (docs/interfaces.md).

It has reset() and run(cycles) and works only through its host (host.EngineHost): the
machine's `mem` (program, variables, display RAM, status symbols), the keys held down
and the pins of the ports. It is made of parts, each owning its state as a dataclass:

- key_dispatch.Keys: the key-wait loop, when keys act, what each does in each engine state;
- terminal.Terminal with editor.LineEditor, listview.Listing, enter.TypedLines and
  input.InputLine: the display between programs, the typed line, ENTER, LIST, INPUT;
- runtime.Runtime: the program's run, the requests it leaves, stops and errors;
- jobs.Jobs: the SIO and cassette transfers (serial_io.py, tape_io.py);
- the interpreter (interp.Interpreter) and the screen (screen.Screen).

What run() does with its cycles is the engine state (states.State), shared by the parts
with the engine's clock (states.EngineState). snapshot_state() copies every part's
state; power_state()/resume() keep it in the card file as JSON (persist.py). An 8 or 16
KB card's copies in 0x8000-0xFFFF agree (sync_mirrors).
"""

import copy
from dataclasses import fields

from emulator.builtin import font, persist
from emulator.builtin.basic_errors import OTHER
from emulator.builtin.editor import LineEditor
from emulator.builtin.enter import TypedLines
from emulator.builtin.host import EngineHost, Pins
from emulator.builtin.input import InputLine
from emulator.builtin.interp import Interpreter
from emulator.builtin.jobs import Jobs
from emulator.builtin.key_dispatch import Keys
from emulator.builtin.listview import Listing
from emulator.builtin.persist import EngineSnapshot, PartStates
from emulator.builtin.runtime import Runtime
from emulator.builtin.screen import Screen
from emulator.builtin.states import JOB_STATES, EngineState, State
from emulator.builtin.terminal import Terminal
from emulator.builtin.typed import tokenize_body  # noqa: F401  (tests import it from here)
from emulator.builtin.typed_codes import inkey_code
from pc1360.facts import SYMBOL_BYTE


def _assign(target, source):
    """Put `source`'s fields into the dataclass `target` (the parts keep theirs)."""
    for f in fields(target):
        setattr(target, f.name, getattr(source, f.name))


class BuiltinEngine:
    name = "builtin"

    def __init__(self, machine: EngineHost):
        self.machine = machine
        self.mem = mem = machine.mem
        self.core = core = EngineState()
        self.pins = pins = Pins(machine)
        self.screen = screen = Screen(mem)
        self.interp = interp = Interpreter(mem, screen, self)
        self.editor = editor = LineEditor(screen, core)
        self.terminal = terminal = Terminal(mem, screen, interp, editor,
                                            Listing(mem, interp.program))
        self.input_line = input_line = InputLine(screen, interp, core, editor, terminal)
        self.runtime = runtime = Runtime(machine, interp, screen, core, editor, terminal,
                                         input_line)
        self.jobs = jobs = Jobs(machine, pins, interp, core, runtime)
        self.typed = typed = TypedLines(mem, screen, interp, core, editor, terminal,
                                        input_line, jobs)
        self.keys = Keys(machine, pins, core, interp=interp, screen=screen, editor=editor,
                         terminal=terminal, input_line=input_line, typed=typed,
                         runtime=runtime, jobs=jobs)
        # the parts that call back into those made after them
        terminal.typed, terminal.runtime = typed, runtime
        input_line.runtime = typed.runtime = runtime
        runtime.jobs, runtime.typed = jobs, typed
        self.parts = PartStates(core=core, keys=self.keys.state, editor=editor.state,
                                terminal=terminal.state, input=input_line.state,
                                runtime=runtime.state, jobs=jobs.state, screen=screen.state)
        self.internal_errors = []
        machine.lcd.set_font({code: font.GLYPHS[code] for code in range(0x20, 0x100)})
        self.reset()

    @property
    def state(self):
        """What run() does now (states.State)."""
        return self.core.state

    @state.setter
    def state(self, state):
        self.core.state = state

    @property
    def clock(self):
        return self.core.clock

    # ------------------------------------------------------------ engine interface

    def reset(self):
        """Power on / RESET: a valid card goes to RUN mode, a blank one gets the
        CLEAR question. Memory is kept, and the engine's clock runs on."""
        clock = self.core.clock
        for f in fields(PartStates):
            live = getattr(self.parts, f.name)
            _assign(live, type(live)())
        self.core.clock = clock
        self.keys.state.prev_keys = frozenset(self.machine.keyboard.pressed)
        self.jobs.drop()
        self.interp.clear_run_state()
        self.pins.display_on()
        self.screen.clear()
        self.mem[SYMBOL_BYTE] = 0
        if self.interp.program.is_valid():
            self.terminal.show_mode()
        else:
            self.core.state = State.QUESTION
            self.screen.show_line(0, b'MEM$ = "C"')
            self.screen.show_line(1, b"RAM CARD S1 CLEAR O.K. ?")

    def run(self, cycles):
        try:
            used = self._run(cycles)
            self.sync_mirrors()
            return used
        except Exception as exc:    # noqa: BLE001 - the last line of defence, see below
            # Every failure must reach the user as a machine error on the LCD, never
            # as a Python exception out of the machine. A bug that gets here is kept
            # in internal_errors, which the tests require to stay empty.
            self.internal_errors.append(repr(exc))
            self.runtime.show_error(OTHER, self.interp.line)
            self.core.clock += cycles
            return cycles

    def _run(self, cycles):
        core, keys, host = self.core, self.keys, self.machine
        keys.poll()
        used = 0
        while used < cycles and not host.halted:
            now = core.clock + used
            if keys.due(now):
                keys.act(now)
                continue
            state = core.state
            if state in JOB_STATES:
                used += self.jobs.run(cycles - used, used)
            elif state is State.RUNNING:
                used += self.runtime.execute(cycles - used)
            elif state is State.DELAY:
                used += self.runtime.delay(cycles - used, used)
            else:
                if state in (State.IDLE, State.INPUT):
                    self.editor.blink()
                else:
                    self.editor.cursor_off()
                used += keys.wait(cycles - used, now)
        core.clock += used
        return used

    def start(self):
        """RUN the program from its first line (for tools and tests), as RUN ENTER
        would, without typing it."""
        self.runtime.start()

    def write_floor_changed(self):
        """The firmware engine's CPU needs this; the built-in engine writes mem directly."""

    def progress(self):
        """Cycles of the current run() call so far, for machine.now()."""
        return self.jobs.progress()

    # ------------------------------------------------------------ kept state

    def snapshot_state(self):
        return EngineSnapshot(copy.deepcopy(self.parts), self.interp.save_state())

    def restore_state(self, snapshot):
        for f in fields(PartStates):
            _assign(getattr(self.parts, f.name), copy.deepcopy(getattr(snapshot.parts, f.name)))
        self.jobs.drop()            # (a job is no state: see jobs.py)
        self.interp.load_state(snapshot.interp)

    def power_state(self):
        """What the card file keeps while the machine is off (persist.py); the
        program, variables and display are in the machine's memory."""
        return persist.dump(self.snapshot_state())

    def resume(self, blob):
        """Go on from a power_state() (ValueError if it is not one)."""
        self.restore_state(persist.load(blob))
        self.keys.state.prev_keys = frozenset(self.machine.keyboard.pressed)

    # ------------------------------------------------------------ host hooks

    def inkey(self):
        """INKEY$: the one key held now (nothing when none or several are held)."""
        keyboard = self.machine.keyboard
        keyboard.read_all()
        pressed = keyboard.pressed
        if len(pressed) != 1:
            return None
        return inkey_code(next(iter(pressed)))

    def now(self):
        return self.core.clock

    def key_wait_count(self):
        """The key-wait loop's round count, as RANDOM reads it."""
        return self.keys.wait_count()

    def poke(self, addr, value):
        self.machine.poke(addr, value)

    def sync_mirrors(self):
        """An 8 or 16 KB card shows 4 or 2 times in 0x8000-0xFFFF (emulator/machine/memmap.py).
        The engine writes the top copy directly; the copies below get its bytes here
        (after each run() and before PEEK), so they agree as on the firmware engine."""
        bus = self.machine.bus
        size = bus.card_sizes[bus.slot]
        if 0 < size < 0x8000:
            mem = self.mem
            top = mem[0x10000 - size:]
            for base in range(0x8000, 0x10000 - size, size):
                mem[base:base + size] = top

"""Running the program: the interpreter's statements in run()'s cycles, the requests
they leave (PRINT's wait, WAIT, BEEP, INPUT, LIST, STOP, the transfer jobs), and how a
run stops (BREAK, errors, the program's end) and goes on (CONT, DOWN, a PRINT wait
given ENTER), as the firmware engine shows it:

- a statement that costs more than the cycles of one run() call takes its time from
  the next calls (DELAY) before the program goes on or its request is served;
- after a stop (BREAK, or a key at a PRINT wait) DOWN goes on line by line showing
  each line's number as TRON does; a character typed at a PRINT wait stops the program
  silently and starts a typed line, and the wait goes on under the lines typed: ENTER
  on a blank one lets the program go on (wait_over).
"""

from dataclasses import dataclass, field
from decimal import Decimal

from emulator.builtin import output
from emulator.builtin.basic_errors import BasicError
from emulator.builtin.beep import TONE_CYCLES, tone_step
from emulator.builtin.run_state import InputItem
from emulator.builtin.screen import COLS, NUL
from emulator.builtin.serial_io import close_port
from emulator.builtin.states import State
from emulator.builtin.timing import CYCLES

ERROR_LATE = CYCLES["error_late"]
SCROLL_CYCLES = CYCLES["scroll"]
INPUT_ASK_WORK = CYCLES["input_ask_work"]
INPUT_TOP_AFTER_CLS = CYCLES["input_top_after_cls"]


@dataclass
class RuntimeState:
    delay_left: int = 0             # DELAY: the cycles still to pass
    entering: bool = False          # the DELAY is ENTER's: the typed line runs after it
    enter_value: Decimal | bytes | None = None  # ... or a typed calculation's value shows
    typed_end: int = 0              # cycles a typed statement takes back to the prompt
    tones: list[tuple[int, int]] = field(default_factory=list)  # BEEP: (delay_left at a
                                    # tone's start, its length)
    wait_key: str = "ENTER"         # the key that ends ENTER_WAIT (DOWN under TRON)
    wait_result: bytes | None = None    # the waiting PRINT's number, as a result's text
    error: tuple[int, int] | None = None  # the DELAY is an error's: (code, line) shows after
    error_on_last: bool = False     # ... about the element read last (BasicError.on_last)


class Runtime:
    """The program's run (`state`: RuntimeState). The engine wires `jobs` (jobs.Jobs)
    and `typed` (enter.TypedLines) in."""

    def __init__(self, host, interp, screen, core, editor, terminal, input_line):
        self.host = host
        self.interp = interp
        self.screen = screen
        self.core = core
        self.editor = editor
        self.terminal = terminal
        self.input_line = input_line
        self.state = RuntimeState()
        self.jobs = self.typed = None

    # ------------------------------------------------------------ starting

    def start(self):
        """RUN the program from its first line, as RUN ENTER would."""
        self.interp.vars.clear()
        self.interp.start_program()
        self.editor.state.input_row = None
        self.core.state = State.RUNNING

    def run_typed(self, end):
        """A typed statement runs; `end`: its cycles back to the prompt."""
        self.state.typed_end = end
        self.core.state = State.RUNNING

    def enter_after(self, cycles, value=None):
        """ENTER's work takes `cycles`; then the typed line runs (or `value` shows)."""
        st = self.state
        st.typed_end = 0
        st.entering = True
        st.enter_value = value
        self.wait(cycles)

    def wait(self, cycles):
        self.state.delay_left = cycles
        self.core.state = State.DELAY

    def go_on(self):
        """The program goes on from where it stopped (CONT's position)."""
        interp = self.interp
        interp.pos, interp.line, interp.line_addr = interp.stopped_at
        interp.stopped_at = None
        interp.running = interp.jumped = True
        self.core.state = State.RUNNING

    def stop_here(self):
        """The program stops where it is; CONT goes on there."""
        interp = self.interp
        interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
        interp.running = interp.stepping = False
        self.core.state = State.IDLE

    # ------------------------------------------------------------ run()'s cycles

    def delay(self, budget, used):
        """Up to `budget` cycles of a DELAY (`used` of this run() call went before);
        returns the cycles used."""
        st = self.state
        step = min(st.delay_left, budget)
        if st.tones:
            tone, over = tone_step(self.host.buzzer, self.host.now() + used, st.delay_left,
                                   st.tones)
            if over:
                st.tones = []
            step = min(step, tone)
        st.delay_left -= step
        if st.delay_left <= 0:
            if st.error is not None:
                (code, line), st.error = st.error, None
                with self.terminal.scroll_work(SCROLL_CYCLES):     # a message that scrolls
                    self.show_error(code, line, st.error_on_last)
            elif st.entering:
                value, st.enter_value = st.enter_value, None
                st.entering = False
                self.core.state = State.IDLE
                self.typed.enter_now(value)
            else:
                self.core.state = State.RUNNING
        return step

    def execute(self, budget):
        """Up to `budget` cycles of the program (RUNNING); returns the cycles used."""
        interp = self.interp
        st = self.state
        try:
            used = interp.execute(budget)
        except BasicError as err:
            if interp.line_addr is None:            # a typed line's: typed_base has it
                self.show_error(err.code, interp.line, err.on_last)
                self.terminal.state.error_list_from = err.list_from
                return budget
            # the firmware takes its time to find and show a program line's error
            st.error, st.error_on_last = (err.code, interp.line), err.on_last
            self.wait(ERROR_LATE + max(0, err.used - budget))
            return min(err.used, budget)
        if used > budget:
            # a statement that costs more than this call's cycles takes its time from
            # the next calls before the program goes on, or before its request (PRINT's
            # wait for ENTER, INPUT, the prompt after the run's end) is served
            self.wait(used - budget)
            return budget
        pending = interp.pending
        if (pending is not None or not interp.running) and not self._colon_next():
            # a typed statement got through: LEFT/RIGHT bring nothing back now
            self.terminal.state.recalled = None
        if pending is not None:
            interp.pending = None
            self._serve(pending)
        elif not interp.running:
            if interp.trace_extra:
                # the run's `>` after DOWN at a TRON stop scrolls as slowly as its `line:`
                cycles, interp.trace_extra = interp.trace_extra, 0
                self.wait(cycles)
                return max(used, 1)
            end, st.typed_end = st.typed_end, 0
            if end and interp.line_addr is None:
                self.wait(end)              # a typed statement: the prompt comes later
                return max(used, 1)
            if interp.line_addr is not None:
                close_port(self.host.mem)   # a program's end closes the port (firmware)
            self.core.state = State.IDLE
            with self.terminal.scroll_work(SCROLL_CYCLES):         # the `>` that scrolls
                self.terminal.prompt()
            self.terminal.state.end_prompt = True
        return max(used, 1)

    def _colon_next(self):
        """Whether a typed line's statement has a `:` after it, which is still to be
        refused (`BEEP 1:A=1` sounds first; enter.RUN_BEFORE_COLON)."""
        interp = self.interp
        return interp.running and interp.line_addr is None and interp.peek() == 0x3A

    def _serve(self, pending):
        kind = pending[0]
        if kind != "trace":
            self.interp.trace_extra = 0     # other output came first
        if kind == "enter":
            self.core.state = State.ENTER_WAIT
            self.state.wait_key = "ENTER"
            self.state.wait_result = pending[1]
        elif kind == "trace":
            # TRON: after each line its number, then DOWN goes on (as the firmware)
            self.terminal.message(b"%d:" % pending[1], fill=NUL)
            self.core.state = State.ENTER_WAIT
            self.state.wait_key = "DOWN"
        elif kind == "delay":
            self.wait(pending[1])
        elif kind == "beep":
            self._beep(pending)
        elif kind == "input":
            self.input_line.state.items = list(pending[1])
            top = not (self.screen.done or self.screen.col)
            with self.terminal.scroll_work(SCROLL_CYCLES):
                self.input_line.ask()
            # the question's drawing, before the key wait (firmware engine)
            self.terminal.state.draw_work += INPUT_ASK_WORK + \
                (INPUT_TOP_AFTER_CLS if top and self.interp.cursor is None else 0)
        elif kind == "stop":
            with self.terminal.scroll_work(SCROLL_CYCLES):
                self.stop_with(b"BREAK", keep_position=False)
        elif kind == "list":
            self.core.state = State.IDLE
            self.terminal.list_from(pending[1])
        elif kind == "clear prompt":       # DELETE, RENUM: a `>` on a clear display
            self.core.state = State.IDLE
            self.terminal.clear_prompt()
        elif kind == "serial":
            self.jobs.start_serial(*pending[1:])
        elif kind == "tape":
            self.jobs.start_tape(pending[1], pending[2:])

    def _beep(self, pending):
        cycles = pending[4]
        self.wait(cycles)
        # (delay_left at its start, length) of each tone; BEEP n alone: a tone at the
        # start of each beep's time (its length is assumed)
        if len(pending) > 5:
            self.state.tones = [(cycles - start, length) for start, length in pending[5]]
        else:
            self.state.tones = [(cycles - start, TONE_CYCLES) for start in
                                range(0, cycles, output.BEEP_CYCLES)][:pending[1]]

    # ------------------------------------------------------------ stopping, going on

    def step_on(self):
        """DOWN after a stop: the program goes on line by line (the typed line is
        left on the display without its cursor)."""
        interp = self.interp
        edited = self.editor.state
        if edited.line and edited.input_row is not None:
            self.terminal.show_rows(edited.input_row, self.editor.entered())
        edited.line.clear()
        edited.input_row = None
        self.terminal.state.list_addr = self.terminal.state.last_result = None
        self.go_on()
        interp.stepping = not interp.trace
        if interp.resume_input:
            interp.pending = ("input", interp.resume_input)
            interp.resume_input = None

    def wait_over(self):
        """ENTER on a blank line after lines typed at a PRINT wait: the program goes on
        after the wait, printing below the typed line, which keeps its cursor (firmware
        engine); after STOP, BRK or another run it is the empty line's `>`."""
        interp = self.interp
        terminal = self.terminal
        edited = self.editor.state
        stop, terminal.state.wait_stop = terminal.state.wait_stop, None
        if stop != interp.stopped_at:
            terminal.idle_key("ENTER", None)
            return
        self.go_on()
        if edited.input_row is not None:
            self.screen.row = edited.input_row + len(self.editor.typing_text()) // COLS
        self.screen.done = True
        edited.input_row = None
        edited.line.clear()

    def stop_with(self, word, keep_position):
        """BRK or STOP: `BREAK IN line` (`BREAK` for an immediate line); CONT goes on."""
        interp = self.interp
        if keep_position and interp.line_addr is not None:
            interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
        if self.core.state is State.INPUT:
            # the question loses its cursor; CONT asks again, with `?`
            asked = self.input_line.state
            self.input_line.show(asked.prompt + bytes(self.editor.state.line) + bytes([NUL]))
            self.screen.end_line()
            interp.resume_input = [InputItem(None, True, ref) for _p, _k, ref in asked.items]
        text = word + (b" IN %d" % interp.line if interp.line_addr is not None else b"")
        self.terminal.state.wait_stop = None
        interp.running = interp.stepping = False
        interp.pending = None
        self.core.state = State.IDLE
        self.editor.state.line.clear()
        self.terminal.message(text, fill=NUL)

    def end_quietly(self):
        """A typed statement's job ends at BRK: a `>` prompt."""
        interp = self.interp
        interp.running = interp.stepping = False
        interp.pending = None
        self.core.state = State.IDLE
        self.terminal.prompt()

    def show_error(self, code, line, on_last=False):
        """ERROR `code` (in program line `line`; 0: a typed line): the run ends.
        `on_last`: see BasicError.on_last."""
        interp = self.interp
        at = None
        if line and interp.line_addr is not None:
            at = (line, interp.pos - interp.line_addr - 3)
        interp.running = False
        interp.pending = None
        self.core.state = State.IDLE
        self.terminal.show_error(code, line, at, on_last)

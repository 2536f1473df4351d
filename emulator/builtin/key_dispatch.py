"""The keyboard as the firmware engine reads it, and what each key does in each engine
state.

Keys are read from the host's `keyboard.pressed` once per run() call. As on the
firmware engine a key acts KEY_LATENCY after it goes down, and the key wait, with its
strobes, comes back only once it is up again and its work is done; BRK is read at any
time. A key goes to the handler of the engine state it finds (`Keys._handlers`).
"""

from dataclasses import dataclass, field
from typing import NamedTuple

from emulator.builtin.basic_errors import LINE
from emulator.builtin.screen import COLS, ROWS
from emulator.builtin.state_codec import transient
from emulator.builtin.states import KEY_WAIT_STATES, Mode, State
from emulator.builtin.terminal import CONTINUING
from emulator.builtin.timing import CYCLES
from emulator.builtin.typed_codes import CHARS, SHIFTED
from emulator.machine.key_matrix import KEY_BY_NAME

# Measured on the firmware engine: a key pressed in the key-wait loop acts KEY_LATENCY
# later (ENTER's work starts at 8,500), even when released sooner; the loop runs again
# only when the work is done and the key is up, 6,000-9,500 cycles after the later of
# the two (8,000 here). No strobe in between. Of the keys only LEFT and RIGHT repeat
# while held, as often as the line can be redrawn.
KEY_LATENCY = CYCLES["key_latency"]
KEY_RELEASE_CYCLES = CYCLES["key_release"]
REPEAT_KEYS = ("LEFT", "RIGHT")
KEY_REPEAT_DELAY = CYCLES["key_repeat_delay"]
KEY_REPEAT_CYCLES = CYCLES["key_repeat"]
KEY_REPEAT_PER_CHAR = CYCLES["key_repeat_per_char"]
# Keys whose work takes the firmware engine longer (cycles more than a typed digit,
# from press to the next key wait): redrawing the whole display, listing a line.
KEY_WORK = {key: CYCLES[f"key_work_{key.lower()}"] for key in ("CLS", "MODE", "DEL", "INS")}
# DEL and INS on a typed line: work and work for each character after the cursor
EDIT_KEY_WORK = {key: (CYCLES[f"key_work_{key.lower()}_line"], CYCLES[f"key_work_{key.lower()}_char"])
                 for key in ("DEL", "INS")}
PRO_LIST_WORK = CYCLES["pro_list_work"]
EDIT_LISTED_WORK = CYCLES["edit_listed_work"]
TYPING_SCROLL_WORK = CYCLES["typing_scroll"]
EDIT_LISTED_CELL = CYCLES["edit_listed_cell"]
RUN_UP_DOWN_WORK = CYCLES["run_up_down_work"]
CONTINUE_WORK = CYCLES["continue_work"]
CONTINUE_CHAR = CYCLES["continue_char"]
ERROR_RECALL_WORK = CYCLES["error_recall_work"]
ERROR_RECALL_CHAR = CYCLES["error_recall_char"]
SHOW_LINE_WORK = CYCLES["show_line_work"]
PRINT_WAIT_ENTER_WORK = CYCLES["print_wait_enter_work"]
BREAK_WORK = CYCLES["break_work"]
BREAK_SCROLL_WORK = CYCLES["break_scroll_work"]
BREAK_TAPE_WORK = CYCLES["break_tape_work"]
STEP_DOWN_WORK = CYCLES["step_down_work"]
TRACE_DOWN_SCROLL_WORK = CYCLES["trace_down_scroll_work"]
TRACE_STOP_WORK = CYCLES["trace_stop_work"]
TRACE_STOP_SCROLL_WORK = CYCLES["trace_stop_scroll_work"]
INPUT_NEXT_WORK = CYCLES["input_next_work"]
INPUT_ENTER_WORK = CYCLES["input_enter_work"]
INPUT_RECALL_WORK = CYCLES["input_recall_work"]
# The firmware's key-wait loop takes KEY_LOOP_CYCLES a round and counts its rounds since
# power-on in BCD (register X, 0-9999); RANDOM reads that count (firmware engine).
KEY_LOOP_CYCLES = CYCLES["key_loop"]
KEY_LOOP_WRAP = 10_000
_SCAN_IA_FIRST, _SCAN_IA_STEP = CYCLES["scan_ia_first"], CYCLES["scan_ia_step"]
_SCAN_K_FIRST, _SCAN_K_STEP = CYCLES["scan_k_first"], CYCLES["scan_k_step"]


def scan_phase(name):
    """Cycles after the key-wait loop's strobe at which it reads the matrix line of
    key `name` (firmware engine): the IA lines first, then K lines 1-7. A key pressed
    later in the round is read in the next one, after the round's count."""
    key = KEY_BY_NAME.get(name)
    if key is None or not key.line:
        return KEY_LOOP_CYCLES
    if key.line == "IA":
        return _SCAN_IA_FIRST + int(key.row * _SCAN_IA_STEP)
    return _SCAN_K_FIRST + _SCAN_K_STEP * (key.row - 1)


class QueuedKey(NamedTuple):
    due: int                        # the cycle it acts
    key: str
    repeat: bool                    # a held LEFT/RIGHT's repeat


@dataclass
class KeyState:
    # cycles spent waiting for keys since power-on, less one round: the firmware's
    # count is 0 at its first round
    waits: int = -KEY_LOOP_CYCLES
    prev_keys: frozenset[str] = transient(frozenset)    # held at the last look
    queue: list[QueuedKey] = field(default_factory=list)    # keys read by the key wait
    busy: int | None = None         # a key acted: the cycle its work ends (then it must be up)
    settle: int | None = None       # the cycle the key wait comes back (key up, work done)


class Keys:
    """The key-wait loop and the keys' work (`state`: KeyState)."""

    def __init__(self, host, pins, core, *, interp, screen, editor, terminal, input_line,
                 typed, runtime, jobs):
        self.host = host
        self.pins = pins
        self.core = core
        self.interp = interp
        self.screen = screen
        self.editor = editor
        self.terminal = terminal
        self.input_line = input_line
        self.typed = typed
        self.runtime = runtime
        self.jobs = jobs
        self.state = KeyState()
        self._handlers = {
            State.IDLE: self._typing_key, State.INPUT: self._typing_key,
            # (a key typed during a transfer edits the line as at the prompt)
            State.SERIAL: self._typing_key, State.TAPE: self._typing_key,
            State.QUESTION: self._question_key, State.ENTER_WAIT: self._wait_key,
            State.RUNNING: self._ignored, State.DELAY: self._ignored}

    def wait_count(self):
        """The key-wait loop's round count, as RANDOM reads it."""
        return self.state.waits // KEY_LOOP_CYCLES % KEY_LOOP_WRAP

    # ------------------------------------------------------------ reading keys

    def poll(self):
        """The keys gone down since the last look: BRK acts at once, and so does any
        key while a program runs (most are ignored then); others are read by the
        key-wait loop, which takes KEY_LATENCY to act on them. A key pressed while the
        loop is busy with the previous one is never read: the loop waits until it is
        up (firmware engine)."""
        st = self.state
        pressed = frozenset(self.host.keyboard.pressed)
        new = sorted(pressed - st.prev_keys)
        released = st.prev_keys - pressed
        st.prev_keys = pressed
        if released:
            st.queue = [entry for entry in st.queue
                        if not (entry.repeat and entry.key in released)]
        for key in new:
            if key == "BRK":
                self._brk()
            elif self.core.state not in KEY_WAIT_STATES:
                self.key(key)
            elif not st.queue and st.busy is None:
                self.host.keyboard.read_all()   # the key wait has seen it (for key drivers)
                due = self.core.clock + KEY_LATENCY
                if st.waits % KEY_LOOP_CYCLES >= scan_phase(key):
                    st.waits += KEY_LOOP_CYCLES
                    due += KEY_LOOP_CYCLES
                st.queue.append(QueuedKey(due, key, False))

    def due(self, now):
        """True if a key read by the key wait acts at cycle `now`."""
        queue = self.state.queue
        return bool(queue) and now >= queue[0].due

    def act(self, now):
        """The next queued key acts at cycle `now`; the key wait comes back after its
        work. LEFT and RIGHT repeat while held, as often as the line can be redrawn."""
        st = self.state
        due, key, repeat = st.queue.pop(0)
        work = self._key_work(key)
        starts_line, scrolls = self.editor.state.input_row is None, self.screen.scrolls
        self.key(key)
        if starts_line and self.editor.state.input_row is not None:
            # the first key of a typed line that scrolls the display to get a row
            work += (self.screen.scrolls - scrolls) * TYPING_SCROLL_WORK
        if work and self.core.state is State.RUNNING:
            # the program goes on only when the firmware is done with the key
            self.runtime.wait(work)
            work = 0
        st.busy = now + work
        st.settle = None
        if key in REPEAT_KEYS:      # dropped when it is released (poll)
            step = KEY_REPEAT_CYCLES + KEY_REPEAT_PER_CHAR * len(self.editor.state.line)
            if not repeat:
                step += KEY_REPEAT_DELAY
            st.queue.append(QueuedKey(due + step, key, True))
            st.queue.sort()

    def _brk(self):
        """BRK, read at once: after a stop the key-wait loop comes back BREAK_WORK
        later (more when the message scrolled), and only once the key is up."""
        st = self.state
        before, scrolls = self.core.state, self.screen.scrolls
        if before is State.RUNNING or (before is State.DELAY and not self.runtime.state.entering):
            self.terminal.state.recalled = None     # a stopped run brings no typed line back
        self.key("BRK")
        after = self.core.state
        if after in KEY_WAIT_STATES:
            work = 0
            if before is State.TAPE:
                work = BREAK_TAPE_WORK
            elif after is not before:
                work = BREAK_WORK if self.screen.scrolls == scrolls else BREAK_SCROLL_WORK
            st.busy = self.core.clock + work
            st.settle = None

    def wait(self, budget, now):
        """Up to `budget` cycles in a key-wait state from cycle `now`: the key-wait
        loop (strobes, RANDOM's round count) unless a key is still being handled.
        Returns the cycles used."""
        st = self.state
        if st.queue:
            return max(1, min(budget, st.queue[0].due - now))
        term = self.terminal.state
        if term.draw_work:      # a listing or a prompt still being drawn
            st.busy = max(now, st.busy or now) + term.draw_work
            term.draw_work = 0
        if st.busy is not None:
            if self.host.keyboard.pressed:
                st.settle = None
                return budget
            if st.settle is None:
                st.settle = max(now, st.busy) + KEY_RELEASE_CYCLES
            left = st.settle - now
            if left > 0:
                return min(budget, left)
            st.busy = None
            st.settle = None
            rounds = 1                  # the loop's first round strobes at once
            # ... and counts at once: the next round is a whole round later
            st.waits = (st.waits // KEY_LOOP_CYCLES + 1) * KEY_LOOP_CYCLES
        else:
            rounds = 0
        # a strobe each round of the loop (KEY_LOOP_CYCLES), as the firmware's
        rounds += (st.waits + budget) // KEY_LOOP_CYCLES - st.waits // KEY_LOOP_CYCLES
        for _ in range(min(rounds, 3)):
            self.pins.strobe()
        st.waits += budget
        return budget

    def _key_work(self, key):
        """Cycles the firmware takes for `key` beyond a typed character's, in the
        state it finds (measured on the firmware engine, press to the next key wait)."""
        state = self.core.state
        if state is State.IDLE:
            work = self._idle_work(key)
        elif state is State.ENTER_WAIT:
            work = self._wait_work(key)
        elif state is State.INPUT and self.input_line.state.retry:
            # a refused answer: keys wait for CLS, or LEFT/RIGHT that bring it back
            work = None if key == "CLS" else INPUT_RECALL_WORK if key in REPEAT_KEYS else 0
        elif state is State.INPUT and key == "ENTER":
            work = INPUT_NEXT_WORK if len(self.input_line.state.items) > 1 else INPUT_ENTER_WORK
        else:
            work = None
        return KEY_WORK.get(key, 0) if work is None else work

    def _idle_work(self, key):
        term = self.terminal.state
        line = self.editor.state.line
        if key in ("UP", "DOWN"):
            if term.mode is Mode.PRO:
                if term.error_lock and not (key == "UP" and term.error_list_from is not None):
                    return 0                    # an error screen ignores it
                return PRO_LIST_WORK
            if term.error_lock:
                return SHOW_LINE_WORK if key == "UP" else 0
            if key == "UP" and not line and \
                    (self.interp.stopped_at is not None or term.error_at is not None):
                return SHOW_LINE_WORK           # after a stop, as after an error
            return RUN_UP_DOWN_WORK
        if key == "ENTER" and term.wait_stop is not None and not bytes(line).strip(b" "):
            # ENTER ending a PRINT wait after lines typed there: the program goes on as
            # late as after ENTER at the wait itself (an INKEY$ then misses the ENTER
            # held 60 ms, sees it held 80: firmware engine, case INKEY_after_wait_over)
            return PRINT_WAIT_ENTER_WORK
        if key in EDIT_KEY_WORK and term.list_addr is None and self.editor.live_units() is None:
            # nothing under the cursor: as quick as a typed key; else the firmware
            # redraws the characters after the cursor (firmware engine)
            after = len(line) - self.editor.cursor() - 1
            if after < 0:
                return 0
            work, per_char = EDIT_KEY_WORK[key]
            return work + per_char * after
        if key in REPEAT_KEYS and term.mode is Mode.PRO and term.list_addr is not None \
                and not line:
            # editing a listed line begins: the firmware takes time for each character
            # the display shows
            shown = sum(self.screen.char_at(row, col) not in (0, 0x20)
                        for row in range(ROWS) for col in range(COLS))
            return EDIT_LISTED_WORK + EDIT_LISTED_CELL * shown
        if key in REPEAT_KEYS and term.error_lock and term.mode is Mode.RUN \
                and term.error_cur is not None and term.recalled is not None:
            return ERROR_RECALL_WORK + ERROR_RECALL_CHAR * len(term.recalled.text)
        if self.terminal.key_code(key) in CONTINUING and not line \
                and term.last_result is not None and self.editor.state.input_row is None:
            return CONTINUE_WORK + CONTINUE_CHAR * len(term.last_result)
        return None

    def _wait_work(self, key):
        if self.runtime.state.wait_key == "DOWN":
            if key != "ENTER":
                return None
            return TRACE_STOP_SCROLL_WORK if self.screen.row == ROWS - 1 else TRACE_STOP_WORK
        return {"UP": SHOW_LINE_WORK, "ENTER": PRINT_WAIT_ENTER_WORK,
                "DOWN": STEP_DOWN_WORK, "DEL": 0, "INS": 0}.get(key)    # (nothing to edit)

    # ------------------------------------------------------------ what a key does

    def key(self, key):
        held = self.editor.cursor_off()
        state = self.core.state
        if key in ("SHIFT", "SML", "DEF") and state in (State.IDLE, State.INPUT) \
                and not self.terminal.state.error_lock:
            self.editor.state.block_at = held   # these leave the line as it is
        if key == "BRK":
            self._break(state)
        elif key == "OFF":
            # read in the key-wait loop (not while a program runs): the machine goes off
            # and BRK/ON later goes on where it was (PC1360.power_on)
            if state not in (State.RUNNING, State.DELAY, State.SERIAL, State.TAPE):
                self.host.power_off()
        else:
            self._handlers[state](key)

    def _break(self, state):
        if state is State.TAPE:
            self.jobs.tape_break()
        elif state in (State.RUNNING, State.DELAY, State.ENTER_WAIT, State.INPUT, State.SERIAL) \
                and not self.runtime.state.entering:
            self.runtime.stop_with(b"BREAK", keep_position=True)

    def _ignored(self, key):
        """While a program runs only BRK acts."""

    def _question_key(self, key):
        """The CLEAR question: Y clears the card."""
        if key == "Y":
            self.interp.program.init_card(0x10000 - self.host.card_kb * 1024)
            self.core.state = State.IDLE
            self.terminal.show_mode()
            self.terminal.state.cleared = True

    def _locked(self, key):
        """After an error only CLS (or UP in RUN mode while a program's error line is
        remembered: error_at) goes on, to a fresh `>`; after a typed line's error
        LEFT/RIGHT bring it back with the cursor at the error. True while locked."""
        term = self.terminal.state
        if not term.error_lock:
            return False
        if term.mode is Mode.RUN and key in REPEAT_KEYS and \
                term.error_cur is not None and term.recalled is not None:
            term.error_lock = False
            self.terminal.recall(key, term.error_cur)
        elif key == "CLS" or (key == "UP" and term.mode is Mode.RUN and term.error_at is not None):
            term.error_lock = False
            term.recalled = None
            self.terminal.clear_prompt()
        elif key == "UP" and term.mode is Mode.PRO and term.error_list_from is not None:
            # after LIST n past the last line, UP lists the last line (firmware engine,
            # case LIST_past_end_then_up); DOWN does nothing
            term.error_lock = False
            self.terminal.list_last()
        return True

    def _shift_key(self, key):
        """SHIFT and SML toggle; True if `key` was one."""
        term = self.terminal.state
        if key == "SHIFT":
            self.terminal.set_shift(not term.shift)
        elif key == "SML":
            self.terminal.set_sml(not term.sml)
        else:
            return False
        return True

    def _typing_key(self, key):
        """At the prompt, on a typed line, at INPUT."""
        if self._locked(key) or self._shift_key(key):
            return
        terminal = self.terminal
        term = terminal.state
        if key == "DEF":
            terminal.set_def(not term.def_key)      # a second DEF takes it back
            return
        code = terminal.typed_code(key)
        if term.def_key:
            terminal.set_def(False)
            # DEF + letter runs a labelled line in RUN mode; PRO mode types the letter
            if code is not None and 0x41 <= code <= 0x5A and term.mode is Mode.RUN \
                    and self.typed.def_start(code):
                return
        if self.core.state is State.INPUT:
            self.input_line.key(key, code)
        elif key == "ENTER" and term.wait_stop is not None \
                and not bytes(self.editor.state.line).strip(b" "):
            self.runtime.wait_over()
        else:
            terminal.idle_key(key, code)

    def _wait_key(self, key):
        """At a PRINT wait (ENTER goes on) or a TRON stop (DOWN goes on)."""
        if self._locked(key) or self._shift_key(key):
            return
        terminal = self.terminal
        shifted = terminal.state.shift
        print_wait = self.runtime.state.wait_key == "ENTER"
        if shifted and not (key in SHIFTED and print_wait):
            terminal.set_shift(False)   # a key other than a typed character takes SHIFT back
        defined = terminal.state.def_key
        terminal.def_off()                  # DEF goes off with the next key
        if key == "DEF":
            if not defined:
                terminal.set_def(True)
        elif print_wait:
            self._print_wait_key(key, shifted, defined)
        elif key == "ENTER":
            # ENTER at a trace stop: the program stops there (CONT goes on), `>`
            interp = self.interp
            interp.stopped_at = (interp.pos, interp.line, interp.line_addr) \
                if interp.running else None
            interp.running = interp.stepping = False
            self.core.state = State.IDLE
            terminal.prompt()
        elif key == "DOWN":
            self._wait_done(key)
        elif key == "MODE":
            self._mode_at_wait()

    def _print_wait_key(self, key, shifted, defined):
        terminal = self.terminal
        if defined and key in CHARS and 0x41 <= CHARS[key] <= 0x5A and \
                terminal.state.mode is Mode.RUN:
            # DEF + letter: the labelled line runs; no such label is ERROR 4
            if not self.typed.def_start(CHARS[key]):
                self.runtime.stop_here()
                self.runtime.show_error(LINE, 0)
        elif key == "ENTER":
            if not shifted:                 # SHIFT+ENTER: the program still waits
                self._wait_done(key)
        elif key in ("CLS", "UP"):
            # a `>` on a clear display, the program still waits; what it prints next
            # goes below the `>`
            terminal.clear_prompt()
            self.screen.done = True
        elif key == "DOWN":
            # on line by line, each line's number shown
            self.interp.stepping = not self.interp.trace
            self.core.state = State.RUNNING
        elif key in CHARS or terminal.state.shift and key in SHIFTED:
            # a typed key stops the program there (CONT goes on) and starts a line
            # (over the `>` that CLS left, else below the output); the wait goes on
            # under the lines typed: ENTER on a blank line ends it (Runtime.wait_over)
            self.runtime.stop_here()
            terminal.state.wait_stop = self.interp.stopped_at
            terminal.state.last_result = self.runtime.state.wait_result
            terminal.state.result_typed = False
            # a line PRINT's `;` left open stays open under lines typed and emptied
            # again: the program goes on in it (firmware engine, case
            # PRINT_wait_open_line_stays); a line entered there closes it (TypedLines)
            self.screen.keep_open_line()
            self.editor.state.line.clear()
            terminal.idle_key(key, terminal.typed_code(key))
        elif key == "MODE":
            self._mode_at_wait()

    def _wait_done(self, key):
        """The key the wait is for: the program goes on."""
        self.core.state = State.RUNNING
        self.editor.state.input_row = None      # a key typed at the next wait starts below
        if key == "DOWN" and self.screen.row == ROWS - 1:
            self.interp.trace_extra = TRACE_DOWN_SCROLL_WORK

    def _mode_at_wait(self):
        """MODE at a wait: the program stops there (CONT goes on), the mode changes."""
        interp = self.interp
        interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
        interp.running = False
        self.core.state = State.IDLE
        self.terminal.switch_mode()

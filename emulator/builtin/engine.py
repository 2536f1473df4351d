"""BuiltinEngine: the ROM-less engine behind the machine facade (docs/interfaces.md).

It has reset() and run(cycles) and works only through the machine's `mem` (program,
variables, display RAM, status symbols) and `keyboard.pressed` (read once per run()
call; as on the firmware engine a key acts KEY_LATENCY after it goes down, and the
key wait, with its strobes, comes back only once it is up again). The display
behaves as a terminal, as the firmware's does (checked by running the firmware
engine on the same keys):

- boot on a blank card: `MEM$ = "C"` / `RAM CARD S1 CLEAR O.K. ?`; Y gives
  `RUN MODE` and the `>` prompt, which the first typed key replaces;
- the line being typed shows a `_` cursor; ENTER leaves it on screen and output goes
  on below, scrolling at the bottom: a number result right-aligned (`2.`), `ERROR n`,
  `BREAK IN 10`; a string result clears the display and shows at the top;
- an operator typed first after a number result continues from it (`6.+1`);
- a statement run from RUN mode, and the end of a program, show a new `>` prompt;
- PRO mode shows each stored line as LIST does (`10:A=1`), long lines continuing
  on the next rows indented by the width of `10:`;
- the line editor (LEFT/RIGHT/INS/DEL, recalling, editing listed lines, the line in
  error) is editor.py; ENTER on a typed line is enter.py;
- RUN mode's UP/DOWN type the last number result (`0.` after boot); after a stop
  (BREAK, or a key at a PRINT wait) DOWN goes on line by line showing each line's
  number as TRON does, UP clears to `>`; a character typed at a PRINT wait stops the
  program silently and starts a typed line, and the wait goes on under the lines
  typed: ENTER on a blank one lets the program go on; CLS or UP at a PRINT wait
  clear to `>` and the program still waits;
- power_state()/resume() keep the engine's own state in the card file (persist.py);
  an 8 or 16 KB card's copies in 0x8000-0xFFFF agree (sync_mirrors).
"""

import copy

from emulator.builtin import font, output, persist
from emulator.builtin.basic_errors import LINE, OTHER, BasicError
from emulator.builtin.beep import TONE_CYCLES, SoundMixin
from emulator.builtin.editor import EditorMixin
from emulator.builtin.enter import KEY_LATENCY, PRO_MODE, RUN_MODE, EnterMixin
from emulator.builtin.input import InputMixin
from emulator.builtin.interp import Interpreter
from emulator.builtin.listview import ListMixin, wrap_listing
from emulator.builtin.screen import COLS, NUL, ROWS, SPACE, Screen
from emulator.builtin.serial_io import (  # OPEN/CLOSE/LOAD/SAVE/LPRINT (SIO)
    SERIAL,
    SerialMixin,
    close_port,
)
from emulator.builtin.states import DELAY, ENTER_WAIT, IDLE, INPUT, QUESTION, RUNNING
from emulator.builtin.tape_io import (  # CSAVE/CLOAD/MERGE/PRINT#/INPUT# (cassette)
    TAPE,
    TapeMixin,
)
from emulator.builtin.typed import tokenize_body  # noqa: F401  (tests import it from here)
from emulator.builtin.typed_codes import CHARS, SHIFTED, inkey_code
from emulator.machine.key_matrix import KEY_BY_NAME

KEYWAIT_STROBE = 0x3F       # what the firmware writes to 0x3E00 while it waits for keys
# Measured on the firmware engine: a key pressed in the key-wait loop acts KEY_LATENCY
# later (ENTER's work starts at 8,500), even when released sooner; the loop runs again
# only when the work is done and the key is up, 6,000-9,500 cycles after the later of
# the two (8,000 here). No strobe in between. Of the keys only LEFT and RIGHT repeat
# while held, as often as the line can be redrawn: every 15,500 cycles plus 530 for
# each character of the line (21,000 for 10 characters, 26,000 for 20), the first
# time 137,000 cycles later than that after the key acted.
KEY_RELEASE_CYCLES = 8_000
REPEAT_KEYS = ("LEFT", "RIGHT")
KEY_REPEAT_DELAY = 137_000
KEY_REPEAT_CYCLES = 15_500
KEY_REPEAT_PER_CHAR = 530
# Keys whose work takes the firmware engine longer (cycles more than a typed digit,
# from press to the next key wait): redrawing the whole display, listing a line.
KEY_WORK = {"CLS": 31_500, "MODE": 31_500, "DEL": 33_500, "INS": 37_500}
PRO_LIST_WORK = 48_500          # UP/DOWN in PRO mode
RUN_UP_DOWN_WORK = 15_500       # UP/DOWN in RUN mode (the last answer, a stop's next line)
CONTINUE_WORK = 13_400          # an operator typed after a result: the answer comes back,
CONTINUE_CHAR = 790             # ... each of its characters (`1` 36,100 cycles, `12345` 39,200)
CONTINUING_KEYS = frozenset("+-*/")     # (editor.CONTINUING, its unshifted keys)
ERROR_RECALL_WORK = 21_800      # LEFT/RIGHT bringing back a typed line after its error,
ERROR_RECALL_CHAR = 2_900       # ... each of its characters (CONT 33,400, GOTO 500 45,000)
SHOW_LINE_WORK = 86_000         # UP showing a program line: at a PRINT wait, after an error
PRINT_WAIT_ENTER_WORK = 7_000   # ENTER at a PRINT wait
BREAK_WORK = 21_500             # BRK stopping a program (press to the end of its work)
BREAK_SCROLL_WORK = 52_000      # ... when `BREAK IN n` scrolls the display
BREAK_TAPE_WORK = 52_000        # BRK ending a tape job (CLOAD, MERGE, INPUT #)
STEP_DOWN_WORK = 16_500         # DOWN at a stop: the next line runs
# at a TRON stop with the last `line:` on the bottom line: DOWN when the next `line:`
# comes before any other output (interp.trace_cost), and ENTER before its `>` (14,000
# when it need not scroll)
TRACE_DOWN_SCROLL_WORK = 23_000
TRACE_STOP_WORK = 14_000
TRACE_STOP_SCROLL_WORK = 39_500
INPUT_NEXT_WORK = 51_000        # ENTER at INPUT before the next variable's question
INPUT_ENTER_WORK = 40_500       # ENTER at INPUT before the program goes on
KEY_WAIT_STATES = (IDLE, QUESTION, ENTER_WAIT, INPUT)
# The firmware's key-wait loop takes 1547 cycles a round and counts its rounds since
# power-on in BCD (register X, 0-9999); RANDOM reads that count (firmware engine).
KEY_LOOP_CYCLES = 1547
KEY_LOOP_WRAP = 10_000


def scan_phase(name):
    """Cycles after the key-wait loop's strobe at which it reads the matrix line of
    key `name` (firmware engine): the IA lines first, from 270 on, 78.5 cycles apart,
    then K lines 1-7 from 812 on, 81 apart. A key pressed later in the round is read
    in the next one, after the round's count."""
    key = KEY_BY_NAME.get(name)
    if key is None or not key.line:
        return KEY_LOOP_CYCLES
    if key.line == "IA":
        return 270 + key.row * 157 // 2
    return 812 + 81 * (key.row - 1)
STROBE_ADDR = 0x3E00

# state() keeps these attributes of the engine, the interpreter and the screen.
ENGINE_STATE = ("state", "mode", "line", "input_row", "last_result", "last_shown", "shift",
                "sml", "def_key", "prev_keys", "delay_left", "entering", "enter_value", "typed_end",
                "tones", "wait_key",
                "error_lock", "input_items", "input_prompt", "input_keep", "input_col", "input_top", "input_len", "key_waits", "clock",
                "list_addr", "cur", "block_at", "blink_start", "recalled", "edit_addr", "error_at",
                "error_cur", "end_prompt", "cleared", "key_queue", "key_busy", "key_settle", "wait_stop")
SCREEN_STATE = ("row", "col", "done")


class BuiltinEngine(EditorMixin, EnterMixin, InputMixin, ListMixin, SoundMixin, SerialMixin,
                    TapeMixin):
    name = "builtin"

    def __init__(self, machine):
        self.machine = machine
        self.mem = machine.mem
        self.screen = Screen(self.mem)
        self.interp = Interpreter(self.mem, self.screen, self)
        self.clock = 0
        self.internal_errors = []
        lcd = getattr(machine, "lcd", None)
        if lcd is not None:
            lcd.set_font({code: font.GLYPHS[code] for code in range(0x20, 0x100)})
        self.reset()

    # ------------------------------------------------------------ engine interface

    def reset(self):
        """Power on / RESET: a valid card goes to RUN mode, a blank one gets the
        CLEAR question. Memory is kept."""
        self.state = IDLE
        self.mode = RUN_MODE
        # cycles spent waiting for keys since power-on, less one round: the firmware's
        # count is 0 at its first round
        self.key_waits = -KEY_LOOP_CYCLES
        self.line = bytearray()        # the line being typed
        self.cur = 0                   # its cursor (editor.py)
        self.block_at = None           # (row, col) of the blinking block cursor
        self.blink_start = 0
        self.recalled = None           # (line, row): what LEFT/RIGHT bring back after ENTER
        self.edit_addr = None          # PRO mode: the listed line being edited
        self.error_at = None           # (line number, body offset) of the last program error
        self.error_cur = None          # an immediate line's error: where LEFT/RIGHT put the cursor
        self.end_prompt = False        # the `>` is the one after a program's end
        self.cleared = False           # the card was just cleared (the CLEAR question)
        self.input_row = None          # its first display row; None: not started
        self.last_result = None        # text of the last number result
        self.last_shown = b""          # the last result on the display (for AREAD)
        self.shift = self.sml = self.def_key = False
        self.prev_keys = frozenset(self.machine.keyboard.pressed)
        self.key_queue = []            # [cycle it acts, key, repeat] of keys read by the key wait
        self.key_busy = None           # a key acted: the cycle its work ends (then it must be up)
        self.key_settle = None         # the cycle the key wait comes back (key up, work done)
        self.wait_stop = None          # the PRINT wait that lines are typed under (_wait_over)
        self.delay_left = 0
        self.entering = False          # the DELAY is ENTER's: the typed line runs after it
        self.enter_value = None        # ... or a typed calculation's value shows after it
        self.typed_end = 0             # cycles a typed statement takes back to the prompt
        self.tones = []                # BEEP: (delay_left at a tone's start, its length)
        self.wait_key = "ENTER"        # the key that ends ENTER_WAIT (DOWN under TRON)
        self.error_lock = False        # an error is shown: only CLS goes on
        self.input_items = []
        self.input_prompt = b""
        self.input_keep = True
        self.input_col = 0             # INPUT after CURSOR x,y asks at column x
        self.input_top = 0             # the row the question starts on
        self.input_len = 0             # at CURSOR: the length of the line shown last
        self.list_addr = None
        self.interp.clear_run_state()
        self._display_on()
        self.screen.clear()
        self.mem[0x303C] = 0
        if self.interp.program.is_valid():
            self._show_mode()
        else:
            self.state = QUESTION
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
            self._show_error(OTHER, self.interp.line)
            self.clock += cycles
            return cycles

    def _run(self, cycles):
        self._poll_keys()
        used = 0
        while used < cycles:
            queue = self.key_queue
            if queue and self.clock + used >= queue[0][0]:
                due, key, repeat = queue.pop(0)
                work = self._key_work(key)
                self._key(key)
                if work and self.state == RUNNING:
                    # the program goes on only when the firmware is done with the key
                    self.delay_left = work
                    self.state = DELAY
                    work = 0
                self.key_busy = self.clock + used + work
                self.key_settle = None
                if key in REPEAT_KEYS:      # dropped when it is released (_poll_keys)
                    step = KEY_REPEAT_CYCLES + KEY_REPEAT_PER_CHAR * len(self.line)
                    if not repeat:
                        step += KEY_REPEAT_DELAY
                    queue.append([due + step, key, True])
                    queue.sort()
                continue
            state = self.state
            if state == SERIAL or state == TAPE:     # a transfer job (serial_io)
                used += self._serial_run(cycles - used, used)
            elif state == RUNNING:
                used += self._execute(cycles - used)
            elif state == DELAY:
                step = min(self.delay_left, cycles - used)
                if self.tones:
                    step = min(step, self._sound(used))
                self.delay_left -= step
                used += step
                if self.delay_left <= 0:
                    if self.entering:
                        self.entering = False
                        self.state = IDLE
                        self._enter_now()
                    else:
                        self.state = RUNNING
            else:
                if state in (IDLE, INPUT):
                    self._blink()
                else:
                    self._cursor_off()
                used += self._key_wait(cycles - used, self.clock + used)
        self.clock += used
        return used

    def start(self):
        """RUN the program from its first line (for tools and tests), as RUN ENTER
        would, without typing it."""
        self.interp.vars.clear()
        self.interp.start_program()
        self.input_row = None
        self.state = RUNNING

    def write_floor_changed(self):
        """The firmware engine's CPU needs this; the built-in engine writes mem directly."""

    def snapshot_state(self):
        interp, screen = self.interp, self.screen
        return (copy.deepcopy(tuple(getattr(self, n) for n in ENGINE_STATE)), interp.save_state(),
                copy.deepcopy(tuple(getattr(screen, n) for n in SCREEN_STATE)))

    def restore_state(self, state):
        mine, interp, screen = state
        for target, names, values in ((self, ENGINE_STATE, copy.deepcopy(mine)),
                                      (self.screen, SCREEN_STATE, copy.deepcopy(screen))):
            for name, value in zip(names, values):
                setattr(target, name, value)
        self.interp.load_state(interp)

    def power_state(self):
        """What the card file keeps while the machine is off (persist.py); the
        program, variables and display are in the machine's memory."""
        return persist.dump({
            "engine": {n: getattr(self, n) for n in ENGINE_STATE if n != "prev_keys"},
            "interp": vars(self.interp.save_state()),
            "screen": {n: getattr(self.screen, n) for n in SCREEN_STATE + ("scrolls",)}})

    def resume(self, blob):
        """Go on from a power_state() (ValueError if it is not one)."""
        groups = persist.load(blob)
        for target, name in ((self, "engine"), (self.interp, "interp"), (self.screen, "screen")):
            for attr, value in groups.get(name, {}).items():
                if hasattr(target, attr):
                    setattr(target, attr, value)
        self.prev_keys = frozenset(self.machine.keyboard.pressed)
        self.interp.vars.invalidate()
        self.interp.program.changed()

    # ------------------------------------------------------------ host hooks

    def inkey(self):
        """INKEY$: the one key held now (nothing when none or several are held)."""
        pressed = self.machine.keyboard.pressed
        if len(pressed) != 1:
            return None
        return inkey_code(next(iter(pressed)))

    def now(self):
        return self.clock

    def key_wait_count(self):
        """The key-wait loop's round count, as RANDOM reads it."""
        return self.key_waits // KEY_LOOP_CYCLES % KEY_LOOP_WRAP

    def poke(self, addr, value):
        poke = getattr(self.machine, "poke", None)
        if poke is not None:
            poke(addr, value)
        else:
            self.mem[addr] = value

    # ------------------------------------------------------------ machine glue

    def _display_on(self):
        bus = getattr(self.machine, "bus", None)
        if bus is not None:
            bus.control |= 1
        lcd = getattr(self.machine, "lcd", None)
        if lcd is not None and not getattr(self.machine, "off", False):
            lcd.enabled = True

    def _signal_key_wait(self):
        """Tell the machine's key driver that keys are read now, as the firmware's
        key-wait loop does with its 0x3F strobe."""
        bus = getattr(self.machine, "bus", None)
        if bus is not None:
            bus.write(STROBE_ADDR, KEYWAIT_STROBE)

    def sync_mirrors(self):
        """An 8 or 16 KB card shows 4 or 2 times in 0x8000-0xFFFF (emulator/machine/memmap.py).
        The engine writes the top copy directly; the copies below get its bytes here
        (after each run() and before PEEK), so they agree as on the firmware engine."""
        bus = getattr(self.machine, "bus", None)
        if bus is None:
            return
        size = bus.card_sizes[bus.slot]
        if 0 < size < 0x8000:
            mem = self.mem
            top = mem[0x10000 - size:]
            for base in range(0x8000, 0x10000 - size, size):
                mem[base:base + size] = top

    def _card_start(self):
        return 0x10000 - getattr(self.machine, "card_kb", 32) * 1024

    # ------------------------------------------------------------ the terminal

    def _message(self, text, right=False, fill=SPACE):
        """Show `text` on the next output line and move past it. (The firmware pads
        a result and an immediate line's ERROR with spaces, a message about a
        program line, BREAK IN 10, ERROR 2 IN 40, 30:, with NULs.)"""
        screen = self.screen
        screen.next_line()
        screen.show_line(screen.row, text, right=right, fill=fill)
        screen.end_line()
        self.input_row = None

    def _prompt(self, top=False):
        """A `>` on the next line (on the top line after CLS); the first typed key
        replaces it."""
        screen = self.screen
        if not top:
            screen.next_line()
        screen.show_line(screen.row, b">")
        for row in range(screen.row + 1, ROWS):     # the firmware clears below it
            screen.clear_row(row)
        self.input_row = screen.row
        self.line.clear()
        self.edit_addr = None
        self.end_prompt = False

    def _show_rows(self, row, data, indent=None):
        """Write `data` from display row `row` on, continuing on the next rows,
        scrolling at the bottom; leaves the output position on the line after it.
        Returns the row the text starts on after scrolling. Typed text continues
        character by character; a listing (`indent` given) as wrap_listing says.
        The rows' other cells hold NULs, as the firmware leaves them after typed
        lines, listings and INPUT."""
        screen = self.screen
        if indent is None:
            chunks = [data[i:i + COLS] for i in range(0, len(data), COLS)] or [b""]
        else:
            chunks = wrap_listing(data, indent)
        while row + len(chunks) > ROWS and row > 0:
            screen.scroll()
            row -= 1
        first = row
        for chunk in chunks[-ROWS:]:
            screen.show_line(row, chunk, fill=NUL)
            row += 1
        screen.row = row - 1
        screen.end_line()
        return first

    def _show_mode(self):
        screen = self.screen
        screen.clear()
        screen.set_symbol("RUN", self.mode == RUN_MODE)
        screen.set_symbol("PRO", self.mode == PRO_MODE)
        screen.show_line(0, b"RUN MODE" if self.mode == RUN_MODE else b"PROGRAM MODE")
        screen.end_line()
        self._prompt()
        self.list_addr = None
        self.last_result = None

    # ------------------------------------------------------------ keys

    def _poll_keys(self):
        pressed = frozenset(self.machine.keyboard.pressed)
        new = sorted(pressed - self.prev_keys)
        released = self.prev_keys - pressed
        self.prev_keys = pressed
        if released:
            self.key_queue = [entry for entry in self.key_queue
                              if not (entry[2] and entry[1] in released)]
        for key in new:
            # BRK is read at any time; other keys are read by the key-wait loop, which
            # takes KEY_LATENCY to act on them (while a program runs they act at once:
            # most are ignored then). A key pressed while the loop is busy with the
            # previous one is never read: the loop waits until it is up (firmware engine)
            if key == "BRK":
                self._brk()
            elif self.state not in KEY_WAIT_STATES:
                self._key(key)
            elif not self.key_queue and self.key_busy is None:
                due = self.clock + KEY_LATENCY
                if self.key_waits % KEY_LOOP_CYCLES >= scan_phase(key):
                    self.key_waits += KEY_LOOP_CYCLES
                    due += KEY_LOOP_CYCLES
                self.key_queue.append([due, key, False])

    def _brk(self):
        """BRK, read at once: after a stop the key-wait loop comes back BREAK_WORK
        later (more when the message scrolled), and only once the key is up."""
        before, scrolls = self.state, self.screen.scrolls
        if before == RUNNING or (before == DELAY and not self.entering):
            self.recalled = None        # a stopped run brings no typed line back
        self._key("BRK")
        if self.state in KEY_WAIT_STATES:
            work = 0
            if before == TAPE:
                work = BREAK_TAPE_WORK
            elif self.state != before:
                work = BREAK_WORK if self.screen.scrolls == scrolls else BREAK_SCROLL_WORK
            self.key_busy = self.clock + work
            self.key_settle = None

    def _key_wait(self, budget, now):
        """Up to `budget` cycles in a key-wait state from cycle `now`: the key-wait
        loop (strobes, RANDOM's round count) unless a key is still being handled.
        Returns the cycles used."""
        if self.key_queue:
            return max(1, min(budget, self.key_queue[0][0] - now))
        if self.key_busy is not None:
            if self.machine.keyboard.pressed:
                self.key_settle = None
                return budget
            if self.key_settle is None:
                self.key_settle = max(now, self.key_busy) + KEY_RELEASE_CYCLES
            left = self.key_settle - now
            if left > 0:
                return min(budget, left)
            self.key_busy = None
            self.key_settle = None
            rounds = 1                  # the loop's first round strobes at once
            # ... and counts at once: the next round is a whole round later
            self.key_waits = (self.key_waits // KEY_LOOP_CYCLES + 1) * KEY_LOOP_CYCLES
        else:
            rounds = 0
        # a strobe each round of the loop (KEY_LOOP_CYCLES), as the firmware's
        rounds += (self.key_waits + budget) // KEY_LOOP_CYCLES - self.key_waits // KEY_LOOP_CYCLES
        for _ in range(min(rounds, 3)):
            self._signal_key_wait()
        self.key_waits += budget
        return budget

    def _key_work(self, key):
        """Cycles the firmware takes for `key` beyond a typed character's, in the
        state it finds (measured on the firmware engine, press to the next key wait)."""
        state = self.state
        if key in ("UP", "DOWN") and state == IDLE:
            if self.mode == PRO_MODE:
                return PRO_LIST_WORK
            if self.error_lock:
                return SHOW_LINE_WORK if key == "UP" else 0
            if key == "UP" and not self.line and \
                    (self.interp.stopped_at is not None or self.error_at is not None):
                return SHOW_LINE_WORK           # after a stop, as after an error
            return RUN_UP_DOWN_WORK
        if state == ENTER_WAIT and self.wait_key == "ENTER":
            if key == "UP":
                return SHOW_LINE_WORK
            if key == "ENTER":
                return PRINT_WAIT_ENTER_WORK
            if key == "DOWN":
                return STEP_DOWN_WORK
            if key in ("DEL", "INS"):
                return 0                    # nothing to edit there
        if state == ENTER_WAIT and self.wait_key == "DOWN" and key == "ENTER":
            return TRACE_STOP_SCROLL_WORK if self.screen.row == ROWS - 1 else TRACE_STOP_WORK
        if key == "ENTER" and state == INPUT:
            return INPUT_NEXT_WORK if len(self.input_items) > 1 else INPUT_ENTER_WORK
        if state == IDLE and key in REPEAT_KEYS and self.error_lock and self.mode == RUN_MODE \
                and self.error_cur is not None and self.recalled is not None:
            return ERROR_RECALL_WORK + ERROR_RECALL_CHAR * len(self.recalled[0])
        if state == IDLE and key in CONTINUING_KEYS and not self.shift and not self.line \
                and self.last_result is not None and self.input_row is None:
            return CONTINUE_WORK + CONTINUE_CHAR * len(self.last_result)
        return KEY_WORK.get(key, 0)

    def _key(self, key):
        held = self._cursor_off()
        if key in ("SHIFT", "SML", "DEF") and self.state in (IDLE, INPUT) and not self.error_lock:
            self.block_at = held            # these leave the line as it is
        if key == "BRK":
            if self.state == TAPE:
                self._tape_break()
            elif self.state in (RUNNING, DELAY, ENTER_WAIT, INPUT, SERIAL) and not self.entering:
                self._stop_with(b"BREAK", keep_position=True)
            return
        if key == "OFF":
            # read in the key-wait loop (not while a program runs): the machine goes off
            # and BRK/ON later goes on where it was (PC1360.power_on)
            if self.state not in (RUNNING, DELAY, SERIAL, TAPE):
                power_off = getattr(self.machine, "power_off", None)
                if power_off is not None:
                    power_off()
            return
        if self.state == QUESTION:
            if key == "Y":
                self.interp.program.init_card(self._card_start())
                self.state = IDLE
                self._show_mode()
                self.cleared = True
            return
        if self.state in (RUNNING, DELAY):
            return
        if self.error_lock:
            # after an error only CLS (or UP in RUN mode while a program's error line
            # is remembered: error_at) goes on, to a fresh `>`; after a typed line's
            # error LEFT/RIGHT bring it back with the cursor at the error
            if self.mode == RUN_MODE and key in ("LEFT", "RIGHT") and \
                    self.error_cur is not None and self.recalled is not None:
                self.error_lock = False
                self._recall(key, self.error_cur)
                return
            if key == "CLS" or (key == "UP" and self.mode == RUN_MODE and self.error_at is not None):
                self.error_lock = False
                self.recalled = None
                self.screen.clear()
                self._prompt(top=True)
            return
        if key == "SHIFT":
            self.shift = not self.shift
            self.screen.set_symbol("SHIFT", self.shift)
            return
        if key == "SML":
            self.sml = not self.sml
            self.screen.set_symbol("SML", self.sml)
            return
        if self.state == ENTER_WAIT:
            interp = self.interp
            shifted = self.shift
            if shifted and not (key in SHIFTED and self.wait_key == "ENTER"):
                # a key other than a typed character takes SHIFT back (firmware engine)
                self.shift = False
                self.screen.set_symbol("SHIFT", False)
            defined = self.def_key
            self._def_off()                 # DEF goes off with the next key
            if key == "DEF":
                if not defined:
                    self.def_key = True
                    self.screen.set_symbol("DEF", True)
            elif defined and key in CHARS and 0x41 <= CHARS[key] <= 0x5A and \
                    self.mode == RUN_MODE and self.wait_key == "ENTER":
                # DEF + letter: the labelled line runs; no such label is ERROR 4
                if not self._def_start(CHARS[key]):
                    interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
                    interp.running = interp.stepping = False
                    self.state = IDLE
                    self._show_error(LINE, 0)
            elif shifted and key == "ENTER" and self.wait_key == "ENTER":
                pass                        # SHIFT+ENTER: the program still waits
            elif self.wait_key == "DOWN" and key == "ENTER":
                # ENTER at a trace stop: the program stops there (CONT goes on), `>`
                interp.stopped_at = (interp.pos, interp.line, interp.line_addr) \
                    if interp.running else None
                interp.running = interp.stepping = False
                self.state = IDLE
                self._prompt()
            elif key == self.wait_key:
                self.state = RUNNING
                self.input_row = None       # a key typed at the next wait starts below
                if key == "DOWN" and self.screen.row == ROWS - 1:
                    interp.trace_extra = TRACE_DOWN_SCROLL_WORK
            elif key in ("CLS", "UP") and self.wait_key == "ENTER":
                # CLS or UP at a PRINT wait: a `>` on a clear display, the program
                # still waits; what it prints next goes below the `>`
                self.screen.clear()
                self._prompt(top=True)
                self.screen.done = True
            elif key == "DOWN":
                # DOWN at a PRINT wait: on line by line, each line's number shown
                interp.stepping = not interp.trace
                self.state = RUNNING
            elif self.wait_key == "ENTER" and (key in CHARS or self.shift and key in SHIFTED):
                # a typed key stops the program there (CONT goes on) and starts a line
                # (over the `>` that CLS left, else below the output); the wait goes
                # on under the lines typed: ENTER on a blank line ends it (_wait_over)
                interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
                self.wait_stop = interp.stopped_at
                interp.running = interp.stepping = False
                self.state = IDLE
                self.line.clear()
                self._idle_key(key, self._typed_code(key))
            elif key == "MODE":
                # the program stops where it waited (CONT goes on) and the mode changes
                interp = self.interp
                interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
                interp.running = False
                self.state = IDLE
                self.mode = PRO_MODE if self.mode == RUN_MODE else RUN_MODE
                self._show_mode()
            return
        if key == "DEF":
            self.def_key = not self.def_key         # a second DEF takes it back
            self.screen.set_symbol("DEF", self.def_key)
            return
        code = self._typed_code(key)
        if self.def_key:
            self.def_key = False
            self.screen.set_symbol("DEF", False)
            # DEF + letter runs a labelled line in RUN mode; PRO mode types the letter
            if code is not None and 0x41 <= code <= 0x5A and self.mode == RUN_MODE \
                    and self._def_start(code):
                return
        if self.state == INPUT:
            self._input_key(key, code)
        elif key == "ENTER" and self.wait_stop is not None and not bytes(self.line).strip(b" "):
            self._wait_over()
        else:
            self._idle_key(key, code)

    def _def_off(self):
        if self.def_key:
            self.def_key = False
            self.screen.set_symbol("DEF", False)

    def _wait_over(self):
        """ENTER on a blank line after lines typed at a PRINT wait: the program goes on
        after the wait, printing below the typed line, which keeps its cursor (firmware
        engine); after STOP, BRK or another run it is the empty line's `>`."""
        interp = self.interp
        stop, self.wait_stop = self.wait_stop, None
        if stop != interp.stopped_at:
            self._idle_key("ENTER", None)
            return
        interp.pos, interp.line, interp.line_addr = stop
        interp.stopped_at = None
        interp.running = interp.jumped = True
        if self.input_row is not None:
            self.screen.row = self.input_row + len(self._typing_text()) // COLS
        self.screen.done = True
        self.input_row = None
        self.line.clear()
        self.state = RUNNING

    def _typed_code(self, key):
        code = None
        if self.shift and key in SHIFTED:
            code = SHIFTED[key]
        elif key in CHARS:
            code = CHARS[key]
            if self.sml and 0x41 <= code <= 0x5A:
                code += 0x20
        if self.shift:
            self.shift = False
            self.screen.set_symbol("SHIFT", False)
        return code

    # ------------------------------------------------------------ running

    def _execute(self, budget):
        interp = self.interp
        try:
            used = interp.execute(budget)
        except BasicError as err:
            self._show_error(err.code, interp.line)
            return budget
        if used > budget:
            # a statement that costs more than this call's cycles takes its time from
            # the next calls before the program goes on, or before its request (PRINT's
            # wait for ENTER, INPUT, the prompt after the run's end) is served
            self.delay_left = used - budget
            self.state = DELAY
            return budget
        pending = interp.pending
        if pending is not None or not interp.running:
            # a typed statement got through: LEFT/RIGHT bring nothing back now
            self.recalled = None
        if pending is not None:
            interp.pending = None
            self._serve(pending)
        elif not interp.running:
            if interp.trace_extra:
                # the run's `>` after DOWN at a TRON stop scrolls as slowly as its `line:`
                self.delay_left, interp.trace_extra = interp.trace_extra, 0
                self.state = DELAY
                return max(used, 1)
            end, self.typed_end = self.typed_end, 0
            if end and interp.line_addr is None:
                self.delay_left = end       # a typed statement: the prompt comes later
                self.state = DELAY
                return max(used, 1)
            if interp.line_addr is not None:
                close_port(self.mem)        # a program's end closes the port (firmware)
            self.state = IDLE
            self._prompt()
            self.end_prompt = True
        return max(used, 1)

    def _serve(self, pending):
        kind = pending[0]
        if kind != "trace":
            self.interp.trace_extra = 0     # other output came first
        if kind == "enter":
            self.state = ENTER_WAIT
            self.wait_key = "ENTER"
        elif kind == "trace":
            # TRON: after each line its number, then DOWN goes on (as the firmware)
            self._message(b"%d:" % pending[1], fill=NUL)
            self.state = ENTER_WAIT
            self.wait_key = "DOWN"
        elif kind == "delay":
            self.delay_left = pending[1]
            self.state = DELAY
        elif kind == "beep":
            self.delay_left = pending[4]
            self.state = DELAY
            # (delay_left at its start, length) of each tone; BEEP n alone: a tone at
            # the start of each beep's time (its length is assumed)
            if len(pending) > 5:
                self.tones = [(pending[4] - start, length) for start, length in pending[5]]
            else:
                self.tones = [(pending[4] - start, TONE_CYCLES) for start in
                              range(0, pending[4], output.BEEP_CYCLES)][:pending[1]]
        elif kind == "input":
            self.input_items = list(pending[1])
            self._ask()
        elif kind == "stop":
            self._stop_with(b"BREAK", keep_position=False)
        elif kind == "list":
            self._list(pending[1])
        elif kind == "serial":
            self._serial_start(*pending[1:])
        elif kind == "tape":
            self._tape_start(pending)

    def _step_on(self):
        """DOWN after a stop: the program goes on line by line (the typed line is
        left on the display without its cursor)."""
        interp = self.interp
        if self.line and self.input_row is not None:
            self._show_rows(self.input_row, self._entered())
        self.line.clear()
        self.input_row = None
        self.list_addr = self.last_result = None
        interp.pos, interp.line, interp.line_addr = interp.stopped_at
        interp.stopped_at = None
        interp.running = interp.jumped = True
        interp.stepping = not interp.trace
        if interp.resume_input:
            interp.pending = ("input", interp.resume_input)
            interp.resume_input = None
        self.state = RUNNING

    def _stop_with(self, word, keep_position):
        """BRK or STOP: `BREAK IN line` (`BREAK` for an immediate line); CONT goes on."""
        interp = self.interp
        if keep_position and interp.line_addr is not None:
            interp.stopped_at = (interp.pos, interp.line, interp.line_addr)
        if self.state == INPUT:
            # the question loses its cursor; CONT asks again, with `?`
            self._input_show(self.input_prompt + bytes(self.line) + bytes([NUL]))
            self.screen.end_line()
            interp.resume_input = [(None, True, ref) for _p, _k, ref in self.input_items]
        text = word + (b" IN %d" % interp.line if interp.line_addr is not None else b"")
        self.wait_stop = None
        interp.running = interp.stepping = False
        interp.pending = None
        self.state = IDLE
        self.line.clear()
        self._message(text, fill=NUL)

    def _show_error(self, code, line):
        interp = self.interp
        if line and interp.line_addr is not None:
            # PRO mode's UP/DOWN show this line with the cursor where the error was
            self.error_at = (line, interp.pos - interp.line_addr - 3)
        self.error_cur = None if line else self._error_column()
        self.error_lock = True
        self.interp.running = False
        self.interp.pending = None
        self.state = IDLE
        self.line.clear()
        self.last_result = None
        if line:
            self._message(b"ERROR %d IN %d" % (code, line), fill=NUL)
        else:
            self._message(b"ERROR %d" % code)

"""What the interpreter knows of a run besides the RAM: the state it runs on (RunState,
which the snapshot and the power-off state are made of), its parts, and the RAM
places the run keeps up to date for programs that PEEK them.
"""

from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from emulator.builtin import bcd

# The last answer (8 bytes, stored form), which RUN mode's UP/DOWN type. Found on the
# firmware engine: a typed calculation, a numeric assignment (array elements too) and
# PRINT's or PAUSE's first number after its last `,` write it; FOR, NEXT, IF, INPUT,
# LPRINT and strings do not; READ writes it too (interp.store_value).
ANSWER = 0xFDE8
ANSWER_END = ANSWER + 8

# A variable's storage: (address, size, vars.NUM / STR / FIXED_STR)
VarRef = tuple[int, int, int]


class FORLoop(NamedTuple):
    ref: VarRef
    limit: Decimal
    step: Decimal
    pos: int                    # where the loop's body starts
    line: int
    line_addr: int | None


class Return(NamedTuple):
    """Where RETURN goes on (and CONT after STOP or BRK)."""
    pos: int
    line: int
    line_addr: int | None


class InputItem(NamedTuple):
    prompt: bytes | None
    keep: bool                  # the prompt stays on the line (`;`), or goes (`,`)
    ref: VarRef


# A request to the engine (engine._serve): its kind first ("enter", "delay", "input",
# "trace", "stop", "list", "beep", "serial", "tape"), then what that kind needs. The
# engine takes it before it returns from run(), so a snapshot finds None.
Pending = tuple[object, ...]


@dataclass(slots=True)
class RunState:
    """The interpreter's run state: the interpreter works on one of these (its
    `state`); save_state() and load_state() copy it."""
    pos: int = 0                # the next byte to run
    line: int = 0               # line being run; 0 while an immediate line runs
    line_addr: int | None = None
    for_stack: list[FORLoop] = field(default_factory=list)
    gosub_stack: list[Return] = field(default_factory=list)
    data_pos: int | None = None     # next DATA item, None: from the program's start
    running: bool = False
    pending: Pending | None = None
    jumped: bool = False        # the statement went elsewhere: no end check
    stopped_at: tuple[int, int, int | None] | None = None   # CONT's (pos, line, line_addr)
    angle: str = bcd.DEG
    wait: int | None = None     # PRINT display time in WAIT units; None: until ENTER
    using: tuple[bytes | None, bytes | None] | None = None  # PRINT USING's formats
    cursor: tuple[int, int] | None = None   # (col, row) after CURSOR x,y; None: scrolling
    gcursor: tuple[int, int] = (0, 7)       # GPRINT's first column: x 0, dots 0-7
    line_end: tuple[int, int] = (0, 0)      # where the last LINE ended
    trace: bool = False
    aread: bytes = b""          # what the display held when DEF started the program
    resume_input: list[InputItem] | None = None     # INPUT items BRK cut: CONT asks again
    stepping: bool = False      # DOWN at a wait: trace line by line as TRON does
    skip_trace: bool = False    # RETURN to a line's end goes on without a trace stop
    trace_extra: int = 0        # the next trace line's cycles after DOWN (engine.py)

    def for_new_run(self):
        """The state a new run starts from: the modes and the display's places stay."""
        return RunState(angle=self.angle, wait=self.wait, using=self.using,
                        cursor=self.cursor, gcursor=self.gcursor, line_end=self.line_end,
                        trace=self.trace, aread=self.aread)

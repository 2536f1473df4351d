"""The built-in engine's states: what run() does (State) and the MODE key's mode (Mode),
each one enum; EngineState, what the engine's parts share."""

import enum
from dataclasses import dataclass


class State(enum.Enum):
    """What run() does with its cycles."""
    IDLE = enum.auto()          # the key-wait loop, a line being typed
    QUESTION = enum.auto()      # the blank card's CLEAR question
    RUNNING = enum.auto()       # a program or a typed statement runs
    ENTER_WAIT = enum.auto()    # PRINT waits for ENTER, a TRON stop for DOWN
    DELAY = enum.auto()         # time passes (a statement's cycles, WAIT, BEEP, ENTER's work)
    INPUT = enum.auto()         # INPUT asks
    SERIAL = enum.auto()        # an SIO job (OPEN, CLOSE, LOAD, SAVE, LPRINT)
    TAPE = enum.auto()          # a cassette job (CSAVE, CLOAD, MERGE, CHAIN, PRINT#, INPUT#)


# the states in which the firmware sits in its key-wait loop
KEY_WAIT_STATES = frozenset((State.IDLE, State.QUESTION, State.ENTER_WAIT, State.INPUT))
# transfer jobs (jobs.py runs them)
JOB_STATES = frozenset((State.SERIAL, State.TAPE))


class Mode(enum.Enum):
    """The MODE key's two modes."""
    RUN = "RUN"
    PRO = "PRO"

    def other(self):
        return Mode.PRO if self is Mode.RUN else Mode.RUN


@dataclass
class EngineState:
    """What the engine's parts share: what run() does now, and the engine's clock
    (cycles run since it was made)."""
    state: State = State.IDLE
    clock: int = 0

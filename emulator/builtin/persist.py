"""The built-in engine's kept state: an EngineSnapshot holds a copy of each part's state
dataclass and the interpreter's RunState (PC1360.snapshot keeps it as it is); as bytes
it is the power-off state, which PC1360.power_state keeps in the card file
(emulator/machine/card_file.py): JSON made from the dataclasses' typed fields by
state_codec, and checked against them when read back. Everything else the engine knows
lives in the machine's memory (program, variables, display, symbols), which the machine
keeps itself."""

import json
from dataclasses import dataclass

from emulator.builtin.editor import EditorState
from emulator.builtin.input import InputState
from emulator.builtin.interp import FORLoop, Return, RunState
from emulator.builtin.jobs import JobState
from emulator.builtin.key_dispatch import KeyState
from emulator.builtin.runtime import RuntimeState
from emulator.builtin.screen import ScreenState
from emulator.builtin.state_codec import Codec, StateError
from emulator.builtin.states import EngineState
from emulator.builtin.terminal import TerminalState

MAGIC = "pc1360-builtin-2"
_CODEC = Codec(named=(FORLoop, Return))


@dataclass
class PartStates:
    """The state of each of the engine's parts (engine.py)."""
    core: EngineState
    keys: KeyState
    editor: EditorState
    terminal: TerminalState
    input: InputState
    runtime: RuntimeState
    jobs: JobState
    screen: ScreenState


@dataclass
class EngineSnapshot:
    parts: PartStates
    interp: RunState


def dump(snapshot):
    """The power-off state of `snapshot` as bytes."""
    data = {"magic": MAGIC, "state": _CODEC.encode(EngineSnapshot, snapshot)}
    return json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")


def load(blob):
    """The EngineSnapshot dump() wrote; StateError (a ValueError) for anything else."""
    try:
        data = json.loads(bytes(blob).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise StateError(f"built-in engine state unreadable: {exc}") from None
    if not isinstance(data, dict) or set(data) != {"magic", "state"} or data["magic"] != MAGIC:
        raise StateError("not a built-in engine state")
    return _CODEC.decode(EngineSnapshot, data["state"])

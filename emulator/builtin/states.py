"""The built-in engine's states (what run() does with its cycles)."""

IDLE, QUESTION, RUNNING, ENTER_WAIT, DELAY, INPUT = range(6)

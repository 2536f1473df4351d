"""Cycle-counted timers and the buzzer (docs/hardware.md §7.2, §8).

Both are computed from the machine's cycle counter when asked, never ticked per instruction.
"""

from collections import deque

FAST_PERIOD = 512  # 2 ms
SLOW_PERIOD = 131_072  # 512 ms
FAST_FLAG = 0x02  # TEST bits
SLOW_FLAG = 0x01


class Timers:
    """Two free-running dividers, each setting a latched flag when it expires.

    TEST clears the timer flags it tests and finds set (PockEmul); OUTC bit 1 clears both
    flags and restarts the dividers. The latch keeps the firmware's tick counting at the real
    rate (MAME's free-running square waves would make it run far too fast).
    """

    def __init__(self):
        self.restart(0)

    def restart(self, now):
        self._base = now
        self._fast_seen = 0  # periods elapsed when the flag was last cleared
        self._slow_seen = 0

    def status(self, now):
        elapsed = now - self._base
        flags = 0
        if elapsed // FAST_PERIOD > self._fast_seen:
            flags |= FAST_FLAG
        if elapsed // SLOW_PERIOD > self._slow_seen:
            flags |= SLOW_FLAG
        return flags

    def clear(self, now, flags):
        elapsed = now - self._base
        if flags & FAST_FLAG:
            self._fast_seen = elapsed // FAST_PERIOD
        if flags & SLOW_FLAG:
            self._slow_seen = elapsed // SLOW_PERIOD

    def state(self):
        return (self._base, self._fast_seen, self._slow_seen)

    def set_state(self, state):
        self._base, self._fast_seen, self._slow_seen = state


# Control port bits 6-4 -> Xout: "low", "high", a square wave half-period in cycles, or
# "xin" (Xout follows Xin, which reads 0 with no tape connected).
_XOUT = {0: "low", 1: "high", 2: 64, 3: 32, 4: "low", 5: "high", 6: "xin", 7: "xin"}
MAX_PENDING_CHANGES = 65_536  # a front-end that never drains loses the oldest, not memory


class Buzzer:
    """Xout as selected by control port bits 4-6 (BEEP toggles bit 4 in timed loops; modes
    2/3 are the 2 kHz/4 kHz square waves). A front-end drains the level transitions."""

    def __init__(self):
        self.mode = 0
        self._changes = deque(maxlen=MAX_PENDING_CHANGES)  # (cycle, mode)
        self._drained_mode = 0
        self._drained_to = 0
        self._level = 0

    def set_mode(self, now, mode):
        if mode != self.mode:
            self.mode = mode
            self._changes.append((now, mode))

    @staticmethod
    def level_at(mode, cycle):
        kind = _XOUT[mode]
        if kind == "high":
            return 1
        if isinstance(kind, int):
            return (cycle // kind) & 1
        return 0

    def take_transitions(self, now):
        """[(cycle, level)] of every Xout change since the last call, up to cycle `now`."""
        out = []
        start, mode = self._drained_to, self._drained_mode
        level = self._level
        segments = list(self._changes) + [(now, None)]
        self._changes.clear()
        for end, next_mode in segments:
            half = _XOUT[mode]
            if isinstance(half, int):
                cycle = max(start, 0)
                # align to the wave's edges, which are absolute multiples of the half-period
                if self.level_at(mode, cycle) != level:
                    level ^= 1
                    out.append((cycle, level))
                cycle = (cycle // half + 1) * half
                while cycle < end:
                    level ^= 1
                    out.append((cycle, level))
                    cycle += half
            else:
                new = self.level_at(mode, start)
                if new != level:
                    level = new
                    out.append((start, level))
            if next_mode is not None:
                start, mode = end, next_mode
        self._drained_to, self._drained_mode, self._level = now, mode, level
        return out

    def state(self):
        return (self.mode, self._drained_mode, self._drained_to, self._level, tuple(self._changes))

    def set_state(self, state):
        self.mode, self._drained_mode, self._drained_to, self._level, changes = state
        self._changes = deque(changes, maxlen=MAX_PENDING_CHANGES)

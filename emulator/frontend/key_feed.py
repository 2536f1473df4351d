"""Feeding key presses to the machine in emulated time.

The firmware reads a key held even 20 ms when it waits in its key loop, but a key pressed
and released while it still handles the previous one is lost, and two keys down at once
type nothing (docs/hardware.md §6.3). A PC key tap or a quick mouse click can be shorter
than a frame, and a fast typist rolls keys over; so every press
and release goes through one queue that keeps each key down at least MIN_HOLD cycles and
leaves GAP cycles between a release and the next press, counted on the machine's clock.
"""

from collections import deque

from pc1360.facts import CYCLES_PER_SECOND

MIN_HOLD = CYCLES_PER_SECOND * 60 // 1000
GAP = CYCLES_PER_SECOND * 40 // 1000
# How long a press waits for the firmware's key-wait loop before going ahead anyway (a
# running program that polls INKEY$ never enters that loop).
READY_TIMEOUT = CYCLES_PER_SECOND // 2
# BRK/ON is read with TEST, at any time (and it wakes the machine after OFF).
UNGATED = ("BRK",)


class KeyFeeder:
    """A queue of ("press", key) / ("release", key) steps applied to `machine` in order.

    `ready(now)` (optional) tells whether the firmware is waiting for a key; a press waits
    for it, up to READY_TIMEOUT.
    """

    def __init__(self, machine, ready=None):
        self.machine = machine
        self.ready = ready
        self._steps = deque()
        self._down = {}  # key -> cycle it went down
        self._next_press = 0
        self._waiting_since = None

    @property
    def down(self):
        """Keys the machine currently sees pressed (by this feeder)."""
        return set(self._down)

    @property
    def pending(self):
        """Steps not yet applied."""
        return len(self._steps)

    def tap(self, keys):
        """Press and release each key in turn (a SHIFT latches for the key after it)."""
        for key in keys:
            self._steps.append(("press", key))
            self._steps.append(("release", key))

    def hold(self, key):
        self._steps.append(("press", key))

    def unhold(self, key):
        self._steps.append(("release", key))

    def release_all(self):
        """Forget pending steps and let go of every key now (reset, focus loss)."""
        self._steps.clear()
        for key in list(self._down):
            self.machine.release(key)
        self._down.clear()
        self._waiting_since = None

    def update(self, now):
        """Apply every step that is due at cycle `now`; return the cycle of the next one
        that is waiting for time to pass (None when nothing waits on the clock)."""
        steps = self._steps
        while steps:
            action, key = steps[0]
            if action == "press":
                if now < self._next_press:
                    return self._next_press
                if key in self._down:  # already held (a second mouse button): nothing to do
                    steps.popleft()
                    continue
                if self.ready is not None and key not in UNGATED and not self.ready(now):
                    if self._waiting_since is None:
                        self._waiting_since = now
                    if now - self._waiting_since < READY_TIMEOUT:
                        return None
                self._waiting_since = None
                self.machine.press(key)
                self._down[key] = now
            else:
                pressed_at = self._down.get(key)
                if pressed_at is not None:
                    due = pressed_at + MIN_HOLD
                    if now < due:
                        return due
                    self.machine.release(key)
                    del self._down[key]
                    self._next_press = now + GAP
            steps.popleft()
        return None

"""The debugger's hold on the built-in engine: its interpreter run one statement at a time
while there is something to check.

Armed, the interpreter's `execute` is this module's runner, which checks before each
statement (line breakpoints, the statement trace) and, after it, whether it changed a
watched byte; each statement itself runs through the interpreter's own execute, with a
budget that lets it run just one. Disarmed, the interpreter runs as it always does. The
engine has no CPU: the CPU-level commands say they need the firmware engine, and a
watchpoint sees the writes that change its bytes (the engine writes RAM directly).
"""

from pc1360.facts import CR

COLON = 0x3A


class BuiltinTarget:
    name = "builtin"
    has_cpu = False

    def __init__(self, debugger):
        self.debugger = debugger
        self.machine = machine = debugger.machine
        self.interp = machine.engine.interp
        self.armed = None
        self.held = None             # the position a stop before its statement left us at
        self.previous = None         # (address, Place) of the statement reached last
        self.disarmed_at = None
        self.last_cycles = 0

    def arm(self, armed):
        if self.machine.cycles != self.disarmed_at:
            self.held = None         # the machine ran unwatched since the stop
        self.armed = armed
        plain = type(self.interp).execute.__get__(self.interp)

        def execute(budget):
            return self.run(plain, budget)
        self.interp.execute = execute

    def disarm(self):
        if self.armed is not None:
            del self.interp.execute      # the class's own again
            self.armed = None
            self.disarmed_at = self.machine.cycles

    def watched_bytes(self):
        mem = self.machine.mem
        return [bytes(mem[first:last + 1]) for first, last in self.armed.ranges]

    def run(self, plain, budget):
        """The interpreter's `execute` while armed: statement by statement."""
        interp, debugger, mem = self.interp, self.debugger, self.machine.mem
        used = 0
        state = interp.state
        while used < budget and state.running and state.pending is None:
            pos = state.pos
            # a statement counts unless a stop for it left the machine here
            if mem[pos] != CR and pos != self.held:  # (a step at CR only moves on a line)
                start = pos + (mem[pos] == COLON)
                place = debugger.text.cached_place(start)
                previous, self.previous = self.previous, (start, place)
                reason = debugger.passed(previous, start, place)
                if reason:
                    # runtime.execute counts at least one cycle for a call that ran
                    # nothing: a stop here costs the program that one cycle
                    self.held = pos
                    debugger.halt(reason)
                    return used
            self.held = None
            before = self.watched_bytes() if self.armed.ranges else None
            used += plain(1)
            if before is not None:
                reason = debugger.changed(before, self.watched_bytes(), self.place()[0])
                if reason:
                    debugger.halt(reason)
                    return used
            state = interp.state
        return used

    # -- what the machine shows ------------------------------------------------------------
    def place(self):
        """(Place or None, how it is known) of the statement at the interpreter's position."""
        state = self.interp.state
        if not state.running or state.line_addr is None:
            where = state.stopped_at
            if where is None:
                return None, "no program running"
            return self.debugger.text.place(where[0]), "stopped (CONT goes on here)"
        mem = self.machine.mem
        pos = state.pos
        return self.debugger.text.place(pos + (mem[pos] == COLON)), "running"

    def state(self):
        return self.previous

    def set_state(self, state):
        self.previous = state

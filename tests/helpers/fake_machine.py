"""A small fake of the PC1360 facade for the window's tests: what the window uses of it,
no CPU."""

from types import SimpleNamespace


class FakeBuzzer:
    def __init__(self):
        self.pending = []

    def take_transitions(self, now):
        out, self.pending = self.pending, []
        return out


class FakeStore:
    def __init__(self):
        self.saved = []

    def save(self, data):
        self.saved.append(bytes(data))


class FakeMachine:
    """What the window uses of a PC1360: mem with display RAM, pixels()/symbols() decoded
    as docs/hardware.md §5.1, §5.4 say, press/release logged with the cycle, run_cycles
    counting cycles and, while `waiting`, the key-wait strobes the bus counts
    (bus.keywait_count)."""

    SYMBOL_BITS = {0: "SHIFT", 1: "DEF", 4: "RUN", 5: "PRO", 6: "JAPAN", 7: "SML"}

    def __init__(self):
        self.mem = bytearray(0x10000)
        self.cycles = 0
        self.pressed = set()
        self.log = []
        self.lcd = SimpleNamespace(enabled=True)
        self.buzzer = FakeBuzzer()
        self.card_store = FakeStore()
        self.loaded = []
        self.resets = 0
        self.bus = SimpleNamespace(keywait_count=0)
        self.waiting = True

    def now(self):
        return self.cycles

    def run_cycles(self, n):
        if self.waiting:
            self.bus.keywait_count += n // 1547
        self.cycles += n
        return n

    def press(self, key):
        self.pressed.add(key)
        self.log.append(("press", key, self.cycles))

    def release(self, key):
        self.pressed.discard(key)
        self.log.append(("release", key, self.cycles))

    def pixels(self):
        rows = [[0] * 150 for _ in range(32)]
        if not self.lcd.enabled:
            return rows
        for line, offset in enumerate((0x00, 0x40, 0x1E, 0x5E)):
            for x in range(150):
                byte = self.mem[0x2800 + 0x200 * (x // 30) + offset + x % 30]
                for bit in range(8):
                    rows[8 * line + bit][x] = (byte >> bit) & 1
        return rows

    def symbols(self):
        value = self.mem[0x303C] if self.lcd.enabled else 0
        return {name for bit, name in self.SYMBOL_BITS.items() if value >> bit & 1}

    def card_data(self):
        return bytes(self.mem[0x8000:])

    def save_card(self):
        self.card_store.save(self.card_data())

    def load_program(self, image):
        self.loaded.append(bytes(image))

    def reset(self):
        self.resets += 1

    def keys_seen(self):
        return [(action, key) for action, key, _ in self.log]


def paint_known_state(machine):
    """A fixed picture: a diagonal, a frame, stripes, and RUN + DEF lit."""
    rng = 0x1234
    for base in (0x2800, 0x2A00, 0x2C00, 0x2E00, 0x3000):
        for offset in list(range(0x00, 0x3C)) + list(range(0x40, 0x7C)):
            rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
            machine.mem[base + offset] = (rng >> 16) & 0xFF if offset % 7 else 0xFF
    machine.mem[0x303C] = 0x12

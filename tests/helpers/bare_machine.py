"""BareMachine: a complete fake of what the built-in engine uses of its machine
(emulator/builtin/host.EngineHost), for engine tests that drive engine.run() without the
real LCD, buses or timers: 64 KB of memory, the keys held down, ports that remember what
was written, a recorder with no tape, a display and a buzzer that only keep their
settings. Its clock stands still unless a test moves `cycles`."""


class Keyboard:
    def __init__(self):
        self.pressed = set()
        self.reads = 0              # read_all() calls: the engine looked at the keys

    def read_all(self):
        self.reads += 1


class Bus:
    """Ports with nothing connected: IB reads 0, writes are kept."""

    def __init__(self):
        self.control = 0
        self.fo = 0
        self.card_sizes = [0x8000, 0]
        self.slot = 0
        self.writes = []            # (address, value) of write()

    def write(self, addr, value):
        self.writes.append((addr, value))

    def outc(self, value):
        self.control = value

    def outf(self, value):
        self.fo = value

    def inb(self):
        return 0


class Cassette:
    tape = None

    def play(self):
        return []


class Display:
    def __init__(self):
        self.enabled = False
        self.font = {}

    def set_font(self, font):
        self.font = dict(font)


class Buzzer:
    def __init__(self):
        self.mode = 0

    def set_mode(self, now, mode):
        self.mode = mode


class BareMachine:
    def __init__(self):
        self.mem = bytearray(65536)
        self.keyboard = Keyboard()
        self.bus = Bus()
        self.cassette = Cassette()
        self.lcd = Display()
        self.buzzer = Buzzer()
        self.card_kb = 32
        self.off = False
        self.halted = False
        self.cycles = 0

    def now(self):
        return self.cycles

    def poke(self, addr, value):
        self.mem[addr & 0xFFFF] = value & 0xFF

    def power_off(self):
        self.off = True
        self.lcd.enabled = False


def machine_with(source):
    """A BareMachine and a built-in engine on it, its card holding the program `source`
    (BASIC text), at the RUN-mode prompt."""
    from emulator.builtin.engine import BuiltinEngine
    from pc1360.tokenizer import parse_program

    machine = BareMachine()
    engine = BuiltinEngine(machine)
    engine.interp.program.init_card(0x8000)
    engine.reset()
    for line in parse_program(source).lines:
        engine.interp.program.store(line.number, line.body)
    return machine, engine

"""The least a built-in engine needs from its machine: 64 KB of memory and the set of
keys held down. Engine tests drive it without the LCD, buses or timers."""


class Keyboard:
    def __init__(self):
        self.pressed = set()


class BareMachine:
    def __init__(self):
        self.mem = bytearray(65536)
        self.keyboard = Keyboard()

"""How the PC keyboard drives the machine: typed characters, named keys, front-end commands.

Characters are matched by the text the PC typed (SDL's text input), not by key position, so
any PC layout, dead keys included, works and "!" (Shift+1 on a US keyboard) becomes the
PC-1360's SHIFT, Q. Keys that type nothing are matched by pygame's key name. No pygame import: the tables are
plain data that the help overlay and the tests read too.
"""

# Characters the PC-1360 types with one key.
_PLAIN = {c: c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,;:()-*/+.="}
_PLAIN.update({c.lower(): c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
_PLAIN[" "] = "SPACE"

# Characters typed with SHIFT + key: the shifted legends of docs/hardware.md §6.3, plus π and √
# from the firmware's shifted key table.
_SHIFTED = {"!": "Q", '"': "W", "#": "E", "$": "R", "%": "T", "&": "Y", "?": "U", "@": "P",
            "<": "(", ">": ")", "\\": "*", "^": "-", "\u03c0": "I", "\u221a": "O"}

CHAR_KEYS = dict({c: (k,) for c, k in _PLAIN.items()},
                 **{c: ("SHIFT", k) for c, k in _SHIFTED.items()})

# pygame key name -> machine key sequence, for keys that type no character (or whose
# character would mean something else, like Tab).
NAMED_KEYS = {
    "return": ("ENTER",), "enter": ("ENTER",),
    "up": ("UP",), "down": ("DOWN",), "left": ("LEFT",), "right": ("RIGHT",),
    "delete": ("DEL",),
    # The PC habit "erase the character before the cursor": step onto it, delete it.
    "backspace": ("LEFT", "DEL"),
    "insert": ("INS",),
    "escape": ("BRK",),
    "tab": ("DEF",), "f2": ("DEF",),
    "f3": ("MODE",),
    "f4": ("CLS",),
    "f5": ("SHIFT",),
    "f6": ("SML",),
}

# pygame key name -> front-end command; with Ctrl held, CTRL_COMMANDS.
COMMANDS = {
    "f1": "help",
    "f7": "contrast_down", "f8": "contrast_up",
    "f9": "turbo",
    "f10": "pause", "pause": "pause",
    "f11": "mute",
    "f12": "screenshot",
}
CTRL_COMMANDS = {"r": "reset", "o": "power_off", "q": "quit", "s": "screenshot",
                 "t": "turbo", "p": "pause", "m": "mute",
                 # the debugger's panel (F9, MAME's key for it, is the turbo here)
                 "d": "debug_panel", "n": "debug_step", "g": "debug_go"}

# A Shift key pressed and released with nothing typed in between is the machine's SHIFT.
SHIFT_KEY_NAMES = ("left shift", "right shift")

HELP_LINES = (
    ("A-Z 0-9 , ; : ( ) - * / + . =", "the same keys"),
    ('! " # $ % & ? @ < > \\ ^', "SHIFT + key"),
    ("Enter, arrows", "ENTER, cursor keys"),
    ("Delete / Backspace", "DEL / LEFT then DEL"),
    ("Insert", "INS"),
    ("Esc", "BRK/ON"),
    ("Tab or F2", "DEF"),
    ("F3 / F4", "MODE / CLS"),
    ("Shift alone or F5", "SHIFT"),
    ("F6", "SML"),
    ("F7 / F8", "LCD contrast - / +"),
    ("F9 or Ctrl+T", "turbo on/off"),
    ("F10, Pause or Ctrl+P", "pause"),
    ("F11 or Ctrl+M", "mute"),
    ("F12 or Ctrl+S", "screenshot (PNG)"),
    ("Ctrl+O", "OFF key"),
    ("Ctrl+R", "reset"),
    ("Ctrl+D", "debugger panel (stops the machine)"),
    ("Ctrl+N / Ctrl+G", "panel: step / go on or stop"),
    ("Ctrl+Q", "quit (saves the RAM card)"),
    ("drop a file", "load .bas .img .tap .wav"),
    ("F1", "close this help"),
)


def translate_key(key_name, ctrl=False):
    """What pressing the PC key `key_name` (pygame.key.name) means, apart from any text it
    types: ("command", name), ("keys", machine keys) or None."""
    if ctrl:
        command = CTRL_COMMANDS.get(key_name)
        return ("command", command) if command else None
    if key_name in COMMANDS:
        return ("command", COMMANDS[key_name])
    if key_name in NAMED_KEYS:
        return ("keys", NAMED_KEYS[key_name])
    return None


def translate_text(text):
    """The machine keys that type `text` (characters it has no key for are skipped)."""
    keys = []
    for char in text:
        keys.extend(CHAR_KEYS.get(char, ()))
    return tuple(keys)

"""The front of the European PC-1360 as data: case, LCD window, status symbols and keys.

All coordinates are in layout units; the window draws them at an integer zoom (one unit =
`zoom` screen pixels). Key places follow the physical layout of docs/hardware.md §6.4 with
PockEmul's key-map geometry (letter keys 25 x 16 on a 35-unit pitch, numeric keys 32 x 22).
No pygame here: tests and tools read the table without a display.
"""

from dataclasses import dataclass

from pc1360.facts import LCD_HEIGHT, LCD_WIDTH

CASE_SIZE = (640, 256)
CASE_RADIUS = 14

# The dot matrix: 150 x 32 dots on a 2-unit pitch, the symbol column just left of it.
LCD_DOTS = (LCD_WIDTH, LCD_HEIGHT)
DOT_PITCH = 2
LCD_ORIGIN = (82, 46)
LCD_RECT = (LCD_ORIGIN[0], LCD_ORIGIN[1], LCD_DOTS[0] * DOT_PITCH, LCD_DOTS[1] * DOT_PITCH)
LCD_WINDOW = (36, 38, 354, 80)  # the glass both sit behind
BEZEL = (26, 28, 374, 100)

# name (as PC1360.symbols() reports it) -> (text, x, y) of its legend in the symbol column,
# for the bits of the symbol byte (pc1360.facts.SYMBOL_BITS). There is no RSV symbol: in
# RESERVE MODE (SHIFT, MODE) the firmware clears RUN and PRO and sets no other symbol bit.
SYMBOLS = {
    "RUN": ("RUN", 46, 48),
    "PRO": ("PRO", 46, 57),
    "JAPAN": ("JAP", 46, 66),
    "SML": ("SML", 46, 75),
    "SHIFT": ("SHIFT", 46, 84),
    "DEF": ("DEF", 46, 93),
    "PRINT": ("PRINT", 46, 102),
}
SYMBOL_FONT = 7  # legend height in units

LABELS = (  # (text, x, y, height in units, colour name)
    ("SHARP", 30, 9, 15, "brand"),
    ("PC-1360", 300, 11, 12, "model"),
    ("POCKET COMPUTER", 412, 13, 8, "model"),
)

COLOURS = {
    "case": (46, 47, 52),
    "case_edge": (26, 27, 30),
    "bezel": (22, 23, 26),
    "glass": (168, 178, 152),
    "dot_on": (28, 32, 30),
    "brand": (222, 222, 226),
    "model": (176, 178, 186),
    "def_panel": (34, 35, 39),
    "dark": (58, 60, 66),  # letter keys
    "grey": (92, 95, 102),  # numeric keys
    "function": (74, 62, 58),  # SHIFT/DEF/SML, editing keys
    "enter": (196, 104, 48),
    "brk": (168, 52, 48),
    "off": (40, 40, 44),
    "legend": (238, 238, 240),
    "shift_legend": (232, 162, 72),
    "pressed": (150, 200, 255),
}

# The contrast setting scales how dark a lit dot is against the glass (0 faint .. 9 black).
CONTRAST_LEVELS = 10
DEFAULT_CONTRAST = 7


@dataclass(frozen=True)
class KeyCap:
    name: str  # key name of docs/interfaces.md
    rect: tuple  # (x, y, w, h) in layout units
    legend: str
    shift_legend: str  # printed above the key; "" where SHIFT gives nothing known
    colour: str  # a COLOURS name


_FUNCTION_KEYS = ("SHIFT", "DEF", "SML")


def _row(names, x0, pitch, y, w, h, colour, legends=None, shift=None):
    legends = legends or {}
    shift = shift or {}
    return [KeyCap(name, (x0 + i * pitch, y, w, h), legends.get(name, name), shift.get(name, ""),
                   "function" if name in _FUNCTION_KEYS else colour)
            for i, name in enumerate(names) if name]


# SHIFT legends, as found on the firmware: the characters of docs/hardware.md §6.3, π and √ on I and O, and
# RSV (SHIFT, MODE enters RESERVE MODE). SHIFT + any other letter, digit or sign types the
# unshifted character, so those keys carry none.
_SHIFTED = {"Q": "!", "W": '"', "E": "#", "R": "$", "T": "%", "Y": "&", "U": "?", "I": "\u03c0",
            "O": "\u221a", "P": "@", "(": "<", ")": ">", "*": "\\", "-": "^", "MODE": "RSV"}
_ARROWS = {"UP": "\u25b2", "DOWN": "\u25bc", "LEFT": "\u25c4", "RIGHT": "\u25ba"}

KEYS = tuple(
    # top right: OFF, then the cursor/editing block in two rows
    [KeyCap("OFF", (594, 46, 25, 16), "OFF", "", "off")]
    + _row(("DOWN", "UP", None, "MODE", "CLS"), 416, 35, 46, 25, 16, "function", _ARROWS, _SHIFTED)
    + [KeyCap(n, (x, 75, 25, 16), _ARROWS.get(n, n), "", c) for n, x, c in (
        ("LEFT", 416, "function"), ("RIGHT", 451, "function"), ("DEL", 486, "function"),
        ("INS", 522, "function"), ("BRK", 556, "brk"), ("SHIFT", 594, "function"))]
    # numeric block, four rows
    + _row(("7", "8", "9", "(", ")"), 416, 42, 107, 32, 22, "grey", shift=_SHIFTED)
    + _row(("4", "5", "6", "/", ":"), 416, 42, 144, 32, 22, "grey", shift=_SHIFTED)
    + _row(("1", "2", "3", "*", ";"), 416, 42, 181, 32, 22, "grey", shift=_SHIFTED)
    + _row(("0", ".", "+", "-", ","), 416, 42, 218, 32, 22, "grey", shift=_SHIFTED)
    # alphabetic block, three rows
    + _row(("SHIFT", "Q", "W", "E", "R", "T", "Y", "U", "I", "O", "P"), 22, 35, 157, 25, 16, "dark",
           shift=_SHIFTED)
    + _row(("DEF", "A", "S", "D", "F", "G", "H", "J", "K", "L", "="), 22, 35, 189, 25, 16, "dark")
    + _row(("SML", "Z", "X", "C", "V", "B", "N", "M", "SPACE"), 22, 35, 221, 25, 16, "dark",
           {"SPACE": "SPC"})
    + [KeyCap("ENTER", (337, 221, 59, 16), "ENTER", "", "enter")]
)

# The DEF-able keys (DEF + letter starts a labelled program) sit on a darker panel.
DEF_PANEL = (52, 184, 348, 58)


def key_at(x, y):
    """The KeyCap under layout point (x, y), or None."""
    for key in KEYS:
        kx, ky, kw, kh = key.rect
        if kx <= x < kx + kw and ky <= y < ky + kh:
            return key
    return None


def key_centre(name):
    """Layout point in the middle of the (first) key called `name`."""
    for key in KEYS:
        if key.name == name:
            x, y, w, h = key.rect
            return x + w // 2, y + h // 2
    raise KeyError(name)

"""Key names (docs/interfaces.md) -> the character codes the built-in engine types,
and the codes INKEY$ returns (docs/stored_format.md §6: ENTER, UP and RIGHT measured on
the firmware engine, the others derived from the ROM's tables and PC-1350 programs)."""

from emulator.machine.key_matrix import KEY_BY_NAME

# Keys that type a character: letters, digits and punctuation type their legend.
CHARS = {name: ord(name) for name in KEY_BY_NAME if len(name) == 1}
CHARS["SPACE"] = 0x20
# SHIFT + key (the firmware latches SHIFT; docs/hardware.md §6.3).
SHIFTED = {key.name: ord(key.shift_legend) for key in KEY_BY_NAME.values()
           if key.shift_legend}

# INKEY$ codes of keys that type no character.
INKEY_SPECIAL = {"UP": 4, "DOWN": 5, "RIGHT": 14, "LEFT": 15, "MODE": 8, "CLS": 2,
                 "INS": 11, "DEL": 12, "ENTER": 13, "SHIFT": 16, "DEF": 18, "SML": 22}


def inkey_code(name):
    """The INKEY$ code of a held key, or None (BRK, OFF, KANA)."""
    if name in CHARS:
        return CHARS[name]
    return INKEY_SPECIAL.get(name)

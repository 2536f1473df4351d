"""Typed text <-> the machine: a line from the keyboard (machine codes) tokenized as
PRO mode would store it, and listing text turned back into codes for the display."""

from emulator.builtin.basic_errors import SYNTAX, BasicError
from pc1360 import charset
from pc1360.errors import FormatError
from pc1360.tokenizer import tokenize_line


def to_text(data):
    """Typed machine codes as tokenizer text (a code with no character as \\xHH)."""
    return "".join(charset.TO_TEXT.get(c, f"\\x{c:02X}") for c in data)


def from_text(text):
    """Lister text as machine codes for the display."""
    return bytes(charset.code_of(c) or 0x3F for c in text)


def tokenize_body(data):
    """Tokenize an immediate line (no line number) as PRO mode would store it."""
    if not data.strip(b" "):
        return b""
    try:
        return tokenize_line("1 " + to_text(data)).body
    except FormatError:
        raise BasicError(SYNTAX) from None

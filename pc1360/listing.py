"""Stored program -> text, as the PC-1360 LIST shows it (docs/stored_format.md §1.5).

A line reads "10:PRINT "HI": GOTO 10": the line number and a colon, then the body. A
keyword is followed by a space and, unless it starts the body or a space comes before
it, preceded by one; everything else is shown as stored. A compiled line reference
(0x1F hi lo) is shown as its number. Trailing spaces are dropped.

Escapes: a byte that has no character (or, in an ASCII listing, no ASCII character) is
written \\xHH, which the tokenizer reads back as that very byte. Bytes the tokenizer would
not store as shown (a space or a lower-case letter outside a string, a space at the start
of REM text, the token of a keyword the firmware does not accept when typed) are escaped
too. Every line is checked by tokenizing it again; when that does not give back the
stored bytes (a program the tokenizer could not have produced, such as keyword letters
stored as plain text, or a line number stored as 0x1F hi lo where the firmware keeps
digits) the line is written with its plain letters, digits and line references escaped,
and at last with every byte escaped. So tokenize(list_program(image)) == image for every image
whose lines are sorted and unique and can be typed (program.typed_length); with
long_lines=True for lines that are longer.
"""

from pc1360 import charset
from pc1360.errors import FormatError
from pc1360.facts import LINE_REF, PREFIX, QUOTE
from pc1360.image import split_image
from pc1360.keywords import BY_CODE
from pc1360.token_walk import BYTES, KEYWORD, REM_TEXT, STRING, walk
from pc1360.tokenizer import tokenize_line

_SPACE = 0x20


def list_program(image, *, ascii=False, problems=None):
    """The listing of an image (.img layout), one line per text line, newline-terminated.
    Given a `problems` list the lines before any damage are listed and the damage is
    appended to it (salvage); otherwise damage raises FormatError."""
    lines = split_image(image, problems=problems)
    return "".join(list_line(line, ascii=ascii) + "\n" for line in lines)


def list_line(line, *, ascii=False):
    """The text of one Line, without a newline."""
    for form in (_NICE, _CAREFUL):
        text = f"{line.number}:{_body_text(line.body, ascii, form)}"
        if _reads_back(text, line):
            return text
    return f"{line.number}:" + "".join(f"\\x{byte:02X}" for byte in line.body)


_NICE, _CAREFUL = "nice", "careful"


def _reads_back(text, line):
    try:
        return tokenize_line(text, long_lines=True) == line
    except FormatError:
        return False


def _body_text(body, ascii, form):
    glyphs = charset.TO_ASCII if ascii else charset.TO_TEXT
    out = []
    append = out.append
    for kind, start, end, value in walk(body):
        if kind == BYTES:
            plain = _NICE_PLAIN[ascii] if form == _NICE else None
            append("".join([plain[byte] for byte in body[start:end]] if plain else
                           [_plain(byte, glyphs, form) for byte in body[start:end]]))
        elif kind == STRING:
            append("".join([_char(byte, glyphs) for byte in body[start:end]]))
        elif kind == REM_TEXT:
            append(_rem_text(body[start:end], glyphs))
        elif kind == KEYWORD and BY_CODE[value].typed:
            # a keyword stands between spaces; that after it is written only when
            # something follows, so a line never ends in a space the machine did not store
            if out and not out[-1].endswith(" "):
                append(" ")
            append(BY_CODE[value].name)
            if end < len(body):
                append(" ")
        elif kind == KEYWORD:  # the firmware would store its letters
            append(f"\\x{PREFIX:02X}\\x{value:02X}")
        elif form == _NICE:  # a line number
            append(str(value))
        else:  # the three bytes of a line number, written carefully
            out.extend(_plain(byte, glyphs, form) for byte in body[start:end])
    return "".join(out)


def _plain(byte, glyphs, form):
    """A byte outside strings, escaped where the tokenizer would drop it, upper-case it
    or (written carefully) read it as part of a name, a number or a line reference."""
    if byte == _SPACE or 0x61 <= byte <= 0x7A or form == _CAREFUL and (
            chr(byte).isalnum() or byte in b".$" or byte in (LINE_REF, QUOTE)):
        return f"\\x{byte:02X}"
    char = glyphs.get(byte)
    return char if char is not None else f"\\x{byte:02X}"


# what each byte outside strings lists as in the nice form, without and with --ascii
_NICE_PLAIN = {ascii: [_plain(byte, charset.TO_ASCII if ascii else charset.TO_TEXT, _NICE)
                       for byte in range(256)] for ascii in (False, True)}


def _rem_text(rest, glyphs):
    text = "".join(_char(byte, glyphs) for byte in rest)
    if rest[:1] == b" ":
        text = "\\x20" + text[1:]  # the tokenizer drops spaces right after REM
    return text


def _char(byte, glyphs):
    char = glyphs.get(byte)
    return char if char is not None else f"\\x{byte:02X}"



"""A stored line body, element by element, as the firmware reads it.

A body (the bytes after LEN, without the final CR) is a run of elements:

- KEYWORD: 0xFE code, where code is in the keyword table (value: the code);
- LINE_NUMBER: 0x1F hi lo, a compiled line number (value: the number);
- STRING: a quote and the bytes up to the next quote, or to the end of the body;
- REM_TEXT: all that follows REM, kept as typed (never empty);
- BYTES: a run of other bytes (value: None), up to the next byte that may start one
  of the kinds above; 0xFE before a code that names no keyword, and 0x1F with fewer
  than two bytes after it, are other bytes too. (Runs, not single bytes: the lister
  walks every line, and most of a line is names, digits and operators.)

Inside a string or REM text no byte is a keyword or a line number.
"""

import re
from typing import NamedTuple

from pc1360.facts import LINE_REF, PREFIX, QUOTE
from pc1360.keywords import BY_CODE, REM

KEYWORD = "keyword"
LINE_NUMBER = "line number"
STRING = "string"
REM_TEXT = "rem text"
BYTES = "bytes"


_MAY_START = re.compile(b"[" + re.escape(bytes((PREFIX, LINE_REF, QUOTE))) + b"]")


class Element(NamedTuple):
    kind: str
    start: int  # offset of its first byte in the body
    end: int  # one past its last byte
    value: int | None  # the code or line number; None for the other kinds


def walk(body):
    """The elements of `body` in order: body[e.start:e.end] of each, joined, is `body`."""
    make = tuple.__new__     # Element's own constructor, without its keyword layer: the
    size = len(body)         # lister walks every byte of every line
    i = 0
    while i < size:
        byte = body[i]
        if byte == PREFIX and i + 1 < size and body[i + 1] in BY_CODE:
            code = body[i + 1]
            yield make(Element, (KEYWORD, i, i + 2, code))
            i += 2
            if code == REM and i < size:
                yield make(Element, (REM_TEXT, i, size, None))
                return
        elif byte == LINE_REF and i + 2 < size:
            yield make(Element, (LINE_NUMBER, i, i + 3, body[i + 1] << 8 | body[i + 2]))
            i += 3
        elif byte == QUOTE:
            close = body.find(QUOTE, i + 1)
            end = size if close < 0 else close + 1
            yield make(Element, (STRING, i, end, None))
            i = end
        else:
            found = _MAY_START.search(body, i + 1)
            end = size if found is None else found.start()
            yield make(Element, (BYTES, i, end, None))
            i = end

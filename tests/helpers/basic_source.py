"""Reading the project's BASIC programs as tokenized source: shared by the source tests
of every game."""

import re

QUOTE, PREFIX, REM_CODE, LINE_REF = 0x22, 0xFE, 0x59, 0x1F


def code_parts(body):
    """The bytes of a line body outside strings and REM text, as a str with each keyword
    token replaced by a space (so letters of neighbouring names do not join) and each
    compiled line number by " 0 "."""
    out = []
    i = 0
    while i < len(body):
        byte = body[i]
        if byte == QUOTE:
            end = body.find(b'"', i + 1)
            out.append(" ")
            i = len(body) if end < 0 else end + 1
        elif byte == PREFIX:
            if body[i + 1] == REM_CODE:
                break
            out.append(" ")
            i += 2
        elif byte == LINE_REF:
            out.append(" 0 ")
            i += 3
        else:
            out.append(chr(byte))
            i += 1
    return "".join(out)


def long_words(parsed):
    """(line, words) for every line with a word longer than two letters outside strings
    and REM: a misspelt keyword is stored as letters, while variable names have one or two."""
    found = []
    for line in parsed.lines:
        words = re.findall(r"[A-Z][A-Z0-9]*", code_parts(line.body))
        if any(len(word) > 2 for word in words):
            found.append((line.number, words))
    return found


def fixed_letter_uses(parsed):
    """(numeric, string): the one-letter names used as numbers and as strings. A-Z, A$-Z$
    and A(1)-A(26) share storage, so a letter must be one or the other; A(n) is left out
    (the fixed variables by number, checked per program)."""
    numeric, string = set(), set()
    for line in parsed.lines:
        for name, dollar, paren in re.findall(r"(?<![A-Z0-9])([A-Z][A-Z0-9]?)(\$?)(\(?)",
                                              code_parts(line.body)):
            if len(name) == 2 or (name == "A" and paren and not dollar):
                continue
            (string if dollar else numeric).add(name)
    return numeric, string

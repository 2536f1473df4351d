"""Reading the project's BASIC programs as tokenized source: shared by the source tests
of every game."""

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

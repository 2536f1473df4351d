"""Source text -> stored program, the way the PC-1360 stores a line typed in PRO mode.

- Outside strings and REM text spaces are dropped first and letters are upper-cased;
  keywords are found in what is left, so spaces never separate them (the firmware reads
  "G OTO" as GOTO and "IF A P." as IF APPEND). Strings and REM text are stored as typed
  (the spaces right after REM are dropped).
- Keywords become 0xFE, code. At each place the longest keyword wins (TOTAL is TO, TAL).
- Lower case outside strings is read as upper case, so lower-case keywords and names
  work, as in PocketTools. (The firmware itself stores letters typed in SML mode as
  lower-case letters and finds no keywords in them; the lister shows such stored
  letters as \\xHH escapes, so they survive a round trip.)
- "P." and the other abbreviations expand to the first keyword in ROM order whose name
  starts with the letters before the dot (keywords.py).
- A literal line number after GOTO, GOSUB, THEN ... is stored as 0x1F, high, low (the
  firmware's rules are in keywords.py); all other numbers stay ASCII.
- One ':' straight after the line number only separates it from the body (LIST shows
  "10:PRINT ..."), so it is not stored.

Source is Unicode text (π, √, ¥, 年, katakana ... see charset.py) or, given as bytes that
are not UTF-8, the machine's own 8-bit codes. In text, \\xHH stores the byte HH as it is:
it is never part of a keyword, a number or a string delimiter, and is not dropped or
upper-cased. The lister writes such escapes for bytes that have no other form.

Inside the tokenizer a line is a "working string": characters 0x00-0xFF stand for the
machine codes still to be tokenized, 0x100 + b for an escaped byte b.
"""

import re
from dataclasses import dataclass, field

from pc1360 import charset
from pc1360.digits import bounded_int, shown
from pc1360.errors import FormatError
from pc1360.facts import LINE_REF, MAX_LINE, PREFIX
from pc1360.image import (
    MAX_STORED,
    MAX_TYPED,
    Line,
    build_image,
    typed_length,
)
from pc1360.keywords import (
    ABBREVIATIONS,
    LINE_NUMBER_FIRST,
    LINE_NUMBER_LISTS,
    REM,
    TYPED,
)

RAW = 0x100  # offset of escaped bytes in the working string


def _trie_pattern(words):
    """A regex matching any of `words`, always the longest one that fits (a trie, so the
    engine does not try hundreds of alternatives at every position)."""
    trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node):
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(trie)


_WORDS = {k.name: k.code for k in TYPED}
_WORDS.update({form: k.code for form, k in ABBREVIATIONS.items()})
# Split upper-cased text outside strings at its keywords (the capture group keeps them).
# Scanning left to right, the longest keyword or abbreviation at each place wins.
_KEYWORDS = re.compile(f"({_trie_pattern(_WORDS)})")
_STRINGS = re.compile(r'("[^"]*"?)')
_TOKEN_TEXT = {code: chr(PREFIX) + chr(code) for code in _WORDS.values()}
_UNRAW = {RAW + byte: byte for byte in range(256)}  # escaped bytes back to plain codes
_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}  # ASCII letters only
MAX_WARNINGS = 50  # repeated line numbers told one by one; the rest are counted
_LINE_START = re.compile(r"[ \t]*(?:([0-9]+) *:?)?")
_PLAIN_ASCII = re.compile(r"[\x20-\x5b\x5d-\x7e]*\Z")  # printable ASCII but the backslash
_ESCAPE = re.compile(r"\\x([0-9A-Fa-f]{2})")
_LINE_NUMBER_CODES = LINE_NUMBER_FIRST | LINE_NUMBER_LISTS
# Pieces of a tokenized body for the line-number pass: a string or REM to its end, a
# keyword, digits, one of : , ( ), or a run of anything else.
_KEYWORD_TEXT = re.escape(chr(PREFIX))  # the first character of a keyword token
_REM_REST = _KEYWORD_TEXT + re.escape(chr(REM)) + ".*"
_PIECES = re.compile(f'"[^"]*"?|{_REM_REST}|{_KEYWORD_TEXT}.|[0-9]+|[:,()]|[^"{_KEYWORD_TEXT}0-9:,()]+',
                     re.DOTALL)
# The common case, the first item after the keyword. Strings and REM text are matched
# whole so that nothing in them counts.
_LINE_NUMBER_TOKENS = "".join(re.escape(chr(code)) for code in sorted(_LINE_NUMBER_CODES))
_FIRST_ITEM = re.compile(f'"[^"]*"?|{_REM_REST}|({_KEYWORD_TEXT}[{_LINE_NUMBER_TOKENS}])([0-9]+)(?=[:,]|\\Z)',
                         re.DOTALL)
_LIST_KEYWORD = re.compile(_KEYWORD_TEXT + "[%s]" % "".join(re.escape(chr(c)) for c in sorted(LINE_NUMBER_LISTS)))


@dataclass
class ParsedProgram:
    lines: list  # Line objects sorted by number
    warnings: list = field(default_factory=list)  # FormatErrors that did not stop parsing

    @property
    def image(self):
        return build_image(self.lines)


def tokenize(source, *, long_lines=False):
    """The program image (.img layout) of a whole source text; see parse_program."""
    return parse_program(source, long_lines=long_lines).image


def parse_program(source, *, long_lines=False):
    """Tokenize every numbered line of `source` (str, or bytes: UTF-8 or machine codes).

    Blank lines are skipped and a DOS end-of-file mark (Ctrl-Z) ends the text. Lines come
    out sorted by number; when a number is given twice the later line wins and a warning
    says so. Raises FormatError (with line and column) on the first bad line.

    A line must be typeable: at most MAX_TYPED characters. long_lines=True lifts that
    limit up to what a line can hold (255 bytes after LEN), as for programs that reach
    the machine by tape, like those PocketTools' bas2img makes.
    """
    text, machine = _decode(source)
    by_number = {}
    warnings = []
    for index, raw_line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if not raw_line.strip(" \t"):
            continue
        try:
            line = _tokenize_line(raw_line, machine, long_lines)
        except FormatError as exc:
            raise exc.located(line=index) from None
        if line.number in by_number:
            warnings.append(FormatError(
                f"line number {line.number} appears again; this line replaces the one on "
                f"line {by_number[line.number][0]}", line=index, column=1))
        by_number[line.number] = (index, line)
    if not by_number:
        raise FormatError("empty program: no numbered lines", line=1, column=1)
    if len(warnings) > MAX_WARNINGS:  # one a line would drown the first ones, which matter
        rest = warnings[MAX_WARNINGS:]
        warnings[MAX_WARNINGS:] = [FormatError(
            f"and {len(rest)} more lines replace earlier ones with the same number (not listed)",
            line=rest[0].line, column=1)]
    return ParsedProgram([by_number[n][1] for n in sorted(by_number)], warnings)


def tokenize_line(text, *, long_lines=False):
    """One source line ("10 PRINT A") -> Line. Raises FormatError with the column."""
    return _tokenize_line(text, False, long_lines)


def _decode(source):
    """(text, machine): bytes that are not UTF-8 are taken as machine codes."""
    if isinstance(source, str):
        text, machine = source, False
    else:
        source = bytes(source)
        try:
            text, machine = source.decode("utf-8-sig"), False
        except UnicodeDecodeError:
            text, machine = source.decode("latin-1"), True
    return text.split("\x1a", 1)[0], machine


def _tokenize_line(text, machine, long_lines):
    start = _LINE_START.match(text)
    digits = start.group(1)
    if digits is None:
        raise FormatError("a program line must start with a line number", column=start.end() + 1)
    number = _line_value(digits)
    if number is None:
        raise FormatError(f"line number {shown(digits)} is out of range (1 to {MAX_LINE})",
                          column=start.start(1) + 1)
    body_text = text[start.end():]
    if not body_text.strip(" "):
        raise FormatError(f"line {number} has nothing after its line number",
                          column=start.end() + 1)
    if machine:
        work = _working_from_machine(body_text)
    else:
        work = _working_from_text(body_text, start.end())
    line = Line(number, _tokenize_body(work))
    if long_lines:
        if len(line.body) + 1 > MAX_STORED:
            raise FormatError(f"line {number} is longer than a line can be ({len(line.body) + 1} "
                              f"bytes after the length byte, at most {MAX_STORED})",
                              column=len(text))
    elif len(text) > MAX_TYPED:  # a shorter text is itself a typing of the line that fits
        typed = typed_length(line)
        if typed > MAX_TYPED:
            raise FormatError(f"line {number} is longer than {MAX_TYPED} typed characters "
                              f"(at least {typed}, with every keyword abbreviated)",
                              column=MAX_TYPED + 1)
    return line


def _working_from_text(body, column_base):
    if _PLAIN_ASCII.match(body):  # the common case: every character is its own code
        return body
    out = []
    pos = 0
    while pos < len(body):
        char = body[pos]
        if char == charset.ESCAPE:
            escape = _ESCAPE.match(body, pos)
            if not escape:
                raise FormatError("a backslash must start an escape \\xHH (write ¥ or \\x5C "
                                  "for the code 0x5C)", column=column_base + pos + 1)
            out.append(chr(RAW + int(escape.group(1), 16)))
            pos = escape.end()
            continue
        code = charset.code_of(char)
        if code is None:
            raise FormatError(f"character {char!r} (U+{ord(char):04X}) has no PC-1360 code",
                              column=column_base + pos + 1)
        out.append(chr(code))
        pos += 1
    return "".join(out)


def _working_from_machine(body):
    # A code without a glyph (controls, 0xFE, 0x1F ...) is kept as it is, like an escape,
    # so that it can never be read as part of a keyword or a line reference.
    return "".join(char if ord(char) in charset.TO_TEXT else chr(RAW + ord(char))
                   for char in body)


def _tokenize_body(work):
    segments = _STRINGS.split(work) if '"' in work else [work]  # outside, string, outside ...
    pieces = []
    line_numbers = False
    for index, segment in enumerate(segments):
        if index % 2:
            pieces.append(segment)
            continue
        # str.upper is only safe on ASCII: it would change codes such as 0xF1 (年) too
        ascii = segment.isascii()
        compact = segment.replace(" ", "")
        compact = compact.upper() if ascii else compact.translate(_UPPER)
        parts = _KEYWORDS.split(compact)  # text, keyword, text, keyword ... text
        pieces.append(parts[0])
        for number in range(1, len(parts), 2):
            code = _WORDS[parts[number]]
            pieces.append(_TOKEN_TEXT[code])
            if code == REM:  # the rest of the line is stored as typed
                used = _position_with_spaces(segment, sum(len(p) for p in parts[:number + 1]))
                rest = segment[used:] + "".join(segments[index + 1:])
                pieces.append(rest.lstrip(" "))
                return _finish(pieces, line_numbers)
            line_numbers = line_numbers or code in _LINE_NUMBER_CODES
            pieces.append(parts[number + 1])
    return _finish(pieces, line_numbers)


def _position_with_spaces(segment, count):
    """The index in `segment` just after its first `count` characters that are not spaces."""
    for index, char in enumerate(segment):
        if count == 0:
            return index
        count -= char != " "
    return len(segment)


def _finish(pieces, line_numbers):
    body = "".join(pieces)
    if line_numbers:
        if "," in body and _LIST_KEYWORD.search(body):
            body = _compile_line_numbers(body)
        else:
            body = _FIRST_ITEM.sub(_first_item, body)
    try:
        return body.encode("latin-1")
    except UnicodeEncodeError:  # escaped bytes, kept apart until now
        return body.translate(_UNRAW).encode("latin-1")


def _line_value(digits):
    """The line number that `digits` write, None if it is no line number (out of range)."""
    value = bounded_int(digits, MAX_LINE)
    return value if value else None


def _first_item(match):
    digits = match.group(2)
    value = None if digits is None else _line_value(digits)
    if value is None:
        return match.group()
    return match.group(1) + _line_reference(value)


def _line_reference(value):
    return chr(LINE_REF) + chr(value >> 8) + chr(value & 0xFF)


def _compile_line_numbers(body):
    """Replace each literal line number in a jump position by 0x1F, high, low: the first
    item after a line-number keyword, and after GOTO or GOSUB every later item of the
    statement too (items are separated by commas outside brackets)."""
    pieces = _PIECES.findall(body)
    out = []
    expect = in_list = False  # expect: an item starts here
    depth = 0
    for index, piece in enumerate(pieces):
        if piece[0] == chr(PREFIX) and len(piece) == 2:
            code = ord(piece[1])
            expect = code in _LINE_NUMBER_CODES
            if code in LINE_NUMBER_LISTS:
                in_list, depth = True, 0
        elif expect and "0" <= piece[0] <= "9":
            following = pieces[index + 1] if index + 1 < len(pieces) else ":"
            value = _line_value(piece)
            if following in (":", ",") and value is not None:
                piece = _line_reference(value)
            expect = False
        elif piece == ":":
            expect = in_list = False
        elif piece == ",":
            expect = in_list and depth == 0
        else:
            if piece in ("(", ")"):
                depth += 1 if piece == "(" else -1
            expect = False
        out.append(piece)
    return "".join(out)

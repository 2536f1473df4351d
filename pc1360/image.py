"""Program lines and the program image (docs/stored_format.md §1.1).

A line is stored as: line number (2 bytes, high first), LEN (bytes after LEN, the final
0x0D included), the body, 0x0D. The *image* is the lines one after another, the layout of
a PocketTools .img file. In RAM the image sits between two 0xFF marks; a further 0xFF
where a line would start begins a MERGEd block. Line.to_bytes and split_image are the
fast equivalents of the declarative descriptions in pc1360/image_format.py that also name
the offset of any damage (and salvage); the tests check that they agree.
"""

from dataclasses import dataclass

from pc1360.errors import FormatError
from pc1360.facts import CR, END_MARK
from pc1360.keywords import TYPED_COST

MAX_TYPED = 80  # the input buffer at &FD20 holds 80 characters
MAX_STORED = 0xFF  # LEN is one byte
CR_BYTE = bytes((CR,))
END_BYTE = bytes((END_MARK,))


@dataclass(frozen=True)
class Line:
    number: int
    body: bytes  # without the line number, LEN and the final 0x0D

    def to_bytes(self):
        return bytes((self.number >> 8, self.number & 0xFF, len(self.body) + 1)) + self.body + CR_BYTE


def lines_only(image):
    """The line records of `image` (.img layout): a trailing 0xFF end mark is dropped."""
    image = bytes(image)
    return image[:-1] if image.endswith(END_BYTE) else image


def build_image(lines):
    """The image of `lines`, in the order given."""
    return b"".join(line.to_bytes() for line in lines)


def typed_length(line):
    """The fewest characters that type `line` in PRO mode: the line number, each keyword
    as its shortest abbreviation, each compiled line reference as its digits, every other
    byte (those of strings and REM text too) as one character, no optional spaces. A lower
    bound: a line above MAX_TYPED cannot be typed, and whatever the lister shows for a line
    at or below it can be typed back."""
    # here: only a line longer than MAX_TYPED characters is measured, and token_walk
    # (with typing) would cost every short tokenize command its import
    from pc1360.token_walk import KEYWORD, LINE_NUMBER, walk

    cost = len(str(line.number))
    for kind, start, end, value in walk(line.body):
        if kind == KEYWORD:
            cost += TYPED_COST[value]
        elif kind == LINE_NUMBER:
            cost += len(str(value))
        else:
            cost += end - start
    return cost


def split_image(data, start=0, end=None, problems=None, *, blocks=True):
    """The Lines of the image held in data[start:end].

    A 0xFF where a line would start ends a MERGE block; the lines of every block are
    returned in order (with blocks=False the first such 0xFF ends the image). Damage (a line running past the end, LEN 0, no 0x0D where LEN says
    the line ends) raises FormatError naming the byte offset. Given a `problems` list
    (salvage), the lines before the damage are returned and the error is appended to it.
    """
    end = len(data) if end is None else end
    lines = []
    pos = start
    while pos < end:
        if data[pos] == END_MARK:
            if not blocks:
                break
            pos += 1
            continue
        try:
            line, pos = _read_line(data, pos, end)
        except FormatError as exc:
            if problems is None:
                raise
            problems.append(exc)
            break
        lines.append(line)
    return lines


def _read_line(data, pos, end):
    if pos + 3 > end:
        raise FormatError(f"line header cut off: {end - pos} byte(s) left where a line starts",
                          offset=pos)
    number = data[pos] << 8 | data[pos + 1]
    length = data[pos + 2]
    if length == 0:
        raise FormatError(f"line {number}: length byte is 0 (it counts the final 0x0D)",
                          offset=pos + 2)
    stop = pos + 3 + length  # one past the 0x0D
    if stop > end:
        raise FormatError(f"line {number}: length byte {length} runs past the end of the data "
                          f"({end - pos - 3} byte(s) left)", offset=pos + 2)
    if data[stop - 1] != CR:
        raise FormatError(f"line {number}: no 0x0D where the length byte {length} says the line "
                          f"ends (found 0x{data[stop - 1]:02X})", offset=stop - 1)
    return Line(number, bytes(data[pos + 3:stop - 1])), stop


def merge_images(named_images):
    """One image of several programs, given as (name, image) pairs: their lines in
    ascending order, as if each had been typed in after the others. ValueError naming both
    programs when a line number is in two of them, since the later line would replace the
    earlier one."""
    owner = {}
    lines = []
    for name, image in named_images:
        clashes = []
        for line in split_image(lines_only(image)):
            if line.number in owner:
                clashes.append(line.number)
            owner.setdefault(line.number, name)
            lines.append(line)
        if clashes:
            first = clashes[0]
            more = f" and {len(clashes) - 1} more" if len(clashes) > 1 else ""
            raise ValueError(f"{name}: line {first}{more} also in {owner[first]}; each program "
                             "on one card needs line numbers of its own")
    return build_image(sorted(lines, key=lambda line: line.number))

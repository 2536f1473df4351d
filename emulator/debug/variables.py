"""Every BASIC variable, read from its bytes in RAM as both engines keep them
(docs/stored_format.md §3; the layout is emulator/builtin/vars.py's, which writes them):
the fixed variables A-Z (A$-Z$ when they hold a string), the DIM area's two-character
variables and arrays, and A(27)... past Z.
"""

from typing import NamedTuple

from emulator.builtin import bcd
from emulator.builtin.typed import to_text
from emulator.builtin.vars import (
    EXTENSION_KEY,
    EXTENSION_NAME,
    FIXED_STRING_LEN,
    HEADER_LEN,
    NUMBER_LEN,
    ONE_LETTER_ARRAY,
    STRING_MARK,
    fixed_address,
    type_byte,
)
from pc1360.facts import DIM_EMPTY, DIM_PTR, DIM_TOP

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SECOND_CHARS = LETTERS + "0123456789"
MAX_ELEMENTS = 32       # an array shows this many elements, then how many more it has
MAX_HEADERS = 4096      # a damaged chain (a POKE) ends the walk rather than looping


class Variable(NamedTuple):
    name: str           # A, A$, AB, AB$, XY(5), N$(2,3), A(27)
    value: str          # as PRINT shows a number; a string in quotes; an array's elements
    addr: int           # its bytes: addr ... addr + size - 1
    size: int


def _kinds():
    """The header's second byte -> (second character or '', is a string, is an array),
    the inverse of vars.type_byte."""
    kinds = {}
    for second in SECOND_CHARS:
        for is_str in (False, True):
            for is_array in (False, True):
                kinds[type_byte(b"A" + second.encode(), is_str, is_array)] = (second, is_str, is_array)
    for is_str, byte in ONE_LETTER_ARRAY.items():
        kinds[byte] = ("", is_str, True)
    return kinds


KINDS = _kinds()


def number_text(data):
    return bcd.format_number(bcd.from_bytes(data))


def string_text(data):
    end = data.find(0)
    return '"' + to_text(data if end < 0 else data[:end]) + '"'


def _cell(mem, addr, is_str, size):
    data = bytes(mem[addr:addr + size])
    return string_text(data) if is_str else number_text(data)


def _fixed_cell(mem, addr, letter, index=""):
    """A fixed variable's 8 bytes: a number, or (after the string mark) a string."""
    data = bytes(mem[addr:addr + NUMBER_LEN])
    if data[0] == STRING_MARK:
        text = string_text(data[1:1 + FIXED_STRING_LEN])
        return Variable(f"{letter}${index}", text, addr, NUMBER_LEN)
    return Variable(letter + index, number_text(data), addr, NUMBER_LEN)


def fixed_variables(mem, everyone=False):
    """A-Z; without `everyone` only those whose bytes are not all zero (a zero number)."""
    found = []
    for letter in LETTERS:
        addr = fixed_address(ord(letter))
        if everyone or any(mem[addr:addr + NUMBER_LEN]):
            found.append(_fixed_cell(mem, addr, letter))
    return found


def _headers(mem):
    """Header addresses from the newest, along the chain."""
    addr = mem[DIM_PTR] | mem[DIM_PTR + 1] << 8
    for _ in range(MAX_HEADERS):
        if not 0x8000 <= addr <= DIM_TOP - HEADER_LEN + 1:
            return
        yield addr
        addr += 4 + (mem[addr + 2] << 8 | mem[addr + 3])
        if addr > DIM_EMPTY:
            return


def _array_text(mem, data, rows, cols, elem_len, is_str):
    cells = []
    for index in range(min(MAX_ELEMENTS, (rows + 1) * (cols + 1))):
        cells.append(_cell(mem, data + index * elem_len, is_str, elem_len))
    rest = (rows + 1) * (cols + 1) - len(cells)
    return "  ".join(cells) + (f"  ... {rest} more" if rest else "")


def dim_variables(mem):
    """The DIM area's variables, newest first, as its chain holds them."""
    found = []
    for header in _headers(mem):
        first, kind = mem[header], mem[header + 1]
        length = (mem[header + 2] << 8 | mem[header + 3]) - 3
        data = header + HEADER_LEN
        if (kind, first) == (EXTENSION_KEY[0], EXTENSION_NAME[0]):
            # A(27), A(28) ... downwards from the block's top
            count = length // NUMBER_LEN
            for n in range(count):
                addr = data + NUMBER_LEN * (count - 1 - n)
                found.append(_fixed_cell(mem, addr, "A", f"({27 + n})"))
            continue
        if kind not in KINDS:
            found.append(Variable(f"?{first:02X}{kind:02X}", "(unknown kind)", header, HEADER_LEN + length))
            continue
        second, is_str, is_array = KINDS[kind]
        name = chr(first) + second + ("$" if is_str else "")
        if not is_array:
            size = length
            found.append(Variable(name, _cell(mem, data, is_str, size), data, size))
            continue
        cols, rows, elem_len = mem[header + 4], mem[header + 5], mem[header + 6]
        shape = f"({rows},{cols})" if rows else f"({cols})"
        found.append(Variable(name + shape, _array_text(mem, data, rows, cols, elem_len, is_str),
                              data, length))
    return found


def all_variables(mem, everyone=False):
    return fixed_variables(mem, everyone) + dim_variables(mem)


def format_variable(var):
    last = var.addr + var.size - 1
    return f"{var.name} = {var.value}   ({var.addr:04X}-{last:04X})"

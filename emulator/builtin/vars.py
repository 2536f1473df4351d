"""BASIC variables as bytes in the emulated RAM (docs/stored_format.md §3).

Fixed variables: A-Z, 8 bytes each at 0xF9D0 + 8 * ('Z' - letter); A$ and A(1) name
the same bytes as A (A(n) is the n-th fixed variable). A number is the 8-byte BCD
value of bcd.py; a string is a marker byte 0xF5 followed by up to 7 characters,
padded with 0x00 (as the firmware engine stores E$="ABC": f5 41 42 43 00 00 00 00;
no number starts with 0xF5, a number's first byte holding exponent digits).

Two-character variables and arrays live in the DIM area, which grows downwards from
0xF9CF. The pointer at 0xFFDD/0xFFDE (little-endian) holds the address of the newest
variable's 7-byte header; with no variable it holds 0xF9D0. A header is:

    byte 0      first letter of the name
    byte 1      kind and second character (TYPE_BASE below: 65-90 a number AB,
                129-154 a string AB$, 193-218 a numeric array AB(), 1-26 a string
                array AB$(); 128 / 160 a numeric / string array with a one-letter name)
    bytes 2-3   L = 3 + data length, high byte first: the next (older) header is at
                header + 4 + L
    bytes 4-6   the last dimension, the first one (0 for a vector), element length:
                DIM X(5) gives 5, 0; DIM X(1,2) gives 2, 1; elements are stored row
                by row, X(i,j) at index i * (2 + 1) + j

and the data follows the header. Two-character numbers take 8 bytes, two-character
strings 16; array elements are numbers of 8 bytes or strings of the DIM length
(default 16); every element of a numeric array takes 8 bytes. All of this matches
the firmware engine's RAM after the same statements; the digit-second-character
kinds (X1, X1$ ...) were checked for X1$ and K1 only.
"""

from emulator.builtin import bcd
from emulator.builtin.basic_errors import ILLEGAL, MEMORY, OTHER, BasicError
from pc1360.facts import DIM_EMPTY, DIM_PTR, DIM_TOP, END_PTR

FIXED_Z = DIM_EMPTY         # Z; A is at 0xFA98
DIM_POINTER = DIM_PTR
END_POINTER = END_PTR       # the program's end: the DIM area must stay above it
STRING_MARK = 0xF5
FIXED_STRING_LEN = 7
TWO_CHAR_STRING_LEN = 16
DEFAULT_ELEMENT_LEN = 16
NUMBER_LEN = 8              # a fixed or two-character number
ELEMENT_LEN = 8             # a numeric array element
HEADER_LEN = 7

# Storage kinds of a reference (addr, size, kind).
NUM, STR, FIXED_STR = 0, 1, 2

# Second-byte bases by (is_string, is_array) for a letter second character; a digit
# second character uses the digit's code plus DIGIT_BASE.
TYPE_BASE = {(False, False): 0, (True, False): 64, (False, True): 128, (True, True): -64}
DIGIT_BASE = {(False, False): 0, (True, False): 64, (False, True): 128, (True, True): -16}
ONE_LETTER_ARRAY = {False: 128, True: 160}
# A(27), A(28) ... (the fixed variables continued below Z): the block "@", kind 0.
EXTENSION_NAME = b"@"
EXTENSION_KEY = (0, 0x40)


def fixed_address(letter):
    return FIXED_Z + 8 * (ord("Z") - letter)


def type_byte(name, is_str, is_array):
    """The header's second byte for a variable name (1 or 2 ASCII bytes)."""
    if len(name) == 1:
        return ONE_LETTER_ARRAY[is_str]
    second = name[1]
    if second >= 0x41:
        return (second + TYPE_BASE[(is_str, is_array)]) & 0xFF
    return (second + DIGIT_BASE[(is_str, is_array)]) & 0xFF


class Variables:
    """Find, create, read and write variables in `mem`."""

    def __init__(self, mem):
        self.mem = mem
        # name key -> header address, valid while the DIM pointer keeps its value
        self._index = {}
        self._index_pointer = None

    # ------------------------------------------------------------ DIM area

    def dim_pointer(self):
        return self.mem[DIM_POINTER] | self.mem[DIM_POINTER + 1] << 8

    def _set_dim_pointer(self, addr):
        self.mem[DIM_POINTER] = addr & 0xFF
        self.mem[DIM_POINTER + 1] = addr >> 8
        self.invalidate()

    def invalidate(self):
        """Forget the header index (after the DIM area changed, or a POKE)."""
        self._index_pointer = None

    def clear(self):
        """CLEAR: drop every two-character variable and array."""
        self._set_dim_pointer(DIM_EMPTY)

    def reset_fixed(self):
        """Set A-Z to zero (used by a cold start)."""
        self.mem[FIXED_Z:FIXED_Z + 26 * 8] = bytes(26 * 8)

    def _headers(self):
        """{(type byte, first letter): header address}, rebuilt when the pointer moves."""
        pointer = self.dim_pointer()
        if pointer != self._index_pointer:
            index = {}
            mem = self.mem
            addr = pointer
            # A damaged chain (a POKE) ends the walk rather than looping or raising.
            while DIM_TOP - HEADER_LEN + 1 >= addr >= 0x8000 and len(index) < 4096:
                key = (mem[addr + 1], mem[addr])
                index.setdefault(key, addr)
                addr += 4 + (mem[addr + 2] << 8 | mem[addr + 3])
            self._index = index
            self._index_pointer = pointer
        return self._index

    def _create(self, name, kind, dim1, dim2, elem_len, data_len):
        pointer = self.dim_pointer()
        if pointer > DIM_EMPTY or pointer < 0x8000:
            pointer = DIM_EMPTY
        header = pointer - HEADER_LEN - data_len
        end = self.mem[END_POINTER] | self.mem[END_POINTER + 1] << 8
        if header <= end:
            raise BasicError(MEMORY)
        length = 3 + data_len
        self.mem[header:header + HEADER_LEN] = bytes(
            [name[0], kind, length >> 8, length & 0xFF, dim1, dim2, elem_len])
        self.mem[header + HEADER_LEN:pointer] = bytes(data_len)
        self._set_dim_pointer(header)
        return header

    def erase(self, name, is_str):
        """ERASE: drop the array `name`; the variables made after it, below it, move up
        into its place (their headers count in lengths, so the chain stays whole).
        Returns the bytes moved, None if there is no such array."""
        header = self._headers().get((type_byte(name, is_str, True), name[0]))
        if header is None:
            return None
        mem = self.mem
        size = 4 + (mem[header + 2] << 8 | mem[header + 3])
        pointer = self.dim_pointer()
        mem[pointer + size:header + size] = mem[pointer:header]
        self._set_dim_pointer(pointer + size)
        return header - pointer

    def free_bytes(self):
        """Bytes between the program's end and the DIM area (for MEM)."""
        pointer = min(self.dim_pointer(), DIM_EMPTY)
        end = self.mem[END_POINTER] | self.mem[END_POINTER + 1] << 8
        return max(0, pointer - end - 1)

    # ------------------------------------------------------------ references

    def fixed(self, letter, is_str):
        addr = fixed_address(letter)
        return (addr, FIXED_STRING_LEN if is_str else NUMBER_LEN,
                FIXED_STR if is_str else NUM)

    def fixed_index(self, n, is_str):
        """A(n) / A$(n) without a DIM A: the n-th fixed variable (A(1) is A, A(26) is
        Z). From A(27) on the variables go on downwards below Z, in a DIM-area block
        named "@" (kind 0) whose data ends at its top: A(27) is its highest 8 bytes.
        The block grows as higher indices are used; the firmware engine lays it out
        so, with A(27) at 0xF9C8 when it is the only DIM-area variable."""
        if n < 1:
            raise BasicError(ILLEGAL)
        if n <= 26:
            return self.fixed(ord("A") + n - 1, is_str)
        extra = n - 26
        header = self._headers().get(EXTENSION_KEY)
        count = 0 if header is None else self._length(header) // NUMBER_LEN
        if extra > count:
            header = self._grow_extension(header, count, extra)
            count = extra
        addr = header + HEADER_LEN + NUMBER_LEN * (count - extra)
        return (addr, FIXED_STRING_LEN if is_str else NUMBER_LEN,
                FIXED_STR if is_str else NUM)

    def _length(self, header):
        """Data bytes after a header."""
        return (self.mem[header + 2] << 8 | self.mem[header + 3]) - 3

    def _grow_extension(self, header, count, wanted):
        """Make the A(27...) block hold `wanted` variables: a new block, or the
        newest one grown downwards (an older block cannot grow: ERROR 3, assumed)."""
        if header is None:
            return self._create(EXTENSION_NAME, EXTENSION_KEY[0], 0, 0, NUMBER_LEN,
                                NUMBER_LEN * wanted)
        if header != self.dim_pointer():
            raise BasicError(ILLEGAL)
        added = NUMBER_LEN * (wanted - count)
        new_header = header - added
        end = self.mem[END_POINTER] | self.mem[END_POINTER + 1] << 8
        if new_header <= end:
            raise BasicError(MEMORY)
        length = 3 + NUMBER_LEN * wanted
        mem = self.mem
        mem[new_header:new_header + HEADER_LEN] = bytes(
            [EXTENSION_NAME[0], EXTENSION_KEY[0], length >> 8, length & 0xFF, 0, 0,
             NUMBER_LEN])
        mem[new_header + HEADER_LEN:new_header + HEADER_LEN + added] = bytes(added)
        self._set_dim_pointer(new_header)
        return new_header

    def simple(self, name, is_str, create):
        """A one- or two-character variable; None if a two-character one does not
        exist and `create` is false."""
        if len(name) == 1:
            return self.fixed(name[0], is_str)
        kind = type_byte(name, is_str, False)
        header = self._headers().get((kind, name[0]))
        if header is None:
            if not create:
                return None
            size = TWO_CHAR_STRING_LEN if is_str else NUMBER_LEN
            header = self._create(name, kind, 0, 0, size, size)
        size = TWO_CHAR_STRING_LEN if is_str else NUMBER_LEN
        return (header + HEADER_LEN, size, STR if is_str else NUM)

    def has_array(self, name, is_str):
        return (type_byte(name, is_str, True), name[0]) in self._headers()

    def dim(self, name, is_str, dims, elem_len=None):
        """DIM name(d1[,d2])[*len]."""
        kind = type_byte(name, is_str, True)
        if self.has_array(name, is_str):
            raise BasicError(ILLEGAL)
        if len(dims) > 2 or any(not 0 <= d <= 255 for d in dims):
            raise BasicError(ILLEGAL)
        if is_str:
            elem_len = DEFAULT_ELEMENT_LEN if elem_len is None else elem_len
            if not 1 <= elem_len <= 80:
                raise BasicError(ILLEGAL)
        else:
            elem_len = ELEMENT_LEN
        # the header holds the last dimension first: (n) as n, 0; (n, m) as m, n
        cols = dims[-1]
        rows = dims[0] if len(dims) == 2 else 0
        self._create(name, kind, cols, rows, elem_len, (rows + 1) * (cols + 1) * elem_len)

    def element(self, name, is_str, indices):
        """An array element; None if no such array was DIMensioned."""
        header = self._headers().get((type_byte(name, is_str, True), name[0]))
        if header is None:
            return None
        mem = self.mem
        cols, rows, elem_len = mem[header + 4], mem[header + 5], mem[header + 6]
        if len(indices) == 1 and rows == 0:
            i, j = 0, indices[0]
        elif len(indices) == 2:
            i, j = indices
        else:
            raise BasicError(ILLEGAL)
        if not (0 <= i <= rows and 0 <= j <= cols):
            raise BasicError(ILLEGAL)
        addr = header + HEADER_LEN + (i * (cols + 1) + j) * elem_len
        return (addr, elem_len, STR if is_str else NUM)

    # ------------------------------------------------------------ values

    def load(self, ref):
        addr, size, kind = ref
        mem = self.mem
        if kind == NUM:
            if mem[addr] == STRING_MARK:
                raise BasicError(OTHER)
            return bcd.from_bytes(mem[addr:addr + 7])
        if kind == FIXED_STR:
            if mem[addr] != STRING_MARK:
                if any(mem[addr:addr + 8]):
                    raise BasicError(OTHER)
                return b""
            addr += 1
        data = bytes(mem[addr:addr + size])
        end = data.find(0)
        return data if end < 0 else data[:end]

    def store(self, ref, value):
        addr, size, kind = ref
        mem = self.mem
        if kind == NUM:
            mem[addr:addr + size] = bcd.to_bytes(value)[:size]
            return
        if kind == FIXED_STR:
            mem[addr] = STRING_MARK
            addr += 1
        value = value[:size]
        mem[addr:addr + size] = value + bytes(size - len(value))

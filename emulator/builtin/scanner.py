"""Reading tokenized bytes in RAM: the one scanner the statements' syntax (steps.py,
interp.py) and the expression parser (expr.py) share."""

from pc1360.facts import CR, PREFIX, QUOTE

STATEMENT_END = (0x3A, CR)     # ':' or the line's end (bound once: the loop tests it often)
STRING_END = (QUOTE, CR)
DIGITS = frozenset(b"0123456789")
UPPER = frozenset(range(0x41, 0x5B))
_NAME2 = UPPER | DIGITS


class Scanner:
    """Reading tokenized bytes at `pos` in `mem` (the statements' syntax and the
    expression parser's); `refuse()` says what a missing byte means."""

    def peek(self):
        """The next byte that is not a space (the tokenizer drops spaces outside
        strings, so the loop rarely runs)."""
        mem = self.mem
        byte = mem[self.pos]
        if byte != 0x20:
            return byte
        pos = self.pos
        while mem[pos] == 0x20:
            pos += 1
        self.pos = pos
        return mem[pos]

    def accept(self, byte):
        if self.peek() == byte:
            self.pos += 1
            return True
        return False

    def expect(self, byte):
        if not self.accept(byte):
            self.refuse()

    def peek_token(self):
        """The keyword code at the current position, or None."""
        if self.peek() == PREFIX:
            return self.mem[self.pos + 1]
        return None

    def accept_token(self, code):
        if self.peek() == PREFIX and self.mem[self.pos + 1] == code:
            self.pos += 2
            return True
        return False

    def at_end(self):
        """True at the end of a statement (':' or the line's 0x0D)."""
        return self.peek() in STATEMENT_END

    def string_literal(self):
        """A quoted string; a missing closing quote ends at the line's end."""
        mem = self.mem
        start = pos = self.pos + 1
        while mem[pos] not in STRING_END:
            pos += 1
        value = bytes(mem[start:pos])
        self.pos = pos + 1 if mem[pos] == QUOTE else pos
        return value

    def variable_name(self):
        """(name, is_str) of the variable at pos, which moves past the name and `$`."""
        mem = self.mem
        pos = self.pos
        name = bytes([mem[pos]])
        pos += 1
        if mem[pos] in _NAME2:
            name += bytes([mem[pos]])
            pos += 1
            while mem[pos] in _NAME2:       # ABC is AB (as on the firmware engine)
                pos += 1
        is_str = mem[pos] == 0x24
        if is_str:
            pos += 1
        self.pos = pos
        return name, is_str

"""The machine's error numbers, and the exceptions that carry them to the display.

The numbers follow the PC-1401 list; what falls under each on the PC-1360 was measured
on the firmware engine (docs/basic_language.md §2).
"""

SYNTAX = 1          # ERROR 1: syntax
CALC = 2            # ERROR 2: calculation (overflow, division by zero, domain)
ILLEGAL = 3         # ERROR 3: illegal argument, subscript out of range, DIM twice
LINE = 4            # ERROR 4: line number too large or not found
NESTING = 5         # ERROR 5: NEXT/RETURN without FOR/GOSUB, stack overflow, READ past DATA
MEMORY = 6          # ERROR 6: memory overflow
USING = 7           # ERROR 7: PRINT USING format
IO = 8              # ERROR 8: I/O device
OTHER = 9           # ERROR 9: other (type mismatch, CONT with nothing stopped, ...)


class BasicError(Exception):
    """A PC-1360 error: the engine shows it as `ERROR n IN line`."""

    def __init__(self, code, on_last=False):
        super().__init__(code)
        self.code = code
        self.used = 0   # the cycles of the statements before it in the same run() call
        self.list_from = None   # LIST n past the last line: n (UP then lists before it)
        # the error is about the element read last (a variable or a value of the wrong
        # type, a missing line): the cursor goes on it, not where the reading stopped
        # (Terminal.error_column, Terminal._show_error_line)
        self.on_last = on_last
        self.where = None   # (line address, body offset) of an error a command found in a
        # line of the program (RENUM): it shows as that line's error


class Break(Exception):
    """BRK pressed while a program runs: the engine shows `BREAK IN line`."""

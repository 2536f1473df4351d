"""The one exception the format package raises for bad input."""


class FormatError(ValueError):
    """Bad source text or damaged program data.

    Text problems carry `line` and `column` (both counted from 1); binary problems carry
    `offset`, the byte position in the data being decoded. Unknown positions are None.
    """

    def __init__(self, message, *, line=None, column=None, offset=None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset

    def located(self, *, line=None, column=None, offset=None):
        """A copy with the missing parts of the position filled in (the caller knows more)."""
        return FormatError(
            self.message,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
            offset=self.offset if self.offset is not None else offset,
        )

    def in_file(self, name, kind=""):
        """NAME:LINE:COL: message for text, NAME: byte N (0xN): message for binary data;
        `kind` ("warning: ") goes before the message."""
        if self.line is not None:
            where = f"{name}:{self.line}:{self.column or 1}"
        elif self.offset is not None:
            where = f"{name}: byte {self.offset} (0x{self.offset:X})"
        else:
            where = name
        return f"{where}: {kind}{self.message}"

    def __str__(self):
        if self.offset is not None:
            return f"byte {self.offset} (0x{self.offset:X}): {self.message}"
        if self.line is not None:
            return f"{self.line}:{self.column or 1}: {self.message}"
        if self.column is not None:
            return f"column {self.column}: {self.message}"
        return self.message

"""The line record and the PocketTools .img file, described declaratively with construct
(docs/stored_format.md §1.1). pc1360/image.py has the fast equivalents, which name the
offset of any damage; this module is apart so that tokenizing never imports construct."""

from construct import (
    Bytes,
    Const,
    GreedyRange,
    Int8ub,
    Int16ub,
    Optional,
    Rebuild,
    Struct,
    Terminated,
    len_,
    this,
)

from pc1360.image import CR_BYTE, END_BYTE

LINE = Struct(
    "number" / Int16ub,
    "length" / Rebuild(Int8ub, len_(this.body) + 1),
    "body" / Bytes(this.length - 1),
    Const(CR_BYTE),
)
IMG_FILE = Struct("lines" / GreedyRange(LINE), "end_mark" / Optional(Const(END_BYTE)), Terminated)

"""Statement handlers for graphics: GCURSOR, GPRINT, PSET, PRESET, LINE, drawn into the
display RAM through the screen (emulator/builtin/screen.py); like PRINT they wait for
ENTER when no WAIT is set (output.display_wait)."""

from emulator.builtin.basic_errors import ILLEGAL, SYNTAX, BasicError
from emulator.builtin.nodes import to_int
from emulator.builtin.output import display_wait
from emulator.builtin.timing import CYCLES

LINE_DOT_CYCLES = CYCLES["line_dot"]            # each dot LINE draws
LINE_BOX_DOT_CYCLES = CYCLES["line_box_dot"]    # each dot of a box (B) or a fill (BF)
GPRINT_NUMBER_CYCLES = CYCLES["gprint_number"]  # each number GPRINT draws
GPRINT_ITEM_CYCLES = CYCLES["gprint_item"]      # each item after the first
GRAPHIC_CURSOR = 0xFEE8     # GCURSOR x, y as 16-bit words
LINE_END = 0xFEEC           # where the last LINE ended


def point(it):
    """`(x,y)` as two integers."""
    it.expect(0x28)
    x = to_int(it.number())
    it.expect(0x2C)
    y = to_int(it.number())
    it.expect(0x29)
    return x, y


def set_word(mem, addr, value):
    mem[addr] = value & 0xFF
    mem[addr + 1] = (value >> 8) & 0xFF


def stmt_gcursor(it):
    if it.peek() == 0x28:
        x, y = point(it)
    else:
        x = to_int(it.number())
        it.expect(0x2C)
        y = to_int(it.number())
    it.gcursor = (x, y)
    set_word(it.mem, GRAPHIC_CURSOR, x)
    set_word(it.mem, GRAPHIC_CURSOR + 2, y)


def stmt_gprint(it):
    """Columns of 8 dots at the graphics cursor, whose y is the column's lowest dot;
    a number is one column, a string hex pairs, one column each; `;` joins, `,`
    draws a blank column. A GPRINT that does not end in `;` or `,` sends the cursor
    back to x 0, keeping y (all as the firmware engine draws them and keeps 0xFEE8)."""
    x, y = it.gcursor
    open_end = False
    items = 0
    while not it.at_end():
        open_end = False
        value = it.expression()
        it.cost += GPRINT_ITEM_CYCLES if items else 0
        items += 1
        if isinstance(value, bytes):
            if len(value) % 2 or any(c not in b"0123456789ABCDEF" for c in value):
                raise BasicError(ILLEGAL)
            columns = bytes.fromhex(value.decode("ascii"))
        else:
            columns = bytes([to_int(value, 0, 255)])
            it.cost += GPRINT_NUMBER_CYCLES
        for bits in columns:
            it.screen.column(x, y - 7, bits)
            x += 1
        if it.accept(0x2C):
            it.screen.column(x, y - 7, 0)
            x += 1
        elif not it.accept(0x3B):
            break
        open_end = True
    if not open_end:
        x = 0
    it.gcursor = (x, y)
    set_word(it.mem, GRAPHIC_CURSOR, x)
    display_wait(it)            # like PRINT: with no WAIT it waits for ENTER


def stmt_pset(it):
    x, y = point(it)
    mode = 1
    if it.accept(0x2C):
        if not it.accept(0x58):
            raise BasicError(SYNTAX)
        mode = 2
    it.screen.set_dot(x, y, mode)
    # each PSET, PRESET and LINE waits as PRINT does (ENTER with no WAIT, WAIT n
    # units with WAIT n), in programs and typed in RUN mode (firmware engine)
    display_wait(it)


def stmt_preset(it):
    x, y = point(it)
    it.screen.set_dot(x, y, 0)
    display_wait(it)


def draw_line(screen, x1, y1, x2, y2, mode, pattern, count, skip_first=False,
              skip_last=False):
    """Dots from (x1,y1) to (x2,y2), one per step along the longer axis; the other
    coordinate is rounded with halves toward the start point (the firmware engine
    draws LINE (0,0)-(20,5) as runs of 3, 4, 4, 4, 4, 2). Dot number n of the
    statement is drawn if `pattern` has bit 7 - n%8 of its low byte (n%16 < 8) or
    of its high byte: the firmware lights dots 8 and 24 for &8000, 7 and 8 for
    &8001. A box's edges skip the corners already drawn. Returns the dot count."""
    dx, dy = x2 - x1, y2 - y1
    steps = max(abs(dx), abs(dy))
    first = 1 if skip_first else 0
    last = steps - 1 if skip_last else steps
    for t in range(first, last + 1):
        index = count % 16
        if pattern >> (7 - index if index < 8 else 23 - index) & 1:
            x = x1 + _toward_start(t * dx, steps)
            y = y1 + _toward_start(t * dy, steps)
            screen.set_dot(x, y, mode)
        count += 1
    return count


def _toward_start(num, den):
    """num / den rounded to the nearest integer, halves toward zero."""
    if den == 0:
        return 0
    sign = -1 if num < 0 else 1
    return sign * ((2 * abs(num) + den - 1) // (2 * den))


def stmt_line(it):
    """LINE [(x1,y1)]-(x2,y2)[,S|R|X][,pattern][,B|BF]."""
    start = point(it) if it.peek() == 0x28 else it.line_end
    it.expect(0x2D)
    x2, y2 = point(it)
    mode, pattern, box = 1, 0xFFFF, None
    # options in this order only (`,B,&AAAA` is ERROR 1 on the firmware engine)
    stage = 0
    while it.accept(0x2C):
        byte = it.peek()
        # S(et), R(eset), X(or): the PSET/PRESET keywords are ERROR 1 here
        if stage == 0 and it.accept(0x53):
            mode = 1
        elif stage == 0 and it.accept(0x52):
            mode = 0
        elif stage == 0 and it.accept(0x58):
            mode = 2
        elif stage < 2 and byte == 0x42:
            it.pos += 1
            box = "BF" if it.accept(0x46) else "B"
            stage = 2
            break
        elif stage < 2:
            pattern = it.integer(0, 65535)
            stage = 1
            continue
        else:
            raise BasicError(SYNTAX)
        stage = 1 if stage == 0 else stage
    if not it.at_end():
        raise BasicError(SYNTAX)
    x1, y1 = start
    screen = it.screen
    if box == "BF":
        count = 0           # the pattern runs on from row to row
        for y in range(min(y1, y2), max(y1, y2) + 1):
            count = draw_line(screen, x1, y, x2, y, mode, pattern, count)
    elif box == "B":
        count = draw_line(screen, x1, y1, x2, y1, mode, pattern, 0)
        count = draw_line(screen, x2, y1, x2, y2, mode, pattern, count, skip_first=True)
        count = draw_line(screen, x2, y2, x1, y2, mode, pattern, count, skip_first=True)
        count = draw_line(screen, x1, y2, x1, y1, mode, pattern, count, skip_first=True,
                          skip_last=True)
    else:
        count = draw_line(screen, x1, y1, x2, y2, mode, pattern, 0)
    it.cost += count * (LINE_BOX_DOT_CYCLES if box else LINE_DOT_CYCLES)
    it.line_end = (x2, y2)
    set_word(it.mem, LINE_END, x2)
    set_word(it.mem, LINE_END + 2, y2)
    display_wait(it)

"""Statement handlers for the display, sound and input (graphics: graphics.py).

PRINT as the firmware engine shows it: a lone number is right-aligned (`5.`); `;`
joins items (`AB5.C`); `,` splits the line in two 12-character halves, a number alone
in its half right-aligned (`AB          5.`, `         -5.X`). Each PRINT starts a new
line (the top one right after CLS), scrolling at the bottom; after `PRINT "A";` the
next PRINT goes on in the same line. With no WAIT, every PRINT waits for ENTER.
After CURSOR x,y (or CURSOR n, the n-th of the 96 cells) PRINT writes there without
clearing the line. USING: `#` digit places, `.` the point, `&` string places.
"""

from decimal import ROUND_DOWN, Decimal, InvalidOperation

from emulator.builtin import bcd
from emulator.builtin.basic_errors import ILLEGAL, OTHER, SYNTAX, USING, BasicError
from emulator.builtin.nodes import to_int
from emulator.builtin.run_state import ANSWER, ANSWER_END, InputItem
from emulator.builtin.screen import COLS, ROWS, close_text, split_row
from emulator.builtin.serial_io import get_port
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES
from pc1360.facts import QUOTE

WAIT_UNIT = CYCLES["wait_unit"]         # WAIT n shows for n of these
PAUSE_CYCLES = CYCLES["pause"]
# BEEP n: the first beep's cycles besides the statement's, each further one, BEEP 0's
FIRST_BEEP_CYCLES = CYCLES["first_beep"]
BEEP_CYCLES = CYCLES["beep"]
BEEP_ZERO_CYCLES = CYCLES["beep_zero"]
# BEEP n,f[,d] on the firmware engine: each beep is d+1 periods of a square wave whose
# half period is BEEP_HALF_PERIOD + BEEP_HALF_PER_TONE * f cycles (d defaults to 583),
# with a lead before the first, a gap between beeps and a tail after the last.
BEEP_DEFAULT_DURATION = 583
BEEP_HALF_PERIOD = CYCLES["beep_half_period"]
BEEP_HALF_PER_TONE = CYCLES["beep_half_per_tone"]
BEEP_LEAD = CYCLES["beep_lead"]         # from the end of the statement's own cost to the first edge
BEEP_GAP = CYCLES["beep_gap"]
BEEP_TAIL = CYCLES["beep_tail"]
BEEP_ZERO_TONED = CYCLES["beep_zero_toned"]     # BEEP 0,f,d: no sound, the arguments' time only
SCROLL_CYCLES = CYCLES["scroll"]
CLS_ROW_CYCLES = CYCLES["cls_row"]    # CLS: each row the output has gone down
PRINT_CHAR_CYCLES = CYCLES["print_char"]        # each character a PRINT shows
PRINT_CONTINUE_CYCLES = CYCLES["print_continue"]    # going on in a line left open
PRINT_TOP_AFTER_CLS_CYCLES = CYCLES["print_top_after_cls"]
PRINT_AT_CURSOR_SAVING = CYCLES["print_at_cursor_saving"]   # PRINT at a CURSOR starts no line
PRINT_ITEM_CYCLES = CYCLES["print_item"]        # every item after the first
PRINT_NUMBER_CYCLES = CYCLES["print_number"]    # every number shown (USING or not)
PRINT_ALONE_CYCLES = CYCLES["print_alone"]      # a lone number's right-alignment
CURSOR_CELL_SAVING = CYCLES["cursor_cell_saving"]   # CURSOR n against CURSOR x,y
HALF = COLS // 2
TEXT_CURSOR = 0xFD09        # CURSOR x, y (docs/stored_format.md §2.3)
_USING = CODES["USING"]


# ---------------------------------------------------------------- PRINT

def set_using(it, fmt):
    """USING "fmt": a format with `#` replaces the number format, one with `&` the
    string format; the other stays (USING "##.#";1.25;USING "&&";"XYZ";7 shows
    ` 1.2XY 7.0` on the firmware engine). USING alone forgets both."""
    if fmt is None:
        it.using = None
        return
    if not fmt or fmt.strip(b"#.&^") or fmt.count(b".") > 1:
        raise BasicError(SYNTAX)            # USING "ABC", "#,###": ERROR 1
    number, string = it.using or (None, None)
    if b"#" in fmt:
        number = fmt
    if b"&" in fmt:
        string = fmt
    it.using = (number, string)


def format_using(using, value):
    fmt = using[1] if isinstance(value, bytes) else using[0]
    if fmt is None:
        return value if isinstance(value, bytes) else bcd.format_number(value).encode("ascii")
    return _format_using(fmt, value)


def _cut(value, places):
    """`value` cut to `places` decimals; a number whose digits cannot all be kept that
    way is far wider than any format: ERROR 7 (USING "###.##" with 1E99 on the
    firmware engine, case USING_huge_number)."""
    try:
        return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN)
    except InvalidOperation:
        raise BasicError(USING) from None


# USING places the firmware engine keeps at most: 11 `#` before the point (sign place
# included), 12 after it, 9 after it with `^`; more are ignored (case USING_place_limits).
MAX_WHOLE_PLACES = 11
MAX_DECIMAL_PLACES = 12
MAX_EXPONENT_DECIMALS = 9


def _with_point(cut, point):
    """The digits of a cut value; a format with a point shows it even with no
    decimals after it (`##.` shows 0.5 as ` 0.`, `##.^` -1.5 as `-1.E 00`)."""
    digits = f"{abs(cut):f}".encode("ascii")
    return digits + b"." if point and b"." not in digits else digits


def _format_exponent(fmt, value):
    """USING with `^`: one digit before the point, the format's decimals, then E and
    a signed two-digit exponent (`##.##^` shows 1234.5 as ` 1.23E 03`)."""
    _, point, tail = fmt.partition(b".")
    places = min(tail.count(b"#"), MAX_EXPONENT_DECIMALS)
    if not value:
        mantissa, exp = Decimal(0), 0
    else:
        exp = value.adjusted()
        mantissa = value.scaleb(-exp)
    cut = _cut(mantissa, places)
    mark = b"-" if exp < 0 else b" "
    return (b"-" if cut < 0 else b" ") + _with_point(cut, point) + b"E" + mark + b"%02d" % abs(exp)


def _format_using(fmt, value):
    """PRINT USING: `#` places (the first one holds the sign), `.` the point, `&`
    string places; the number's 10 shown digits, and those past the format cut
    (12.345 in ###.## is 12.34); a number that does not fit is ERROR 7 (1.005 in #.##,
    -5 in #), as on the firmware engine."""
    if isinstance(value, bytes):
        width = fmt.count(b"&") or len(value)
        return value[:width].ljust(width)
    value = bcd.shown(value)
    if fmt.endswith(b"^"):
        return _format_exponent(fmt, value)
    head, point, tail = fmt.partition(b".")
    whole_places = min(head.count(b"#"), MAX_WHOLE_PLACES)
    places = min(tail.count(b"#"), MAX_DECIMAL_PLACES)
    cut = _cut(value, places)
    digits = _with_point(cut, point)
    if len(digits.split(b".")[0]) + 1 > whole_places:
        raise BasicError(USING)
    # a negative number cut to zero keeps its sign: -0.005 in ###.## is -0.00
    text = (b"-" if value < 0 else b"") + digits
    return text.rjust(whole_places + (1 + places if point else 0))


def print_fields(it):
    """Parse PRINT's item list into (segments, open_end, answer): segments split by `,`,
    each a list of formatted items; open_end if the list ended with `;`; answer the
    first number after the last `,` (None if none), which PRINT makes the last answer."""
    segments = [[]]
    open_end = False
    answer = None
    while not it.at_end():
        if it.accept_token(_USING):
            # USING [format];item: the format is any string expression, "" forgets as
            # USING alone does; a number is ERROR 9, no `;` or no item after it ERROR 1
            # (firmware engine, case USING_format_expression)
            fmt = None
            if not it.at_end() and it.peek() != 0x3B:
                fmt = it.expression()
                if not isinstance(fmt, bytes):
                    raise BasicError(OTHER)
            set_using(it, fmt or None)
            if not it.accept(0x3B) or it.at_end():
                raise BasicError(SYNTAX)
            continue
        value = it.expression()
        if isinstance(value, bytes):
            value = value.replace(b"\x00", b"")    # a NUL takes no place (CHR$ 0)
        elif answer is None:
            answer = value
        if it.using is not None:
            segments[-1].append((format_using(it.using, value), not isinstance(value, bytes)))
        elif isinstance(value, bytes):
            segments[-1].append((value, False))
        else:
            segments[-1].append((bcd.format_number(value).encode("ascii"), True))
        open_end = False
        if it.accept(0x3B):
            open_end = True
        elif it.accept(0x2C):
            segments.append([])
            answer = None
        elif not it.at_end():
            raise BasicError(SYNTAX)
    # a list split by `,` takes no `;` and no `,` at its end: PRINT "A";"B","C",
    # PRINT "X","Y"; and PRINT "X", are ERROR 1 with nothing shown (firmware engine)
    if len(segments) > 1 and (not segments[-1] or any(len(seg) > 1 for seg in segments)
                              or open_end):
        raise BasicError(SYNTAX)
    return segments, open_end, answer


def set_answer(it, answer):
    """PRINT's and PAUSE's number becomes the last answer (LPRINT's does not)."""
    if answer is not None:
        it.mem[ANSWER:ANSWER_END] = bcd.to_bytes(answer)


def _aligned(number, width):
    """A right-aligned number as the firmware stores it in the text buffer: a space
    for the sign of a positive number, NULs before it (they show blank, PEEK sees 0:
    PRINT 5 leaves 21 NULs and " 5.")."""
    if number[:1] not in (b"-", b" ") and len(number) < width:
        number = b" " + number
    return number.rjust(width, b"\x00")


def lone_number(segments, open_end):
    """True if PRINT's items are one number that starts its row: it is right-aligned."""
    return len(segments) == 1 and len(segments[0]) == 1 and segments[0][0][1] and not open_end


def layout(segments, open_end=False, start=0):
    """The text of one PRINT: a lone number (or USING number) right-aligned unless a
    `;` ends the list; with `,` every item gets a 12-character field (cut to it, a
    number right-aligned), two to a row. (A number field after another number field
    is padded with spaces and has no sign place: the firmware stores PRINT 1,2 as
    NULs, " 1.", spaces, "2.".) The fields start at `start`, the column the line goes
    on from (after `PRINT "I";` the first field takes columns 1-12), and the last is
    not padded, so an empty one at the start of a row takes no row: PRINT 1,2,"" fills
    one row, PRINT 1,2,"","" two (cases PRINT_comma_empty_fields,
    PRINT_comma_after_open_line)."""
    if len(segments) == 1:
        items = segments[0]
        if lone_number(segments, open_end):
            return _aligned(items[0][0], COLS)
        return b"".join(text for text, _ in items)
    text = _field_text(segments)
    rows = max(1, -(-(start + len(text)) // COLS))
    return text.ljust(rows * COLS - start)      # the last row filled


def _field_text(segments):
    """The fields of a `,` list one after another, each but the last padded to 12."""
    fields = _fields(segments)
    return b"".join(field.ljust(HALF) for field in fields[:-1]) + fields[-1]


def _fields(segments):
    """The 12-character fields of a list split by `,`: cut, a number right-aligned."""
    fields = []
    after_number = False
    for segment in segments:
        field = b"".join(t for t, _ in segment)
        number = len(segment) == 1 and segment[0][1]
        if number and len(field) + (field[:1] != b"-") > HALF:
            field = _field_number(field)
        field = field[:HALF]
        if number:
            field = field.rjust(HALF) if after_number else _aligned(field, HALF)
        after_number = number
        fields.append(field)
    return fields


def _field_number(text):
    """A number too wide for its field with its sign place, as the firmware shows it
    there: E notation with the mantissa cut to 6 digits (0.1234567891 is 1.23456E-01,
    9.999999999E99 is 9.99999E 99: case PRINT_comma_wide_number)."""
    value = Decimal(text.decode("ascii").replace("E ", "E+"))
    exp = value.adjusted()
    mantissa = abs(value).scaleb(-exp).quantize(Decimal("1.00000"), rounding=ROUND_DOWN)
    sign = b"-" if value < 0 else b""
    return sign + b"%sE%s%02d" % (str(mantissa).encode("ascii"), b"-" if exp < 0 else b" ",
                                  abs(exp))


def lprint_text(segments, open_end):
    """What LPRINT sends: PRINT's text without the display's alignment. A lone number
    keeps its sign place (" 5."), fields are PRINT's with the last one not padded
    after its text (firmware engine: LPRINT "A","B" sends A, 11 spaces, B)."""
    if len(segments) > 1:
        return _field_text(segments)
    items = segments[0]
    text = b"".join(t for t, _ in items)
    if len(items) == 1 and items[0][1] and not open_end and text[:1] not in (b"-", b" "):
        text = b" " + text
    return text


def show(it, text, open_end):
    """Put a PRINT line on the display: at the CURSOR position, or as the next line."""
    text = close_text(text)
    screen = it.screen
    if it.cursor is not None:
        # at the CURSOR position, without clearing the line, going on in the next
        # rows (scrolling) if long; output goes on below
        col, row = it.cursor
        scrolls = screen.scrolls
        # (the row is drawn afresh from the cursor's cell on: dots before it stay)
        it.cost += len(text) * PRINT_CHAR_CYCLES - PRINT_AT_CURSOR_SAVING
        if open_end and not text:
            text = b"\x00"     # as below: `PRINT "";` leaves a NUL cell
        while col + len(text) > COLS:
            head, text = split_row(text, COLS - col)
            screen.print_at(row, col, head, col)
            col = 0
            if row < ROWS - 1:
                row += 1
            else:
                screen.scroll()
        screen.print_at(row, col, text, col)
        it.cost += (screen.scrolls - scrolls) * SCROLL_CYCLES
        screen.row = row
        screen.end_line()
        if open_end and col + len(text) < COLS:
            it.cursor = (col + len(text), row)
            screen.col = it.cursor[0]
        else:
            # a `;` at the row's very end goes on at the start of the next row, as a
            # new line would (firmware engine: CURSOR 23,1:PRINT "A";:PRINT "E" puts E
            # on row 2, scrolling from the bottom row: CURSOR_fills_row_end)
            it.cursor = None
        return
    # (a lone number's right-alignment blanks are print_alone's, not characters';
    # the blanks that fill the row after the last `,` field take no time)
    it.cost += len(text.strip(b" \x00")) * PRINT_CHAR_CYCLES
    if open_end and not text:
        text = b"\x00"     # `PRINT "";` leaves a NUL cell (firmware engine, GEN_timing_1)
    scrolls = screen.scrolls
    # PRINT writes over what the row holds without blanking it first: a row that
    # CURSOR filled keeps its tail (firmware engine: "OLDTEXT", then PRINT "N" on
    # that row, shows NLDTEXT)
    if screen.col:
        it.cost += PRINT_CONTINUE_CYCLES
    else:
        if not screen.done:
            it.cost += PRINT_TOP_AFTER_CLS_CYCLES   # (the top line after CLS)
        screen.begin_line()
    # text past the end of the row goes on in the next rows
    while screen.col + len(text) > COLS:
        head, text = split_row(text, COLS - screen.col)
        screen.print_at(screen.row, screen.col, head, screen.col)
        screen.next_line()
    screen.print_at(screen.row, screen.col, text, screen.col)
    col = screen.col + len(text)
    screen.end_line()
    it.cost += (screen.scrolls - scrolls) * SCROLL_CYCLES
    if open_end and col < COLS:
        screen.col = col


def display_wait(it, answer=None):
    """After PRINT: wait for ENTER, or WAIT n/64 seconds. A PRINT that made a number
    the last answer (`answer`) waits with it as a result: + - * / ^ typed first there
    go on from it (PRINT 5;7, then - shows `5.-`: case PRINT_wait_continues_answer)."""
    if it.wait is None:
        result = None if answer is None else \
            bcd.format_number(answer).replace(" ", "").encode("ascii")
        it.pending = ("enter", result)      # (under TRON, DOWN goes on too)
    elif it.wait:
        it.pending = ("delay", it.wait * WAIT_UNIT)


def stmt_print(it):
    segments, open_end, answer = print_fields(it)
    set_answer(it, answer)
    if segments == [[]]:
        # PRINT alone shows nothing; it only closes a line left open by `;`
        it.screen.col = 0
    else:
        # at a CURSOR position a lone number is not right-aligned
        if it.cursor is None:
            it.screen.resume_open_line()    # (before the layout: X5, not right-aligned)
        items = [number for segment in segments for _text, number in segment]
        it.cost += (len(items) - 1) * PRINT_ITEM_CYCLES + sum(items) * PRINT_NUMBER_CYCLES
        # a lone number is right-aligned only when it starts the row: after
        # `PRINT "X";` PRINT 5 shows X5. (firmware engine)
        joined = open_end or it.cursor is not None or it.screen.col > 0
        if lone_number(segments, joined):
            it.cost += PRINT_ALONE_CYCLES
        show(it, layout(segments, joined, _start_column(it)), open_end)
    # the firmware waits after `PRINT "A";` too; the next PRINT continues the line
    display_wait(it, answer)


def stmt_pause(it):
    segments, open_end, answer = print_fields(it)
    set_answer(it, answer)
    if segments != [[]] or open_end:    # PAUSE alone shows nothing, only waits (GEN_wait_1)
        it.screen.resume_open_line()
        show(it, layout(segments, open_end or it.screen.col > 0, _start_column(it)), open_end)
    it.pending = ("delay", PAUSE_CYCLES)


def _start_column(it):
    """Where the next PRINT's text starts: at the CURSOR position, or where a line a `;`
    left open goes on (0 on a new row)."""
    return it.cursor[0] if it.cursor is not None else it.screen.col


# LPRINT with no printer on the 11-pin port (the emulated machine has none) and no
# OPEN: the firmware skips to the statement's end without evaluating anything (LPRINT
# 1/0 and LPRINT X$+1 go on too), LPRINT_BYTE_CYCLES for each byte it steps over.
LPRINT_BYTE_CYCLES = CYCLES["lprint_byte"]
LPRINT_OPEN_SAVING = CYCLES["lprint_open_saving"]   # after OPEN


PRINTER_BYTE_CYCLES = CYCLES["printer_byte"]


def stmt_printer(it):
    """The printer's and plotter's own statements (CSIZE, CIRCLE, LF, GRAPH ...): with no
    printer on the 11-pin port the firmware steps over them to the statement's end,
    evaluating nothing (`COLOR 1/0` goes on; case PRINTER_statements_skipped)."""
    start = it.pos
    it.skip_statement()
    it.cost += (it.pos - start) * PRINTER_BYTE_CYCLES


def stmt_lprint(it):
    """After OPEN the text goes out on the 15-pin port (serial_io.lprint_job)."""
    if not get_port(it.mem)[1]:
        start = it.pos
        it.skip_statement()
        it.cost += (it.pos - start) * LPRINT_BYTE_CYCLES
        return
    segments, open_end, _answer = print_fields(it)
    numbers = sum(number for segment in segments for _text, number in segment)
    it.cost -= LPRINT_OPEN_SAVING
    it.pending = ("serial", "lprint", lprint_text(segments, open_end), numbers, not open_end)


def stmt_using(it):
    set_using(it, None if it.at_end() else it.string())


def stmt_wait(it):
    it.wait = None if it.at_end() else it.integer(0, 65535)


def stmt_cls(it):
    it.cost += it.screen.row * CLS_ROW_CYCLES
    it.screen.clear()
    it.cursor = None
    it.gcursor = (0, 7)         # GPRINT after CLS starts at the top left


def stmt_cursor(it):
    if it.at_end():
        # CURSOR alone ends the CURSOR position and closes a line a `;` left open:
        # the next PRINT starts a new row (firmware engine, CURSOR_alone_closes_line)
        it.cursor = None
        it.screen.col = 0
        return
    first = it.integer(-32768, 65535)
    if it.accept(0x2C):
        col, row = first, it.integer(0, ROWS - 1)
        if not 0 <= col < COLS:
            raise BasicError(ILLEGAL)
    else:
        # CURSOR n: the n-th of the 96 cells, row by row (as the firmware places
        # CURSOR 10 at column 10 of the top line)
        if not 0 <= first < COLS * ROWS:
            raise BasicError(ILLEGAL)
        row, col = divmod(first, COLS)
        it.cost -= CURSOR_CELL_SAVING
    it.cursor = (col, row)
    it.mem[TEXT_CURSOR] = col
    it.mem[TEXT_CURSOR + 1] = row


# ---------------------------------------------------------------- INPUT

def stmt_input(it):
    """INPUT ["prompt";|,] var [, ["prompt";|,] var ...]: the engine asks for each."""
    items = []
    while True:
        prompt, keep = None, True
        if it.peek() == QUOTE:
            prompt = it.string_literal() or None    # "" asks with `?` (GEN_input_1)
            if it.accept(0x2C):
                keep = False
            elif not it.accept(0x3B):
                raise BasicError(SYNTAX)
        items.append(InputItem(prompt, keep, it.variable(create=True)))
        if not it.accept(0x2C):
            break
    it.pending = ("input", items)


# ---------------------------------------------------------------- sound

def stmt_beep(it):
    """BEEP n[,f,d]: the engine sounds it while the time passes. With f the beeps'
    length and timing are the firmware's (the pitch is the buzzer's 4 kHz); BEEP n
    alone sounds 0.2 s tones (sound.TONE_CYCLES)."""
    count = it.number()
    # a negative count beeps nothing, as 0 does (firmware engine, case BEEP_POKE_arguments)
    count = 0 if count < 0 else to_int(count, 0, 65535)
    tone = duration = None
    if it.accept(0x2C):
        tone = it.integer(0, 255)
        if it.accept(0x2C):
            duration = it.integer(0, 65535)
    if tone is None:
        cycles = FIRST_BEEP_CYCLES + (count - 1) * BEEP_CYCLES if count else BEEP_ZERO_CYCLES
        it.pending = ("beep", count, tone, duration, cycles)
        return
    if duration is None:
        duration = BEEP_DEFAULT_DURATION
    length = 2 * (duration + 1) * (BEEP_HALF_PERIOD + BEEP_HALF_PER_TONE * tone)
    starts = [BEEP_LEAD + i * (length + BEEP_GAP) for i in range(count)]
    cycles = starts[-1] + length + BEEP_TAIL if count else BEEP_ZERO_TONED
    it.pending = ("beep", count, tone, duration, cycles, [(s, length) for s in starts])

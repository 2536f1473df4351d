"""OPEN / CLOSE / LOAD / SAVE over the 15-pin SIO for the built-in engine.

The firmware (tests/emulator/connectors/test_sio_firmware.py,
tests/tools/test_serial_firmware.py) sets the port up with OPEN
"baud,parity,bits,stop,code,eol,eof" and then plain LOAD and SAVE use it. This module does the same on the same pins, through the machine's
bus, so that machine.sio (or any other wrapper of the bus) cannot tell the engines
apart: SD is FO bit 1 and RD is INB bit 5 (both inverted: 1 = space), ER/RR/RS are
0x3800 bits 1/2/3, CS is INB bit 6, CD INB bit 7.

Figures measured on the firmware engine (the builtin copies them):
- a bit lasts 212 cycles at 1200 baud, 426 at 600, 854 at 300; SD returns to mark for
  the stop bit 7 cycles early; a byte inside a listing line starts 206 cycles after
  the previous frame's end, CR 40 cycles sooner, LF 141 sooner, 0x1A 63 later;
- SAVE raises RS 1221 cycles after it starts, sends while CS is high and drops RS
  86 cycles after the end of the 0x1A frame. Before each line it spends time making
  the listing: a linear model in the line's contents (SAVE_LINE below, fitted on the
  87 lines of kniffel.bas: 0.5% mean, 2.1% worst error);
- LOAD raises ER, waits for CD, raises RR, drops it 9.19 bit times after the start bit
  of a line's end code and stores the line, then raises RR again; the time it stores
  (LOAD_LINE below, same fit: 8% mean, 24% worst per line, total within 0.1%);
- OPEN takes 300, 600 and 1200 baud; an empty field keeps the last value; a bad field
  is ERROR 1, a number ERROR 9, OPEN on an open port ERROR 8. CLOSE leaves ER high.
- without OPEN, LOAD and SAVE do nothing; LOAD "name" on the open port is ERROR 8,
  SAVE "name" does nothing, "COM:" is ERROR 1 for both.

The engine runs a transfer as a job (jobs.py: a generator that yields the cycles to
wait, given the Jobs it runs in: its `pins`, `mem` and `interp`).

LPRINT on the open port (firmware engine, machine.sio at the far end) sends what PRINT
would store for its items, without the display's alignment: LPRINT 5 sends " 5." and
the line end, LPRINT "A",1 "A", 11 spaces, 9 NULs, " 1."; a `;` at the end sends no
line end. It pulses RS, raises it for the bytes (each waits for CS) and drops it after
them. A program that ends (END, or past its last line) and RUN close the port; an
error or STOP leaves it open. CLOSE and END leave bit 6 of the latch set and RUN
clears it (end_latch); ER stays as OPEN left it, low if there was no OPEN.
Without OPEN, LPRINT skips its statement (output.py).

PRINT #1 and INPUT #1 do nothing visible on the firmware engine, even after OPEN.
Not yet here: LLIST on the SIO and the OPEN$ function.
"""

import re

from emulator.builtin.basic_errors import IO, OTHER, SYNTAX, BasicError
from emulator.builtin.timing import CYCLES
from emulator.builtin.typed import to_text, tokenize_body
from emulator.connectors.serial_line import SPACE, FrameFormat, frame_bits
from pc1360 import charset
from pc1360.errors import FormatError
from pc1360.facts import (
    CR,
    DATA_BITS,
    IB_CD,
    IB_CS,
    IB_RD,
    LCD_MIRROR,
    LINE_REF,
    MAX_LINE,
    PARITIES,
    PREFIX,
    QUOTE,
    SIO_BAUDS,
    SIO_EOF,
    STOP_BITS,
)
from pc1360.facts import LATCH_ER as ER
from pc1360.facts import LATCH_RR as RR
from pc1360.facts import LATCH_RS as RS
from pc1360.facts import SIO_BIT_CYCLES as BIT_CYCLES
from pc1360.facts import SIO_EOL as EOL_BYTES
from pc1360.facts import SIO_LATCH_SHADOW as LATCH_SHADOW
from pc1360.image import Line
from pc1360.keywords import BY_CODE
from pc1360.listing import list_line
from pc1360.tokenizer import tokenize_line

FRAME_GAP = CYCLES["sio_frame_gap"]         # a frame's end to the next start bit
CR_EARLY, LF_EARLY, EOF_LATE = CYCLES["sio_cr_early"], CYCLES["sio_lf_early"], \
    CYCLES["sio_eof_late"]
RS_DELAY = CYCLES["save_rs_delay"]          # SAVE start -> RS
RS_DROP = CYCLES["save_rs_drop"]            # end of the 0x1A frame -> RS low
STOP_EARLY = CYCLES["sio_stop_early"]       # SD goes to mark this much before the stop bit
POLL = CYCLES["sio_poll"]                   # between reads of INB while waiting for CS, CD
RD_POLL = CYCLES["sio_rd_poll"]             # ... and for a start bit
FIRST_LINE = CYCLES["save_first_line"]      # first line: RS to its first start bit
LINE_GAP = CYCLES["save_line_gap"]          # ... and a later line's: period less this
RR_DELAY = CYCLES["load_rr_delay"]          # LOAD: ER write -> RR (when CD is high)
# LPRINT (firmware engine, 1200 baud): RS pulses, then rises for good after a lead, a
# time per character and per number (and more without a line end), then the frames.
LPRINT_PULSE = CYCLES["lprint_pulse"]
LPRINT_LEAD, LPRINT_CHAR = CYCLES["lprint_lead"], CYCLES["lprint_char"]
LPRINT_NUMBER, LPRINT_OPEN_END = CYCLES["lprint_number"], CYCLES["lprint_open_end"]
LPRINT_FIRST = CYCLES["lprint_first"]
LPRINT_GAP = {0x0D: CYCLES["lprint_gap_cr"], 0x0A: CYCLES["lprint_gap_lf"]}
LPRINT_GAP_OTHER = CYCLES["lprint_gap"]
LPRINT_DROP_EOL, LPRINT_DROP_OTHER = CYCLES["lprint_drop_eol"], CYCLES["lprint_drop_other"]
EOL_CODES = {letter: eol[-1] for letter, eol in EOL_BYTES.items()}   # ends a line LOAD gets
MAX_TEXT = 80

# (baud, parity, data bits, stop bits, code, end of line, end of file), open flag
DEFAULT_PORT = ((1200, "N", 8, 1, "A", "C", SIO_EOF), False)
# The port's state lives in RAM, as the firmware's does, so that snapshots and the
# power-off state keep it: 8 scratch bytes of display block 0x2C00 that no dot uses
# (the firmware keeps its latch shadow at 0x2CBE nearby). Byte 0: 0x80 set once
# OPEN has run, bit 0 the port is open; then baud / 100, parity, data bits, stop
# bits, end-of-line letter, end-of-file code.
PORT_RAM = 0x2CB0
# LATCH_SHADOW is the firmware's copy of the lines it holds up between transfers (ER once
# OPEN raised it), nibbles swapped; a job's end, CLOSE, END and RUN write it back to the
# latch.
LATCH_BIT6 = 0x40           # CLOSE and END leave it set, RUN clears it (no SIO pin)

# Cycles per line feature (see features()): constant, digits of the line number,
# keywords, sum of their keyword-table indexes, other letters, other characters,
# string characters, characters after REM, compiled line numbers.
_FEATURES = ("const", "digits", "keywords", "keyword_index", "letters", "other", "string",
             "rem", "refs")
LOAD_LINE = tuple(CYCLES[f"load_line_{name}"] for name in _FEATURES)
SAVE_LINE = tuple(CYCLES[f"save_line_{name}"] for name in _FEATURES)


def features(number, body):
    """The line's contents as counts, for the time models.

    Not token_walk.walk: this counts 0xFE with any byte after it as a keyword and a
    0x1F as a line number however few bytes follow, as the models were fitted; the
    walker would count a POKEd line's unknown codes as two plain bytes."""
    kw = kwidx = letters = other = strc = rem = refs = 0
    in_string = False
    i = 0
    while i < len(body):
        c = body[i]
        if in_string:
            strc += 1
            in_string = c != QUOTE
            i += 1
            continue
        if c == PREFIX and i + 1 < len(body):
            keyword = BY_CODE.get(body[i + 1])
            kw += 1
            kwidx += keyword.rom_index if keyword else 0
            if keyword is not None and keyword.name == "REM":
                rem = len(body) - i - 2
                break
            i += 2
            continue
        if c == LINE_REF:
            refs += 1
            i += 3
            continue
        if c == QUOTE:
            in_string = True
            strc += 1
        elif 0x41 <= c <= 0x5A:
            letters += 1
        else:
            other += 1
        i += 1
    return (1, len(str(number)), kw, kwidx, letters, other, strc, rem, refs)


def model(coefficients, number, body):
    return max(0, round(sum(a * b for a, b in zip(coefficients, features(number, body)))))


# ---------------------------------------------------------------- listing text

_PIECES = re.compile(r"\\x([0-9A-Fa-f]{2})|(.)", re.DOTALL)


def save_text(number, body):
    """A line as SAVE sends it: `10 PRINT "HI": GOTO 10`, π and √ spelt " PI " and
    " SQR " outside strings, a space after a keyword that ends the line."""
    listed = list_line(Line(number, body))[len(str(number)) + 1:]
    out = bytearray()
    in_string = False
    for escape, char in _PIECES.findall(listed):
        code = int(escape, 16) if escape else (charset.code_of(char) or 0x3F)
        if code == QUOTE:
            in_string = not in_string
        if not in_string and code == 0xFB:
            out += b" PI "
        elif not in_string and code == 0xFC:
            out += b" SQR "
        else:
            out.append(code)
    if len(body) >= 2 and body[-2] == PREFIX:
        out += b" "
    return str(number).encode("ascii") + b" " + bytes(out)


# ---------------------------------------------------------------- OPEN's string

def parse_open(text, settings):
    """The settings after OPEN "text" (empty fields keep `settings`); ERROR 1 if bad."""
    fields = text.split(b",")
    if not text or len(fields) > 7:
        raise BasicError(SYNTAX)
    new = list(settings)
    for index, field in enumerate(fields):
        field = field.strip(b" ")
        if not field:
            continue
        try:
            value = field.decode("ascii")
        except UnicodeDecodeError:
            raise BasicError(SYNTAX) from None
        if index == 0:
            if value not in [str(baud) for baud in SIO_BAUDS]:
                raise BasicError(SYNTAX)
            new[0] = int(value)
        elif index == 1:
            if value not in PARITIES:
                raise BasicError(SYNTAX)
            new[1] = value
        elif index in (2, 3):
            allowed = DATA_BITS if index == 2 else STOP_BITS
            if value not in [str(number) for number in allowed]:
                raise BasicError(SYNTAX)
            new[index] = int(value)
        elif index == 4:
            if value != "A":
                raise BasicError(SYNTAX)
        elif index == 5:
            if value not in EOL_CODES:
                raise BasicError(SYNTAX)
            new[5] = value
        else:
            if not re.fullmatch(r"&[0-9A-F]{1,2}", value):
                raise BasicError(SYNTAX)
            new[6] = int(value[1:], 16)
    return tuple(new)


def close_port(mem):
    """The port closed (its settings kept), as a program's end and RUN leave it."""
    settings, is_open = get_port(mem)
    if is_open:
        set_port(mem, settings, False)


def held_lines(mem):
    """The latch bits the firmware's shadow byte holds: ER after the first OPEN."""
    return ER if mem[LATCH_SHADOW] & ER << 4 else 0


def end_latch(owner, run=False):
    """END leaves the held lines and bit 6 in the latch (the firmware writes the lines,
    then ~24,300 cycles later them and bit 6, inside END's time: one write here, at
    END's start). RUN's writes end with the held lines alone. `owner`: the engine or
    its Jobs (their `pins` and `mem`)."""
    lines = held_lines(owner.mem)
    owner.pins.latch(lines if run else lines | LATCH_BIT6)


def get_port(mem):
    """(settings, is_open) from RAM; the defaults before the first OPEN, and also where a
    POKE left settings that OPEN cannot write (what the firmware does then is not
    known; the defaults keep the transfer well-formed)."""
    data = mem[PORT_RAM:PORT_RAM + 7]
    if not data[0] & 0x80:
        return DEFAULT_PORT
    settings = (data[1] * 100, chr(data[2]), data[3], data[4], "A", chr(data[5]), data[6])
    baud, parity, bits, stops, _code, eol, _eof = settings
    if baud not in SIO_BAUDS or parity not in PARITIES or bits not in DATA_BITS or \
            stops not in STOP_BITS or eol not in EOL_CODES:
        return DEFAULT_PORT[0], bool(data[0] & 1)
    return settings, bool(data[0] & 1)


def set_port(mem, settings, is_open):
    baud, parity, bits, stops, _code, eol, eof = settings
    data = bytes((0x80 | is_open, baud // 100, ord(parity), bits, stops, ord(eol), eof))
    for base in (PORT_RAM, PORT_RAM ^ LCD_MIRROR):  # the block's mirror
        mem[base:base + 7] = data


# ---------------------------------------------------------------- statements

def _device_name(it):
    """LOAD/SAVE "name": "COM:" (any name with a colon) is ERROR 1; None without one."""
    if it.at_end():
        return None
    name = it.expression()
    if not isinstance(name, bytes):
        raise BasicError(OTHER)
    if b":" in name:
        raise BasicError(SYNTAX)
    return name


# Cycles from the ENTER key going down to the first write to the latch, on the firmware
# engine, for a typed line that starts with these statements (the firmware reads a
# typed OPEN "..." for longer); the engine waits them instead of a typed line's time.
ENTER_TO_LATCH = {"OPEN": CYCLES["enter_to_latch_open"],
                  "OPEN ": CYCLES["enter_to_latch_open_text"],
                  "CLOSE": CYCLES["enter_to_latch_close"], "LOAD": CYCLES["enter_to_latch_load"],
                  "SAVE": CYCLES["enter_to_latch_save"]}
ENTER_LATE = CYCLES["enter_late"]       # the built-in engine's own lag from ENTER to the job
OPEN_ER = CYCLES["open_er"]             # OPEN "...": the latch is cleared, then ER set this later
CLOSE_LATCH = CYCLES["close_latch"]     # CLOSE writes ER, then ER + bit 6 this later


def enter_cycles(data):
    """For a typed line starting with OPEN, CLOSE, LOAD or SAVE: the cycles the engine
    waits after ENTER before it runs it (None for any other line)."""
    try:
        body = tokenize_body(data)
    except BasicError:
        return None
    if len(body) < 2 or body[0] != PREFIX:
        return None
    keyword = BY_CODE.get(body[1])
    name = keyword.name if keyword is not None else None
    if name == "OPEN" and body[2:3] not in (b"", b"\r", b":"):
        name = "OPEN "
    if name not in ENTER_TO_LATCH:
        return None
    return ENTER_TO_LATCH[name] - ENTER_LATE


def stmt_open(it):
    settings, is_open = get_port(it.mem)
    if is_open:
        raise BasicError(IO)
    with_text = not it.at_end()
    if with_text:
        text = it.expression()
        if not isinstance(text, bytes):
            raise BasicError(OTHER)
        settings = parse_open(text, settings)
    set_port(it.mem, settings, True)
    it.pending = ("serial", "open " if with_text else "open")


def stmt_close(it):
    """CLOSE: the port is closed; ER stays high (only a reset drops it)."""
    settings, _ = get_port(it.mem)
    set_port(it.mem, settings, False)
    it.pending = ("serial", "close")


def stmt_load(it):
    name = _device_name(it)
    _settings, is_open = get_port(it.mem)
    if name is not None:
        raise BasicError(IO)
    if is_open:
        it.pending = ("serial", "load")


def stmt_save(it):
    name = _device_name(it)
    _settings, is_open = get_port(it.mem)
    if name is None and is_open:
        it.pending = ("serial", "save")


# ---------------------------------------------------------------- the jobs

def _frame_levels(value, fmt):
    """SD's levels for the start, data and parity bits of a frame (1 = space)."""
    return [int(level == SPACE) for level in frame_bits(value, fmt)[:fmt.stop_index]]


def _send_frame(pins, value, bit, bits, parity, stops):
    """One frame on SD; SD goes back to mark a little early for the stop bit(s)."""
    fmt = FrameFormat(data_bits=bits, parity=parity, stop_bits=stops)
    frame = fmt.bits_per_frame * bit
    levels = _frame_levels(value & ((1 << bits) - 1), fmt)
    for level in levels[:-1]:
        pins.sd(level)
        yield bit
    pins.sd(levels[-1])
    yield bit - STOP_EARLY
    pins.sd(0)                                      # stop bit(s): mark
    yield frame - len(levels) * bit + STOP_EARLY


def open_job(jobs, settings, cleared=False):
    """OPEN: ER (after clearing the latch when OPEN has a string)."""
    pins = jobs.pins
    if cleared:
        pins.latch(0)
        yield OPEN_ER
    pins.latch(ER)
    for base in (LATCH_SHADOW, LATCH_SHADOW ^ LCD_MIRROR):  # (the block's mirror)
        jobs.mem[base] = ER << 4


def close_job(jobs, settings):
    """CLOSE writes the latch twice: the held lines (ER stays high after OPEN, low
    without one), then them and bit 6."""
    pins = jobs.pins
    lines = held_lines(jobs.mem)
    pins.latch(lines)
    yield CLOSE_LATCH
    pins.latch(lines | LATCH_BIT6)


def save_job(jobs, settings):
    """SAVE: RS, wait for CS, the program as listing lines, the end-of-file code."""
    baud, parity, bits, stops, _code, eol, eof = settings
    pins = jobs.pins
    bit = BIT_CYCLES[baud]
    frame = FrameFormat(baud, bits, parity, stops).bits_per_frame * bit
    period = frame + FRAME_GAP
    program = jobs.interp.program
    mem = jobs.mem
    pins.latch(ER)
    yield RS_DELAY
    pins.latch(ER | RS)
    plan = []                                       # (cycles after the previous start, byte)
    first = True
    for number, addr in program.lines():
        length = mem[addr + 2]
        body = bytes(mem[addr + 3:addr + 2 + length])
        if body.endswith(bytes((CR,))):
            body = body[:-1]
        text = save_text(number, body)
        listing = model(SAVE_LINE, number, body)
        lead = FIRST_LINE + listing if first else period - LINE_GAP + listing
        first = False
        for index, value in enumerate(text):
            plan.append((lead if index == 0 else period, value))
        for value in EOL_BYTES[eol]:
            plan.append((period - (CR_EARLY if value == CR else LF_EARLY), value))
    plan.append((period + EOF_LATE if plan else FIRST_LINE + SAVE_LINE[0], eof))
    sent = 0                                        # cycles since the last start bit
    for wait, value in plan:
        yield max(wait - sent, 1)
        while not pins.inb() & IB_CS:               # the host is not ready
            yield POLL
        yield from _send_frame(pins, value, bit, bits, parity, stops)
        sent = frame
    yield RS_DROP
    pins.latch(ER)


def lprint_job(jobs, settings, text, numbers, newline):
    """LPRINT: `text` (then the line end if `newline`) with RS, each byte once CS is
    high; `numbers` is how many numbers it formatted (they take time first)."""
    baud, parity, bits, stops, _code, eol, _eof = settings
    pins = jobs.pins
    bit = BIT_CYCLES[baud]
    data = text + (EOL_BYTES[eol] if newline else b"")
    pins.latch(ER | RS)
    yield LPRINT_PULSE
    pins.latch(ER)
    if not data:
        return
    yield (LPRINT_LEAD + LPRINT_CHAR * len(text) + LPRINT_NUMBER * numbers
           + (0 if newline else LPRINT_OPEN_END))
    pins.latch(ER | RS)
    for index, value in enumerate(data):
        yield LPRINT_GAP.get(value, LPRINT_GAP_OTHER) if index else LPRINT_FIRST
        while not pins.inb() & IB_CS:               # the host is not ready
            yield POLL
        yield from _send_frame(pins, value, bit, bits, parity, stops)
    yield LPRINT_DROP_EOL if newline else LPRINT_DROP_OTHER
    pins.latch(ER)


def load_job(jobs, settings):
    """LOAD: ER, wait for CD, RR; lines as typed until the end-of-file code."""
    baud, parity, bits, stops, _code, eol, eof = settings
    pins = jobs.pins
    bit = BIT_CYCLES[baud]
    end_code = EOL_CODES[eol]
    byte_end = round((FrameFormat(baud, bits, parity, stops).stop_index + 0.19) * bit) - RD_POLL // 2
    pins.latch(ER)
    yield RR_DELAY
    while not pins.inb() & IB_CD:
        yield POLL
    pins.latch(ER | RR)
    text = bytearray()
    while True:
        while not pins.inb() & IB_RD:
            yield RD_POLL
        yield bit // 2
        if not pins.inb() & IB_RD:
            continue                                # a glitch
        value = 0
        for index in range(bits):
            yield bit
            if not pins.inb() & IB_RD:
                value |= 1 << index
        yield byte_end - bit // 2 - bits * bit
        if value == eof:
            pins.latch(ER)
            if text.strip(b" "):
                _store(jobs, bytes(text))
            return
        if value == end_code:
            pins.latch(ER)
            line = bytes(text)
            text.clear()
            if line.strip(b" "):
                yield _store(jobs, line)
            pins.latch(ER | RR)
        elif value not in (0x0D, 0x0A) and len(text) < MAX_TEXT:
            text.append(value)


def _store(jobs, data):
    """Store a received line as PRO mode stores a typed one; the cycles it takes. A
    line that cannot be stored (no line number, garbled) is dropped and LOAD goes on
    (the firmware stores what it got of a garbled line; what it does with a line
    without a number is not checked)."""
    text = data.lstrip(b" ")
    digits = len(text) - len(text.lstrip(b"0123456789"))
    if not digits or not 1 <= int(text[:digits]) <= MAX_LINE:
        return LOAD_LINE[0]
    program = jobs.interp.program
    if not text[digits:].strip(b" :"):
        program.store(int(text[:digits]), b"")
        return LOAD_LINE[0]
    try:
        line = tokenize_line(to_text(data))
        program.store(line.number, line.body)
    except (FormatError, BasicError):
        return LOAD_LINE[0]
    return model(LOAD_LINE, line.number, line.body)


JOBS = {"open": open_job, "open ": lambda jobs, settings: open_job(jobs, settings, True),
        "close": close_job, "load": load_job, "save": save_job, "lprint": lprint_job}

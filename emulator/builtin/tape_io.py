"""Cassette statements of the built-in engine: CSAVE, CLOAD, CLOAD?, MERGE, CHAIN, PRINT#,
INPUT#.

They go through the machine's recorder (machine.cassette, emulator/connectors/cassette.py) as the
firmware does: writing drives Xout with the control port's square-wave modes (2 kHz for
a 0 bit, 4 kHz for a 1 bit, 512 cycles a bit), reading takes the inserted tape's Xin
changes from the moment the statement starts listening. The records are pc1360.tape's
and the signal layout (lead-in, stop bits, pauses) is the firmware's, as measured on its
Xout (pc1360.tape.firmware_stops); so a tape one engine writes, the other reads.

Figures from the firmware engine (the built-in one copies them):
- writing: OUTC mode 1 (the remote line) for 20000 cycles, mode 0 for 7664, the 8 s
  lead-in and the record, mode 1 for 20000 cycles again, then mode 0;
- PRINT# ["name";] var[,var ...]: a fixed variable, a two-character one or a whole
  array X(*); an element X(1) is ERROR 3, a number or a name alone ERROR 1. The items
  before a bad one are written first. A name is cut to 7 characters;
- INPUT# ["name";] var[,...] reads the next data file of that name (any data file
  without a name) and one item per variable (rules at input_job);
- a read waits for the tape as long as it takes; BRK ends it with a `>` prompt after a
  typed line, BREAK IN line in a program. Writing does not read BRK;
- while a read takes a file in, a mark shows in the bottom right cell;
- CLOAD ["name"] puts the program on the card as pc1360.ramcard lays it out (a damaged
  tape: ERROR 8 and no program); MERGE ["name"] appends it (see _merge_program);
  CLOAD? ["name"] compares (ERROR 8 at the first difference); CHAIN ["name"][,target]
  loads and runs it, variables kept; CSAVE "name","password" writes a 0x73 record;
- PRINT #1 / INPUT #1 (with or without OPEN) do nothing observable on the firmware
  engine: no SIO byte, handshake line, tape signal or wait; #2 ... are ERROR 1.

A transfer runs as a job (jobs.py: a generator yielding the cycles to wait, given the
Jobs it runs in: its `pins`, `mem`, `interp` and `host`) in the state TAPE.
"""

from emulator.builtin.basic_errors import ILLEGAL, IO, MEMORY, SYNTAX, BasicError
from emulator.builtin.screen import CELL_COLUMNS, COLS, MIRROR, ROWS
from emulator.builtin.stored_program import MERGE_PTR, set_word
from emulator.builtin.timing import CYCLES
from emulator.builtin.vars import DIM_TOP, FIXED_Z, HEADER_LEN, NUM, STR, type_byte
from pc1360 import charset, ramcard, tape, tapesound
from pc1360.errors import FormatError
from pc1360.facts import CYCLES_PER_SECOND, QUOTE

BIT_CYCLES = CYCLES["tape_bit"]
REMOTE, SILENT, ZERO, ONE, LISTENING = 1, 0, 2, 3, 7     # Xout modes (OUTC bits 4-6)
REMOTE_CYCLES = CYCLES["tape_remote"]       # mode 1 before and after the signal
QUIET_CYCLES = CYCLES["tape_quiet"]         # mode 0 between the first mode 1 and the lead-in
PRINT_LATE = CYCLES["tape_print_late"]      # from the last mode 0 to PRINT#'s end
CSAVE_LATE = CYCLES["tape_csave_late"]      # ... and to CSAVE's `>`
BYTE_LATE = CYCLES["tape_byte_late"]        # a read takes a byte this long after its last bit
ERROR_LATE = CYCLES["tape_error_late"]      # ... to the ERROR 8 of a damaged or other program
READ_LATE = CYCLES["tape_read_late"]        # from INPUT#'s final mode 0 to its end
LOAD_LATE = CYCLES["tape_load_late"]        # ... and from CLOAD's (MERGE's, CLOAD?'s)
# While a read takes a file in, the firmware shows this mark in the bottom right cell
# (its display columns, read from the firmware engine's display RAM).
READ_MARK = bytes((0x00, 0x14, 0x08, 0x3E, 0x08))
LISTEN = CYCLES_PER_SECOND   # a read with nothing (more) to read waits a second at a time
INSERT_POLL = 2560          # ... and looks for a tape put in this often
FIXED_END = FIXED_Z + 26 * 8 - 1     # the last byte of the fixed variables A-Z
_HASH, _SEMI, _COMMA, _OPEN, _CLOSE, _STAR = 0x23, 0x3B, 0x2C, 0x28, 0x29, 0x2A
_DEVICE_1 = 0x31


# ---------------------------------------------------------------- variables as items

def _is_fixed(addr):
    return FIXED_Z <= addr <= FIXED_END


def _item_target(it):
    """The variable of a PRINT#/INPUT# list as (descriptor, data address, length)."""
    start = it.pos
    mem = it.mem
    if not 0x41 <= mem[start] <= 0x5A:
        raise BasicError(SYNTAX)
    name = bytes([mem[start]])
    pos = start + 1
    if 0x41 <= mem[pos] <= 0x5A or 0x30 <= mem[pos] <= 0x39:
        name += bytes([mem[pos]])
        pos += 1
    is_str = mem[pos] == 0x24
    pos += is_str
    if mem[pos] == _OPEN and mem[pos + 1] == _STAR and mem[pos + 2] == _CLOSE:
        it.pos = pos + 3
        header = it.vars._headers().get((type_byte(name, is_str, True), name[0]))
        if header is None:
            raise BasicError(ILLEGAL)
        return _dim_item(mem, header)
    ref = it.variable(create=False)
    if ref is None:                     # a two-character variable that does not exist
        raise BasicError(ILLEGAL)
    addr, _size, kind = ref
    if _is_fixed(addr):
        return tape.FIXED_ITEM, addr, tape.FIXED_LENGTH
    if kind in (NUM, STR) and mem[it.pos - 1] != _CLOSE:
        return _dim_item(mem, addr - HEADER_LEN)
    raise BasicError(ILLEGAL)          # an array element


def _dim_item(mem, header):
    descriptor = bytes(mem[header + 2:header + HEADER_LEN])
    return descriptor, header + HEADER_LEN, tape.item_length(descriptor)


def _file_name(it):
    """PRINT#/INPUT#'s "name"; (the name is cut to 7 characters)."""
    if it.peek() != QUOTE:
        return ""
    name = it.string_literal()
    if not it.accept(_SEMI):
        raise BasicError(SYNTAX)
    return _text(name[:tape.NAME_LENGTH])


def _text(codes):
    """A file name as pc1360.tape takes it (codes without a character are left out)."""
    return "".join(charset.TO_TEXT.get(code, "") for code in codes)


def _item_list(it):
    """[(descriptor, address, length)] up to the first bad item, and that item's error
    (None when all are good): the firmware writes the good ones first."""
    items = []
    try:
        while True:
            items.append(_item_target(it))
            if it.at_end():
                return items, None
            if not it.accept(_COMMA):
                raise BasicError(SYNTAX)
    except BasicError as err:
        if not items:
            raise
        it.skip_statement()
        return items, err.code


# ---------------------------------------------------------------- statements

def with_hash(other, tape_handler):
    """PRINT and INPUT as the statement table has them: `PRINT #` and `INPUT #` go
    to the tape, the rest to `other` (output.py's handler)."""
    def handler(it):
        if not it.accept(_HASH):
            other(it)
        elif it.accept(_DEVICE_1):
            # PRINT #1 / INPUT #1: the firmware engine takes them and does nothing
            # observable (no SIO bytes or handshake, no tape, no wait; with or without
            # OPEN); #2 and the like are ERROR 1
            it.skip_statement()
        elif 0x30 <= it.peek() <= 0x39:
            raise BasicError(SYNTAX)
        else:
            tape_handler(it)
    return handler


def print_hash(it):
    name = _file_name(it)
    items, error = _item_list(it)
    mem = it.mem
    record = tape.encode_data([(d, bytes(mem[a:a + n])) for d, a, n in items], name)
    # measured: one more lead bit before a DIM-area variable with newer ones in front
    newest = it.vars.dim_pointer() + HEADER_LEN
    leads = [int(d != tape.FIXED_ITEM and a != newest) for d, a, _n in items[1:]]
    it.pending = ("tape", "write", record, leads, error, PRINT_LATE)


def input_hash(it):
    name = _file_name(it)
    items, error = _item_list(it)
    it.pending = ("tape", "input", name, items, error)


def _program_name(it):
    if it.at_end():
        return None
    value = it.expression()
    if not isinstance(value, bytes):
        raise BasicError(SYNTAX)
    return _text(value[:tape.NAME_LENGTH])


def stmt_csave(it):
    """CSAVE ["name"][,"password"] (a password makes a 0x73 record)."""
    name = _program_name(it) or ""
    password = _program_name(it) if it.accept(_COMMA) else None
    program = it.program
    image = bytes(it.mem[program.start + 1:program.end])
    if not image:
        return
    record = tape.encode_tap(image, name, password)
    it.pending = ("tape", "write", record, (), None, CSAVE_LATE)


def stmt_cload(it):
    verify = it.accept(0x3F)
    it.pending = ("tape", "verify" if verify else "cload", _program_name(it))


def stmt_merge(it):
    it.pending = ("tape", "merge", _program_name(it))


def stmt_chain(it):
    """CHAIN ["name"][,line|"label"] (in a program only: typed, ERROR 1): the next
    program from the tape replaces this one and runs, variables kept."""
    if it.line_addr is None:
        raise BasicError(SYNTAX)
    name = _program_name(it)
    target = it.target() if it.accept(_COMMA) else None
    if not it.at_end():
        raise BasicError(SYNTAX)
    it.pending = ("tape", "chain", name, target)


# ---------------------------------------------------------------- the jobs

def _signal_runs(record, leads):
    """(mode, cycles) of the record's signal after the lead-in starts."""
    bits = tapesound.frame_bits(record, tape.firmware_stops(record, leads))
    runs = []
    for bit in bits:
        if runs and runs[-1][0] == bit:
            runs[-1][1] += 1
        else:
            runs.append([bit, 1])
    return [(ONE if bit else ZERO, count * BIT_CYCLES) for bit, count in runs]


def write_job(jobs, record, leads, error, late):
    """CSAVE / PRINT#: the remote line, the record's signal, the remote line again."""
    jobs.pins.xout(REMOTE)
    yield REMOTE_CYCLES
    jobs.pins.xout(SILENT)
    yield QUIET_CYCLES
    for mode, cycles in _signal_runs(record, leads):
        jobs.pins.xout(mode)
        yield cycles
    jobs.pins.xout(REMOTE)
    yield REMOTE_CYCLES
    jobs.pins.xout(SILENT)
    yield late
    if error is not None:
        raise BasicError(error)


class _TapeReader:
    """The bytes of the inserted tape from now on, each with the cycle it is read at."""

    def __init__(self, jobs):
        edges = jobs.host.cassette.play()
        self.now = jobs.host.now() if edges else 0
        timed = tapesound.decode_crossings([cycle for cycle, _ in edges], CYCLES_PER_SECOND)
        self.data = bytes(byte for byte, _ in timed)
        self.times = [round(at) for _, at in timed]
        self.pos = 0

    def wait_until(self, pos):
        """Cycles to wait until byte pos - 1 has been read."""
        at = self.times[pos - 1] + BYTE_LATE if pos else self.now
        wait = max(at - self.now, 1)
        self.now = max(at, self.now)
        return wait

    def next_file(self, kinds, name):
        """Position after the header of the next file of one of `kinds` (file type
        bytes) called `name` (None: any), or None when the tape has none."""
        data = self.data
        for pos in range(self.pos, len(data) - tape.HEADER.sizeof() + 1):
            if data[pos] not in kinds:
                continue
            try:
                _kind, found = tape.decode_header(data[pos:pos + tape.HEADER.sizeof()])
            except FormatError:
                continue
            if not name or found == name:
                self.pos = pos + tape.HEADER.sizeof()
                return self.pos
        return None


def _read_mark(jobs, shown):
    mem = jobs.mem
    for addr, bits in zip(CELL_COLUMNS[ROWS - 1][COLS - 1], READ_MARK):
        mem[addr] = mem[addr + MIRROR] = bits if shown else 0


def _find_file(jobs, kinds, name):
    """(reader, position after the header) of the next file of `kinds` called `name`.
    Without one the statement listens until BRK, and takes a tape put in meanwhile."""
    cassette = jobs.host.cassette
    while True:
        reader = _TapeReader(jobs)
        pos = reader.next_file(kinds, name)
        if pos is not None:
            return reader, pos
        heard = cassette.tape
        while cassette.tape is heard:
            yield INSERT_POLL


def _listen_forever():
    """A read with nothing to read: the firmware listens until BRK."""
    while True:
        yield LISTEN


def _start_reading(jobs):
    """The remote line as for writing, then mode 7 while the tape plays."""
    jobs.pins.xout(REMOTE)
    yield REMOTE_CYCLES
    jobs.pins.xout(SILENT)
    yield QUIET_CYCLES
    jobs.pins.xout(LISTENING)


def _stop_reading(jobs, late=READ_LATE):
    jobs.pins.xout(REMOTE)
    yield REMOTE_CYCLES
    jobs.pins.xout(SILENT)
    yield late


def input_job(jobs, name, items, error):
    """INPUT#: the next data file of that name, then one item per variable. As on the
    firmware: a fixed variable takes only a fixed variable's item and the others only
    the others' (ERROR 8 when the item's descriptor has been read); the bytes are
    copied as far as both are long, whatever the types; a damaged item is ERROR 8."""
    yield from _start_reading(jobs)
    reader, pos = yield from _find_file(jobs, (tape.DATA_TYPE,), name)
    yield reader.wait_until(pos)
    _read_mark(jobs, True)
    mem = jobs.mem
    for descriptor, addr, length in items:
        try:
            (found, data), end = tape.decode_item(reader.data, reader.pos)
        except FormatError as exc:
            if exc.offset >= len(reader.data):      # the tape ends: nothing more comes
                yield from _listen_forever()
            yield reader.wait_until(exc.offset + 1)
            yield from _read_error(jobs)
        if (found == tape.FIXED_ITEM) != (descriptor == tape.FIXED_ITEM):
            yield reader.wait_until(reader.pos + len(tape.FIXED_ITEM) + 1)
            yield from _read_error(jobs)
        size = min(length, len(data))
        if size < len(data):        # the firmware stops after the blocks it needs
            blocks = -(-size // tape.ITEM_BLOCK)
            yield reader.wait_until(reader.pos + len(tape.FIXED_ITEM) + 1 + size + blocks)
        else:
            yield reader.wait_until(end)
        reader.pos = end
        mem[addr:addr + size] = data[:size]
    _read_mark(jobs, False)
    yield from _stop_reading(jobs)
    if error is not None:
        raise BasicError(error)


def _read_error(jobs):
    """ERROR 8 while reading: the mark goes, the remote line as at a read's end."""
    _read_mark(jobs, False)
    jobs.pins.xout(REMOTE)
    yield REMOTE_CYCLES
    jobs.pins.xout(SILENT)
    yield ERROR_LATE
    raise BasicError(IO)


def _program_job(jobs, name, action):
    """CLOAD / MERGE / CLOAD?: the next program file of that name; `action(jobs,
    image)` takes it and returns the index of the first image byte it refuses (CLOAD?)
    or None. A damaged record is ERROR 8 when the damage is read."""
    yield from _start_reading(jobs)
    reader, pos = yield from _find_file(jobs, (tape.FILE_TYPE, tape.PROTECTED_TYPE), name)
    start = pos - tape.HEADER.sizeof()
    record = reader.data[start:]
    body = tape.header_size(record)
    yield reader.wait_until(start + body)
    _read_mark(jobs, True)
    problems = []
    _name, image = tape.decode_tap(record, problems)
    refused = None if problems else action(jobs, image)
    if problems:
        if action is _put_program:
            jobs.interp.program.new()
        end = problems[0].offset + 1
    elif refused is not None:
        end = body + refused + refused // tape.BLOCK + 1
    else:
        end = body + len(tape.encode_tap(image)) - tape.HEADER.sizeof()
    yield reader.wait_until(start + min(end, len(record)))
    if problems or refused is not None:
        yield from _read_error(jobs)
    _read_mark(jobs, False)
    yield from _stop_reading(jobs, LOAD_LATE)


def _put_program(jobs, image):
    mem = jobs.mem
    for address, data in ramcard.program_writes(image, jobs.host.card_kb):
        mem[address:address + len(data)] = data
    jobs.interp.vars.clear()
    jobs.interp.program.changed()


def _merge_program(jobs, image):
    """MERGE: after the program. Lines numbered above the last one continue its block;
    otherwise the old end mark stays as a separator and the merge pointer (0xFFDB)
    marks the new block (as the firmware leaves them)."""
    program = jobs.interp.program
    end = program.end
    numbers = [number for number, _addr in program.lines()]
    first = image[0] << 8 | image[1]
    if numbers and first <= numbers[-1]:
        set_word(jobs.mem, MERGE_PTR, end)
        end += 1
    if end + len(image) >= min(jobs.interp.vars.dim_pointer(), DIM_TOP + 1):
        raise BasicError(MEMORY)
    mem = jobs.mem
    mem[end:end + len(image)] = image
    mem[end + len(image)] = tape.END_MARK
    program._set_end(end + len(image))
    program.changed()


def _verify_program(jobs, image):
    """CLOAD?: the index of the first byte that differs from the program, or None."""
    program = jobs.interp.program
    stored = bytes(jobs.mem[program.start + 1:program.end]) + bytes((tape.END_MARK,))
    for index, byte in enumerate(image + bytes((tape.END_MARK,))):
        if index >= len(stored) or stored[index] != byte:
            return index
    return None


def _chain_program(jobs, image, target):
    mem = jobs.mem
    for address, data in ramcard.program_writes(image, jobs.host.card_kb):
        mem[address:address + len(data)] = data
    interp = jobs.interp
    interp.program.changed()
    interp.start_program(None if target is None else interp.resolve(target))


def chain_job(jobs, name, target):
    return _program_job(jobs, name, lambda jobs, image: _chain_program(jobs, image, target))


def cload_job(jobs, name):
    return _program_job(jobs, name, _put_program)


def merge_job(jobs, name):
    return _program_job(jobs, name, _merge_program)


def verify_job(jobs, name):
    return _program_job(jobs, name, _verify_program)


TAPE_JOBS = {"write": write_job, "input": input_job, "cload": cload_job,
             "merge": merge_job, "verify": verify_job, "chain": chain_job}

"""Statement handlers: control flow, variables, memory, modes.

The statement table (statement_table.py) gives each handler its keyword and cycles
(assignment, GOTO, GOSUB, IF, FOR and NEXT are compiled, in steps.py). A
handler starts after the keyword token and must leave `pos` at the statement's end
(':' or 0x0D) or jump. Display, graphics and input statements are in output.py.
"""

from emulator.builtin import bcd, costs
from emulator.builtin.basic_errors import (
    ILLEGAL,
    IO,
    LINE,
    NESTING,
    OTHER,
    SYNTAX,
    BasicError,
)
from emulator.builtin.output import stmt_printer
from emulator.builtin.random_numbers import randomize
from emulator.builtin.scanner import DIGITS
from emulator.builtin.serial_io import end_latch
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES

_GOTO, _GOSUB = CODES["GOTO"], CODES["GOSUB"]


def stmt_return(it):
    state = it.state
    if not state.gosub_stack:
        raise BasicError(NESTING)
    entry = state.gosub_stack.pop()
    it.mark_statement_end()
    state.pos, state.line, state.line_addr = entry.pos, entry.line, entry.line_addr


def stmt_on(it):
    """ON e GOTO/GOSUB t1,t2,...: out of range goes on with the next statement; a
    place of the list may be empty (`40,,60`), and choosing one is ERROR 1 (firmware
    engine, case ON_list_with_empty_places); a GOTO taken must end the line, as GOTO
    does (`ON 1 GOTO 30:PRINT` is ERROR 1; out of range it goes on: ON_goto_line_end)."""
    index = it.integer(-32768, 65535)
    gosub = it.accept_token(_GOSUB)
    if not gosub and not it.accept_token(_GOTO):
        raise BasicError(SYNTAX)
    chosen = None
    position = 1
    while True:
        empty = it.at_end() or it.peek() == 0x2C
        target = None if empty else it.target()
        if position == index:
            if empty:
                raise BasicError(SYNTAX)
            chosen = target
        if not it.accept(0x2C):
            break
        position += 1
    if chosen is None:
        return
    if gosub:
        it.push_return()
    it.jump(chosen, costs.GOSUB_LINE_SEARCH if gosub else costs.LINE_SEARCH, not gosub)


def stmt_end(it):
    end_latch(it.host)          # the SIO latch's bit 6, as CLOSE leaves it
    it.finish()


def stmt_stop(it):
    it.stopped_at = (it.pos, it.line, it.line_addr)
    it.running = False
    it.pending = ("stop",)


def stmt_rem(it):
    it.skip_line()


def stmt_data(it):
    it.skip_statement()


READ_ITEM_CYCLES = CYCLES["read_item"]     # each item READ takes, its expression apart
RESTORE_LINE_CYCLES = CYCLES["restore_line"]   # RESTORE n against RESTORE


def stmt_read(it):
    """READ var[,var...]: each DATA item is evaluated as an expression (an unquoted
    word is a variable, so READ A$ from `DATA ABC` is ERROR 9, as on the firmware)."""
    while True:
        ref = it.variable(create=True)
        it.cost += READ_ITEM_CYCLES
        it.next_data_item()
        saved = it.pos
        it.pos = it.data_pos
        try:
            value = it.expression()
            it.peek()
            it.data_pos = it.pos
        finally:
            it.pos = saved
        if isinstance(value, bytes) != (ref[2] != 0):
            raise BasicError(OTHER)
        it.store_value(ref, value)
        if not it.accept(0x2C):
            return


def stmt_restore(it):
    if it.at_end():
        it.data_pos = None
        return
    addr = it.resolve(it.target())
    # RESTORE n takes its own time and the line search's from the first line
    number = it.mem[addr] << 8 | it.mem[addr + 1]
    it.cost += RESTORE_LINE_CYCLES + it.program.lines_passed(number, 0) * costs.LINE_SEARCH
    it.data_pos = addr + 3


DIM_BYTE_CYCLES = CYCLES["dim_byte"]    # DIM clears the array's bytes: each takes these
ERASE_NAME_CYCLES = CYCLES["erase_name"]
ERASE_FOUND_CYCLES = CYCLES["erase_found"]
ERASE_BYTE_CYCLES = CYCLES["erase_byte"]


def _array_name(it):
    """(name, is_str) of the array named at the position (DIM, ERASE)."""
    if it.peek() not in range(0x41, 0x5B):
        raise BasicError(SYNTAX)
    mem = it.mem
    name = bytes([mem[it.pos]])
    it.pos += 1
    if mem[it.pos] in range(0x41, 0x5B) or mem[it.pos] in range(0x30, 0x3A):
        name += bytes([mem[it.pos]])
        it.pos += 1
    return name, it.accept(0x24)


def stmt_dim(it):
    while True:
        name, is_str = _array_name(it)
        it.expect(0x28)
        dims = [it.integer(0, 255)]
        if it.accept(0x2C):
            dims.append(it.integer(0, 255))
        it.expect(0x29)
        if it.vars.has_array(name, is_str):
            # found at its `)`, before a length: ERROR 3 with the cursor there (DIM D$(3)*3
            # on the `)`; firmware engine, case CALC_error_on_last_element)
            raise BasicError(ILLEGAL, on_last=True)
        length = it.integer(1, 255) if is_str and it.accept(0x2A) else None
        before = it.vars.dim_pointer()
        it.vars.dim(name, is_str, dims, length)
        it.cost += (before - it.vars.dim_pointer()) * DIM_BYTE_CYCLES
        if not it.accept(0x2C):
            return


def stmt_erase(it):
    """ERASE name[,name ...]: each array named goes, the variables made after it move up
    into its place; a name that is no array (a fixed or two-character variable, none at
    all) is passed over (firmware engine, case ERASE_arrays)."""
    while True:
        name, is_str = _array_name(it)
        if not it.at_end() and it.peek() != 0x2C:
            raise BasicError(SYNTAX)        # ERASE B(1): B is kept
        it.cost += ERASE_NAME_CYCLES
        moved = it.vars.erase(name, is_str)
        if moved is not None:
            it.cost += ERASE_FOUND_CYCLES + moved * ERASE_BYTE_CYCLES
        if not it.accept(0x2C):
            return


def stmt_clear(it):
    it.vars.clear()
    it.vars.reset_fixed()


def stmt_poke(it):
    addr = it.integer(0, 65535)
    if it.peek() != 0x2C:
        raise BasicError(SYNTAX)        # an address and no byte (case BEEP_POKE_arguments)
    while it.accept(0x2C):
        it.host.poke(addr, it.integer(0, 255))
        addr = (addr + 1) & 0xFFFF
    it.vars.invalidate()
    it.program.changed()


def stmt_call(it):
    """Machine code cannot run without the CPU: the built-in engine reports ERROR 9."""
    it.integer(0, 65535)
    raise BasicError(OTHER)


def stmt_random(it):
    randomize(it.mem, it.host.key_wait_count())


def stmt_degree(it):
    it.angle = bcd.DEG


def stmt_radian(it):
    it.angle = bcd.RAD


def stmt_grad(it):
    it.angle = bcd.GRAD


def stmt_tron(it):
    it.trace = True


def stmt_troff(it):
    it.trace = False


def stmt_aread(it):
    """AREAD var: the display's contents when DEF started the program."""
    ref = it.variable(create=True)
    text = it.aread.strip()
    if ref[2] == 0:
        value = bcd.parse_number(text.decode("latin-1")) if text else bcd.ZERO
        it.vars.store(ref, value if value is not None else bcd.ZERO)
    else:
        it.vars.store(ref, text)


# ---------------------------------------------------------------- commands

def command_only(it):
    """RUN, CONT, NEW and LIST are commands: in a program line they are ERROR 1
    (the firmware engine refuses `RUN 20` there)."""
    if it.line_addr is not None:
        raise BasicError(SYNTAX)


def stmt_llist(it):
    """LLIST, LFILES: commands, stepped over as the printer's statements are (output.py)."""
    command_only(it)
    stmt_printer(it)


def stmt_files(it):
    """FILES: a command for the disk drive, which the emulated machine has none of:
    ERROR 8 (firmware engine, case PRINTER_statements_skipped)."""
    command_only(it)
    raise BasicError(IO)


def stmt_run(it):
    command_only(it)
    addr = None
    if not it.at_end():
        # RUN n needs line n, as GOTO (GEN_input_7); RUN "X" runs from label X
        # (firmware engine, case RUN_from_label)
        addr = it.resolve(it.target())
    typed_line_end(it)
    it.vars.clear()
    it.using = None
    it.start_program(addr)


def stmt_cont(it):
    command_only(it)
    cont_possible(it)
    typed_line_end(it)                  # CONT takes nothing after it (CONT 5: at the 5)
    it.pos, it.line, it.line_addr = it.stopped_at
    it.stopped_at = None
    it.jumped = True
    if it.resume_input:
        it.pending = ("input", it.resume_input)
        it.resume_input = None


def cont_possible(it):
    """ERROR 9, the cursor on CONT, when no run has stopped to go on from (checked
    before anything after CONT: `CONT 5`, `CONT:A=1`; firmware engine, case
    CALC_statement_and_colon)."""
    if it.stopped_at is None:
        raise BasicError(OTHER, on_last=True)


def typed_line_end(it):
    """RUN and CONT (typed only) go somewhere else: ERROR 1 unless they end the line,
    there, before they go (`RUN 10:A=1`, `CONT:A=1`: at the `:`)."""
    if it.peek() != 0x0D:
        raise BasicError(SYNTAX)


def _line_argument(it):
    """A line number written in digits (DELETE's, RENUM's), or None if there is none."""
    it.peek()
    mem = it.mem
    start = it.pos
    while mem[it.pos] in DIGITS:
        it.pos += 1
    return int(bytes(mem[start:it.pos])) if it.pos > start else None


def stmt_delete(it):
    """DELETE a, DELETE a,b (a to b), DELETE a, (to the end), DELETE ,b (from the first
    line): the lines named must exist (ERROR 4), b not come before a, nothing else follow
    (ERROR 1; firmware engine, case PRO_delete_and_renum)."""
    command_only(it)
    numbers = [n for n, _addr in it.program.lines()]
    first = _line_argument(it)
    if first is not None:
        it.program.find(first)          # looked for first (DELETE 15-25: ERROR 4)
    last = first
    if it.accept(0x2C):
        last = _line_argument(it)
        if first is None and last is None:
            raise BasicError(SYNTAX)
        first = numbers[0] if first is None and numbers else first
        last = numbers[-1] if last is None and numbers else last
    if first is None or not it.at_end():
        raise BasicError(SYNTAX)
    if last < first:
        raise BasicError(SYNTAX)
    it.program.delete(first, last)
    it.pending = ("clear prompt",)
    it.finish()


def stmt_renum(it):
    """RENUM [new][,[old][,step]]: the lines from old (the first line) on numbered new
    (10), new + step (10) ... and the line numbers that name them with them (firmware
    engine, case PRO_delete_and_renum)."""
    command_only(it)
    new, old, step = _line_argument(it), None, None
    if it.accept(0x2C):
        old = _line_argument(it)
        if it.accept(0x2C):
            step = _line_argument(it)
            if step is None:
                raise BasicError(SYNTAX)
    if not it.at_end():
        raise BasicError(SYNTAX)
    numbers = [n for n, _addr in it.program.lines()]
    if numbers:
        try:
            it.program.renumber(10 if new is None else new,
                                numbers[0] if old is None else old, 10 if step is None else step)
        except BasicError as error:
            if error.where is not None:     # shown as an error of that line
                addr, offset = error.where
                it.state.line = it.mem[addr] << 8 | it.mem[addr + 1]
                it.state.line_addr, it.state.pos = addr, addr + 3 + offset
            raise
    it.pending = ("clear prompt",)
    it.finish()


def stmt_new(it):
    command_only(it)
    it.program.new()
    it.vars.clear()
    it.finish()


def stmt_list(it):
    """LIST [line]: hand the listing to the engine (it needs the pc1360 lister)."""
    command_only(it)
    number = 0 if it.at_end() else it.target()[1]
    if not isinstance(number, int):
        raise BasicError(SYNTAX)
    if it.program.first_from(number) is None and number:
        err = BasicError(LINE)              # LIST 99 past the last line: ERROR 4
        err.list_from = number
        raise err
    it.pending = ("list", number)
    it.finish()

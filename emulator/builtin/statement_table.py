"""The statement table: every keyword the built-in engine runs, with its handler (or
its compiler) and its own cycles (timing.csv's stmt_ rows), listed in one place."""

from collections.abc import Callable
from typing import NamedTuple

from emulator.builtin import graphics, output, serial_io, statements, steps, tape_io
from emulator.builtin.timing import CYCLES
from emulator.builtin.token_codes import CODES


class Statement(NamedTuple):
    """`handler(it)` runs the statement, reading its bytes as it goes; a statement
    compiled once per address (steps.py) has `compile(it, reader)` instead, which
    reads them and gives the closure that runs it."""
    handler: Callable | None
    cost: int
    compile: Callable | None = None


# the printer's and plotter's statements, which the firmware steps over with no printer,
# and its commands (typed only), stepped over the same way
PRINTER = ("CSIZE", "CIRCLE", "LF", "COLOR", "GRAPH", "LLINE", "RLINE", "GLCURSOR", "SORGN",
           "CROTATE", "PAINT", "LTEXT", "CONSOLE")
PRINTER_COMMANDS = ("LLIST", "LFILES")

# the statements that steps.py compiles
_COMPILED = {"LET": steps.compile_let, "GOTO": steps.compile_goto,
             "GOSUB": steps.compile_gosub, "IF": steps.compile_if,
             "FOR": steps.compile_for, "NEXT": steps.compile_next}


def statement_table():
    """keyword code -> Statement (Interpreter builds it)."""
    handlers = {
        "RETURN": statements.stmt_return,
        "ON": statements.stmt_on, "END": statements.stmt_end,
        "STOP": statements.stmt_stop, "REM": statements.stmt_rem,
        "DATA": statements.stmt_data, "READ": statements.stmt_read,
        "RESTORE": statements.stmt_restore, "DIM": statements.stmt_dim,
        "CLEAR": statements.stmt_clear, "ERASE": statements.stmt_erase,
        "POKE": statements.stmt_poke,
        "CALL": statements.stmt_call, "RANDOM": statements.stmt_random,
        "DEGREE": statements.stmt_degree, "RADIAN": statements.stmt_radian,
        "GRAD": statements.stmt_grad, "TRON": statements.stmt_tron,
        "TROFF": statements.stmt_troff, "AREAD": statements.stmt_aread,
        "RUN": statements.stmt_run, "CONT": statements.stmt_cont,
        "NEW": statements.stmt_new, "LIST": statements.stmt_list,
        "DELETE": statements.stmt_delete, "RENUM": statements.stmt_renum,
        "FILES": statements.stmt_files,
        # PRINT # and INPUT # go to the tape
        "PRINT": tape_io.with_hash(output.stmt_print, tape_io.print_hash),
        "INPUT": tape_io.with_hash(output.stmt_input, tape_io.input_hash),
        "PAUSE": output.stmt_pause, "LPRINT": output.stmt_lprint,
        "USING": output.stmt_using, "WAIT": output.stmt_wait, "CLS": output.stmt_cls,
        "CURSOR": output.stmt_cursor, "GCURSOR": graphics.stmt_gcursor,
        "GPRINT": graphics.stmt_gprint, "PSET": graphics.stmt_pset,
        "PRESET": graphics.stmt_preset, "LINE": graphics.stmt_line, "BEEP": output.stmt_beep,
        "OPEN": serial_io.stmt_open, "CLOSE": serial_io.stmt_close,
        "LOAD": serial_io.stmt_load, "SAVE": serial_io.stmt_save,
        "CSAVE": tape_io.stmt_csave, "CLOAD": tape_io.stmt_cload,
        "MERGE": tape_io.stmt_merge, "CHAIN": tape_io.stmt_chain,
    }
    table = {CODES[name]: Statement(handler, CYCLES["stmt_" + name.lower()])
             for name, handler in handlers.items()}
    table.update({CODES[name]: Statement(output.stmt_printer, CYCLES["stmt_printer"])
                  for name in PRINTER})
    table.update({CODES[name]: Statement(statements.stmt_llist, CYCLES["stmt_printer"])
                  for name in PRINTER_COMMANDS})
    table.update({CODES[name]: Statement(None, CYCLES["stmt_" + name.lower()], compile)
                  for name, compile in _COMPILED.items()})
    return table

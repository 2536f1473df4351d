"""The debugger's command language (`pc1360 debug`): one command a line, plain text out.

Addresses and bytes are hexadecimal (`5D68`, `0x5D68`, `&5D68`); counts, line numbers and
seconds are decimal. A bad command prints one line saying why and the session goes on;
`failures` counts them, for the exit status of a script. Built on the standard library's
`cmd`, which gives a terminal line editing and history (readline) and `help`.
"""

import cmd
import math
import shlex

from emulator.debug.debugger import ACCESSES
from emulator.debug.variables import format_variable
from emulator.machine.key_script import parse
from pc1360 import charset
from pc1360.facts import MAX_LINE

MAX_COUNT = 10**9
MAX_SECONDS = 24 * 3600
MEM_ROW = 16
DEFAULT_MEM = 64
DEFAULT_DISASM = 10


class CommandError(ValueError):
    """A command the console cannot read; the message says why."""


def address(text):
    """A hexadecimal address 0000-FFFF (0x.. and &.. prefixes allowed)."""
    digits = text.removeprefix("0x").removeprefix("0X").removeprefix("&")
    try:
        value = int(digits, 16)
    except ValueError:
        raise CommandError(f"bad address {text!r}: give it in hex, 0000-FFFF") from None
    if not digits.isalnum() or not 0 <= value <= 0xFFFF:
        raise CommandError(f"bad address {text!r}: give it in hex, 0000-FFFF")
    return value


def byte(text):
    digits = text.removeprefix("0x").removeprefix("0X").removeprefix("&")
    try:
        value = int(digits, 16)
    except ValueError:
        raise CommandError(f"bad byte {text!r}: give it in hex, 00-FF") from None
    if not digits.isalnum() or not 0 <= value <= 0xFF:
        raise CommandError(f"bad byte {text!r}: give it in hex, 00-FF")
    return value


def count(text, what="count", high=MAX_COUNT):
    try:
        value = int(text, 10)
    except ValueError:
        raise CommandError(f"bad {what} {text!r}: give a whole number") from None
    if not 1 <= value <= high:
        raise CommandError(f"bad {what} {text!r}: from 1 to {high}")
    return value


def seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"bad seconds {text!r}: give a number") from None
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise CommandError(f"bad seconds {text!r}: from 0 to {MAX_SECONDS}")
    return value


def _words(arg, low, high, usage):
    words = arg.split()
    if not low <= len(words) <= high:
        raise CommandError(f"usage: {usage}")
    return words


def _ascii(data):
    return "".join(charset.TO_ASCII.get(value, ".") for value in data)


class Console(cmd.Cmd):
    """Commands on `debugger` (emulator/debug/debugger.py). `echo`: print each command
    read (a script's output then shows what it answers)."""

    PROMPT = "(pc1360) "
    intro = "PC-1360 debugger: help lists the commands, quit ends."

    def __init__(self, debugger, stdin=None, stdout=None, echo=False):
        super().__init__(stdin=stdin, stdout=stdout)
        self.debugger = debugger
        self.machine = debugger.machine
        self.echo = echo
        # a script's commands are echoed after the prompt instead of being typed after it
        self.prompt = "" if echo else self.PROMPT
        self.use_rawinput = not echo
        self.failures = 0

    # -- the loop --------------------------------------------------------------------------
    def say(self, *lines):
        for line in lines:
            self.stdout.write(f"{line}\n")

    def precmd(self, line):
        if self.echo and line != "EOF":
            self.say(self.PROMPT + line.rstrip("\n"))
        return line.strip()

    def onecmd(self, line):
        if line.startswith("#"):
            return False
        try:
            return super().onecmd(line)
        except (ValueError, OSError) as exc:    # CommandError, DebugError, KeyScriptError ...
            self.failures += 1
            self.say(f"error: {exc}")
            return False

    def emptyline(self):
        """At a terminal an empty line repeats the last command (step, step, ...)."""
        if not self.echo and self.lastcmd:
            return self.onecmd(self.lastcmd)
        return False

    def default(self, line):
        raise CommandError(f"unknown command {line.split()[0]!r} (help lists the commands)")

    def stopped(self, reason):
        self.say(*self.debugger.report(reason))

    # -- points ----------------------------------------------------------------------------
    def do_break(self, arg):
        """break ADDR | break BANK:ADDR | break line N | break (lists them):
        stop before the instruction at ADDR (in ROM bank BANK only), or when line N
        begins or is jumped into."""
        words = _words(arg, 0, 2, "break ADDR | break BANK:ADDR | break line N")
        if not words:
            points = self.debugger.points.values()
            self.say(*(p.describe() for p in points) if points else ["no breakpoints or watchpoints"])
            return
        if words[0] == "line":
            if len(words) != 2:
                raise CommandError("usage: break line N")
            number = count(words[1], "line number", MAX_LINE)
            point = self.debugger.break_line(number)
            note = "" if self.debugger.text.has_line(number) else " (the program has no such line now)"
            self.say(point.describe() + note)
            return
        if len(words) != 1:
            raise CommandError("usage: break ADDR | break BANK:ADDR | break line N")
        bank_text, _, addr_text = words[0].rpartition(":")
        bank = None
        if bank_text:
            if bank_text not in "01234567" or len(bank_text) != 1:
                raise CommandError(f"bad bank {bank_text!r}: 0-7")
            bank = int(bank_text)
        self.say(self.debugger.break_at(address(addr_text), bank).describe())

    def do_delete(self, arg):
        """delete N | delete (all): remove breakpoint or watchpoint N."""
        words = _words(arg, 0, 1, "delete [N]")
        self.debugger.delete(count(words[0], "number") if words else None)

    def do_watch(self, arg):
        """watch ADDR[-ADDR] [write|read|any]: stop at the instruction that writes (reads)
        those bytes (built-in engine: after the statement that changes them)."""
        words = _words(arg, 1, 2, "watch ADDR[-ADDR] [write|read|any]")
        first, _, last = words[0].partition("-")
        access = words[1] if len(words) > 1 else "write"
        if access not in ACCESSES:
            raise CommandError(f"bad access {access!r}: {' | '.join(ACCESSES)}")
        point = self.debugger.watch(address(first), address(last) if last else None, access)
        self.say(point.describe())

    # -- running ---------------------------------------------------------------------------
    def do_continue(self, arg):
        """continue [SECONDS]: run (as fast as it goes) until a stop or SECONDS of emulated
        time; without SECONDS also until the machine waits for a key. Ctrl-C stops it."""
        words = _words(arg, 0, 1, "continue [SECONDS]")
        self.stopped(self.debugger.cont(seconds(words[0]) if words else None))

    do_c = do_continue

    def do_step(self, arg):
        """step [N]: run N instructions (1) and show the cycles the last one took."""
        words = _words(arg, 0, 1, "step [N]")
        self.stopped(self.debugger.step(count(words[0]) if words else 1))

    do_s = do_step

    def do_next(self, arg):
        """next: one instruction, a CALL run until it returns."""
        _words(arg, 0, 0, "next")
        self.stopped(self.debugger.next())

    do_n = do_next

    def do_finish(self, arg):
        """finish: run until the subroutine running returns."""
        _words(arg, 0, 0, "finish")
        self.stopped(self.debugger.finish())

    def do_stmt(self, arg):
        """stmt [N]: run until N BASIC statements (1) have begun."""
        words = _words(arg, 0, 1, "stmt [N]")
        self.stopped(self.debugger.step_statements(count(words[0]) if words else 1))

    def do_keys(self, arg):
        """keys SCRIPT: type a key script, e.g. keys RUN{ENTER} (the points are checked)."""
        if not arg:
            raise CommandError("usage: keys SCRIPT (e.g. keys RUN{ENTER})")
        parse(arg)
        reason = self.debugger.type_keys(arg)
        if reason:
            self.stopped(reason)

    # -- looking -----------------------------------------------------------------------------
    def do_regs(self, arg):
        """regs: the CPU's registers, the ROM bank and the cycle count."""
        _words(arg, 0, 0, "regs")
        self.say(self.debugger.registers())

    def do_mem(self, arg):
        """mem ADDR [LEN]: LEN bytes (64) from ADDR, in hex and as text."""
        words = _words(arg, 1, 2, "mem ADDR [LEN]")
        start = address(words[0])
        length = count(words[1], "length", 0x10000) if len(words) > 1 else DEFAULT_MEM
        mem = self.machine.mem
        for row in range(start, min(start + length, 0x10000), MEM_ROW):
            data = bytes(mem[row:min(row + MEM_ROW, start + length, 0x10000)])
            self.say(f"{row:04X}  {data.hex(' ').upper():<{3 * MEM_ROW}} {_ascii(data)}")

    def do_poke(self, arg):
        """poke ADDR BYTE...: write bytes from ADDR, as the CPU would (ROM stays ROM)."""
        words = _words(arg, 2, 0x10000, "poke ADDR BYTE...")
        start = address(words[0])
        values = [byte(word) for word in words[1:]]
        if start + len(values) > 0x10000:
            raise CommandError("the bytes run past FFFF")
        for offset, value in enumerate(values):
            self.machine.poke(start + offset, value)

    def do_disasm(self, arg):
        """disasm [ADDR] [N]: N instructions (10) from ADDR (the PC)."""
        words = _words(arg, 0, 2, "disasm [ADDR] [N]")
        start = address(words[0]) if words else None
        self.say(*self.debugger.disassembly(start, count(words[1]) if len(words) > 1 else DEFAULT_DISASM))

    def do_line(self, arg):
        """line: the BASIC line and statement running."""
        _words(arg, 0, 0, "line")
        self.say(self.debugger.where())

    def do_vars(self, arg):
        """vars [all]: the BASIC variables (all: A-Z also when they are 0)."""
        words = _words(arg, 0, 1, "vars [all]")
        if words and words[0] != "all":
            raise CommandError("usage: vars [all]")
        found = self.debugger.variables(everyone=bool(words))
        self.say(*(format_variable(v) for v in found) if found else ["no variables (A-Z are all 0)"])

    def do_screen(self, arg):
        """screen: the display's text and its lit symbols."""
        _words(arg, 0, 0, "screen")
        rows = self.machine.screen_text()
        border = "+" + "-" * len(rows[0]) + "+"
        self.say(border, *(f"|{row}|" for row in rows), border)
        self.say("symbols: " + (" ".join(sorted(self.machine.symbols())) or "none"))

    # -- trace, snapshots ---------------------------------------------------------------------
    def do_trace(self, arg):
        """trace FILE [instructions|statements] | trace off: write a line per instruction
        (the default on the firmware engine) or per BASIC statement to FILE."""
        words = shlex.split(arg) if arg else []
        if words == ["off"]:
            tracer = self.debugger.trace_off()
            self.say(f"trace off: {tracer.lines} lines in {tracer.path}" if tracer else "no trace running")
            return
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1] not in ("instructions", "statements")):
            raise CommandError("usage: trace FILE [instructions|statements] | trace off")
        instructions = None if len(words) == 1 else words[1] == "instructions"
        tracer = self.debugger.trace(words[0], instructions)
        per = "instruction" if tracer.instructions else "statement"
        self.say(f"tracing each {per} to {tracer.path}")

    def do_snapshot(self, arg):
        """snapshot NAME: keep the whole machine's state under NAME."""
        name = _words(arg, 1, 1, "snapshot NAME")[0]
        self.debugger.snapshot(name)
        self.say(f"snapshot {name} taken")

    def do_restore(self, arg):
        """restore NAME: put the machine back as snapshot NAME kept it."""
        name = _words(arg, 1, 1, "restore NAME")[0]
        self.debugger.restore(name)
        self.say(f"restored {name}")
        self.say(*self.debugger.report(None))

    def do_quit(self, arg):
        """quit: end the session (the RAM card is saved)."""
        self.debugger.trace_off()
        return True

    do_q = do_quit

    def do_EOF(self, arg):  # noqa: N802 - the name cmd gives the end of input
        """The end of the input ends the session."""
        if not self.echo:
            self.say("")
        return self.do_quit(arg)

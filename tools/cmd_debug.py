"""`pc1360 debug`: the debugger's commands (emulator/debug/commands.py) on the machine the run
options describe, from a terminal (line editing, history kept between sessions) or from
standard input (a script: each command is echoed before its answer; the exit status is 1
when a command failed)."""

import sys
from pathlib import Path

from tools.cmd_machine import add_machine_options, with_machine

HISTORY_LINES = 1000


def register(subparsers):
    debug = subparsers.add_parser(
        "debug", help="debug BASIC and machine code: breakpoints, watchpoints, step, trace, vars",
        description="A command-line debugger on the emulated PC-1360. It starts at the "
                    "RUN-mode prompt; type help for the commands. Commands come from the "
                    "terminal, or from standard input when it is not one (a script).")
    add_machine_options(debug)
    debug.set_defaults(handler=cmd_debug)


def history_path():
    import platformdirs

    return Path(platformdirs.user_state_dir("pc1360")) / "debug_history"


def cmd_debug(args):
    return with_machine(args, _console, typing=True)


def _console(machine):
    from emulator.debug.commands import Console

    interactive = sys.stdin.isatty()
    console = Console(machine.debugger, stdin=sys.stdin, stdout=sys.stdout, echo=not interactive)
    if interactive:
        with _history():
            _loop(console)
    else:
        console.cmdloop(intro="")
    return 1 if console.failures and not interactive else 0


def _loop(console):
    """cmdloop at a terminal: Ctrl-C at the prompt gives a new prompt."""
    from tools.cli import Terminated

    intro = console.intro
    while True:
        try:
            console.cmdloop(intro=intro)
            return
        except Terminated:
            raise
        except KeyboardInterrupt:
            console.say("^C")
            intro = ""


class _history:
    """readline's history from and to the user's state directory (if readline exists)."""

    def __enter__(self):
        try:
            import readline
        except ImportError:
            self.readline = None
            return self
        self.readline = readline
        self.path = history_path()
        try:
            readline.read_history_file(self.path)
        except OSError:
            pass
        readline.set_history_length(HISTORY_LINES)
        return self

    def __exit__(self, *exc):
        if self.readline is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.readline.write_history_file(self.path)
        except OSError as error:
            print(f"pc1360: could not keep the command history in {self.path}: "
                  f"{error.strerror or error}", file=sys.stderr)

"""The `pc1360` command: one argparse tree, each subcommand group in its own module."""

import argparse
import importlib
import math
import signal
import sys

# Each module listed here defines register(subparsers) for the commands named with it; its
# handlers return an exit status.
COMMAND_MODULES = {
    "tools.cmd_program": ("tokenize", "list"),
    "tools.cmd_serial": ("send", "receive"),
    "tools.cmd_machine": ("rom", "run"),
    "tools.cmd_disasm": ("disasm",),
    "tools.cmd_debug": ("debug",),
}


class UsageError(Exception):
    """Bad input from the user: printed as one line on stderr, exit status 1."""


class Terminated(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGHUP) taken as Ctrl-C is: the command unwinds and saves."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def bounded_number(low, high, *, low_included=True):
    """An argparse type: a finite number from `low` (or more than it) up to `high`. Each
    number a user gives has bounds, so that nan, inf and 1e308 are refused here rather than
    failing deep inside (time.sleep(inf) overflows)."""
    def number(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        above_low = low <= value if low_included else low < value
        if not (math.isfinite(value) and above_low and value <= high):
            bound = "from" if low_included else "more than"
            raise argparse.ArgumentTypeError(f"must be {bound} {low:g} up to {high:g}, not {text}")
        return value

    return number


def build_parser(command=None):
    """The parser of every command, or only of the module defining `command` when one
    does: a short command such as tokenize does not wait for the others to be built."""
    parser = argparse.ArgumentParser(prog="pc1360", description="Sharp PC-1360 emulator and toolkit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = [name for name, commands in COMMAND_MODULES.items() if command in commands]
    for name in wanted or COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return args.handler(args) or 0
    except UsageError as exc:
        print(f"pc1360: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        what = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
        print(f"pc1360: {what}", file=sys.stderr)
        return 128 + signum  # as a shell reports a process that a signal ended


if __name__ == "__main__":
    # Under `python -m tools.cli` this file runs as __main__; importing the package
    # module keeps one UsageError class for the handlers and for main().
    from tools.cli import main as package_main

    sys.exit(package_main())

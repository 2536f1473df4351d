"""The `pc1360` command: one argparse tree, each subcommand group in its own module."""

import argparse
import importlib
import sys

# Each module listed here defines register(subparsers); its handlers return an exit status.
COMMAND_MODULES = (
    "tools.cmd_program",
    "tools.cmd_serial",
    "tools.cmd_machine",
    "tools.cmd_disasm",
)


class UsageError(Exception):
    """Bad input from the user: printed as one line on stderr, exit status 1."""


def build_parser():
    parser = argparse.ArgumentParser(prog="pc1360", description="Sharp PC-1360 emulator and toolkit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return args.handler(args) or 0
    except UsageError as exc:
        print(f"pc1360: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pc1360: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    # Under `python -m tools.cli` this file runs as __main__; importing the package
    # module keeps one UsageError class for the handlers and for main().
    from tools.cli import main as package_main

    sys.exit(package_main())

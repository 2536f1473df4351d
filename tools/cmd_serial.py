"""`pc1360 send` and `pc1360 receive`: programs to and from a real PC-1360 over its SIO
port (the 15-pin connector, through a CE-130T or a level converter)."""

import sys
from pathlib import Path

from pc1360.facts import DATA_BITS, PARITIES, SIO_BAUDS, SIO_EOL, STOP_BITS
from tools.cli import bounded_number

# tools.transfer (pyserial, the codecs) is imported by the functions that use it, so that
# other commands and `pc1360 --help` start without it.

# Without handshake the pause after a line must outlast LOAD storing it: up to 0.35 s a
# line for basic_src/kniffel.bas (3 KB) on the emulated firmware, longer the larger the
# program grows (tools/transfer.py, tests/tools/test_serial_firmware.py).
NO_HANDSHAKE_DELAY_MS = 500


def register(subparsers):
    send = subparsers.add_parser(
        "send", help="send a program to LOAD on the calculator",
        description="Send a program (.bas source, or a stored program: .img, .ram, .tap or "
                    ".wav, listed first) as the text LOAD expects, ending with 0x1A.")
    send.add_argument("file", type=Path, metavar="FILE")
    _line_options(send)
    send.add_argument("--line-delay", type=_non_negative, metavar="MS",
                      help="pause after each line so the calculator can store it (default "
                           f"{NO_HANDSHAKE_DELAY_MS} with --handshake none, else 0)")
    send.set_defaults(handler=run_send)

    receive = subparsers.add_parser(
        "receive", help="receive a program from SAVE on the calculator",
        description="Capture what SAVE sends, up to 0x1A or a silence, check that "
                    "every line tokenizes, and write it as a listing or an image. What "
                    "already waits on the port (SAVE started first) is the start of it; "
                    "data that begins in the middle of a line is refused at once.")
    receive.add_argument("out", type=Path, metavar="OUT")
    _line_options(receive)
    receive.add_argument("--format", choices=("bas", "img"),
                         help="what to write (default: img for a .img OUT, else bas)")
    receive.add_argument("--idle", type=_positive, default=3.0, metavar="S",
                         help="a silence this long after data ends the transfer (default 3)")
    receive.set_defaults(handler=run_receive)


def _line_options(parser):
    parser.add_argument("--port", required=True, metavar="PORT",
                        help="serial port: a device (/dev/ttyUSB0, COM3), socket://HOST:PORT, "
                             "loop://")
    parser.add_argument("--baud", type=int, choices=SIO_BAUDS, default=1200)
    parser.add_argument("--parity", type=str.upper, choices=PARITIES, default="N")
    parser.add_argument("--bits", type=int, choices=DATA_BITS, default=8)
    parser.add_argument("--stop", type=int, choices=STOP_BITS, default=1)
    parser.add_argument("--eol", type=str.upper, choices=tuple(SIO_EOL), default="L",
                        help="line end, as in OPEN: C = CR, F = LF, L = CR+LF (default L)")
    parser.add_argument("--handshake", choices=("rts", "none"), default="rts",
                        help="rts (default): hardware flow control, the calculator's RR on our "
                             "CTS as the CE-130T wires it; none: for cables without it, "
                             "pseudo-terminals and sockets")
    parser.add_argument("--timeout", type=_positive, default=60.0, metavar="S",
                        help="how long to wait for the calculator to answer (default 60)")


MAX_SECONDS = 24 * 3600  # the longest --timeout or --idle
MAX_DELAY_MS = 60_000  # the longest --line-delay


_positive = bounded_number(0, MAX_SECONDS, low_included=False)
_non_negative = bounded_number(0, MAX_DELAY_MS)


def _line_delay(args):
    if args.line_delay is not None:
        return args.line_delay
    return NO_HANDSHAKE_DELAY_MS if args.handshake == "none" else 0


def _settings(args):
    from tools import transfer

    return transfer.Settings(baud=args.baud, parity=args.parity, bits=args.bits, stop=args.stop,
                             eol=args.eol, handshake=args.handshake)


def _fail(exc):
    print(f"pc1360: {exc}", file=sys.stderr)
    return 1


def run_send(args):
    from pc1360.image import MAX_TYPED
    from tools import transfer

    settings = _settings(args)
    try:
        lines, warnings = transfer.load_program(args.file)
        payload = transfer.listing_lines(lines, settings)
    except transfer.TransferError as exc:
        return _fail(exc)
    for warning in warnings:
        print(f"pc1360: warning: {warning}", file=sys.stderr)
    for line, text in zip(lines, payload):
        if len(text) > MAX_TYPED:
            print(f"pc1360: warning: line {line.number} is {len(text)} characters, more than the "
                  f"calculator's {MAX_TYPED}-character input line; LOAD may cut it",
                  file=sys.stderr)
    # LOAD raises RR when it is ready; without handshake nothing waits for that, and data
    # that comes before LOAD listens is lost (ERROR 8)
    when = "" if settings.handshake == "rts" else "  (before running this)"
    print(f"On the PC-1360 type: {settings.open_statement()}  then  LOAD{when}")
    chunks = transfer.wire_chunks(payload, settings)
    progress = None
    try:
        with transfer.open_port(args.port, settings, args.timeout) as port:
            progress = transfer.Progress("sending", total=sum(map(len, chunks)))
            total = transfer.send(port, chunks, settings, timeout=args.timeout,
                                  line_delay=_line_delay(args) / 1000, progress=progress)
    except transfer.TransferError as exc:
        if progress:
            progress.abandon()
        return _fail(exc)
    if transfer.is_pseudo_terminal(args.port):
        # its buffer takes the bytes whether or not anyone reads the other end
        progress.close(f"wrote {len(payload)} lines, {total} bytes into the pseudo-terminal "
                       f"{args.port}; it cannot tell whether the other end read them")
    else:
        progress.close(f"sent {len(payload)} lines, {total} bytes")
    return 0


def run_receive(args):
    from emulator.machine.atomic_write import writable_target, write_atomic
    from tools import transfer

    settings = _settings(args)
    kind = args.format or ("img" if args.out.suffix.lower() == ".img" else "bas")
    try:
        writable_target(args.out)  # known before the calculator is asked to SAVE
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    print(f"On the PC-1360 type: {settings.open_statement()}  then  SAVE")
    progress = None
    try:
        with transfer.open_port(args.port, settings, args.timeout, keep_input=True) as port:
            if port.in_waiting:
                print(f"{port.in_waiting} bytes were already waiting on {args.port} (SAVE "
                      "began first): they are the start of the transfer")
            progress = transfer.Progress("receiving")
            data, ended = transfer.receive(port, settings, timeout=args.timeout, idle=args.idle,
                                           progress=progress)
        text, program = transfer.parse_received(data, ended)
    except transfer.TransferError as exc:
        if progress:
            progress.abandon()
        return _fail(f"{exc}; {args.out} was not written")
    progress.close(f"received {len(program.lines)} lines")
    if not ended:
        print(f"pc1360: warning: no 0x1A end mark; stopped after {args.idle:g} s of silence",
              file=sys.stderr)
    for warning in program.warnings:
        print(f"pc1360: warning: received {warning}", file=sys.stderr)
    content = program.image if kind == "img" else text.encode("utf-8")
    try:
        write_atomic(args.out, content)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(f"wrote {args.out} ({kind}, {len(content)} bytes)")
    return 0

"""`pc1360 tokenize` and `pc1360 list`: BASIC source <-> the PC-1360's program formats."""

import io
import os
import sys
from pathlib import Path

from pc1360.facts import CARD_SIZES
from tools.cli import UsageError

# The other modules are imported by the commands that use them, so that a command
# starts quickly (tokenize loads neither the lister nor the tape and card codecs).

FORMATS = ("img", "ram", "tap", "wav")


def register(subparsers):
    tok = subparsers.add_parser(
        "tokenize", help="turn BASIC source into a program image, card, tape record or WAV",
        description="Tokenize a BASIC source file (UTF-8, or the machine's 8-bit codes) as "
                    "the PC-1360 stores typed lines.")
    tok.add_argument("source", metavar="SRC", nargs="+",
                     help="source file, or - for standard input; several sources make one "
                          "program of them all (each needs its own line numbers; give -o)")
    tok.add_argument("-o", "--output", metavar="OUT", type=Path,
                     help="output file (default: SRC with the format's suffix; standard "
                          "output when SRC is -)")
    tok.add_argument("--format", choices=FORMATS,
                     help="img: PocketTools program lines; ram: RAM-card image; tap: tape "
                          "record; wav: tape recording (default: from OUT's suffix, else img)")
    tok.add_argument("--card", type=int, choices=sorted(CARD_SIZES), default=32,
                     help="RAM card size in KB for --format ram (default 32)")
    tok.add_argument("--name", default="", help="program name on tape, up to 7 characters")
    tok.add_argument("--long-lines", action="store_true",
                     help="accept lines longer than the 80 characters one can type (up to 255 "
                          "stored bytes; such programs can reach the machine by tape)")
    tok.set_defaults(handler=cmd_tokenize)

    lst = subparsers.add_parser(
        "list", help="list a program (.img, .ram, .tap or .wav; the kind is found from the content)")
    lst.add_argument("file", metavar="FILE", help="program file, or - for standard input")
    lst.add_argument("--ascii", action="store_true",
                     help="plain ASCII: other characters as \\xHH escapes (which tokenize reads back)")
    lst.add_argument("--salvage", action="store_true",
                     help="list the intact lines of a damaged file, report the damage, exit 0")
    lst.set_defaults(handler=cmd_list)


def cmd_tokenize(args):
    from pc1360.errors import FormatError
    from pc1360.tokenizer import parse_program

    sources = args.source
    if len(sources) > 1 and args.output is None:
        raise UsageError("several sources make one program: give -o OUT")
    if sources.count("-") > 1:
        raise UsageError("standard input (-) can be read only once")
    form = args.format or _format_from_suffix(args.output)
    named = []
    for source_name in sources:
        name = "<stdin>" if source_name == "-" else source_name
        try:
            parsed = parse_program(_read(source_name), long_lines=args.long_lines)
        except FormatError as exc:
            _report(name, exc)
            return 1
        for warning in parsed.warnings:
            _report(name, warning, "warning: ")
        named.append((name, parsed.image))
    return _write_program(args, _merged(named), form)


def _merged(named):
    """The one image of the (name, image) pairs; a line number in two of them is refused."""
    from pc1360.image import merge_images

    if len(named) == 1:
        return named[0][1]
    try:
        return merge_images(named)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _write_program(args, image, form):
    """Encode `image` as `form` and write it to -o OUT (or the default output)."""
    from emulator.machine.atomic_write import write_atomic
    from pc1360.errors import FormatError

    try:
        data = _encode(image, form, args)
    except FormatError as exc:
        _report(" + ".join("<stdin>" if name == "-" else name for name in args.source), exc)
        return 1
    if args.output is None and args.source == ["-"]:
        if sys.stdout.isatty():
            raise UsageError("will not write binary data to a terminal: give -o OUT")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    output = args.output or Path(args.source[0]).with_suffix("." + form)
    for source in args.source:
        if source != "-" and output.exists() and os.path.samefile(output, source):
            raise UsageError(f"{output} is the source file itself: give another -o OUT")
    try:
        write_atomic(output, data)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None
    return 0


def cmd_list(args):
    from pc1360 import detect
    from pc1360.errors import FormatError
    from pc1360.listing import list_program

    name = "<stdin>" if args.file == "-" else args.file
    problems = [] if args.salvage else None
    try:
        with _open_program(args.file) as stream:
            head = stream.read(12)
            if detect.is_wav(head):  # a recording is read in blocks: it may be hours long
                kind, data = "wav", stream
            else:
                kind = None
                data = head + _read_rest(stream, name)
            kind = kind or detect.detect_kind(data, hint=Path(args.file).suffix.lower().lstrip("."))
            text = list_program(detect.image_of(kind, data, problems), ascii=args.ascii)
    except FormatError as exc:
        _report(name, exc)
        return 1
    for problem in problems or ():
        _report(name, problem, "damaged: ")
    sys.stdout.buffer.write(text.encode("ascii" if args.ascii else "utf-8"))
    sys.stdout.flush()
    return 0


def _encode(image, form, args):
    # each form's codec imported only for it: a tokenize to .img is a short command
    if form == "img":
        return image
    if form == "ram":
        from pc1360 import ramcard

        return ramcard.build_card(image, args.card)
    from pc1360 import tape

    record = tape.encode_tap(image, args.name)
    if form == "tap":
        return record
    from pc1360 import tapesound

    return tapesound.wav_bytes(tapesound.encode_samples(record))


def _format_from_suffix(output):
    if output is None:
        return "img"
    suffix = output.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise UsageError(f"cannot tell the format from {output.name!r}: give --format "
                         f"({', '.join(FORMATS)})")
    return suffix


# The longest file taken as a program or its source (a WAV recording is streamed instead):
# a card image is 32 KB and a source a few hundred; a longer file is no program.
MAX_INPUT = 16 * 1024 * 1024


def _read(path):
    with _open_program(path) as stream:
        return _read_rest(stream, path)


def _read_rest(stream, name):
    try:
        data = stream.read(MAX_INPUT + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT:
        raise UsageError(f"{name} is longer than {MAX_INPUT // (1024 * 1024)} MB: not a program")
    return data


def _open_program(path):
    """A binary stream for `path`, seekable (stdin is read into memory for that)."""
    if path == "-":
        return io.BytesIO(sys.stdin.buffer.read())
    try:
        stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stream.seekable():  # a FIFO or a device: read what comes, within bounds
        with stream:
            return io.BytesIO(_read_rest(stream, path))
    return stream


def _report(name, error, kind=""):
    print(error.in_file(name, kind), file=sys.stderr)

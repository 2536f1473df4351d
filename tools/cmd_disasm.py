"""`pc1360 disasm FILE`: list a binary image (a ROM dump, a machine-code file) as SC61860 code."""

from tools.cli import UsageError


def parse_address(text):
    """0x4000, 4000H, &4000 or decimal; 16 bits."""
    t = text.strip().upper()
    try:
        if t.startswith("&H"):
            value = int(t[2:], 16)
        elif t.startswith("&"):
            value = int(t[1:], 16)
        elif t.endswith("H"):
            value = int(t[:-1], 16)
        else:
            value = int(t, 0)
    except ValueError:
        raise UsageError(f"not an address: {text!r}") from None
    if not 0 <= value <= 0xFFFF:
        raise UsageError(f"address out of range 0..0xFFFF: {text!r}")
    return value


def register(subparsers):
    p = subparsers.add_parser("disasm", help="disassemble a binary file as SC61860 code",
                              description="Disassemble a binary file as SC61860 code.")
    p.add_argument("file", help="binary image, e.g. a ROM dump")
    p.add_argument("--org", default="0", help="address of the file's first byte (default 0)")
    p.add_argument("--start", help="first address to list (default: --org)")
    p.add_argument("--end", help="address where the listing stops, not included "
                                 "(default: the end of the file)")
    p.set_defaults(handler=run)


def run(args):
    from emulator.cpu.disasm import format_line, listing  # the CPU's tables: only here

    try:
        with open(args.file, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    org = parse_address(args.org)
    if not data:
        raise UsageError(f"{args.file} is empty")
    top = org + len(data)
    if top > 0x10000:
        raise UsageError(f"{args.file} ({len(data)} bytes) does not fit at 0x{org:04X}")
    start = parse_address(args.start) if args.start else org
    end = parse_address(args.end) if args.end else top
    if not org <= start < top:
        raise UsageError(f"--start 0x{start:04X} is outside the file (0x{org:04X}-0x{top - 1:04X})")
    if not start < end <= top:
        raise UsageError(f"--end must be above --start and at most 0x{top:04X}")
    # Bytes past the file read as 0xFF, like unprogrammed ROM.
    mem = bytearray(b"\xff") * 0x10000
    mem[org:top] = data
    for addr, length, text in listing(mem, start, end):
        print(format_line(mem, addr, length, text))
    return 0

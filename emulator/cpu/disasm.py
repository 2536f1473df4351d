"""SC61860 disassembler, driven by the same opcode table as the CPU.

Syntax follows the ASxxxx as61860 assembler: hex operands as 0x.., relative jumps
and LOOP shown with their absolute target, PTC as `PTC k, addr`. The case table
after a DTC has a length only the running program knows (PTC's count), so `listing`
decodes it when the DTC directly follows a PTC and shows `.CASE`/`.DEFAULT` lines.
"""

from emulator.cpu.optable import OPS


def _byte(mem, addr):
    return mem[addr & 0xFFFF]


def _word(mem, addr):
    return _byte(mem, addr) << 8 | _byte(mem, addr + 1)


def disassemble(mem, addr):
    """Decode the instruction at `addr` in the 64 KiB image `mem`: (text, length)."""
    op = OPS[_byte(mem, addr)]
    fmt, name = op.operands, op.mnemonic
    if name == "UNDEF":
        return f".DB 0x{op.opcode:02X}", 1
    if fmt == "n":
        text = f"{name} 0x{_byte(mem, addr + 1):02X}"
    elif fmt == "nm":
        text = f"{name} 0x{_word(mem, addr + 1):04X}"
    elif fmt == "+r":
        text = f"{name} 0x{(addr + 1 + _byte(mem, addr + 1)) & 0xFFFF:04X}"
    elif fmt == "-r":
        text = f"{name} 0x{(addr + 1 - _byte(mem, addr + 1)) & 0xFFFF:04X}"
    elif fmt == "lp":
        text = f"{name} 0x{op.opcode & 0x3F:02X}"
    elif fmt == "cal":
        text = f"{name} 0x{(op.opcode & 0x1F) << 8 | _byte(mem, addr + 1):04X}"
    elif fmt == "k,nm":
        text = f"{name} 0x{_byte(mem, addr + 1):02X}, 0x{_word(mem, addr + 2):04X}"
    else:
        text = name
    return text, op.length


def listing(mem, start, end):
    """Yield (address, length, text) from `start` up to (not including) `end`."""
    addr, cases = start, None
    while addr < end:
        if cases is not None:
            for _ in range(cases):
                if addr >= end:
                    return
                yield addr, 3, f".CASE 0x{_byte(mem, addr):02X}, 0x{_word(mem, addr + 1):04X}"
                addr += 3
            if addr < end:
                yield addr, 2, f".DEFAULT 0x{_word(mem, addr):04X}"
                addr += 2
            cases = None
            continue
        text, length = disassemble(mem, addr)
        yield addr, length, text
        if _byte(mem, addr) == 0x7A and _byte(mem, addr + 4) == 0x69 and addr + 4 < end:
            # A DTC straight after its PTC: the case count is PTC's first operand.
            yield addr + 4, 1, "DTC"
            cases = _byte(mem, addr + 1)
            addr += 5
            continue
        addr += length


def format_line(mem, addr, length, text):
    """`8030  7A 05 80 FB  PTC 0x05, 0x80FB`: address, bytes, instruction."""
    raw = " ".join(f"{_byte(mem, addr + i):02X}" for i in range(length))
    return f"{addr:04X}  {raw:<11}  {text}"

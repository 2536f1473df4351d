"""Disassembler and `pc1360 disasm`. The encodings are those of the ASxxxx as61860
assembler's test programs (t61860.asm assembled at 0x8030, with LLLL = 0x8030 and
MMMM = 0x80FB); mnemonics may be the assembler's aliases of the table's names."""

import pytest

from emulator.cpu.disasm import disassemble, format_line, listing
from emulator.cpu.optable import OPS
from tools.cli import main

ORG = 0x8030

# (assembler mnemonic, operands as this disassembler prints them, bytes), in program order.
PROGRAM = [
    ("PTC", "0x05, 0x80FB", "7A 05 80 FB"), ("DTC", "", "69"),
    (".CASE", "0x4C, 0x8048", "4C 80 48"), (".CASE", "0x4D, 0x804C", "4D 80 4C"),
    (".CASE", "0x51, 0x804E", "51 80 4E"), (".CASE", "0x53, 0x8051", "53 80 51"),
    (".CASE", "0x56, 0x8055", "56 80 55"), (".DEFAULT", "0x8046", "80 46"),
    ("ADB", "", "14"), ("ADCM", "", "C4"), ("ADIA", "0x03", "74 03"), ("ADIM", "0x04", "70 04"),
    ("ADM", "", "44"), ("ADN", "", "0C"), ("ADW", "", "0E"), ("ANIA", "0x04", "64 04"),
    ("ANID", "0x04", "D4 04"), ("ANIM", "0x05", "60 05"), ("ANMA", "", "46"),
    ("CAL", "0x00FE", "E0 FE"), ("CALL", "0x8030", "78 80 30"), ("CPIA", "0x06", "67 06"),
    ("CPIM", "0x07", "63 07"), ("CPMA", "", "C7"), ("DATA", "", "35"), ("DECA", "", "43"),
    ("DECB", "", "C3"), ("DECI", "", "41"), ("DECJ", "", "C1"), ("DECK", "", "49"),
    ("DECL", "", "C9"), ("DECM", "", "4B"), ("DECN", "", "CB"), ("DECP", "", "51"),
    ("DX", "", "05"), ("DXL", "", "25"), ("DY", "", "07"), ("DYS", "", "27"), ("EXAB", "", "DA"),
    ("EXAM", "", "DB"), ("EXB", "", "0B"), ("EXBD", "", "1B"), ("EXW", "", "09"),
    ("EXWD", "", "19"), ("FILD", "", "1F"), ("FILM", "", "1E"), ("INA", "", "4C"),
    ("INB", "", "CC"), ("INCA", "", "42"), ("INCB", "", "C2"), ("INCI", "", "40"),
    ("INCJ", "", "C0"), ("INCK", "", "48"), ("INCL", "", "C8"), ("INCM", "", "4A"),
    ("INCN", "", "CA"), ("INCP", "", "50"), ("IY", "", "06"), ("IYS", "", "26"), ("IX", "", "04"),
    ("IXL", "", "24"), ("JP", "0x8030", "79 80 30"), ("JPC", "0x8030", "7F 80 30"),
    ("JPNC", "0x8030", "7D 80 30"), ("JPNZ", "0x8030", "7C 80 30"), ("JPZ", "0x8030", "7E 80 30"),
    ("JRCM", "0x8030", "3B 65"), ("JRCP", "0x80FB", "3A 64"), ("JRM", "0x8030", "2D 69"),
    ("JRNCM", "0x8030", "2B 6B"), ("JRNCP", "0x80FB", "2A 5E"), ("JRNZM", "0x8030", "29 6F"),
    ("JRNZP", "0x80FB", "28 5A"), ("JRP", "0x80FB", "2C 58"), ("JRZM", "0x8030", "39 75"),
    ("JRZP", "0x80FB", "38 54"), ("LEAVE", "", "D8"), ("LDD", "", "57"), ("LDM", "", "59"),
    ("LDP", "", "20"), ("LDQ", "", "21"), ("LDR", "", "22"), ("LIA", "0x01", "02 01"),
    ("LIB", "0x02", "03 02"), ("LIDL", "0x03", "11 03"), ("LIDP", "0x8030", "10 80 30"),
    ("LII", "0x04", "00 04"), ("LIJ", "0x05", "01 05"), ("LIP", "0x06", "12 06"),
    ("LIQ", "0x07", "13 07"), ("LOOP", "0x8030", "2F 90"), ("LP", "0x00", "80"),
    ("MVB", "", "0A"), ("MVBD", "", "1A"), ("MVDM", "", "53"), ("MVMD", "", "55"),
    ("MVW", "", "08"), ("MVWD", "", "18"), ("NOPT", "", "CE"), ("NOPW", "", "4D"),
    ("ORIA", "0x08", "65 08"), ("ORID", "0x09", "D5 09"), ("ORIM", "0x01", "61 01"),
    ("ORMA", "", "47"), ("OUTA", "", "5D"), ("OUTB", "", "DD"), ("OUTF", "", "5F"),
    ("OUTC", "", "DF"), ("POP", "", "5B"), ("PUSH", "", "34"), ("RA", "", "23"), ("RC", "", "D1"),
    ("READ", "", "56"), ("READM", "", "54"), ("RTN", "", "37"), ("SBB", "", "15"),
    ("SBCM", "", "C5"), ("SBIA", "0x02", "75 02"), ("SBIM", "0x03", "71 03"), ("SBM", "", "45"),
    ("SBN", "", "0D"), ("SBW", "", "0F"), ("SC", "", "D0"), ("SL", "", "5A"), ("SLW", "", "1D"),
    ("SR", "", "D2"), ("SRW", "", "1C"), ("STD", "", "52"), ("STP", "", "30"), ("STQ", "", "31"),
    ("STR", "", "32"), ("SWP", "", "58"), ("TEST", "0x04", "6B 04"), ("TSIA", "0x05", "66 05"),
    ("TSID", "0x06", "D6 06"), ("TSIM", "0x07", "62 07"), ("TSIP", "", "C6"),
    ("WAIT", "0x09", "4E 09"), ("WAITJ", "", "4F"),
]

# From the sequential-opcode test program: (bytes at 0x8000, expected mnemonic and operands).
SEQUENTIAL = [
    ("28 01", "JRNZP", "0x8002"),      # 1$: jrnzp 2$ with 2$ = 1$ + 2
    ("2F 01", "LOOP", "0x8000"),       # loop .
    ("29 03", "JRNZM", "0x7FFE"),
    ("6F", "WAIT0", ""), ("D3", "WRIT", ""), ("C6", "TSMA", ""), ("23", "CLRA", ""),
    ("E1 FF", "CAL", "0x01FF"), ("FF FF", "CAL", "0x1FFF"), ("F0 00", "CAL", "0x1000"),
    ("7A 01 00 00", "PTC", "0x01, 0x0000"), ("4E 00", "WAIT", "0x00"), ("BF", "LP", "0x3F"),
]


def _image(org, data):
    mem = bytearray(0x10000)
    mem[org:org + len(data)] = data
    return mem


def _same_mnemonic(ours, theirs, opcode):
    if ours == theirs or ours.startswith("."):
        return ours == theirs
    return theirs in OPS[opcode].aliases


def test_disasm_listing_matches_the_as61860_test_program():
    code = bytes.fromhex(" ".join(h for _, _, h in PROGRAM))
    mem = _image(ORG, code)
    lines = list(listing(mem, ORG, ORG + len(code)))
    assert ORG + len(code) == 0x80FB
    assert len(lines) == len(PROGRAM)
    addr = ORG
    for (line_addr, length, text), (mnemonic, operands, hexbytes) in zip(lines, PROGRAM):
        ours, _, args = text.partition(" ")
        assert line_addr == addr
        assert length == len(bytes.fromhex(hexbytes)), text
        assert _same_mnemonic(ours, mnemonic, mem[line_addr]), (text, mnemonic)
        assert args == operands, (text, operands)
        addr += length


@pytest.mark.parametrize("hexbytes, mnemonic, operands", SEQUENTIAL)
def test_disasm_sequential_opcode_encodings(hexbytes, mnemonic, operands):
    data = bytes.fromhex(hexbytes)
    text, length = disassemble(_image(0x8000, data), 0x8000)
    ours, _, args = text.partition(" ")
    assert length == len(data)
    assert _same_mnemonic(ours, mnemonic, data[0])
    assert args == operands


def test_disasm_every_opcode_has_the_table_length():
    for op in OPS:
        mem = _image(0x8000, bytes([op.opcode, 0x12, 0x34, 0x56]))
        assert disassemble(mem, 0x8000)[1] == op.length


def test_disasm_undefined_opcode_is_a_data_byte():
    assert disassemble(_image(0, b"\x16"), 0) == (".DB 0x16", 1)


def test_disasm_operands_wrap_at_0xffff():
    mem = _image(0xFFFE, b"\x10\x12")
    mem[0] = 0x34
    assert disassemble(mem, 0xFFFE) == ("LIDP 0x1234", 3)


def test_disasm_format_line():
    mem = _image(ORG, bytes.fromhex("7A 05 80 FB"))
    assert format_line(mem, ORG, 4, "PTC 0x05, 0x80FB") == "8030  7A 05 80 FB  PTC 0x05, 0x80FB"


def test_disasm_cli_lists_a_file(tmp_path, capsys):
    image = tmp_path / "code.bin"
    image.write_bytes(bytes.fromhex("02 01 2D 02 37"))
    assert main(["disasm", str(image), "--org", "0x8000"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "8000  02 01        LIA 0x01",
        "8002  2D 02        JRM 0x8001",
        "8004  37           RTN",
    ]


def test_disasm_cli_start_and_end(tmp_path, capsys):
    image = tmp_path / "code.bin"
    image.write_bytes(bytes.fromhex("02 01 2D 02 37"))
    args = ["disasm", str(image), "--org", "&8000", "--start", "8002H", "--end", "0x8004"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines() == ["8002  2D 02        JRM 0x8001"]


@pytest.mark.parametrize("args, message", [
    (["--org", "0xFFFF"], "does not fit"),
    (["--org", "banana"], "not an address"),
    (["--start", "0x10"], "outside the file"),
    (["--end", "0x0"], "--end must be above"),
])
def test_disasm_cli_reports_bad_arguments(tmp_path, capsys, args, message):
    image = tmp_path / "code.bin"
    image.write_bytes(b"\x37\x37")
    assert main(["disasm", str(image), "--org", "0x100", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_disasm_cli_missing_file(tmp_path, capsys):
    assert main(["disasm", str(tmp_path / "nope.bin")]) == 1
    assert "cannot read" in capsys.readouterr().err

"""The real firmware's CLOAD reads the tapes tape.py and tapesound.py make.

The emulated machine runs the ROM; its tape input (TEST bit 0x80 and the CUP/CDN Xin
line, docs/interfaces.md) is fed from our samples, clocked by the machine's cycle count.
"""

import pytest

from pc1360.facts import CYCLES_PER_SECOND
from pc1360.tape import encode_tap
from pc1360.tapesound import encode_samples
from pc1360.tokenizer import tokenize

pytestmark = pytest.mark.rom
RATE = 16_000
XIN = 0x80


def program_of(length):
    lines, remaining, number = [], length, 1
    while remaining:
        n = remaining - 9 if remaining <= 9 + 40 else 13
        lines.append(f'{number} A$="{"X" * n}"')
        remaining -= 9 + n
        number += 1
    return tokenize("\n".join(lines))


def cload(rom_dir, record, command="CLOAD"):
    """Type `command` on a freshly booted machine, play `record`; (screen rows, program)."""
    machine_module = pytest.importorskip("emulator.machine.facade")
    machine = machine_module.PC1360(rom_dir=rom_dir, card_kb=32)
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    samples = encode_samples(record, RATE, lead_in_bits=300)
    start = None

    def level():
        if start is None:
            return 0
        index = int((machine.now() - start) * RATE / CYCLES_PER_SECOND)
        return int(index < len(samples) and samples[index] > 128)

    bus = machine.bus
    test = bus.test
    bus.test = lambda mask=0xFF: test(mask) | (XIN if level() else 0)
    bus.xin = level
    machine.type_keys(command)
    machine.type_keys("{ENTER}")
    start = machine.now()
    machine.run_for(len(samples) / RATE + 1.5)
    begin, end = machine.peek_word(0xFFD7), machine.peek_word(0xFFD9)
    return [row.rstrip() for row in machine.screen_text()], bytes(machine.mem[begin + 1:end])


def test_cload_reads_blocks_checksums_and_end_mark(rom_dir):
    image = program_of(241)  # two block checksums, then one byte and the end mark
    rows, program = cload(rom_dir, encode_tap(image, "HELLO"), 'CLOAD "HELLO"')
    assert program == image and rows[2] == ">"


def test_cload_when_the_last_block_is_full(rom_dir):
    image = program_of(240)  # no block checksum right before the end mark
    assert cload(rom_dir, encode_tap(image))[1] == image


def test_cload_reports_a_checksum_error(rom_dir):
    record = bytearray(encode_tap(program_of(130)))
    record[10 + 120] ^= 0x01  # the first block checksum
    rows, program = cload(rom_dir, bytes(record))
    assert rows[2] == "ERROR 8" and program == b""

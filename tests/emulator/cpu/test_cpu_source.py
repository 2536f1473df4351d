"""The generated code shows its source: a fault inside a handler or a translated block
gives a traceback with the generated statement, and inspect finds the functions' source."""

import inspect
import io
import linecache
import pdb  # noqa: T100 (the test drives the debugger)
import textwrap
import traceback

import pytest

from emulator.cpu import sc61860
from emulator.cpu.codegen import handler_source
from emulator.cpu.translator import _address
from emulator.cpu.sc61860 import OPS, SC61860, SEMS

INA = 0x4C
INA_LINE = "v = bus.ina() & 0xFF"  # the statement of INA that calls the bus


class FaultyBus:
    """A port that fails on its `fail_at`-th read, as a broken bus method would."""

    def __init__(self, fail_at):
        self.reads, self.fail_at = 0, fail_at

    def ina(self):
        self.reads += 1
        if self.reads >= self.fail_at:
            raise RuntimeError("port broken")
        return 0


def closure(cpu, name):
    """A variable of the CPU's builder, through the run loop's closure."""
    run = cpu._run
    return dict(zip(run.__code__.co_freevars, run.__closure__))[name].cell_contents


def looping_ina(fail_at, translate):
    """A CPU at 0x0100: INA; JP 0x0100, as translatable code if `translate`."""
    mem = bytearray(0x10000)
    mem[0x100:0x104] = bytes([INA, 0x79, 0x01, 0x00])
    cpu = SC61860(mem, FaultyBus(fail_at))
    if translate:
        cpu.set_code_regions((0x0000, 0x0200))
    cpu.pc = 0x100
    return cpu


def fault(cpu):
    """The exception of the bus fault that `run` meets."""
    with pytest.raises(RuntimeError) as caught:
        cpu.run(10_000)
    return caught.value


def fault_frame(cpu):
    """(formatted traceback, the innermost generated frame) of the fault `run` meets."""
    exc = fault(cpu)
    text = "".join(traceback.format_exception(exc))
    frames = traceback.extract_tb(exc.__traceback__)
    generated = [f for f in frames if f.filename.startswith("<sc61860")]
    return text, generated[-1]


def test_a_fault_in_a_handler_shows_the_handler_statement():
    text, frame = fault_frame(looping_ina(1, translate=False))
    assert frame.name == f"op_{INA:02X}" and frame.line == INA_LINE
    assert INA_LINE in text


def test_a_fault_in_a_block_translated_late_shows_the_block_statement(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    cpu = looping_ina(20, translate=True)  # fails well after the block is made
    text, frame = fault_frame(cpu)
    assert frame.name == "block_0100" and frame.line == INA_LINE
    assert INA_LINE in text
    # the listing of the instruction the line belongs to comes before it
    above = linecache.getlines(frame.filename)[:frame.lineno]
    assert [line.strip() for line in above if "#" in line][-1] == "# 0100  INA"


def test_inspect_finds_a_handler_source():
    handler = closure(SC61860(bytearray(0x10000), None), "dispatch")[0x10]
    lines = textwrap.dedent(inspect.getsource(handler)).splitlines()
    assert lines == handler_source(OPS[0x10], SEMS[0x10], "op_10")


def test_each_block_has_source_under_a_name_of_its_own(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    mem = bytearray(0x10000)
    # 0x0100: INCP; JP 0x0100 and 0x0110: DECP; JP 0x0110, each a loop of its own
    mem[0x100:0x104] = bytes([0x50, 0x79, 0x01, 0x00])
    mem[0x110:0x114] = bytes([0x51, 0x79, 0x01, 0x10])
    cpu = SC61860(mem, None)
    cpu.set_code_regions((0x0000, 0x0200))
    blocks = []
    for entry in (0x100, 0x110):
        cpu.pc = entry
        cpu.run(1_000)
        blocks.append(closure(cpu, "pages")[0x01][entry & 0xFF])
    assert blocks[0].__code__.co_filename != blocks[1].__code__.co_filename
    for block, step in zip(blocks, ("# 0100  INCP", "# 0110  DECP")):
        source = inspect.getsource(block)
        assert source.lstrip().startswith(f"def {block.__name__}(pc):") and step in source


@pytest.mark.parametrize("addr", (-0x10, 0, 0x8000, 0xFFFF, 0x10002))
def test_block_address_literals_read_back_as_the_address(addr):
    assert eval(_address(addr)) == addr


def test_pdb_lists_a_block_where_it_failed(monkeypatch):
    monkeypatch.setattr(sc61860, "HOT", 2)
    tb = fault(looping_ina(20, translate=True)).__traceback__
    out = io.StringIO()
    # post mortem: up from the bus method to the block, then list around the line
    debugger = pdb.Pdb(stdin=io.StringIO("up\nlist\nquit\n"), stdout=out, nosigint=True)
    debugger.reset()
    debugger.interaction(None, tb)
    listing = out.getvalue()
    assert "block_0100()" in listing and f"-> {INA_LINE}" in listing
    assert "# 0100  INA" in listing

"""The serial transfer against the PC-1360 in the emulator, on both engines.

Each test runs on the firmware engine (the real ROM, marked `rom`) and on the built-in
engine (emulator/builtin/serial_io.py, no ROM), which must look the same on the pins.

`Pocket` wires its own emulator.serial_line SioPort onto the bus instance (OUTF -> SD,
writes to the 0x3800 latch -> ER/RR/RS, INB bits 5-7 <- RD/CS/CD), over whatever the
machine wires itself, so that these tests pin the line model and the transfer tools
against the firmware on their own. Its host calls use machine.cycles, which is exact
between runs. The host side plays the PC: directly, or bridged to a pseudo-terminal on
which `pc1360 send` / `receive` run.

What the firmware showed (and these tests keep checking): after OPEN "1200,N,8,1,A,L,&1A"
plain LOAD and SAVE use the SIO, while LOAD "COM:" and SAVE "COM:" are syntax errors
(ERROR 1); SAVE raises RS, waits for CS and sends "10 PRINT "HI": GOTO 10" lines with the
OPEN line end, then 0x1A; LOAD waits for CD and stores the lines as if typed, pulling RR
low while it stores one. OPEN on an open port, and data before LOAD listens, give ERROR 8.
"""

import os
import select
import threading
import time
import tty
from pathlib import Path

import pytest

from emulator.connectors.serial_line import FrameFormat, SioPort
from emulator.machine.facade import PC1360
from emulator.machine.romset import load
from pc1360.facts import CYCLES_PER_SECOND, END_PTR, LATCH_RR, SIO_LATCH, START_PTR
from pc1360.tokenizer import parse_program, tokenize
from tools import cmd_serial, transfer
from tools.cli import main

ENGINES = [pytest.param("firmware", marks=pytest.mark.rom), "builtin"]

KNIFFEL = Path(__file__).resolve().parents[2] / "basic_src" / "kniffel.bas"
SMALL = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n'
DEFAULT = transfer.Settings()


def wire(source, settings=DEFAULT):
    """What `pc1360 send` puts on the line for `source`."""
    lines = transfer.listing_lines(parse_program(source).lines, settings)
    return b"".join(transfer.wire_chunks(lines, settings))


class Pocket:
    """The emulated PC-1360 with a SioPort on its bus (wrapped on this bus instance)."""

    def __init__(self, machine):
        self.machine = machine
        self.port = None
        self.is_open = False
        self.rr_changes = []  # (cycle, RR level) each time the firmware flips RR
        bus = machine.bus
        outf, write = bus.outf, bus.write

        def sio_outf(value):
            self.port.outf(value, machine.now())
            outf(value)

        def sio_write(addr, value):
            if addr & 0xFE00 == SIO_LATCH:  # 0x3800-0x39FF
                self.port.latch(value, machine.now())
                rr = bool(value & LATCH_RR)
                if not self.rr_changes or self.rr_changes[-1][1] != rr:
                    self.rr_changes.append((machine.now(), rr))
            write(addr, value)

        bus.outf = sio_outf
        bus.write = sio_write
        bus.inb = lambda: self.port.inb_bits(machine.now())

    def type(self, keys):
        self.machine.type_keys(keys)

    def open(self, settings=DEFAULT):
        """Type the OPEN statement the tools print; the host side takes its settings.
        OPEN on an open port is ERROR 8, so CLOSE comes first then."""
        self.port = SioPort(FrameFormat(settings.baud, settings.bits, settings.parity,
                                        settings.stop))
        close = "CLOSE{ENTER}" if self.is_open else ""
        self.type(close + settings.open_statement() + "{ENTER}")
        assert self.machine.key_wait_ready()
        assert "ERROR" not in " ".join(self.screen()), self.screen()
        self.is_open = True
        return self.port

    def run_until(self, done, seconds):
        """Run in small steps until `done()`."""
        machine = self.machine
        deadline = machine.cycles + seconds * CYCLES_PER_SECOND
        while not done():
            if machine.cycles >= deadline:
                pytest.fail(f"not done after {seconds} s; the screen shows {self.screen()}")
            machine.run_for(0.05)

    def load(self, source, settings=DEFAULT):
        port = self.open(settings)
        self.type("LOAD{ENTER}")
        port.host_send(wire(source, settings), self.machine.cycles)
        self.run_until(lambda: not port.host_pending, 120)
        assert self.machine.key_wait_ready()
        assert port.errors == []

    def save(self, settings=DEFAULT):
        port = self.open(settings)
        self.type("SAVE{ENTER}")
        received = bytearray()

        def ended():
            received.extend(port.host_receive(self.machine.cycles))
            return received.endswith(b"\x1a")

        self.run_until(ended, 120)
        assert port.errors == []
        return bytes(received)

    def rr_low_seconds(self):
        """How long RR stayed low each time between rises: while LOAD stored a line."""
        changes = self.rr_changes
        if changes and not changes[0][1]:
            changes = changes[1:]  # before LOAD started
        pairs = zip(changes, changes[1:])
        return [(end - start) / CYCLES_PER_SECOND for (start, rr), (end, _) in pairs if not rr]

    def program(self):
        machine = self.machine
        return bytes(machine.mem[machine.peek_word(START_PTR) + 1:machine.peek_word(END_PTR)])

    def screen(self):
        return [line.rstrip() for line in self.machine.screen_text()]


def boot(machine):
    assert machine.key_wait_ready(5)
    machine.type_keys("Y")  # clear the blank card: RUN mode, empty program
    assert machine.key_wait_ready()
    return Pocket(machine)


@pytest.fixture(scope="module", params=ENGINES)
def booted(request):
    """The firmware engine boots once and each test restores it; the built-in engine
    boots afresh for each test (in a few ms)."""
    if request.param == "firmware":
        pocket = boot(PC1360(roms=load(request.getfixturevalue("rom_dir"))))
        return pocket, pocket.machine.snapshot()
    return None, None


@pytest.fixture
def pocket(booted):
    pocket, snap = booted
    if snap is None:
        pocket = boot(PC1360(engine="builtin"))
    else:
        pocket.machine.restore(snap)
    pocket.port = SioPort(FrameFormat(1200))  # time went back: a fresh line
    pocket.is_open = False
    pocket.rr_changes.clear()
    return pocket


@pytest.mark.parametrize("command", ['LOAD "COM:"', 'SAVE "COM:"'])
def test_com_device_name_is_a_syntax_error_on_the_pc1360(pocket, command):
    pocket.open()
    pocket.type(command + "{ENTER}")
    pocket.machine.key_wait_ready()
    assert "ERROR 1" in pocket.screen()


def test_load_stores_what_send_sends_paced_by_rr(pocket):
    pocket.load(SMALL)
    assert pocket.program() == tokenize(SMALL)


def _load_without_flow_control(pocket, pieces, delay):
    """LOAD from a host that ignores RR, sending `pieces` with a pause of `delay` s after
    each."""
    port = pocket.open()
    port.flow_control = False
    pocket.type("LOAD{ENTER}")
    pocket.machine.run_for(0.1)  # the user starts LOAD before the sender (data before is ERROR 8)
    for piece in pieces:
        port.host_send(piece, pocket.machine.cycles)
        pocket.run_until(lambda: not port.host_pending, 30)
        pocket.machine.run_for(port.fmt.frame_cycles / CYCLES_PER_SECOND + delay)  # last byte, then pause
    assert pocket.machine.key_wait_ready()


def test_without_handshake_lines_sent_back_to_back_are_garbled(pocket, request):
    if "builtin" in request.node.name:
        # the firmware keeps taking bytes for a while after a line end (it stores
        # `20 A` and loses what follows); the built-in engine stops at once and here
        # loses the 0x1A too, so its LOAD waits on: not modelled yet
        pytest.xfail("overrun behaviour of the built-in LOAD differs from the firmware")
    _load_without_flow_control(pocket, [wire(SMALL)], 0)
    assert pocket.program() != tokenize(SMALL)


def test_without_handshake_the_default_line_delay_is_enough(pocket):
    chunks = transfer.wire_chunks(transfer.listing_lines(parse_program(SMALL).lines, DEFAULT),
                                  DEFAULT)
    _load_without_flow_control(pocket, chunks, cmd_serial.NO_HANDSHAKE_DELAY_MS / 1000)
    assert pocket.program() == tokenize(SMALL)


def test_save_sends_lines_as_send_writes_them_then_0x1a(pocket):
    pocket.load(SMALL)
    sent = pocket.save()
    assert sent == b'10 PRINT "HI": GOTO 10\r\n20 A=1.5E3:B$="X": REM OK\r\n\x1a'
    assert sent == wire(SMALL)


def test_load_takes_machine_codes_and_save_spells_pi_and_sqr_out(pocket):
    source = '10 X=π*√2:A$="ｱ¥♠":REM ﾃｽﾄ\n'
    assert wire(source) == b'10 X=\xfb*\xfc2:A$="\xb1\x5c\xf5": REM \xc3\xbd\xc4\r\n\x1a'
    pocket.load(source)
    assert pocket.program() == tokenize(source)  # the single codes, as the keys type them
    assert pocket.save() == b'10 X= PI * SQR 2:A$="\xb1\x5c\xf5": REM \xc3\xbd\xc4\r\n\x1a'


def test_save_with_seven_bits_even_parity_two_stops_and_cr(pocket):
    pocket.load(SMALL)
    settings = transfer.Settings(baud=300, parity="E", bits=7, stop=2, eol="C")
    assert pocket.save(settings) == b'10 PRINT "HI": GOTO 10\r20 A=1.5E3:B$="X": REM OK\r\x1a'


def test_save_raises_rs_and_waits_for_cs(pocket):
    pocket.load(SMALL)
    port = pocket.open()
    port.host_ready = False  # the PC is not ready: CS low
    pocket.type("SAVE{ENTER}")
    pocket.machine.run_for(0.5)
    assert port.request_to_send and port.host_receive(pocket.machine.cycles) == b""
    port.host_ready = True
    received = bytearray()

    def ended():
        received.extend(port.host_receive(pocket.machine.cycles))
        return received.endswith(b"\x1a")

    pocket.run_until(ended, 30)
    assert received == wire(SMALL)


def test_load_waits_for_cd(pocket):
    port = pocket.open()
    port.host_ready = False  # CS and CD low
    pocket.type("LOAD{ENTER}")
    port.host_send(wire(SMALL), pocket.machine.cycles)
    pocket.machine.run_for(0.5)
    assert port.host_pending == len(wire(SMALL))  # RR never rose
    port.host_ready = True
    pocket.run_until(lambda: not port.host_pending, 30)
    assert pocket.machine.key_wait_ready()
    assert pocket.program() == tokenize(SMALL)


@pytest.mark.slow  # about 80 s of emulated time at 1200 baud
def test_whole_program_round_trip_through_load_and_save(pocket):
    if not KNIFFEL.is_file():
        pytest.skip("basic_src/kniffel.bas not present")
    source = KNIFFEL.read_bytes()
    pocket.load(source)
    assert pocket.program() == tokenize(source)
    # the default pause without handshake outlasts every line LOAD stored
    stores = pocket.rr_low_seconds()
    assert len(stores) == len(parse_program(source).lines)
    assert max(stores) < cmd_serial.NO_HANDSHAKE_DELAY_MS / 1000
    saved = pocket.save()
    # SAVE writes what send writes, but for a space after a keyword that ends a line
    assert [line.rstrip(b" ") for line in saved.split(b"\r\n")] == wire(source).split(b"\r\n")
    _, program = transfer.parse_received(saved[:-1], ended=True)
    assert program.image == tokenize(source)


# --- the command line, bridged to the emulated SIO through a pseudo-terminal ----------

class Bridge:
    """A pty whose master end `pump()` connects to the emulated SIO."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def pump(self, pocket):
        while select.select([self.master], [], [], 0)[0]:
            pocket.port.host_send(os.read(self.master, 4096), pocket.machine.cycles)
        received = pocket.port.host_receive(pocket.machine.cycles)
        if received:
            os.write(self.master, received)

    def close(self):
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def bridge():
    pair = Bridge()
    yield pair
    pair.close()


def in_thread(argv):
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("status", main(argv)), daemon=True)
    thread.start()
    return thread, result


def test_cli_send_into_the_emulated_load(pocket, bridge, tmp_path, capsys):
    source = tmp_path / "small.bas"
    source.write_text(SMALL)
    pocket.open()
    pocket.type("LOAD{ENTER}")
    # a pty has no modem lines: the emulated port paces by RR itself
    thread, result = in_thread(["send", str(source), "--port", bridge.path,
                                "--handshake", "none", "--line-delay", "0", "--timeout", "5"])

    def done():
        time.sleep(0.005)  # let the PC side keep up with a fast engine (wall time)
        bridge.pump(pocket)
        return not thread.is_alive() and not pocket.port.host_pending

    pocket.run_until(done, 60)
    assert pocket.machine.key_wait_ready()
    assert result == {"status": 0}, capsys.readouterr().err
    assert pocket.program() == tokenize(SMALL)


def test_cli_receive_from_the_emulated_save(pocket, bridge, tmp_path, capsys, monkeypatch):
    pocket.load(SMALL)
    opened = threading.Event()
    real_open = transfer.open_port

    def open_and_tell(*args, **kwargs):
        port = real_open(*args, **kwargs)
        opened.set()  # the bridge pumps only once the port is open
        return port

    monkeypatch.setattr(transfer, "open_port", open_and_tell)
    out = tmp_path / "back.img"
    thread, result = in_thread(["receive", str(out), "--port", bridge.path, "--handshake", "none",
                                "--timeout", "5"])
    assert opened.wait(5)
    pocket.open()
    pocket.type("SAVE{ENTER}")

    def done():
        time.sleep(0.005)  # let the PC side keep up with a fast engine (wall time)
        bridge.pump(pocket)
        return not thread.is_alive()

    pocket.run_until(done, 60)
    assert result == {"status": 0}, capsys.readouterr().err
    assert out.read_bytes() == tokenize(SMALL)

"""tools/transfer.py piece by piece: settings, the text on the wire, the received-text
checks, progress, the CTS handshake, and a line model of what a wrong setting does.

The CTS handshake cannot be seen on a pseudo-terminal (no modem lines), so those tests
open the pty through a pyserial subclass whose `cts` the peer thread sets: the bytes
still go through the real pty, only the modem line is simulated.
"""

import io
import os
import select
import socket
import threading
import time
import tty

import pytest
import serial

from emulator.connectors.serial_line import FrameFormat, decode, encode
from pc1360.image import Line
from pc1360.tokenizer import tokenize
from tools import cmd_serial, transfer
from tools.cli import build_parser, main
from tools.transfer import Progress, Settings, TransferError

# --- settings and the OPEN statement --------------------------------------------------

@pytest.mark.parametrize("settings,statement", [
    (Settings(), 'OPEN "1200,N,8,1,A,L,&1A"'),
    (Settings(baud=300, parity="E", bits=7, stop=2, eol="C"), 'OPEN "300,E,7,2,A,C,&1A"'),
    (Settings(baud=600, parity="O", eol="F"), 'OPEN "600,O,8,1,A,F,&1A"'),
])
def test_open_statement(settings, statement):
    assert settings.open_statement() == statement


@pytest.mark.parametrize("kwargs", [dict(eol="X"), dict(handshake="xon"), dict(bits=6), dict(parity="M")])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        Settings(**kwargs)


@pytest.mark.parametrize("eol,end", [("L", b"\r\n"), ("C", b"\r"), ("F", b"\n")])
def test_wire_chunks_end_each_line_and_the_transfer(eol, end):
    chunks = transfer.wire_chunks([b"10 END", b"20 STOP"], Settings(eol=eol))
    assert chunks == [b"10 END" + end, b"20 STOP" + end, b"\x1a"]


@pytest.mark.parametrize("options,delay", [
    ([], 0), (["--handshake", "none"], 500), (["--handshake", "none", "--line-delay", "250"], 250),
    (["--line-delay", "40"], 40)])
def test_line_delay_defaults_to_covering_load_only_without_handshake(options, delay):
    args = build_parser().parse_args(["send", "x.bas", "--port", "loop://", *options])
    assert cmd_serial._line_delay(args) == delay


# --- the text that goes out ------------------------------------------------------------

def test_listing_lines_use_a_space_after_the_number_and_machine_codes():
    lines = [Line(10, b'\xfe\x60"\xb1\x5c"'), Line(20, b"X=\xfb*\xfc2")]
    assert transfer.listing_lines(lines, Settings()) == [b'10 PRINT "\xb1\x5c"', b"20 X=\xfb*\xfc2"]


def test_a_byte_without_a_character_cannot_be_sent():
    with pytest.raises(TransferError, match="line 10 holds the byte 0x80"):
        transfer.listing_lines([Line(10, b'\xfe\x60"\x80"')], Settings())


def test_load_program_reads_an_image_as_it_is(tmp_path):
    image = tmp_path / "p.img"
    image.write_bytes(tokenize("10 END\n20 STOP\n"))
    lines, warnings = transfer.load_program(image)
    assert [line.number for line in lines] == [10, 20] and warnings == []


def test_load_program_passes_on_duplicate_line_warnings(tmp_path):
    source = tmp_path / "p.bas"
    source.write_text("10 END\n10 STOP\n")
    lines, warnings = transfer.load_program(source)
    assert len(lines) == 1 and "p.bas:2:1" in warnings[0]


def test_load_program_of_a_missing_file(tmp_path):
    with pytest.raises(TransferError, match="cannot read"):
        transfer.load_program(tmp_path / "none.bas")


# --- what comes in ---------------------------------------------------------------------

@pytest.mark.parametrize("data", [b"10 END\r20 STOP\r", b"10 END\n20 STOP\n", b"10 END\r\n20 STOP"])
def test_parse_received_takes_any_line_end(data):
    text, program = transfer.parse_received(data, ended=True)
    assert text == "10 END\n20 STOP\n" and program.image == tokenize(text)


def test_parse_received_of_nothing():
    with pytest.raises(TransferError, match="no program lines"):
        transfer.parse_received(b"\r\n", ended=True)


@pytest.mark.parametrize("byte", [0x00, 0x09, 0x7F, 0x80, 0xFE, 0xFF])
def test_parse_received_rejects_bytes_outside_the_character_set(byte):
    with pytest.raises(TransferError, match=f"received line 1:4: byte 0x{byte:02X}"):
        transfer.parse_received(b"10 " + bytes([byte]) + b"END\r\n", ended=True)


def linux_reads(frames):
    """The bytes a Linux serial driver hands to pyserial for `frames`: pyserial turns
    parity checking off (INPCK), and a framing error arrives as 0x00."""
    return bytes(0 if frame.framing_error else frame.value for frame in frames)


@pytest.mark.parametrize("wrong", [FrameFormat(600), FrameFormat(2400), FrameFormat(1200, 8, "E", 1)],
                         ids=["half baud", "double baud", "parity bit where stop expected"])
def test_a_wrong_setting_on_one_end_is_caught_as_garbage(wrong):
    sent = b'10 PRINT "HI"\r\n20 GOTO 10\r\n'
    got = linux_reads(decode(encode(sent, FrameFormat(1200)), wrong, end=10**6))
    with pytest.raises(TransferError, match="not listing text|received line"):
        transfer.parse_received(got, ended=True)


def test_a_wrong_setting_gives_one_message_and_no_file(tmp_path, capsys, monkeypatch):
    """At the CLI: the garbled bytes of a 600/1200 baud mismatch, then 0x1A, over loop://."""
    sent = b'10 PRINT "HI"\r\n'
    got = linux_reads(decode(encode(sent, FrameFormat(1200)), FrameFormat(600), end=10**6))
    port = serial.serial_for_url("loop://", timeout=0.02)
    port.write(got + b"\x1a")
    out = tmp_path / "got.bas"
    monkeypatch.setattr(transfer, "open_port", lambda url, settings, timeout, keep_input: port)
    status = main(["receive", str(out), "--port", "loop://", "--handshake", "none",
                   "--timeout", "1"])
    err = capsys.readouterr().err
    assert status == 1 and "not listing text" in err and "Traceback" not in err
    assert not out.exists()


# --- ports -----------------------------------------------------------------------------

def test_loop_port_round_trip_through_send_and_receive():
    settings = Settings()
    port = transfer.open_port("loop://", settings, timeout=1)
    with port:
        lines = transfer.listing_lines(transfer.parse_received(b"10 END\n20 STOP\n", True)[1].lines,
                                       settings)
        transfer.send(port, transfer.wire_chunks(lines, settings), settings, timeout=1)
        data, ended = transfer.receive(port, settings, timeout=1, idle=0.2)
    assert ended and data == b"10 END\r\n20 STOP\r\n"


def test_open_an_unknown_url_scheme():
    with pytest.raises(TransferError, match="cannot open port nope://x"):
        transfer.open_port("nope://x", Settings(), timeout=1)


def test_open_a_loopback_socket_nobody_listens_on():
    with socket.socket() as probe:  # a free port on the loopback interface, then closed
        probe.bind(("127.0.0.1", 0))
        address = probe.getsockname()[1]
    with pytest.raises(TransferError, match="cannot open port socket://127.0.0.1"):
        transfer.open_port(f"socket://127.0.0.1:{address}", Settings(), timeout=1)


def test_send_to_a_loopback_socket_peer(tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text("10 END\n")
    got = bytearray()
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(3)

        def calculator():
            connection, _ = server.accept()
            with connection:
                connection.settimeout(3)
                while 0x1A not in got:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    got.extend(chunk)

        peer = threading.Thread(target=calculator)
        peer.start()
        url = f"socket://127.0.0.1:{server.getsockname()[1]}"
        status = main(["send", str(source), "--port", url, "--handshake", "none",
                       "--line-delay", "0", "--timeout", "3"])
        peer.join(3)
    assert status == 0, capsys.readouterr().err
    assert bytes(got) == b"10 END\r\n\x1a"


class PtyWithCts(serial.Serial):
    """A real pty whose CTS line the test drives (a pty has no modem lines)."""
    cts_line = False

    @property
    def cts(self):
        return self.cts_line


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    tty.setraw(slave)
    port = PtyWithCts(os.ttyname(slave), timeout=0.02, write_timeout=1)
    yield master, port
    port.close()
    os.close(master)
    os.close(slave)


def _read_all(master, limit=2.0):
    got = bytearray()
    deadline = time.monotonic() + limit
    while 0x1A not in got and time.monotonic() < deadline:
        if select.select([master], [], [], 0.02)[0]:
            got += os.read(master, 4096)
    return bytes(got)


def test_handshake_never_granted(pty_port):
    master, port = pty_port
    settings = Settings(handshake="rts")
    start = time.monotonic()
    with pytest.raises(TransferError, match="no answer: the calculator did not signal ready"):
        transfer.send(port, transfer.wire_chunks([b"10 END"], settings), settings, timeout=0.2)
    assert 0.2 <= time.monotonic() - start < 1
    assert not select.select([master], [], [], 0.05)[0]  # nothing was sent


def test_handshake_granted_late_then_everything_goes(pty_port):
    master, port = pty_port
    settings = Settings(handshake="rts")
    got = []

    def calculator():
        time.sleep(0.1)
        port.cts_line = True  # the pocket raises RR: ready to receive
        got.append(_read_all(master))

    peer = threading.Thread(target=calculator)
    peer.start()
    transfer.send(port, transfer.wire_chunks([b"10 END"], settings), settings, timeout=1)
    peer.join(3)
    assert got == [b"10 END\r\n\x1a"]


def test_a_peer_that_stops_reading_stalls_the_send(pty_port):
    _, port = pty_port
    port.write_timeout = 0.2
    settings = Settings(handshake="none")
    chunks = transfer.wire_chunks([b"10 REM " + b"X" * 70] * 1000, settings)  # more than a pty holds
    with pytest.raises(TransferError, match="stopped taking data after"):
        transfer.send(port, chunks, settings, timeout=0.2)


# --- progress --------------------------------------------------------------------------

class FakeTty(io.StringIO):
    def isatty(self):
        return True


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_on_a_terminal_redraws_with_rate_and_time_left():
    stream, clock = FakeTty(), FakeClock()
    progress = Progress("sending", total=1200, stream=stream, clock=clock)
    progress.update(120)
    clock.now += 1
    progress.update(240)  # 120 B/s, 960 B to go: 8 s
    assert stream.getvalue().count("\r") == 2
    last = stream.getvalue().split("\r")[-1]
    assert " 20%" in last and "240/1200 B" in last and "120 B/s" in last and "0:08 left" in last
    progress.close("done")
    assert stream.getvalue().endswith("done\x1b[K\n")


def test_progress_elsewhere_prints_one_plain_line_at_the_end():
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("receiving", stream=stream, clock=clock)
    progress.update(10)
    clock.now += 2
    progress.update(250)
    assert stream.getvalue() == ""
    progress.close("received 3 lines")
    assert stream.getvalue() == "receiving  250 B  120 B/s  0:02 elapsed  received 3 lines\n"


def test_progress_abandoned_ends_a_drawn_line_only():
    stream = FakeTty()
    progress = Progress("sending", total=10, stream=stream, clock=FakeClock())
    progress.abandon()
    assert stream.getvalue() == ""
    progress.update(5)
    progress.abandon()
    assert stream.getvalue().endswith("\n")

"""`pc1360 send` / `pc1360 receive` end to end over real pseudo-terminals.

pyserial opens the slave side as the command's PORT; a thread on the master side plays
the calculator: it takes what LOAD would read, or sends what SAVE would.
Ptys have no modem lines (see test_transfer_units.py for the CTS handshake), and the
pty is put in raw mode first so that bytes written before pyserial configures the port
are neither echoed nor held for a line end.
"""

import os
import select
import threading
import time
import tty
from pathlib import Path

import pytest
import serial

from pc1360 import ramcard, tape, tapesound
from pc1360.tokenizer import tokenize
from tools import transfer
from tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
KNIFFEL = ROOT / "basic_src" / "kniffel.bas"
SMALL = '10 PRINT "HI"\n20 GOTO 10\n'
FAST = ["--handshake", "none", "--line-delay", "0", "--timeout", "3"]  # ptys: no modem lines


class Pty:
    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def hang_up(self):
        """Close the master side: to the port it is a cable pulled out."""
        if self.master is not None:
            os.close(self.master)
            self.master = None

    def close(self):
        self.hang_up()
        os.close(self.slave)


class Calculator(threading.Thread):
    """The peer on the master side: runs `script(calculator)` in a thread."""

    opened = None  # from the port_opened fixture: set once the command has its port open

    def __init__(self, pty, script):
        super().__init__(daemon=True)
        self.pty = pty
        self.script = script
        self.received = bytearray()

    def run(self):
        self.script(self)

    def read_until(self, stop, limit=3.0):
        """Collect bytes until `stop(received)` or `limit` seconds."""
        deadline = time.monotonic() + limit
        while not stop(self.received) and time.monotonic() < deadline:
            ready, _, _ = select.select([self.pty.master], [], [], 0.02)
            if ready:
                self.received += os.read(self.pty.master, 4096)

    def load(self):
        """LOAD: take everything up to the 0x1A end mark."""
        self.read_until(lambda data: 0x1A in data)

    def save(self, data):
        """SAVE: send `data` once the command has opened the port (what came before waits
        in the port for it: test_receive_started_after_save_began_gets_the_whole_program)."""
        self.opened.wait(3)
        os.write(self.pty.master, data)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.join(5)


@pytest.fixture(autouse=True)
def port_opened(monkeypatch):
    """Tell the peer when the command has its port open."""
    opened = threading.Event()
    real_open = transfer.open_port

    def open_port(*args, **kwargs):
        port = real_open(*args, **kwargs)
        opened.set()
        return port

    monkeypatch.setattr(transfer, "open_port", open_port)
    monkeypatch.setattr(Calculator, "opened", opened)
    return opened


@pytest.fixture
def pty():
    pair = Pty()
    yield pair
    pair.close()


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, err, *fragments):
    assert status == 1
    assert "Traceback" not in err
    message = [line for line in err.splitlines() if line.startswith("pc1360: ")
               and "warning" not in line]
    assert len(message) == 1, err
    for fragment in fragments:
        assert fragment in message[0], message[0]


# --- send ------------------------------------------------------------------------------

def test_send_gives_crlf_lines_and_0x1a_and_prints_the_open_statement(pty, tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text(SMALL)
    with Calculator(pty, Calculator.load) as calc:
        status, out, err = run(["send", str(source), "--port", pty.path] + FAST, capsys)
    assert status == 0, err
    assert bytes(calc.received) == b'10 PRINT "HI"\r\n20 GOTO 10\r\n\x1a'
    assert 'type: OPEN "1200,N,8,1,A,L,&1A"  then  LOAD' in out
    assert "100%" in err and "wrote 2 lines, 28 bytes into the pseudo-terminal" in err  # one plain line


def test_send_with_other_settings_and_cr_line_ends(pty, tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text("10 p.\"x\":goto 10\n")  # abbreviated, lower case: sent as LIST shows it
    argv = ["send", str(source), "--port", pty.path, "--baud", "300", "--parity", "e",
            "--bits", "7", "--stop", "2", "--eol", "C"] + FAST
    with Calculator(pty, Calculator.load) as calc:
        status, out, _ = run(argv, capsys)
    assert status == 0
    assert bytes(calc.received) == b'10 PRINT "x": GOTO 10\r\x1a'
    assert 'OPEN "300,E,7,2,A,C,&1A"' in out


def _wav(image):
    return tapesound.wav_bytes(tapesound.encode_samples(tape.encode_tap(image, "HI")))


@pytest.mark.parametrize("suffix,container", [
    (".img", lambda image: image),
    (".tap", lambda image: tape.encode_tap(image, "HI")),
    (".ram", ramcard.build_card),
    (".wav", _wav),
], ids=["img", "tap", "ram", "wav"])
def test_send_a_stored_program_lists_it_first(pty, tmp_path, capsys, suffix, container):
    stored = tmp_path / ("hi" + suffix)
    stored.write_bytes(container(tokenize(SMALL)))
    with Calculator(pty, Calculator.load) as calc:
        status, _, err = run(["send", str(stored), "--port", pty.path] + FAST, capsys)
    assert status == 0, err
    assert bytes(calc.received) == b'10 PRINT "HI"\r\n20 GOTO 10\r\n\x1a'


def test_send_a_damaged_image_says_where(tmp_path, capsys):
    stored = tmp_path / "cut.img"
    stored.write_bytes(tokenize(SMALL)[:-3])
    status, _, err = run(["send", str(stored), "--port", "loop://"] + FAST, capsys)
    assert_one_line_error(status, err, "cut.img: byte 12", "runs past the end")


def test_send_of_a_bad_source_names_line_and_column_and_sends_nothing(pty, tmp_path, capsys):
    source = tmp_path / "bad.bas"
    source.write_text('10 PRINT "HI"\nPRINT 2\n')
    with Calculator(pty, lambda c: c.read_until(lambda d: d, limit=0.3)) as calc:
        status, _, err = run(["send", str(source), "--port", pty.path] + FAST, capsys)
    assert_one_line_error(status, err, "bad.bas:2:1", "line number")
    assert calc.received == b""


def test_send_to_a_missing_port(tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text(SMALL)
    status, _, err = run(["send", str(source), "--port", str(tmp_path / "ttyNONE")] + FAST, capsys)
    assert_one_line_error(status, err, "not found", "plugged in")


def test_send_to_a_busy_port(pty, tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text(SMALL)
    with serial.Serial(pty.path, exclusive=True):  # another program holds the port
        status, _, err = run(["send", str(source), "--port", pty.path] + FAST, capsys)
    assert_one_line_error(status, err, "busy", "another program")


@pytest.mark.parametrize("command", ["send", "receive"])
def test_rts_handshake_on_a_port_without_modem_lines(pty, tmp_path, capsys, command):
    path = tmp_path / "hi.bas"
    path.write_text(SMALL)
    argv = [command, str(path), "--port", pty.path, "--handshake", "rts", "--timeout", "3"]
    status, _, err = run(argv, capsys)
    assert_one_line_error(status, err, "no handshake lines", "--handshake none")
    assert path.read_text() == SMALL


def test_send_with_the_cable_pulled_midway(pty, tmp_path, capsys):
    source = tmp_path / "hi.bas"
    source.write_text(SMALL)

    def pull_after_first_line(calc):
        calc.read_until(lambda data: b"\n" in data)
        time.sleep(0.03)  # well within the pause after the line: between two writes
        calc.pty.hang_up()

    with Calculator(pty, pull_after_first_line):
        argv = ["send", str(source), "--port", pty.path, "--handshake", "none",
                "--line-delay", "300", "--timeout", "3"]
        status, _, err = run(argv, capsys)
    assert_one_line_error(status, err, "connection lost after 15 of 28 bytes", "check the cable")


def test_send_katakana_with_seven_data_bits_is_refused(pty, tmp_path, capsys):
    source = tmp_path / "kana.bas"
    source.write_text('10 PRINT "ｱ"\n', encoding="utf-8")
    status, _, err = run(["send", str(source), "--port", pty.path, "--bits", "7"] + FAST, capsys)
    assert_one_line_error(status, err, "0xB1", "--bits 8")


# --- receive ---------------------------------------------------------------------------

# SAVE writes "10 PRINT ..."; LIST's "10:PRINT ..." (as LLIST sends it) is taken as well,
# and machine codes (katakana, π, ♠) arrive as single bytes.
LISTING = b'10:PRINT "HI": GOTO 10\r\n20 A$="\xb1\xfb": REM \xf5\r\n'


def receive(pty, tmp_path, capsys, script, *options):
    out = tmp_path / "got.bas"
    with Calculator(pty, script):
        status, stdout, err = run(["receive", str(out), "--port", pty.path, "--handshake", "none",
                                   "--timeout", "3", "--idle", "0.3", *options], capsys)
    return out, status, stdout, err


def test_receive_writes_the_listing_as_utf8_text(pty, tmp_path, capsys):
    out, status, stdout, err = receive(pty, tmp_path, capsys, lambda c: c.save(LISTING + b"\x1a"))
    assert status == 0, err
    assert out.read_text(encoding="utf-8") == '10:PRINT "HI": GOTO 10\n20 A$="ｱπ": REM ♠\n'
    assert 'type: OPEN "1200,N,8,1,A,L,&1A"  then  SAVE' in stdout and "received 2 lines" in err


def test_receive_as_image_tokenizes(pty, tmp_path, capsys):
    out = tmp_path / "got.img"
    with Calculator(pty, lambda c: c.save(b'10 PRINT "HI"\n20 GOTO 10\n\x1a')):
        status, _, err = run(["receive", str(out), "--port", pty.path, "--handshake", "none",
                              "--timeout", "3"], capsys)
    assert status == 0, err
    assert out.read_bytes() == tokenize(SMALL)


def test_receive_stops_at_0x1a_and_ignores_what_follows(pty, tmp_path, capsys):
    out, status, _, err = receive(pty, tmp_path, capsys,
                                  lambda c: c.save(b"10 END\r\n\x1a\x00\xff junk"))
    assert status == 0, err
    assert out.read_text() == "10 END\n"


def test_receive_after_silence_keeps_complete_lines_with_a_warning(pty, tmp_path, capsys):
    out, status, _, err = receive(pty, tmp_path, capsys, lambda c: c.save(b"10 END\r\n"))
    assert status == 0
    assert out.read_text() == "10 END\n"
    assert "no 0x1A end mark" in err


def test_receive_nothing_within_the_timeout(pty, tmp_path, capsys):
    out = tmp_path / "got.bas"
    start = time.monotonic()
    status, _, err = run(["receive", str(out), "--port", pty.path, "--handshake", "none",
                          "--timeout", "0.3"], capsys)
    assert time.monotonic() - start < 2
    assert_one_line_error(status, err, "nothing received within 0.3 s", "SAVE")
    assert not out.exists()


def test_receive_cut_off_mid_line_writes_nothing(pty, tmp_path, capsys):
    out, status, _, err = receive(pty, tmp_path, capsys, lambda c: c.save(b'10 END\r\n20 PRINT "H'))
    assert_one_line_error(status, err, "middle of line 2", "was not written")
    assert not out.exists()


def test_receive_with_the_cable_pulled_midway_writes_nothing(pty, tmp_path, capsys):
    def pull(calc):
        calc.save(b"10 END\r\n20 PR")
        time.sleep(0.1)
        calc.pty.hang_up()

    out, status, _, err = receive(pty, tmp_path, capsys, pull)
    assert_one_line_error(status, err, "connection lost after 13 bytes", "was not written")
    assert not out.exists()


def test_receive_garbage_bytes_are_named_with_line_and_column(pty, tmp_path, capsys):
    # A framing error reads as 0x00 on Linux; a wrong parity or baud gives bytes like these.
    out, status, _, err = receive(pty, tmp_path, capsys,
                                  lambda c: c.save(b"10 END\r\n20 P\x00INT\r\n\x1a"))
    assert_one_line_error(status, err, "received line 2:5: byte 0x00 is not listing text",
                          "--parity")
    assert not out.exists()


def test_receive_a_line_that_does_not_tokenize(pty, tmp_path, capsys):
    out, status, _, err = receive(pty, tmp_path, capsys,
                                  lambda c: c.save(b"10 END\r\n\xb1PRINT\r\n\x1a"))
    assert_one_line_error(status, err, "received line 2:1:", "line number")
    assert not out.exists()


def test_failed_receive_leaves_an_existing_file_alone(pty, tmp_path, capsys):
    out = tmp_path / "got.bas"
    out.write_text("10 REM OLD\n")
    _, status, _, _ = receive(pty, tmp_path, capsys, lambda c: c.save(b"10 \xfe\r\n\x1a"))
    assert status == 1
    assert out.read_text() == "10 REM OLD\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["got.bas"]  # no temporary left


# --- round trip ------------------------------------------------------------------------

def test_round_trip_send_then_receive_gives_the_same_program(tmp_path, capsys, port_opened):
    source = KNIFFEL if KNIFFEL.is_file() else tmp_path / "own.bas"
    if source != KNIFFEL:
        source.write_text('10 "A" CLEAR: FOR I=1 TO 10 STEP 2: PRINT I;π;√2\n'
                          '20 IF INKEY$="" GOTO 20\n30 ON I GOSUB 10,20: END\n', encoding="utf-8")
    first, second = Pty(), Pty()
    try:
        with Calculator(first, Calculator.load) as calc:
            status, _, err = run(["send", str(source), "--port", first.path] + FAST, capsys)
        assert status == 0, err
        # the calculator now sends back what it stored, as SAVE does
        port_opened.clear()
        with Calculator(second, lambda c: c.save(bytes(calc.received))):
            out = tmp_path / "back.img"
            status, _, err = run(["receive", str(out), "--port", second.path,
                                  "--handshake", "none", "--timeout", "3"], capsys)
        assert status == 0, err
    finally:
        first.close()
        second.close()
    assert out.read_bytes() == tokenize(source.read_bytes())


def test_receive_started_after_save_began_gets_the_whole_program(pty, tmp_path, capsys):
    # the first line is already waiting in the port when the command opens it
    os.write(pty.master, LISTING[:10])
    out, status, stdout, err = receive(pty, tmp_path, capsys, lambda c: c.save(LISTING[10:] + b"\x1a"))
    assert status == 0, err
    assert out.read_text(encoding="utf-8") == '10:PRINT "HI": GOTO 10\n20 A$="ｱπ": REM ♠\n'
    assert "bytes were already waiting" in stdout


@pytest.mark.parametrize("late", [b'NT "HI": GOTO 10\r\n20 END\r\n', b"\n20 END\r\n",
                                  b"0 GOTO 10\r\n20 END\r\n", b"10\r\n20 END\r\n"])
def test_receive_that_begins_in_the_middle_of_a_line_says_so_at_once(pty, tmp_path, capsys, late):
    def save_slowly(calc):
        calc.save(late)
        time.sleep(3)  # the rest of a long program, which the command does not wait for
        calc.save(b"30 END\r\n\x1a")

    out = tmp_path / "got.bas"
    with Calculator(pty, save_slowly):
        start = time.monotonic()
        status, _, err = run(["receive", str(out), "--port", pty.path, "--handshake", "none",
                              "--timeout", "3", "--idle", "5"], capsys)
        assert time.monotonic() - start < 2
    assert_one_line_error(status, err, "the data began in the middle of a line",
                          "start pc1360 receive first", "was not written")
    assert not out.exists()

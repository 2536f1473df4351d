"""Serial transfer to and from a real PC-1360 through its 15-pin SIO port (pyserial).

On the PC-1360 the port is set up with OPEN "baud,parity,bits,stop,A,eol,&1A" and then
plain LOAD and SAVE use it; LOAD "COM:" and SAVE "COM:" are syntax errors (ERROR 1)
there, as tests/tools/test_serial_firmware.py shows with the real firmware.
SAVE sends the program as listing lines, "10 PRINT "HI": GOTO 10", each ended by the
OPEN end-of-line code (C = CR, F = LF, L = CR+LF), then the end-of-file code 0x1A.
LOAD reads such lines as if typed until 0x1A (docs/stored_format.md §9).

Handshake: while LOAD stores a line (0.05-0.35 s for the lines of a 3 KB program,
measured on the emulated firmware) it pulls RR low, and bytes arriving then are lost;
it takes data only while its CD is high. SAVE raises RS and sends only while its CS is
high. With `handshake="rts"` the port uses
pyserial's rtscts, so the driver holds our output while CTS (the pocket's RR, as the
CE-130T wires it) is low, and `send` waits for CTS before the first byte so that
"nobody there" is reported rather than silently buffered. Without it a pause after
each line must cover the storing. A pseudo-terminal has no modem lines (and socket://
always reports CTS): use handshake "none" with them.

Every failure is raised as TransferError with a one-line message that says what
happened and what to check.
"""

import errno
import os
import re
import stat
import sys
import time
from dataclasses import dataclass

import serial

from emulator.connectors.serial_line import FrameFormat
from emulator.connectors.sio import LinkError, check_url
from pc1360 import charset, detect
from pc1360.errors import FormatError
from pc1360.facts import MAX_LINE, SIO_EOF, SIO_EOL
from pc1360.image import split_image
from pc1360.listing import list_line
from pc1360.tokenizer import parse_program

IMAGE_SUFFIXES = (".img", ".ram", ".tap", ".wav")
POLL = 0.02  # seconds between checks of a port that has nothing for us yet
# The bytes a listing may hold: the codes with a character of their own (charset.py).
# Controls would break the line structure (0x0D ends a line, 0x1A the transfer), and
# 0xFE/0xFF mean token and end of program, never text.
LISTING_BYTES = frozenset(charset.TO_TEXT)
_LISTING_PIECES = re.compile(r"\\x([0-9A-Fa-f]{2})|(.)", re.DOTALL)


class TransferError(Exception):
    """A transfer failed; str() is one line: what happened and what to check."""


@dataclass(frozen=True)
class Settings:
    baud: int = 1200
    parity: str = "N"
    bits: int = 8
    stop: int = 1
    eol: str = "L"
    handshake: str = "rts"

    def __post_init__(self):
        if self.eol not in SIO_EOL:
            raise ValueError(f"end of line must be C, F or L, not {self.eol!r}")
        if self.handshake not in ("rts", "none"):
            raise ValueError(f"handshake must be rts or none, not {self.handshake!r}")
        FrameFormat(self.baud, self.bits, self.parity, self.stop)  # ValueError if unframeable

    @property
    def eol_bytes(self):
        return SIO_EOL[self.eol]

    def open_statement(self):
        """What to type on the pocket: OPEN "baud,parity,bits,stop,code,eol,eof" with
        code A (ASCII) and end of file &1A, the PC-1350/1360 form (docs/stored_format.md §9)."""
        return f'OPEN "{self.baud},{self.parity},{self.bits},{self.stop},A,{self.eol},&1A"'


def open_port(url, settings, timeout, keep_input=False):
    """Open `url` (a device path, socket://host:port, loop:// ...) for a transfer.
    keep_input: what already waits on the port is kept for us (pyserial flushes it on
    open), so that a receive started after SAVE began still gets the start."""
    try:
        check_url(url)
    except LinkError as exc:
        raise TransferError(f"cannot open port {exc}") from None
    try:
        port = serial.serial_for_url(
            url, baudrate=settings.baud, bytesize=settings.bits, parity=settings.parity,
            stopbits=settings.stop, rtscts=settings.handshake == "rts",
            timeout=POLL, write_timeout=timeout, exclusive=True, do_not_open=True)
        if keep_input:
            # open() calls the flush (the private one since pyserial 3.5) on the instance
            port._reset_input_buffer = port.reset_input_buffer = _keep_input
        port.open()
        if keep_input:
            del port._reset_input_buffer, port.reset_input_buffer
    except (serial.SerialException, OSError, ValueError) as exc:
        raise TransferError(_open_failure(url, exc)) from None
    if settings.handshake == "rts":
        try:
            port.cts
        except (serial.SerialException, OSError) as exc:
            # without modem lines a driver asked for rtscts may hold the data forever
            port.close()
            raise TransferError(
                f"{url} has no handshake lines ({_reason(exc)}): a pseudo-terminal has none, "
                "use --handshake none") from None
    return port


def _keep_input():
    """In place of the port's input flush while it opens (open_port keep_input)."""


def _open_failure(url, exc):
    code = getattr(exc, "errno", None)
    if code in (errno.ENOENT, errno.ENXIO, errno.ENODEV):
        return (f"port {url} not found: check that the cable or adapter is plugged in and the "
                "name is right")
    if code in (errno.EPERM, errno.EACCES):
        return f"no permission to open {url}: add your user to the port's group (often dialout)"
    if code in (errno.EAGAIN, errno.EBUSY):  # EAGAIN: pyserial's exclusive lock is taken
        return f"port {url} is busy: another program (a terminal, a modem manager) has it open"
    return f"cannot open port {url}: {exc}"


def is_pseudo_terminal(url):
    """Whether `url` is a pseudo-terminal's device (Linux: majors 136-143, /dev/pts/N)."""
    try:
        info = os.stat(url)
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(info.st_mode) and 136 <= os.major(info.st_rdev) <= 143


class Progress:
    """A progress line on stderr: redrawn in place on a terminal, else one final line.

    The rate counts from the first update, so time spent waiting for the calculator
    (for CTS, or for someone to start SAVE) does not dilute it.
    """

    WIDTH = 24

    def __init__(self, verb, total=None, stream=None, clock=time.monotonic):
        self.verb = verb
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.clock = clock
        self.done = 0
        self._first = None  # (time, bytes) at the first update
        self._drawn = None  # time of the last redraw

    def update(self, done):
        now = self.clock()
        if self._first is None:
            self._first = (now, done)
        self.done = done
        if self.tty and (self._drawn is None or now - self._drawn >= 0.1):
            self._drawn = now
            self.stream.write("\r" + self._line(now) + "\x1b[K")
            self.stream.flush()

    def abandon(self):
        """End a redrawn line before an error message is printed below it."""
        if self._drawn is not None:
            self.stream.write("\n")
            self.stream.flush()

    def close(self, note=""):
        line = self._line(self.clock()) + (f"  {note}" if note else "")
        self.stream.write(("\r" + line + "\x1b[K\n") if self.tty else line + "\n")
        self.stream.flush()

    def _line(self, now):
        start, start_done = self._first or (now, 0)
        elapsed = now - start
        rate = (self.done - start_done) / elapsed if elapsed > 0 else 0.0
        parts = [self.verb]
        if self.total:
            filled = self.WIDTH * self.done // self.total
            parts.append("[" + "#" * filled + "-" * (self.WIDTH - filled) + "]")
            parts.append(f"{100 * self.done // self.total:3d}%")
            parts.append(f"{self.done}/{self.total} B")
        else:
            parts.append(f"{self.done} B")
        parts.append(f"{rate:.0f} B/s" if rate else "- B/s")
        if self.total and rate and self.done < self.total:
            parts.append(f"{_clock_time((self.total - self.done) / rate)} left")
        else:
            parts.append(f"{_clock_time(elapsed)} elapsed")
        return "  ".join(parts)


def _clock_time(seconds):
    seconds = int(seconds + 0.5)
    return f"{seconds // 60}:{seconds % 60:02d}"


def wire_chunks(lines, settings):
    """What LOAD expects for listing `lines` (bytes, no line ends): each line with the
    OPEN end-of-line code, then 0x1A alone."""
    return [line + settings.eol_bytes for line in lines] + [bytes([SIO_EOF])]


def send(port, chunks, settings, *, timeout, line_delay=0.0, progress=None):
    """Send `chunks` (from wire_chunks) one at a time, each put on the wire before the
    next; `line_delay` seconds of pause after each line give the pocket time to store it
    when there is no handshake. Returns the number of bytes sent."""
    total = sum(map(len, chunks))
    sent = 0
    try:
        if settings.handshake == "rts":
            _wait_for_cts(port, settings, timeout)
        for chunk in chunks:
            port.write(chunk)
            _drain(port, timeout)
            sent += len(chunk)
            if progress:
                progress.update(sent)
            if line_delay and chunk[-1] != SIO_EOF:
                time.sleep(line_delay)
    except serial.SerialTimeoutException:
        raise TransferError(
            f"the calculator stopped taking data after {sent} of {total} bytes (nothing went "
            f"out for {timeout:g} s): check that LOAD is still running and the cable "
            "is in") from None
    except (serial.SerialException, OSError) as exc:
        raise TransferError(
            f"connection lost after {sent} of {total} bytes ({_reason(exc)}): check the cable, "
            "then press BRK on the calculator and start LOAD again") from None
    return total


def _wait_for_cts(port, settings, timeout):
    deadline = time.monotonic() + timeout
    while not port.cts:
        if time.monotonic() >= deadline:
            raise TransferError(
                f"no answer: the calculator did not signal ready (its RR line, our CTS) within "
                f"{timeout:g} s: check the cable and that LOAD runs after "
                f"{settings.open_statement()}, or use --handshake none")
        time.sleep(POLL)


def _drain(port, timeout):
    """Wait until the driver has put our bytes on the wire, so progress means bytes sent."""
    deadline = time.monotonic() + timeout
    while _queued(port):
        if time.monotonic() >= deadline:
            raise serial.SerialTimeoutException("output stalled")
        time.sleep(POLL)


def _queued(port):
    # Only a native port's count means bytes on their way to the wire: loop:// counts
    # bytes not yet read back, socket:// has no count and leaves it to the OS.
    return port.out_waiting if isinstance(port, serial.Serial) else 0


def receive(port, settings, *, timeout, idle, progress=None):
    """Collect what SAVE sends. Returns (data, ended): the bytes before 0x1A and
    True, or, when the sender falls silent for `idle` seconds first, the bytes so far
    and False. Nothing at all within `timeout` seconds is an error, and so is data that
    does not begin as a program's listing does (SAVE began before the port was open)."""
    data = bytearray()
    start = last = time.monotonic()
    begun = False  # the first line has begun as a listing line does
    try:
        while True:
            chunk = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            if chunk:
                end = chunk.find(SIO_EOF)
                data += chunk if end < 0 else chunk[:end]
                last = now
                if progress:
                    progress.update(len(data))
                if not begun:
                    begun = _check_start(data, settings, end >= 0)
                if end >= 0:
                    return bytes(data), True
            elif not data and now - start >= timeout:
                raise TransferError(
                    f"nothing received within {timeout:g} s: type {settings.open_statement()} "
                    "and then SAVE on the calculator, and check the cable")
            elif data and now - last >= idle:
                return bytes(data), False
    except (serial.SerialException, OSError) as exc:
        raise TransferError(
            f"connection lost after {len(data)} bytes ({_reason(exc)}): check the cable and "
            "run SAVE again") from None


def _check_start(data, settings, ended):
    """Whether the first line of `data` has come (False while it is still coming); then a
    TransferError if it is plain text that does not begin as SAVE's lines do, with a line
    number and a space (or LIST's colon): the rest of a line whose start is lost. Other
    bytes are garbled or rare characters, which parse_received names."""
    first = re.match(rb"[^\r\n]*", data).group()
    if len(first) == len(data) and not ended:
        return False
    if not data or any(byte < 0x20 or byte > 0x7E for byte in first):
        return True
    head = re.match(rb"([1-9][0-9]*)[ :]", first)
    if head and int(head.group(1)) <= MAX_LINE:
        return True
    shown = first[:24].decode("ascii")
    raise TransferError(
        f"the data began in the middle of a line ({shown!r}): SAVE was already sending "
        "when the port was opened, and the start of the program is lost; start pc1360 "
        f"receive first, then {settings.open_statement()} and SAVE on the calculator")


def _reason(exc):
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def load_program(path):
    """The Lines of a program file and the warnings its parsing gave. A .img, .ram, .tap
    or .wav file is a stored program (its kind told by its content, as `pc1360 list`
    does); anything else is BASIC source text."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TransferError(f"cannot read {path}: {_reason(exc)}") from None
    try:
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return split_image(detect.image_of(detect.detect_kind(data), data)), []
        parsed = parse_program(data)
    except FormatError as exc:
        raise TransferError(exc.in_file(path)) from None
    return parsed.lines, [warning.in_file(path) for warning in parsed.warnings]


def listing_lines(lines, settings):
    """Each Line as the bytes of a typed line, "10 PRINT ...", for LOAD.

    The text is the lister's (full keyword names, the machine's own character codes)
    with a space, not LIST's colon, after the line number: the form SAVE itself sends.
    π and √ go as their single codes, which LOAD stores as the keys would (SAVE spells
    them " PI " and " SQR ", which would load back as the keywords); see
    tests/tools/test_serial_firmware.py.
    """
    out = []
    for line in lines:
        body = list_line(line)[len(str(line.number)) + 1:]
        encoded = _machine_bytes(body)
        for byte in encoded:
            if byte not in LISTING_BYTES:
                raise TransferError(
                    f"line {line.number} holds the byte 0x{byte:02X}, which has no character a "
                    "listing can carry, so LOAD cannot reproduce it")
            if byte > 0x7F and settings.bits == 7:
                raise TransferError(
                    f"line {line.number} holds the character code 0x{byte:02X}, which 7 data bits "
                    "cannot carry: use --bits 8")
        out.append(str(line.number).encode("ascii") + b" " + encoded)
    return out


def _machine_bytes(text):
    """Listing text -> machine codes: \\xHH escapes stand for the byte HH."""
    out = bytearray()
    for escape, char in _LISTING_PIECES.findall(text):
        out.append(int(escape, 16) if escape else charset.code_of(char))
    return bytes(out)


def parse_received(data, ended):
    """What SAVE sent -> (text, ParsedProgram), or TransferError saying where
    the damage is. Accepts CR, LF or CR+LF line ends, whatever the OPEN statement chose.
    A last line without its line end counts only when 0x1A closed the transfer: after
    silence it means the sender was cut off."""
    lines = re.split(rb"\r\n|\r|\n", data)
    if lines[-1] == b"":
        lines.pop()
    elif not ended:
        raise TransferError(
            f"the transfer stopped in the middle of line {len(lines)} after {len(data)} bytes "
            "(no 0x1A end mark, then silence): check the cable and run SAVE again")
    for number, line in enumerate(lines, 1):
        for column, byte in enumerate(line, 1):
            if byte not in LISTING_BYTES:
                raise TransferError(
                    f"received line {number}:{column}: byte 0x{byte:02X} is not listing text "
                    "(line noise, or framing or parity errors): check that --baud, --parity, "
                    "--bits and --stop match the OPEN statement on the calculator")
    if not any(line.strip() for line in lines):
        raise TransferError("the calculator sent no program lines (is there a program in memory?)")
    text = "".join("".join(charset.TO_TEXT[byte] for byte in line) + "\n" for line in lines)
    try:
        return text, parse_program(text)
    except FormatError as exc:
        raise TransferError(
            f"received line {exc} (garbled on the way, or not a PC-1360 listing)") from None

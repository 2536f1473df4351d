"""The 15-pin SIO connector on the machine's bus, and links from it to a host.

`SerialPort` (the machine's `sio`) puts an emulator.serial_line.SioPort on the port bits;
the far end is a host that queues bytes in and out: a test directly, or a `PtyLink` (a
pseudo-terminal that `pc1360 send`/`receive` or a terminal program open) or a `UrlLink`
(a pyserial URL such as socket://HOST:PORT or loop://), pumped by the machine between
its time slices.

The pins, as the ROM's own code drives and reads them (bank 4 and the internal ROM):
- SD is FO bit 1 (OUTF); RD is IB bit 5 (INB). Both carry the line inverted: the
  transmit loop sets the bit for the start bit and for each 0 data bit, the receive
  loop waits for the bit to rise for a start bit.
- RS, RR, ER are 0x3800 bits 3, 2, 1, active high. The firmware keeps them in a shadow
  byte in system RAM (0x2CBE, nibbles swapped) and its routines that raise and drop
  them (internal ROM 0x14FB-0x1558) write 0x3800 only: RR before LOAD waits for each
  byte and off while it stores a line, RS before SAVE waits for CS, ER at OPEN. Where
  the firmware sets the 11-pin lines in 0x3A00 bits 0-3 (OPEN's printer probe, CSAVE,
  CLOAD) the shadow's other nibble lands in 0x3A00 bits 4-7 as a side effect, which is
  why bits 5-7 there once looked like ER/RR/RS; they never follow the handshake.
- CS is IB bit 6 (SAVE sends only while it is high); CD is IB bit 7 (LOAD waits for it
  before the first byte).
- OPEN accepts 300, 600 and 1200 baud; the bit delay has just those three lengths.

Timing, measured on the emulated firmware (tests/emulator/connectors/test_sio_firmware.py):
the firmware's bit lasts 212 cycles at 1200 baud (nominal 213.3; pc1360.facts.SIO_BIT_CYCLES),
and a host clock from 4.5% slow to 2% fast still loads correctly (about 5% either way at
300 baud). LOAD holds RR low while it stores each line: 0.06-0.1 s for a short line on an
empty card, up to 0.42 s late in a 4 KB program, so basic_src/kniffel.bas (3.9 KB on the
wire, 33 s of bytes at 1200 baud) takes 44 s; a host without the RR handshake must pause
that long after each line.
"""

import os
import urllib.parse

import serial

from emulator.connectors.serial_line import FrameFormat, SioPort
from pc1360.facts import SIO_LATCH

_LATCH_PAGES = 0xFE00  # the latch answers at 0x3800-0x39FF
READ_CHUNK = 4096


class LinkError(Exception):
    """The host end of a link went away; str() says which and why."""


NETWORK_SCHEMES = ("socket", "rfc2217")  # pyserial URLs that connect to HOST:PORT


def check_url(url):
    """LinkError unless a network URL (socket://, rfc2217://) names a host and a port from
    1 to 65535: pyserial fails on those with errors that do not say what is missing (a
    comparison of None with a number for a missing port)."""
    scheme, sep, _rest = url.partition("://")
    if not sep or scheme.lower() not in NETWORK_SCHEMES:
        return
    try:
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:  # a port out of range or not a number, an unclosed [ ...
        host = port = None
    if not host or not port:
        raise LinkError(f"{url}: give a host and a port from 1 to 65535, as {scheme}://HOST:PORT")


class SerialPort:
    """The machine's SIO connector with a host at the far end.

    The host side plays a PC wired as the CE-130T does (serial_line.SioPort): it holds CS
    and CD high while `host_ready` and, with `flow_control`, sends only while the pocket
    raises ER and RR. `fmt` (an emulator.serial_line.FrameFormat) is the host's frame
    format; as with a real cable it must match the pocket's OPEN statement.
    """

    def __init__(self, machine, fmt=None):
        self.machine = machine
        self.link = None
        self.link_error = None  # why the last link was dropped
        self.active_at = None  # machine cycle of the last byte either way (None: none yet)
        self._latch = 0
        self.line = SioPort(fmt or FrameFormat())
        bus = machine.bus
        outf, inb = bus.outf, bus.inb

        def sio_outf(value):
            self.line.outf(value, machine.now())
            outf(value)

        def sio_latch(addr, value):
            self._latch = value
            self.line.latch(value, machine.now())

        def sio_inb():
            return inb() | self.line.inb_bits(machine.now())

        bus.outf, bus.inb = sio_outf, sio_inb
        bus.watch_writes(SIO_LATCH, SIO_LATCH | (~_LATCH_PAGES & 0xFFFF), sio_latch)

    # -- settings ------------------------------------------------------------------------
    @property
    def fmt(self):
        return self.line.fmt

    def set_format(self, fmt, flow_control=None):
        """A fresh line in `fmt` (what is queued either way is dropped, as when a cable is
        plugged in anew); the pocket's handshake outputs and the host's readiness are kept."""
        old = self.line
        self.line = SioPort(fmt, old.flow_control if flow_control is None else flow_control)
        self.line.host_ready = old.host_ready
        self.line.latch(self._latch, self.machine.now())

    @property
    def flow_control(self):
        return self.line.flow_control

    @flow_control.setter
    def flow_control(self, on):
        self.line.flow_control = on

    @property
    def host_ready(self):
        return self.line.host_ready

    @host_ready.setter
    def host_ready(self, ready):
        self.line.host_ready = ready

    # -- the pocket's outputs ------------------------------------------------------------
    @property
    def latch(self):
        """The last value the firmware wrote to 0x3800 (ER bit 1, RR bit 2, RS bit 3)."""
        return self._latch

    # -- the host's side -----------------------------------------------------------------
    def send(self, data):
        """Queue bytes for the pocket's RD, from now on."""
        if data:
            self.active_at = self.machine.now()
        self.line.host_send(bytes(data), self.machine.now())

    def receive(self):
        """The bytes the pocket has sent on SD so far, each returned once."""
        data = self.line.host_receive(self.machine.now())
        if data:
            self.active_at = self.machine.now()
        return data

    @property
    def pending(self):
        """Queued bytes that have not started towards the pocket."""
        return self.line.host_pending

    @property
    def errors(self):
        """Damaged frames the pocket sent (framing or parity errors)."""
        return self.line.errors

    def connect(self, link):
        """Pump bytes between this port and `link` (PtyLink, UrlLink) from now on."""
        self.disconnect()
        self.link = link
        self.link_error = None

    def disconnect(self):
        if self.link is not None:
            self.link.close()
            self.link = None

    def poll(self):
        """Called by the machine between time slices: move bytes over the link. A host
        that went away is dropped (its reason kept in `link_error`); the machine runs on."""
        if self.link is None:
            return
        try:
            self.link.pump(self)
        except LinkError as exc:
            self.link_error = str(exc)
            self.disconnect()


class PtyLink:
    """A pseudo-terminal: the host opens `path` (the slave end) like a serial port.

    The slave end is kept open here too, so a host that closes and reopens the device (as
    `pc1360 send` then `pc1360 receive` do) does not hang the link up. A pty carries bytes
    only: baud rate, parity and handshake lines set on it have no effect; the line's
    format is the SerialPort's.
    """

    def __init__(self):
        try:
            import tty  # POSIX only, like pseudo-terminals

            self.master, self._slave = os.openpty()
        except (ImportError, AttributeError, OSError) as exc:
            raise LinkError(f"no pseudo-terminal here ({exc}): use a pyserial URL") from None
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self._out = bytearray()  # pocket bytes the host has not read yet

    def pump(self, port):
        while True:
            try:
                data = os.read(self.master, READ_CHUNK)
            except BlockingIOError:
                break
            except OSError as exc:
                raise LinkError(f"pseudo-terminal {self.path}: {exc.strerror}") from None
            if not data:
                break
            port.send(data)
        self._out += port.receive()
        if self._out:
            try:
                written = os.write(self.master, self._out)
            except BlockingIOError:
                return  # the host is not reading: keep the bytes
            except OSError as exc:
                raise LinkError(f"pseudo-terminal {self.path}: {exc.strerror}") from None
            del self._out[:written]

    def close(self):
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class UrlLink:
    """A pyserial URL or device: socket://HOST:PORT, loop://, /dev/ttyUSB0 ..."""

    def __init__(self, url, fmt):
        check_url(url)
        try:
            self.port = serial.serial_for_url(url, baudrate=fmt.baud, bytesize=fmt.data_bits,
                                              parity=fmt.parity, stopbits=fmt.stop_bits,
                                              timeout=0, write_timeout=0)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkError(f"cannot open {url}: {exc}") from None
        self.path = url
        self._out = bytearray()

    def pump(self, port):
        try:
            data = self.port.read(READ_CHUNK)
            if data:
                port.send(data)
            self._out += port.receive()
            if self._out:
                written = self.port.write(self._out) or 0
                del self._out[:written]
        except serial.SerialTimeoutException:
            return  # the far end is not reading: keep the bytes
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"{self.path}: {exc}") from None

    def close(self):
        self.port.close()


def open_link(spec, fmt):
    """"pty" -> PtyLink, anything else -> UrlLink(spec). LinkError if it cannot be opened."""
    if spec == "pty":
        return PtyLink()
    return UrlLink(spec, fmt)

"""The 15-pin SIO connector on the machine's bus, and its host links (no ROM needed).

The port bits are driven here the way the firmware drives them (emulator/connectors/sio.py lists what
its code does): SD is FO bit 1 and RD is IB bit 5, both inverted (a start bit is 1);
ER/RR/RS are 0x3800 bits 1/2/3; CS and CD are IB bits 6 and 7.
"""

import os
import select
import socket
import threading

import pytest

from emulator.connectors.serial_line import FrameFormat, encode
from emulator.connectors.sio import LinkError, PtyLink, UrlLink, open_link

FMT = FrameFormat(1200)
ER, RR, RS = 0x02, 0x04, 0x08
RD, CS, CD = 0x20, 0x40, 0x80
SD = 0x02


@pytest.fixture
def machine(idle_machine):
    return idle_machine


def at(machine, cycle):
    machine.cycles = cycle
    return machine


def transmit(machine, data, start=1000):
    """Drive SD as the firmware's transmit loop does: set FO bit 1 for a SPACE."""
    for cycle, level in encode(data, FMT, start=start):
        at(machine, cycle).bus.outf(0 if level else SD)


def read_rd(machine, start, count):
    """Sample RD in the middle of each bit from `start`, as the receive loop does."""
    bits = []
    for index in range(count):
        bits.append(at(machine, start + FMT.sample_offset(index)).bus.inb() & RD)
    return bits


def test_the_latch_at_0x3800_and_its_mirror_drive_er_rr_rs(machine):
    machine.poke(0x3800, ER | RS)
    assert machine.sio.latch == ER | RS and machine.sio.line.request_to_send
    machine.poke(0x39FF, ER)  # the latch answers in all of 0x3800-0x39FF
    assert machine.sio.latch == ER and not machine.sio.line.request_to_send
    machine.poke(0x3A00, ER | RR | RS)  # the 11-pin latch is another one
    assert machine.sio.latch == ER


def test_sd_on_fo_bit_1_reaches_the_host_as_bytes(machine):
    transmit(machine, b"10 PRINT 1\r\n")
    at(machine, 1000 + 13 * FMT.frame_cycles)
    assert machine.sio.receive() == b"10 PRINT 1\r\n"
    assert machine.sio.receive() == b""


def test_fo_bit_2_still_selects_the_card_slot(machine):
    machine.bus.outf(SD)
    assert machine.bus.fo == SD and machine.bus.slot == 0


def test_cs_and_cd_follow_the_host_being_ready(machine):
    assert machine.bus.inb() == CS | CD
    machine.sio.host_ready = False
    assert machine.bus.inb() == 0


def test_host_bytes_go_out_on_rd_inverted_while_er_and_rr_are_high(machine):
    machine.sio.send(b"\x55")
    assert read_rd(machine, 0, 10) == [0] * 10  # the port is not open: the line idles
    at(machine, 5000).poke(0x3800, ER | RR)
    start = 5000
    bits = read_rd(machine, start, 10)
    # start bit SPACE (pin 1), 0x55 LSB first, stop bit MARK (pin 0)
    assert bits == [RD, 0, RD, 0, RD, 0, RD, 0, RD, 0]
    assert machine.sio.pending == 0


def test_set_format_keeps_the_pockets_handshake(machine):
    machine.poke(0x3800, ER | RR)
    machine.sio.set_format(FrameFormat(300))
    machine.sio.send(b"A")
    at(machine, machine.cycles + 1)
    assert machine.bus.inb() & RD  # the start bit goes at once: RR was kept
    assert machine.sio.fmt.baud == 300


def test_a_pty_link_carries_bytes_both_ways(machine):
    link = PtyLink()
    machine.sio.connect(link)
    host = os.open(link.path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(host, b"AB")
        machine.poke(0x3800, ER | RR)
        machine.run_cycles(2560)  # the machine pumps the link between slices
        assert machine.sio.pending == 2
        assert at(machine, machine.cycles + 1).bus.inb() & RD  # "A" starts when RD is read
        start = machine.cycles
        transmit(machine, b"OK", start=start)
        at(machine, start + 3 * FMT.frame_cycles)
        machine.sio.poll()
        assert select.select([host], [], [], 1)[0]
        assert os.read(host, 10) == b"OK"
    finally:
        os.close(host)
        machine.sio.disconnect()


def test_a_host_closing_the_pty_does_not_hang_the_link_up(machine):
    link = PtyLink()
    machine.sio.connect(link)
    os.close(os.open(link.path, os.O_RDWR | os.O_NOCTTY))
    machine.run_cycles(2560)
    assert machine.sio.link is link and machine.sio.link_error is None
    machine.sio.disconnect()


def test_a_socket_url_link_carries_bytes_both_ways(machine):
    server = socket.create_server(("127.0.0.1", 0))
    accepted = {}
    thread = threading.Thread(target=lambda: accepted.setdefault("conn", server.accept()[0]))
    thread.start()
    link = open_link(f"socket://127.0.0.1:{server.getsockname()[1]}", FMT)
    thread.join(5)
    conn = accepted["conn"]
    try:
        machine.sio.connect(link)
        conn.sendall(b"XY")
        for _ in range(100):
            machine.run_cycles(2560)
            if machine.sio.pending:
                break
        assert machine.sio.pending == 2
        transmit(machine, b"Z", start=machine.cycles)
        at(machine, machine.cycles + 2 * FMT.frame_cycles)
        machine.sio.poll()
        conn.settimeout(5)
        assert conn.recv(10) == b"Z"
        conn.close()  # the far end goes away: the link is dropped, the machine runs on
        for _ in range(100):
            machine.run_cycles(2560)
            if machine.sio.link is None:
                break
        assert machine.sio.link is None and machine.sio.link_error
    finally:
        server.close()
        machine.sio.disconnect()


def test_a_url_that_cannot_be_opened_is_a_link_error():
    with pytest.raises(LinkError, match="cannot open"):
        UrlLink("socket://127.0.0.1:1", FMT)

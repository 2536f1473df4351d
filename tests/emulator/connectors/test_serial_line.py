"""The serial-line model: frames, bit timing in SC61860 cycles, the sampling decoder, and
the SioPort that puts it on the PC-1360's port bits."""

import pytest

from emulator.connectors.serial_line import (
    MARK,
    SPACE,
    FrameFormat,
    LineError,
    Receiver,
    SioPort,
    Transmitter,
    decode,
    encode,
    frame_bits,
    frames_to_bytes,
    parity_bit,
)
from pc1360.facts import (
    CYCLES_PER_SECOND,
    FO_SD,
    IB_CD,
    IB_CS,
    IB_RD,
    LATCH_ER,
    LATCH_RR,
    LATCH_RS,
)

FORMATS = [FrameFormat(baud, bits, parity, stop)
           for baud in (300, 1200) for bits in (7, 8) for parity in "NEO" for stop in (1, 2)]


def test_frame_bits_8n1_start_lsb_first_stop():
    # 0x41 = 0100 0001: start, then 1,0,0,0,0,0,1,0, then one stop bit
    assert frame_bits(0x41, FrameFormat(1200, 8, "N", 1)) == (0, 1, 0, 0, 0, 0, 0, 1, 0, 1)


def test_frame_bits_7e2_adds_even_parity_and_two_stops():
    # 0x43 = 100 0011 has three ones: even parity adds a 1
    assert frame_bits(0x43, FrameFormat(1200, 7, "E", 2)) == (0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_stop_index_is_where_the_stop_bits_start(fmt):
    bits = frame_bits(0, fmt)  # all data bits SPACE, so only parity and stops can be MARK
    assert len(bits) == fmt.bits_per_frame
    assert bits[fmt.stop_index:] == (MARK,) * fmt.stop_bits
    assert fmt.stop_index == 1 + fmt.data_bits + (fmt.parity != "N")


@pytest.mark.parametrize("value,parity,expected", [
    (0x00, "E", 0), (0x00, "O", 1), (0x01, "E", 1), (0x01, "O", 0), (0x03, "E", 0), (0x7F, "O", 0),
    (0x55, "N", None)])
def test_parity_bit(value, parity, expected):
    assert parity_bit(value, 7, parity) == expected


def test_byte_too_wide_for_seven_bits_is_refused():
    with pytest.raises(ValueError, match="7 data bits"):
        frame_bits(0x80, FrameFormat(1200, 7, "N", 1))


@pytest.mark.parametrize("kwargs", [dict(baud=0), dict(data_bits=6), dict(parity="M"), dict(stop_bits=3)])
def test_bad_format_is_refused(kwargs):
    with pytest.raises(ValueError):
        FrameFormat(**kwargs)


def test_bit_timing_at_1200_baud_is_256000_over_1200_cycles_without_drift():
    fmt = FrameFormat(1200, 8, "N", 1)
    assert CYCLES_PER_SECOND == 256_000
    assert fmt.cycles_per_bit == pytest.approx(213.333, abs=1e-3)
    assert [fmt.bit_start(i) for i in range(4)] == [0, 213, 427, 640]
    assert fmt.frame_cycles == 2133  # 10 bits
    assert fmt.sample_offset(0) == 107


def test_encode_gives_transitions_at_bit_edges():
    fmt = FrameFormat(1200, 8, "N", 1)
    # 0x0F: start(0) 1 1 1 1 0 0 0 0 stop(1): falls at 0, rises at bit 1, falls at bit 5, rises at stop
    assert encode(b"\x0f", fmt, start=1000) == [
        (1000, SPACE), (1000 + fmt.bit_start(1), MARK), (1000 + fmt.bit_start(5), SPACE),
        (1000 + fmt.bit_start(9), MARK)]


@pytest.mark.parametrize("fmt", FORMATS, ids=str)
def test_encode_decode_round_trip_every_byte(fmt):
    data = bytes(range(1 << fmt.data_bits))
    edges = encode(data, fmt, start=37)
    frames = decode(edges, fmt, end=37 + len(data) * fmt.frame_cycles)
    assert frames_to_bytes(frames) == data
    assert frames[1].start == 37 + fmt.frame_cycles


def test_receiver_tolerates_gaps_and_a_sender_with_more_stop_bits():
    sender = FrameFormat(1200, 8, "N", 2)
    edges = encode(b"PC-1360", sender, gap=500)
    assert frames_to_bytes(decode(edges, FrameFormat(1200, 8, "N", 1), end=10**6)) == b"PC-1360"


def test_parity_error_is_detected_and_named():
    fmt = FrameFormat(1200, 7, "E", 1)
    edges = encode(b"A", fmt)  # 0x41 has two ones: parity bit 0
    parity_at = fmt.bit_start(8)
    damaged = [e for e in edges if e[0] < parity_at] + [(parity_at, MARK)]
    (frame,) = decode(damaged, fmt, end=10_000)
    assert frame.value == 0x41 and frame.parity_error and not frame.framing_error
    with pytest.raises(LineError, match="parity error in byte 1"):
        frames_to_bytes([frame])


def test_wrong_parity_setting_on_one_end_flags_every_other_byte():
    edges = encode(b"AB", FrameFormat(1200, 7, "E", 1))
    frames = decode(edges, FrameFormat(1200, 7, "O", 1), end=10_000)
    assert [f.parity_error for f in frames] == [True, True]


def test_framing_error_when_stop_bit_is_space():
    fmt = FrameFormat(1200, 8, "N", 1)
    # a held SPACE (break) from cycle 0: the stop bit reads SPACE
    (frame,) = decode([(0, SPACE)], fmt, end=20_000)
    assert frame.framing_error and frame.value == 0
    with pytest.raises(LineError, match="framing error in byte 1"):
        frames_to_bytes([frame])


def test_after_a_break_the_line_must_return_to_mark_before_the_next_frame():
    fmt = FrameFormat(1200, 8, "N", 1)
    edges = [(0, SPACE), (5000, MARK)] + encode(b"Z", fmt, start=6000)
    frames = decode(edges, fmt, end=20_000)
    assert [(f.value, f.framing_error) for f in frames] == [(0, True), (ord("Z"), False)]


def test_glitch_shorter_than_half_a_bit_is_not_a_start_bit():
    fmt = FrameFormat(1200, 8, "N", 1)
    edges = [(100, SPACE), (150, MARK)] + encode(b"k", fmt, start=3000)
    assert frames_to_bytes(decode(edges, fmt, end=10_000)) == b"k"


def test_wrong_baud_rate_can_decode_as_a_clean_but_wrong_byte():
    # Why receive also checks the text: a rate mismatch need not trip framing or parity.
    edges = encode(b"\x55\x55", FrameFormat(1200, 8, "N", 1))
    (frame,) = decode(edges, FrameFormat(300, 8, "N", 1), end=50_000)
    assert frame.ok and frame.value == 0xF0


def test_receiver_fed_edge_by_edge_and_flushed_late_decodes_the_last_frame():
    fmt = FrameFormat(600, 8, "O", 1)
    receiver = Receiver(fmt)
    frames = []
    for cycle, level in encode(b"OK", fmt, start=10):
        frames += receiver.edge(cycle, level)
        frames += receiver.edge(cycle, level)  # a port write that repeats the level
    assert [f.value for f in frames] == [ord("O")]  # "K" ends with MARK bits: no edge yet
    frames += receiver.flush(10 + 2 * fmt.frame_cycles)
    assert frames_to_bytes(frames) == b"OK"


def test_transmitter_level_matches_encoded_waveform_at_every_cycle():
    fmt = FrameFormat(1200, 7, "E", 2)
    tx = Transmitter(fmt)
    tx.send(b"HI", at=50)
    tx.send(b"\x1a", at=100)  # queued behind the first two frames
    assert tx.free_at == 50 + 3 * fmt.frame_cycles
    edges = encode(b"HI\x1a", fmt, start=50)
    expected = MARK
    pending = list(edges)
    for cycle in range(0, tx.free_at + 100):
        while pending and pending[0][0] <= cycle:
            expected = pending.pop(0)[1]
        assert tx.level(cycle) == expected, cycle


def test_transmitter_sampled_by_receiver_as_the_emulator_will_do():
    fmt = FrameFormat(1200, 8, "N", 1)
    tx = Transmitter(fmt)
    rx = Receiver(fmt)
    tx.send(b'10 PRINT "HI"\r\n\x1a', at=0)
    frames = []
    level = MARK
    # the firmware polls its input port every ~40 cycles, not every cycle
    for cycle in range(0, tx.free_at + 200, 41):
        new = tx.level(cycle)
        if new != level:
            frames += rx.edge(cycle, new)
            level = new
    frames += rx.flush(tx.free_at + 200)
    assert frames_to_bytes(frames) == b'10 PRINT "HI"\r\n\x1a'


# --- SioPort: the line model on the PC-1360's port bits --------------------------------

def _fo_writes(data, fmt, start=0):
    """OUTF values that bit-bang `data` on SD as the firmware does: inverted, FO bit 1."""
    return [(cycle, FO_SD if level == SPACE else 0) for cycle, level in encode(data, fmt, start)]


def test_sio_port_decodes_inverted_sd_writes():
    fmt = FrameFormat(1200, 8, "N", 1)
    port = SioPort(fmt)
    port.outf(0, 0)  # idle: SD low
    for cycle, value in _fo_writes(b"OK\x1a", fmt, start=100):
        port.outf(value | 0x04, cycle)  # other FO bits (the card slot) do not matter
    assert port.host_receive(100 + 3 * fmt.frame_cycles) == b"OK\x1a"
    assert port.host_receive(10**6) == b""  # each byte once
    assert port.errors == []


def test_sio_port_keeps_damaged_frames_apart():
    fmt = FrameFormat(1200, 7, "E", 1)
    port = SioPort(fmt)
    for cycle, value in _fo_writes(b"A", FrameFormat(1200, 7, "O", 1)):
        port.outf(value, cycle)
    assert port.host_receive(10_000) == b""
    assert [f.parity_error for f in port.errors] == [True]


def test_sio_port_holds_cs_and_cd_while_the_host_is_ready():
    port = SioPort(FrameFormat(1200))
    assert port.inb_bits(0) == IB_CS | IB_CD
    port.host_ready = False
    assert port.inb_bits(0) == 0


def test_sio_port_reports_rs_from_the_latch():
    port = SioPort(FrameFormat(1200))
    port.latch(LATCH_ER, 0)
    assert not port.request_to_send
    port.latch(LATCH_ER | LATCH_RS, 0)
    assert port.request_to_send


def _rd_levels(port, start, end, step=1):
    """The logical line the pocket reads on RD (IB bit 5 is inverted)."""
    return [(SPACE if port.inb_bits(cycle) & IB_RD else MARK) for cycle in range(start, end, step)]


def test_sio_port_sends_to_the_pocket_only_while_er_and_rr_are_high():
    fmt = FrameFormat(1200)
    port = SioPort(fmt)
    port.host_send(b"\x00", 0)
    assert set(_rd_levels(port, 0, 3000, 7)) == {MARK}  # port not open: nothing goes
    port.latch(LATCH_ER, 3000)
    assert set(_rd_levels(port, 3000, 6000, 7)) == {MARK}  # open, but not ready to receive
    assert port.host_pending == 1
    port.latch(LATCH_ER | LATCH_RR, 6000)  # LOAD: ready; the byte starts now
    assert port.host_pending == 0
    levels = _rd_levels(port, 6000, 6000 + fmt.frame_cycles)
    assert levels[:fmt.bit_start(9)] == [SPACE] * fmt.bit_start(9)  # start bit and eight 0s
    assert levels[fmt.bit_start(9):] == [MARK] * (fmt.frame_cycles - fmt.bit_start(9))


def decode_rd(port, start, end):
    receiver = Receiver(port.fmt)
    frames = []
    level = MARK
    for cycle in range(start, end, 5):  # the firmware polls INB every few dozen cycles
        new = SPACE if port.inb_bits(cycle) & IB_RD else MARK
        if new != level:
            frames += receiver.edge(cycle, new)
            level = new
    return frames + receiver.flush(end)


def test_sio_port_finishes_a_byte_when_rr_drops_and_holds_the_next():
    fmt = FrameFormat(1200)
    port = SioPort(fmt)
    port.host_send(b"AB", 0)
    port.latch(LATCH_ER | LATCH_RR, 0)
    port.latch(LATCH_ER, 500)  # the pocket is busy: RR low in the middle of "A"
    frames = decode_rd(port, 0, 4 * fmt.frame_cycles)
    assert frames_to_bytes(frames) == b"A" and port.host_pending == 1
    port.latch(LATCH_ER | LATCH_RR, 5 * fmt.frame_cycles)
    frames = decode_rd(port, 5 * fmt.frame_cycles, 7 * fmt.frame_cycles)
    assert frames_to_bytes(frames) == b"B" and frames[0].start == 5 * fmt.frame_cycles


def test_sio_port_without_flow_control_sends_back_to_back_whatever_rr_says():
    fmt = FrameFormat(1200)
    port = SioPort(fmt, flow_control=False)
    port.host_send(b"AB", 100)
    frames = decode_rd(port, 0, 3 * fmt.frame_cycles)
    assert frames_to_bytes(frames) == b"AB"
    assert frames[0].start == 100
    assert frames[1].start == pytest.approx(100 + fmt.frame_cycles, abs=5)  # seen at a poll
    late = SioPort(fmt, flow_control=False)
    late.host_send(b"AB", 100)
    assert late.inb_bits(3 * fmt.frame_cycles) == IB_CS | IB_CD  # nobody listened: gone by

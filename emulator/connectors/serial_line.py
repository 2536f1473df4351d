"""Asynchronous serial line model: bytes <-> UART frames, timed in SC61860 cycles.

Shared by the PC-side transfer tools' tests and, later, the emulator's 15-pin SIO port:
the firmware bit-bangs SD and samples RD, so the emulated machine needs a line it can
read at any cycle (`Transmitter`) and a decoder for the levels it writes (`Receiver`).

Levels in the line model are logical UART levels: MARK (1) is idle and the stop bit,
SPACE (0) the start bit. `SioPort` puts the model on the PC-1360's port bits, where the
data lines are inverted (0 V = mark, docs/hardware.md §9.1): its docstring lists the bits
and what the real firmware was seen doing with them.

A frame is: one start bit, 7 or 8 data bits least significant first, an optional
parity bit (even or odd), then 1 or 2 stop bits. FrameFormat, frame_bits and parity_bit
are the one description of it, for the host's end here and for an engine that drives
the pins itself (pc1360.facts holds the port's bits and the firmware's bit times).
"""

from collections import deque
from dataclasses import dataclass

from pc1360.facts import (
    CYCLES_PER_SECOND,
    DATA_BITS,
    FO_SD,
    IB_CD,
    IB_CS,
    IB_RD,
    LATCH_ER,
    LATCH_RR,
    LATCH_RS,
    PARITIES,
    STOP_BITS,
)

MARK = 1
SPACE = 0


class LineError(ValueError):
    """A received frame was damaged (framing or parity error)."""


@dataclass(frozen=True)
class FrameFormat:
    baud: int = 1200
    data_bits: int = 8
    parity: str = "N"
    stop_bits: int = 1

    def __post_init__(self):
        if self.baud <= 0:
            raise ValueError(f"baud must be positive, not {self.baud}")
        if self.data_bits not in DATA_BITS:
            raise ValueError(f"data bits must be 7 or 8, not {self.data_bits}")
        if self.parity not in PARITIES:
            raise ValueError(f"parity must be N, E or O, not {self.parity!r}")
        if self.stop_bits not in STOP_BITS:
            raise ValueError(f"stop bits must be 1 or 2, not {self.stop_bits}")

    @property
    def stop_index(self):
        """The index of the first stop bit: start, data and parity bits come before it."""
        return 1 + self.data_bits + (self.parity != "N")

    @property
    def bits_per_frame(self):
        return self.stop_index + self.stop_bits

    @property
    def cycles_per_bit(self):
        return CYCLES_PER_SECOND / self.baud

    def bit_start(self, index):
        """Cycle offset, from the leading edge of the start bit, where bit `index` begins.

        Rounded from the frame start each time (not accumulated bit by bit), so a
        non-integer bit time such as 213.33 cycles at 1200 baud never drifts.
        """
        return round(index * CYCLES_PER_SECOND / self.baud)

    def sample_offset(self, index):
        """Cycle offset of the middle of bit `index`, where a receiver samples it."""
        return round((index + 0.5) * CYCLES_PER_SECOND / self.baud)

    @property
    def frame_cycles(self):
        return self.bit_start(self.bits_per_frame)


def parity_bit(value, data_bits, parity):
    """The parity bit for `value` (None for no parity): even parity makes the count of
    ones in data + parity even, odd parity makes it odd."""
    if parity == "N":
        return None
    ones = bin(value & ((1 << data_bits) - 1)).count("1")
    return (ones & 1) ^ (parity == "O")


def frame_bits(value, fmt):
    """The line levels of one frame, start bit first."""
    if not 0 <= value < (1 << fmt.data_bits):
        raise ValueError(f"byte {value:#04x} does not fit in {fmt.data_bits} data bits")
    bits = [SPACE]
    bits += [(value >> i) & 1 for i in range(fmt.data_bits)]
    parity = parity_bit(value, fmt.data_bits, fmt.parity)
    if parity is not None:
        bits.append(parity)
    bits += [MARK] * fmt.stop_bits
    return tuple(bits)


def encode(data, fmt, start=0, gap=0):
    """The waveform for `data` sent back to back from cycle `start` (with `gap` idle
    cycles between frames), as a list of (cycle, level) transitions. The line is MARK
    before the first transition and after the last."""
    edges = []
    level = MARK
    frame_start = start
    for value in data:
        for index, bit in enumerate(frame_bits(value, fmt)):
            if bit != level:
                edges.append((frame_start + fmt.bit_start(index), bit))
                level = bit
        frame_start += fmt.frame_cycles + gap
    return edges


@dataclass(frozen=True)
class Frame:
    value: int
    start: int  # cycle of the start bit's leading edge
    framing_error: bool = False
    parity_error: bool = False

    @property
    def ok(self):
        return not (self.framing_error or self.parity_error)


class Transmitter:
    """Drives a line with queued bytes; `level(cycle)` tells what the line shows then.

    Used for the PC -> pocket direction (the RD pin): the host queues bytes at a cycle,
    frames follow back to back, and the emulated CPU may sample the level at any cycle.
    Calls to `level` must not go back in time past a frame already finished.
    """

    def __init__(self, fmt):
        self.fmt = fmt
        self._queue = deque()  # (start cycle, frame bits) in time order
        self._free_at = 0  # cycle at which the last queued frame ends

    def send(self, data, at):
        """Queue `data` to go out no earlier than cycle `at`."""
        begin = max(at, self._free_at)
        for value in data:
            self._queue.append((begin, frame_bits(value, self.fmt)))
            begin += self.fmt.frame_cycles
        self._free_at = max(self._free_at, begin)

    @property
    def free_at(self):
        """The cycle at which the line goes idle (everything queued has been sent)."""
        return self._free_at

    def level(self, cycle):
        fmt = self.fmt
        queue = self._queue
        while queue and cycle >= queue[0][0] + fmt.frame_cycles:
            queue.popleft()
        if not queue or cycle < queue[0][0]:
            return MARK
        begin, bits = queue[0]
        offset = cycle - begin
        index = 0
        while index + 1 < len(bits) and fmt.bit_start(index + 1) <= offset:
            index += 1
        return bits[index]


class Receiver:
    """Samples a line from its transitions, as a UART does, and returns decoded frames.

    Used for the pocket -> PC direction (the SD pin): the emulator reports every write
    of the port bit with `edge(cycle, level)` (repeats of the same level are fine) and
    calls `flush(cycle)` when it wants frames whose last sample lies in the past.

    A falling edge while hunting starts a frame; each bit is sampled in its middle.
    A start bit that is MARK again at its middle is a glitch and is ignored. Only the
    first stop bit is checked (as UARTs do, so a sender using 2 stop bits and a
    receiver expecting 1, or the other way round, still work); a SPACE there is a
    framing error. After a framing error the line must return to MARK before the next
    start bit can be seen, so a held break gives one damaged frame, not a stream.
    """

    def __init__(self, fmt):
        self.fmt = fmt
        self._level = MARK
        self._frame_start = None
        self._bits = []
        self._offsets = [fmt.sample_offset(i) for i in range(fmt.stop_index + 1)]

    def edge(self, cycle, level):
        """The line changes to `level` at `cycle` (cycles must not decrease)."""
        frames = self._sample_until(cycle, inclusive=False)
        if level != self._level:
            self._level = level
            if level == SPACE and self._frame_start is None:
                self._frame_start = cycle
                self._bits = []
        return frames

    def flush(self, cycle):
        """Decode every sample point up to and including `cycle`."""
        return self._sample_until(cycle, inclusive=True)

    def _sample_until(self, cycle, inclusive):
        frames = []
        while self._frame_start is not None:
            at = self._frame_start + self._offsets[len(self._bits)]
            if at > cycle or (at == cycle and not inclusive):
                break
            self._bits.append(self._level)
            if len(self._bits) == 1 and self._level == MARK:
                self._frame_start = None  # glitch, not a start bit
            elif len(self._bits) == len(self._offsets):
                frames.append(self._finish())
        return frames

    def _finish(self):
        fmt = self.fmt
        bits = self._bits
        value = sum(bit << i for i, bit in enumerate(bits[1:1 + fmt.data_bits]))
        expected = parity_bit(value, fmt.data_bits, fmt.parity)
        parity_error = expected is not None and bits[1 + fmt.data_bits] != expected
        frame = Frame(value, self._frame_start, framing_error=bits[-1] != MARK,
                      parity_error=parity_error)
        self._frame_start = None
        return frame


class SioPort:
    """The PC-1360's side of the 15-pin SIO at port-bit level, with a host at the far end.

    The machine's bus calls `outf`, `latch` (for writes to SIO_LATCH) and `inb_bits` with
    the CPU cycle; the host (a serial bridge, a test) calls `host_send`, `host_receive`.

    Seen with the real firmware in the emulator (tests/tools/test_serial_firmware.py):
    the port bits are the pin levels, so SD and RD carry the line inverted (a start bit
    is 1, idle 0), the handshake lines are active high. OPEN sets ER; LOAD waits for CD,
    then raises RR while it can take a line and drops it while it stores one (bytes
    sent then are lost); SAVE raises RS and sends only while CS is high.

    The host acts as a PC with RTS/CTS handshake wired as the CE-130T does: it holds CS
    and CD high while `host_ready`, and sends bytes back to back while the pocket's ER
    and RR are high, checking them before each byte (a byte under way is finished); with
    `flow_control=False` it sends regardless, as a PC on a cable without RR does. `fmt`
    must match the OPEN statement the firmware ran.
    """

    _READY = LATCH_ER | LATCH_RR

    def __init__(self, fmt, flow_control=True):
        self.fmt = fmt
        self.flow_control = flow_control
        self.host_ready = True
        self.errors = []  # damaged frames the pocket sent
        self._tx = Transmitter(fmt)
        self._rx = Receiver(fmt)
        self._pending = deque()
        self._not_before = 0  # the host queued the first pending byte at this cycle
        self._ready_since = 0  # cycle at which ER and RR were last raised together
        self._received = bytearray()
        self._latch = 0

    # -- the pocket's side ----------------------------------------------------------
    def outf(self, value, cycle):
        self._take(self._rx.edge(cycle, SPACE if value & FO_SD else MARK))

    def latch(self, value, cycle):
        self._feed(cycle)  # bytes that started under the old levels
        if value & self._READY == self._READY and self._latch & self._READY != self._READY:
            self._ready_since = cycle
        self._latch = value
        self._feed(cycle)

    def inb_bits(self, cycle):
        self._feed(cycle)
        bits = IB_CS | IB_CD if self.host_ready else 0
        return bits | (IB_RD if self._tx.level(cycle) == SPACE else 0)

    def _feed(self, cycle):
        """Start every pending byte whose start time has come: the end of the byte
        before, or when the host queued it, or (with flow control) when RR rose."""
        while self._pending:
            start = max(self._tx.free_at, self._not_before)
            if self.flow_control:
                if self._latch & self._READY != self._READY:
                    return
                start = max(start, self._ready_since)
            if start > cycle:
                return
            self._tx.send((self._pending.popleft(),), start)

    def _take(self, frames):
        for frame in frames:
            if frame.ok:
                self._received.append(frame.value)
            else:
                self.errors.append(frame)

    # -- the host's side -------------------------------------------------------------
    @property
    def request_to_send(self):
        """The pocket's RS: it has data for the host (SAVE waits for CS)."""
        return bool(self._latch & LATCH_RS)

    @property
    def host_pending(self):
        """Bytes queued by the host that have not started towards the pocket."""
        return len(self._pending)

    def host_send(self, data, cycle):
        """Queue `data` for the pocket, to go no earlier than `cycle` (after what is
        already queued)."""
        if not self._pending:
            self._not_before = cycle
        self._pending.extend(data)

    def host_receive(self, cycle):
        """The bytes the pocket has sent up to `cycle`, each returned once."""
        self._take(self._rx.flush(cycle))
        data = bytes(self._received)
        self._received.clear()
        return data


def decode(edges, fmt, end):
    """Decode a whole waveform (as from `encode`) observed until cycle `end`."""
    receiver = Receiver(fmt)
    frames = []
    for cycle, level in edges:
        frames += receiver.edge(cycle, level)
    return frames + receiver.flush(end)


def frames_to_bytes(frames):
    """The bytes carried by `frames`; LineError names the first damaged one."""
    for number, frame in enumerate(frames, 1):
        if not frame.ok:
            kind = "framing error" if frame.framing_error else "parity error"
            raise LineError(
                f"{kind} in byte {number} (cycle {frame.start}): check that both ends use the "
                "same baud rate, parity, data bits and stop bits")
    return bytes(frame.value for frame in frames)

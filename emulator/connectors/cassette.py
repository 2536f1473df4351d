"""A cassette recorder on the 11-pin connector: a tape played into Xin, Xout recorded.

Both ends are timed in CPU cycles. A tape (a WAV recording, a ".tap" record, or a program
put on tape by the pc1360 package) becomes a list of Xin level changes, which the CPU
reads with CUP/CDN (bus.xin) and TEST 0x80. Playback starts at the first Xin read after
`insert`, as if PLAY were pressed when CLOAD starts listening; CLOAD reads Xin with
CUP/CDN only (bank 4), so nothing else starts the tape early.

CSAVE drives Xout with the control port's hardware square waves (OUTC bits 4-6: mode 3 =
4 kHz for a 1 bit, mode 2 = 2 kHz for a 0 bit, each bit started on the 2 ms timer), so
recording keeps the mode changes and the recording is rendered from them with the
buzzer's own wave model (timers.Buzzer.level_at).
"""

import bisect
from pathlib import Path

from emulator.machine.timers import Buzzer
from pc1360 import tape, tapesound
from pc1360.facts import CYCLES_PER_SECOND
from pc1360.tokenizer import tokenize

TEST_XIN = 0x80
# A tape record is played as the signal the pc1360 package writes for it, at 16 kHz
# (bin2wav's rate): 4 and 8 samples a wave put its edges exactly 32 and 64 cycles apart,
# at a third of the work of 48 kHz. Xout is recorded at that rate too: its square waves'
# edges fall on multiples of 32 cycles, so 16 kHz renders them exactly.
PLAY_RATE = RECORD_RATE = 16_000
SQUARE_MODES = (2, 3)  # Xout modes with a 2 kHz / 4 kHz wave; the others hold a level
_HIGH, _LOW = 228, 28  # 8-bit samples of a recorded Xout level
_WINDOW = 256  # samples per window in which the signal's middle is taken
_HYSTERESIS = 0.25  # of the typical swing: noise around the middle is not an edge


def signal_edges(samples, rate):
    """[(cycle offset, level)] of a recorded signal: where it rises above or falls below
    its middle (taken per window, so a DC offset or drift does not matter), with
    hysteresis so that noise and silence make no edges."""
    if not samples:
        return []
    windows = [samples[i:i + _WINDOW] for i in range(0, len(samples), _WINDOW)]
    swings = [(max(w) - min(w)) / 2 for w in windows]
    loud = sorted(s for s in swings if s >= max(swings) / 4)
    hysteresis = loud[len(loud) // 2] * _HYSTERESIS
    if hysteresis == 0:
        return []
    edges = []
    level = None
    scale = CYCLES_PER_SECOND / rate
    for number, window in enumerate(windows):
        middle = (max(window) + min(window)) / 2
        high, low = middle + hysteresis, middle - hysteresis
        base = number * _WINDOW
        for offset, value in enumerate(window):
            if value > high and level != 1:
                level = 1
            elif value < low and level != 0:
                level = 0
            else:
                continue
            edges.append((round((base + offset) * scale), level))
    return edges


def tape_edges(path):
    """Xin level changes for a tape file: .wav as recorded, .tap (a tape record) as the
    pc1360 package writes it to a WAV, .bas/.img as the program put on tape."""
    path = Path(path)
    suffix = path.suffix.lower()
    data = path.read_bytes()
    if suffix == ".wav":
        rate, samples = tapesound.wav_samples(data)
        return signal_edges(samples, rate)
    if suffix == ".tap":
        return record_edges(data)
    if suffix == ".bas":
        return record_edges(tape.encode_tap(tokenize(data)))
    if suffix == ".img":
        return record_edges(tape.encode_tap(data))
    raise ValueError(f"no tape reader for {suffix or 'files without a suffix'} "
                     "(known: .wav .tap .bas .img)")


def record_edges(record):
    """Xin level changes for a tape record (pc1360.tape.encode_tap or encode_data), by way
    of the WAV signal the pc1360 package writes for it; a data file with the firmware's
    pauses and lead-ins between its items (PRINT#'s framing, which INPUT# needs)."""
    if record[:1] == bytes((tape.DATA_TYPE,)):
        samples = tapesound.frame_samples(record, tape.firmware_stops(record), PLAY_RATE)
    else:
        samples = tapesound.encode_samples(record, PLAY_RATE)
    return signal_edges(samples, PLAY_RATE)


class Recording:
    """Xout while recording: the control port's Xout mode from each cycle on."""

    def __init__(self, modes, end):
        self.modes = modes  # [(cycle, mode)], the first at the start of the recording
        self.end = end

    @property
    def seconds(self):
        return (self.end - self.modes[0][0]) / CYCLES_PER_SECOND

    def samples(self, rate=RECORD_RATE):
        """Unsigned 8-bit mono samples of Xout, one stretch of a steady mode at a time (a
        long session is mostly silence)."""
        start = self.modes[0][0]
        out = bytearray()
        for number, (_, mode) in enumerate(self.modes):
            stop = self.modes[number + 1][0] if number + 1 < len(self.modes) else self.end
            first = len(out)
            last = -(-(stop - start) * rate // CYCLES_PER_SECOND)  # first sample at or past stop
            if mode in SQUARE_MODES:
                cycles = (start + index * CYCLES_PER_SECOND // rate for index in range(first, last))
                out += bytes(_HIGH if Buzzer.level_at(mode, cycle) else _LOW for cycle in cycles)
            else:
                out += bytes([_HIGH if Buzzer.level_at(mode, stop) else _LOW]) * (last - first)
        return bytes(out)

    def wav(self, rate=RECORD_RATE):
        return tapesound.wav_bytes(self.samples(rate), rate)

    def tape_record(self):
        """The tape record bytes heard in the recording (b"" if none), as pc1360's WAV
        decoder reads them."""
        return tapesound.decode_samples(self.samples(), RECORD_RATE)


class Cassette:
    """The machine's tape recorder (machine.cassette)."""

    def __init__(self, machine):
        self.machine = machine
        self._edges = None  # Xin changes of the tape inserted, as cycle offsets
        self._times = []
        self._start = None  # cycle at which the tape started playing
        self._cursor = 0
        self._modes = None  # Xout mode changes while recording
        self._sent_at = None  # cycle the last recorded Xout tone ended
        bus = machine.bus
        outc = bus.outc
        self._test = bus.test

        def cassette_outc(value):
            outc(value)
            if self._modes is not None:
                mode = (value >> 4) & 7
                if mode != self._modes[-1][1]:
                    if self.sending:
                        self._sent_at = machine.now()
                    self._modes.append((machine.now(), mode))

        bus.outc = cassette_outc
        bus.xin = self.xin

    # -- playing -------------------------------------------------------------------------
    def insert(self, edges):
        """Put in a tape given as Xin level changes [(cycle offset, level)] (signal_edges,
        record_edges, tape_edges). TEST 0x80 reads Xin while a tape is in."""
        self._edges = list(edges)
        self._times = [cycle for cycle, _ in self._edges]
        self._start = None
        self._cursor = 0
        test = self._test

        def cassette_test(mask):
            status = test(mask)
            if mask & TEST_XIN and self.xin():
                status |= TEST_XIN
            return status

        self.machine.bus.test = cassette_test

    def insert_file(self, path):
        """insert(tape_edges(path)); ValueError for a file that is no tape, OSError if it
        cannot be read."""
        self.insert(tape_edges(path))

    def eject(self):
        self._edges = None
        self._times = []
        self._start = None
        self.machine.bus.test = self._test

    @property
    def playing(self):
        return self._start is not None and not self.finished

    @property
    def finished(self):
        """The tape has been played to its end."""
        if self._start is None or self._edges is None:
            return False
        return not self._edges or self.machine.now() - self._start > self._times[-1]

    @property
    def sending(self):
        """Recording while Xout carries a tone (CSAVE, PRINT#, or a BEEP)."""
        return self._modes is not None and self._modes[-1][1] in SQUARE_MODES

    @property
    def busy(self):
        """A transfer that stopping now would cut off: the tape plays, or Xout is recorded."""
        return self.playing or self.sending

    @property
    def active_at(self):
        """The machine cycle the tape last carried a signal either way (now while busy);
        None if it has carried none."""
        now = self.machine.now()
        cycles = [self._sent_at, now if self.sending else None]
        if self._start is not None and self._times:
            cycles.append(min(now, self._start + self._times[-1]))
        return max((cycle for cycle in cycles if cycle is not None), default=None)

    @property
    def played(self):
        """(seconds played, seconds of signal on the tape) of the tape in the recorder."""
        length = self._times[-1] if self._times else 0
        position = 0 if self._start is None else min(self.machine.now() - self._start, length)
        return position / CYCLES_PER_SECOND, length / CYCLES_PER_SECOND

    def xin(self):
        """The Xin level now: 0 without a tape, before it starts and after its end."""
        if self._edges is None:
            return 0
        now = self.machine.now()
        if self._start is None:
            self._start = now
        position = now - self._start
        times = self._times
        if not times or position > times[-1]:
            return 0
        cursor = self._cursor
        if cursor and times[cursor - 1] > position:  # time went back (a restored snapshot)
            cursor = bisect.bisect_right(times, position)
        while cursor < len(times) and times[cursor] <= position:
            cursor += 1
        self._cursor = cursor
        return self._edges[cursor - 1][1] if cursor else 0

    @property
    def tape(self):
        """The tape in the recorder as Xin changes (None without one); a new object at
        each insert."""
        return self._edges

    def play(self):
        """For a reader without a CPU (the built-in engine): start the tape now if it has
        not started, as the first Xin read does, and return the Xin changes still to come
        as [(machine cycle, level)] ([] without a tape)."""
        if self._edges is None:
            return []
        now = self.machine.now()
        if self._start is None:
            self._start = now
        first = bisect.bisect_right(self._times, now - self._start)
        return [(self._start + cycle, level) for cycle, level in self._edges[first:]]

    # -- recording -----------------------------------------------------------------------
    def record(self):
        """Start recording Xout (press RECORD, then CSAVE)."""
        self._modes = [(self.machine.now(), (self.machine.bus.control >> 4) & 7)]
        self._sent_at = None

    @property
    def recording(self):
        return self._modes is not None

    def stop(self):
        """Stop recording; the Recording (None if nothing was being recorded)."""
        if self._modes is None:
            return None
        taken = Recording(self._modes, self.machine.now())
        self._modes = None
        return taken

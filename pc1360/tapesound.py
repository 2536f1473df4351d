"""Tape record bytes <-> audio samples (docs/stored_format.md §7.1), and WAV file contents
<-> samples (from a binary stream or bytes: opening files is left to the callers).

Signal: a 1 bit is 8 cycles of 4 kHz, a 0 bit 4 cycles of 2 kHz, 2 ms either way. A byte
goes as two nibbles, high nibble first; a nibble is a 0 start bit, 4 data bits (least
significant first) and 1 stop bits. The file type, name block and name checksum (the
first 10 bytes) have 1 stop bit after the first nibble and 5 after the second; the rest
has 1 and 2. That is what the firmware's CSAVE sends (read from the emulated machine's
tape output; PocketTools writes 1 and 3, and CLOAD takes either). A run of 1 bits (the
lead-in: CSAVE sends about 8 s, one second is plenty for CLOAD) comes first, two 1 bits
end the record.

The decoder counts cycles rather than timing bits, so it is indifferent to speed (a
tape running some percent fast or slow), level and a DC offset.
"""

import io
import math
import struct
import sys
import wave
from array import array
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass
from itertools import islice

from pc1360.errors import FormatError

BIT_SECONDS = 0.002
HEADER_BYTES = 10  # file type, 8-byte name block, name checksum
LEAD_IN_BITS = 500  # one second of 4 kHz (PocketTools uses 0.5 s by default)
DEFAULT_RATE = 48_000
_AMPLITUDE = 100  # around the 8-bit mid level 128
_SILENCE_SECONDS = 0.1


def encode_samples(tap, rate=DEFAULT_RATE, lead_in_bits=LEAD_IN_BITS):
    """Unsigned 8-bit mono samples (bytes) that carry a tape record."""
    bits = [1] * lead_in_bits
    for index, byte in enumerate(tap):
        stops = (1, 5) if index < HEADER_BYTES else (1, 2)
        for nibble, stop in zip((byte >> 4, byte & 0x0F), stops):
            bits.append(0)
            bits.extend((nibble >> shift) & 1 for shift in range(4))
            bits.extend([1] * stop)
    bits += [1, 1]
    silence = bytes([128]) * int(rate * _SILENCE_SECONDS)
    return silence + _bit_samples(bits, rate) + silence


def wav_bytes(samples, rate=DEFAULT_RATE):
    """A mono 8-bit WAV file, as bytes, holding unsigned 8-bit `samples`."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(bytes(samples))
    return buffer.getvalue()


# -- reading WAV files ---------------------------------------------------------------
# RIFF chunks are read here rather than by the wave module, which (before Python 3.12)
# refuses WAVE_FORMAT_EXTENSIBLE, the header of every 24-bit or multichannel recording,
# and fails on a damaged header with errors of many kinds.
WAVE_PCM = 1
WAVE_EXTENSIBLE = 0xFFFE
_PCM_GUID_TAIL = bytes.fromhex("000000001000800000aa00389b71")  # KSDATAFORMAT_SUBTYPE_PCM
_FORMAT_NAMES = {2: "Microsoft ADPCM", 3: "IEEE float", 6: "A-law", 7: "mu-law",
                 0x11: "IMA ADPCM", 0x55: "MP3"}
_CHUNK = struct.Struct("<4sI")
_FMT = struct.Struct("<HHIIHH")  # format tag, channels, rate, bytes/s, block align, bits
MIN_RATE = 8_000  # the 4 kHz tone of a 1 bit needs two samples a cycle
MAX_RATE = 1_000_000
BLOCK_FRAMES = 256 * 256  # frames read at a time: a whole number of decoder windows
_WINDOW = 256  # samples per window in which the signal's middle is taken


@dataclass(frozen=True)
class WavFormat:
    rate: int
    width: int  # bytes per sample
    channels: int
    data_start: int  # file offset of the first frame
    frames: int


def wav_format(stream):
    """The WavFormat of the WAV file in the seekable binary `stream`; FormatError naming
    what is wrong for anything but uncompressed PCM (plain or WAVE_FORMAT_EXTENSIBLE) of
    1 to 4 bytes a sample."""
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    stream.seek(0)
    head = stream.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:] != b"WAVE":
        raise FormatError("not a WAV file (no RIFF/WAVE header)", offset=0)
    fmt = None
    while True:
        offset = stream.tell()
        chunk = stream.read(_CHUNK.size)
        if len(chunk) < _CHUNK.size:
            missing = "format ('fmt ')" if fmt is None else "'data'"
            raise FormatError(f"damaged WAV file: no {missing} chunk", offset=offset)
        name, length = _CHUNK.unpack(chunk)
        start = offset + _CHUNK.size
        if name == b"fmt ":
            fmt = _read_fmt(stream.read(min(length, 40)), start)
        elif name == b"data":
            if fmt is None:
                raise FormatError("damaged WAV file: the 'data' chunk comes before 'fmt '", offset=offset)
            rate, width, channels = fmt
            # a recorder that was cut off never filled in the size: take what is there
            available = min(length, size - start)
            return WavFormat(rate, width, channels, start, available // (width * channels))
        stream.seek(start + length + (length & 1))  # chunks are padded to even sizes


def _read_fmt(body, offset):
    if len(body) < _FMT.size:
        raise FormatError(f"damaged WAV file: a format chunk of {len(body)} bytes", offset=offset)
    tag, channels, rate, _byte_rate, _align, bits = _FMT.unpack_from(body)
    if tag == WAVE_EXTENSIBLE:
        if len(body) < 40 or body[26:40] != _PCM_GUID_TAIL:
            raise FormatError("WAVE_FORMAT_EXTENSIBLE of a kind other than PCM is not supported",
                              offset=offset)
        tag = struct.unpack_from("<H", body, 24)[0]
    if tag != WAVE_PCM:
        name = _FORMAT_NAMES.get(tag, f"format tag {tag}")
        raise FormatError(f"{name} WAV files are not supported: only uncompressed PCM", offset=offset)
    if channels == 0:
        raise FormatError("damaged WAV file: 0 channels", offset=offset)
    if not 1 <= bits <= 32:
        raise FormatError(f"{bits} bits per sample are not supported (8, 16, 24 or 32)", offset=offset)
    if not MIN_RATE <= rate <= MAX_RATE:
        raise FormatError(f"a sample rate of {rate} Hz cannot carry the tape signal (it must be "
                          f"{MIN_RATE} to {MAX_RATE} Hz)", offset=offset)
    return rate, (bits + 7) // 8, channels


def wav_blocks(stream, fmt, frames=BLOCK_FRAMES):
    """The first channel's samples, `frames` at a time (8-bit data unsigned as stored,
    wider data as signed integers of any scale; the decoder does not mind either)."""
    stream.seek(fmt.data_start)
    frame = fmt.width * fmt.channels
    left = fmt.frames
    while left:
        data = stream.read(min(left, frames) * frame)
        count = len(data) // frame
        if not count:
            return
        left -= count
        yield _first_channel(data[:count * frame], fmt.width, frame)


def _first_channel(data, width, frame):
    if frame != width:  # keep the first channel: its bytes, lane by lane
        lanes = bytearray(len(data) // frame * width)
        for lane in range(width):
            lanes[lane::width] = data[lane::frame]
        data = bytes(lanes)
    if width == 1:
        return data
    if width == 3:  # widened to 32 bits, its 24 bits at the top: the same signal, scaled
        wide = bytearray(len(data) // 3 * 4)
        for lane in range(3):
            wide[lane + 1::4] = data[lane::3]
        data, width = bytes(wide), 4
    samples = array("h" if width == 2 else "i", data)
    if sys.byteorder == "big":
        samples.byteswap()  # WAV data are little-endian
    return samples


def wav_samples(data):
    """(rate, samples) of the first channel of a WAV file given as bytes (see wav_blocks)."""
    stream = io.BytesIO(data)
    fmt = wav_format(stream)
    samples = []
    for block in wav_blocks(stream, fmt):
        samples.extend(block)
    return fmt.rate, samples


def decode_wav(stream):
    """The tape record carried by the WAV file in `stream`, read twice in blocks (once for
    the signal's level, once for its edges), so that memory stays small whatever the
    recording's length. Returns b"" when no record is found."""
    fmt = wav_format(stream)
    swing = _loudest_swing(wav_blocks(stream, fmt))
    crossings = _crossings(wav_blocks(stream, fmt), swing)
    return bytes(byte for byte, _end in _decoded(crossings, fmt.rate))


def _bit_samples(bits, rate):
    """Each bit is a whole number of cycles, so it starts on a rising edge; only where its
    first sample falls (for rates that are not a multiple of 500 Hz) makes bits differ."""
    per_bit = rate * BIT_SECONDS
    cache = {}
    out = bytearray()
    for index, bit in enumerate(bits):
        start = index * per_bit
        first = math.ceil(start)
        key = (bit, round(first - start, 6), math.ceil(start + per_bit) - first)
        if key not in cache:
            frequency = 4000 if bit else 2000
            cache[key] = bytes(
                round(128 + _AMPLITUDE * math.sin(2 * math.pi * frequency * (n + key[1]) / rate))
                for n in range(key[2]))
        out += cache[key]
    return bytes(out)


def decode_samples(samples, rate):
    """The tape record bytes found in a sequence of samples (numbers, any offset and
    scale). Returns b"" when no record is found."""
    crossings = _crossings([samples], _loudest_swing([samples]))
    return bytes(byte for byte, _end in _decoded(crossings, rate))


def decode_crossings(crossings, rate):
    """[(byte, position)] of the tape record carried by a signal given as the positions
    (in samples at `rate`, or CPU cycles with rate=256000) where it crosses its middle;
    a byte's position is where its last data bit ends."""
    return list(_decoded(crossings, rate))


def _decoded(crossings, rate):
    # each stage is a generator, so a long recording is never held whole in memory
    nibbles = _nibbles(_bits(_without_glitches(crossings, rate), rate))
    for (hi, _), (lo, end) in zip(nibbles, nibbles):
        yield hi << 4 | lo, end


def _crossings(blocks, swing):
    """Positions (fractional sample indices) where the signal crosses its middle, with
    hysteresis so that noise around the middle or in silence is not counted. `blocks` of
    samples come one after another, each a whole number of windows but the last."""
    if not swing:
        return
    # the middle is taken per window, which removes a DC offset (and slow drift); the
    # hysteresis is a fraction of the typical swing, so silence stays quiet
    hysteresis = swing * 0.25
    state = 0
    previous = None
    base = 0
    for samples in blocks:
        for start in range(0, len(samples), _WINDOW):
            chunk = samples[start:start + _WINDOW]
            middle = (max(chunk) + min(chunk)) / 2
            high, low = middle + hysteresis, middle - hysteresis
            for offset, value in enumerate(chunk):
                if state <= 0 and value > high or state >= 0 and value < low:
                    new_state = 1 if value > high else -1
                    if state:
                        yield _interpolate(previous, value, middle, base + start + offset)
                    state = new_state
                previous = value
        base += len(samples)


def _loudest_swing(blocks):
    """The typical swing of the windows that carry signal (a quarter of the loudest one
    or more), so that neither long silence nor a single click sets the scale; 0 for no
    samples or silence."""
    swings = array("d")
    for samples in blocks:
        swings.extend((max(c) - min(c)) / 2 for c in
                      (samples[i:i + _WINDOW] for i in range(0, len(samples), _WINDOW)))
    if not swings:
        return 0
    ordered = sorted(swings)
    loud = ordered[bisect_left(ordered, ordered[-1] / 4):]
    return loud[len(loud) // 2]


def _interpolate(before, after, middle, index):
    """Where between sample index-1 and index the straight line crosses the middle; the
    hysteresis point is reached a little later, but equally on every edge."""
    if before is None or after == before:
        return float(index)
    fraction = (middle - before) / (after - before)
    return index - 1 + min(max(fraction, 0.0), 1.0)


def _without_glitches(crossings, rate):
    """Drop spikes: two crossings much closer than a 4 kHz half-cycle, closer to each other
    than to their neighbours (such as the machine leaves where it switches between its
    free-running 2 kHz and 4 kHz square waves)."""
    limit = rate * 0.5 / 8000
    source = iter(crossings)
    ahead = deque(islice(source, 3))  # this crossing and the two after it
    before = None  # the gap before this crossing
    while ahead:
        gap = ahead[1] - ahead[0] if len(ahead) > 1 else limit
        after = ahead[2] - ahead[1] if len(ahead) > 2 else limit
        if gap < limit and (before is None or gap <= before) and gap <= after:
            ahead.popleft()  # the spike's two edges
            ahead.popleft()
            before = after
        else:
            yield ahead.popleft()
            before = gap
        ahead.extend(islice(source, 3 - len(ahead)))


def _bits(crossings, rate):
    """Half-cycles of 4 kHz (about 125 us) and 2 kHz (250 us), counted in runs: 16 short
    halves make a 1 bit, 8 long ones a 0 bit. A pause longer than a 2 kHz cycle ends a run
    and is marked None. Each bit comes with the position where it ends."""
    short_limit = rate * 0.5 * (1 / 8000 + 1 / 4000)  # halfway between the two halves
    gap_limit = rate * 2 / 4000
    kind, count, start = None, 0, None
    left = None
    for right in crossings:
        if left is not None:
            half = right - left
            this = 1 if half < short_limit else 0 if half < gap_limit else None
            if this != kind:
                yield from _run(kind, count, start, left)
                kind, count, start = this, 0, left
            count += 1
        left = right
    if left is not None:
        yield from _run(kind, count, start, left)


def _run(kind, count, start, end):
    """(bit, position where it ends) for a run of `count` halves from start to end, one
    at a time: a lead-in tone of half an hour is one run of 900,000 bits."""
    if kind is None:
        if count:
            yield None, end
        return
    number = round(count / (16 if kind else 8))
    for k in range(number):
        yield kind, start + (end - start) * (k + 1) / number


def _nibbles(bits):
    """Data nibbles after a lead-in (at least 16 ones in a row): each 0 outside a nibble
    is a start bit and the 4 bits after it are the nibble, least significant first. After
    a pause the signal must lead in again (the machine pauses between the header and the
    program); whatever follows the record is left for the record decoder to ignore.
    Bits and nibbles are (value, position where it ends)."""
    source = iter(bits)
    ahead = deque(islice(source, 5))  # this bit and the four after it
    ones = 0
    synced = False
    while ahead:
        bit = ahead[0][0]
        if bit is None:
            synced, ones = False, 0
        elif bit == 1:
            ones += 1
            synced = synced or ones >= 16
        elif synced and len(ahead) == 5 and all(b is not None for b, _ in islice(ahead, 1, 5)):
            yield sum(ahead[1 + k][0] << k for k in range(4)), ahead[4][1]
            ahead.clear()
            ahead.extend(islice(source, 5))
            continue
        else:
            ones = 0
        ahead.popleft()
        ahead.extend(islice(source, 5 - len(ahead)))


# The firmware's lead-in before CSAVE's and PRINT#'s header: 4001 bits (8 s).
FIRMWARE_LEAD_IN = 4001


def frame_bits(record, stops, lead_in_bits=FIRMWARE_LEAD_IN):
    """The bits (0/1) that carry `record` with the given stop bits per byte
    ([(after the high nibble, after the low nibble)], as pc1360.tape.firmware_stops):
    the lead-in, then for each nibble a 0 start bit, 4 data bits (least significant
    first) and its stop bits."""
    bits = [1] * lead_in_bits
    for byte, pair in zip(record, stops):
        for nibble, stop in zip((byte >> 4, byte & 0x0F), pair):
            bits.append(0)
            bits.extend((nibble >> shift) & 1 for shift in range(4))
            bits.extend([1] * stop)
    return bits


def frame_samples(record, stops, rate=DEFAULT_RATE, lead_in_bits=LEAD_IN_BITS):
    """Unsigned 8-bit mono samples of frame_bits(record, stops, lead_in_bits), with the
    silence encode_samples puts around a record. A data file needs the firmware's
    framing: INPUT# expects a lead-in before each item after the first."""
    silence = bytes([128]) * int(rate * _SILENCE_SECONDS)
    return silence + _bit_samples(frame_bits(record, stops, lead_in_bits), rate) + silence

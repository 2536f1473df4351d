"""Tape record bytes <-> audio samples (docs/stored_format.md §7.1), and WAV file contents
<-> samples (in memory: reading and writing files is left to the callers).

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
import sys
import wave

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


def wav_samples(data):
    """(rate, samples) of a PCM WAV file given as bytes: the first channel as integers
    (8-bit data is unsigned, wider data signed; the decoder does not mind either)."""
    try:
        with wave.open(io.BytesIO(data), "rb") as wav:
            rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
            frames = wav.readframes(wav.getnframes())
    except Exception as exc:  # noqa: BLE001 - wave raises assorted errors on a damaged header
        raise FormatError(f"not a readable PCM WAV file ({type(exc).__name__}: {exc})",
                          offset=0) from None
    if width == 1:
        return rate, list(frames[::channels])
    if width == 2 and sys.byteorder == "little":
        return rate, list(memoryview(frames).cast("h")[::channels])
    step = width * channels
    return rate, [int.from_bytes(frames[i:i + width], "little", signed=True)
                  for i in range(0, len(frames) - step + 1, step)]


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
    return bytes(byte for byte, _end in decode_crossings(_crossings(samples), rate))


def decode_crossings(crossings, rate):
    """[(byte, position)] of the tape record carried by a signal given as the positions
    (in samples at `rate`, or CPU cycles with rate=256000) where it crosses its middle;
    a byte's position is where its last data bit ends."""
    timed = _bits(_without_glitches(crossings, rate), rate)
    nibbles = _nibbles(timed)
    return [(hi << 4 | lo, end) for (hi, _), (lo, end) in zip(nibbles[::2], nibbles[1::2])]


def _crossings(samples):
    """Positions (fractional sample indices) where the signal crosses its middle, with
    hysteresis so that noise around the middle or in silence is not counted."""
    if not samples:
        return []
    window = 256
    crossings = []
    # the middle and the swing are taken per window, which removes a DC offset (and slow
    # drift); the hysteresis is a fraction of the loudest swing, so silence stays quiet
    swing = _loudest_swing(samples, window)
    if swing == 0:
        return []
    hysteresis = swing * 0.25
    state = 0
    previous = None
    for start in range(0, len(samples), window):
        chunk = samples[start:start + window]
        middle = (max(chunk) + min(chunk)) / 2
        high, low = middle + hysteresis, middle - hysteresis
        for offset, value in enumerate(chunk):
            if state <= 0 and value > high or state >= 0 and value < low:
                new_state = 1 if value > high else -1
                if state:
                    crossings.append(_interpolate(previous, value, middle, start + offset))
                state = new_state
            previous = value
    return crossings


def _loudest_swing(samples, window):
    """The typical swing of the windows that carry signal (a quarter of the loudest one
    or more), so that neither long silence nor a single click sets the scale."""
    swings = [(max(c) - min(c)) / 2 for c in
              (samples[i:i + window] for i in range(0, len(samples), window))]
    loud = sorted(s for s in swings if s >= max(swings) / 4)
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
    gap = [b - a for a, b in zip(crossings, crossings[1:])] + [limit]
    kept = []
    i = 0
    while i < len(crossings):
        if gap[i] < limit and (i == 0 or gap[i] <= gap[i - 1]) and gap[i] <= gap[i + 1]:
            i += 2  # the spike's two edges
            continue
        kept.append(crossings[i])
        i += 1
    return kept


def _bits(crossings, rate):
    """Half-cycles of 4 kHz (about 125 us) and 2 kHz (250 us), counted in runs: 16 short
    halves make a 1 bit, 8 long ones a 0 bit. A pause longer than a 2 kHz cycle ends a run
    and is marked None. Each bit comes with the position where it ends."""
    short_limit = rate * 0.5 * (1 / 8000 + 1 / 4000)  # halfway between the two halves
    gap_limit = rate * 2 / 4000
    bits = []
    kind, count, start = None, 0, None
    for left, right in zip(crossings, crossings[1:]):
        half = right - left
        this = 1 if half < short_limit else 0 if half < gap_limit else None
        if this != kind:
            bits.extend(_run(kind, count, start, left))
            kind, count, start = this, 0, left
        count += 1
    if crossings:
        bits.extend(_run(kind, count, start, crossings[-1]))
    return bits


def _run(kind, count, start, end):
    """(bit, position where it ends) for a run of `count` halves from start to end."""
    if kind is None:
        return [(None, end)] if count else []
    number = round(count / (16 if kind else 8))
    return [(kind, start + (end - start) * (k + 1) / number) for k in range(number)]


def _nibbles(bits):
    """Data nibbles after a lead-in (at least 16 ones in a row): each 0 outside a nibble
    is a start bit and the 4 bits after it are the nibble, least significant first. After
    a pause the signal must lead in again (the machine pauses between the header and the
    program); whatever follows the record is left for the record decoder to ignore.
    Bits and nibbles are (value, position where it ends)."""
    nibbles = []
    ones = 0
    synced = False
    i = 0
    while i < len(bits):
        bit = bits[i][0]
        if bit is None:
            synced, ones = False, 0
        elif bit == 1:
            ones += 1
            synced = synced or ones >= 16
        elif synced and i + 4 < len(bits) and all(b is not None for b, _ in bits[i + 1:i + 5]):
            nibbles.append((sum(bits[i + 1 + k][0] << k for k in range(4)), bits[i + 4][1]))
            i += 5
            continue
        else:
            ones = 0
        i += 1
    return nibbles


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

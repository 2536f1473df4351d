"""BEEP on the machine's buzzer: while a BEEP's time passes, 4 kHz tones (Xout mode
3, one of the ROM's two buzzer frequencies) start at each beep's time."""

from emulator.builtin.timing import CYCLES

TONE_CYCLES = CYCLES["tone"]                # a BEEP n tone
HALF_PERIOD = CYCLES["tone_half_period"]    # of the 4 kHz wave (Xout mode 3)


def tone_step(buzzer, now, left, tones):
    """Drive `buzzer` through a BEEP at cycle `now`, `left` cycles before its end: 4 kHz
    (Xout mode 3) for each (time left at its start, length) in `tones`. Returns (cycles
    until the next change, so the BEEP's wait stops there; True once the tones are
    over)."""
    tone_on = any(start >= left > start - length for start, length in tones)
    if tone_on and buzzer.mode != 3 and now % HALF_PERIOD:
        return HALF_PERIOD - now % HALF_PERIOD, False    # a tone starts on an edge of the wave
    buzzer.set_mode(now, 3 if tone_on else 0)
    start, length = tones[-1]
    if left <= start - length:
        return left, True
    edges = [left - (start - length) for start, length in tones if start - length < left]
    edges += [left - start for start, _length in tones if start < left]
    return max(1, min(edges)), False

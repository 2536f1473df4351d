"""BEEP on the machine's buzzer: while a BEEP's time passes, 4 kHz tones (Xout mode
3, one of the ROM's two buzzer frequencies) start at each beep's time."""

TONE_CYCLES = 52_176        # a BEEP n tone: 0.2 s (1632 edges) on the firmware engine
HALF_PERIOD = 32            # of the 4 kHz wave (Xout mode 3)


class SoundMixin:
    """The BEEP part of BuiltinEngine (needs machine, clock, delay_left, tones)."""

    def _sound(self, used):
        """Drive the machine's buzzer through a BEEP: 4 kHz (Xout mode 3) for each
        (time left at its start, length) in `tones`; returns the cycles until the next
        change so DELAY stops there."""
        buzzer = getattr(self.machine, "buzzer", None)
        now = getattr(self.machine, "cycles", self.clock) + used
        left = self.delay_left
        tones = self.tones
        tone_on = any(start >= left > start - length for start, length in tones)
        if tone_on and buzzer is not None and buzzer.mode != 3 and now % HALF_PERIOD:
            return HALF_PERIOD - now % HALF_PERIOD    # a tone starts on an edge of the wave
        if buzzer is not None:
            buzzer.set_mode(now, 3 if tone_on else 0)
        start, length = tones[-1]
        if left <= start - length:
            self.tones = []
            return left
        edges = [left - (start - length) for start, length in tones if start - length < left]
        edges += [left - start for start, _length in tones if start < left]
        return max(1, min(edges))

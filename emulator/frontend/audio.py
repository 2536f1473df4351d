"""The buzzer through pygame.mixer: Xout level transitions, stamped in machine cycles, become
a square wave, emulated frame by emulated frame.

The machine's buzzer reports [(cycle, level)] since the last call (timers.Buzzer); this
module only turns that into samples. No audio device is not an error: the front-end runs
silent after a one-line notice.
"""

import array
import os
import sys
from contextlib import contextmanager

import pygame

from pc1360.facts import CYCLES_PER_SECOND

SAMPLE_RATE = 22_050
AMPLITUDE = 6_000  # of 32767: a piezo buzzer is not loud
# Longest stretch rendered at once: when the front-end stalls, old sound is dropped rather
# than played late.
MAX_SECONDS = 0.25


def square_wave(start, end, level, transitions, rate=SAMPLE_RATE):
    """Signed 16-bit mono samples for cycles start..end, and the level at `end`.

    `level` is Xout at `start`; `transitions` are (cycle, new level) in order. The wave is
    centred on zero, so a level that does not change is silence, as on the real buzzer.
    """
    count = max(0, int((end - start) * rate / CYCLES_PER_SECOND))
    final = transitions[-1][1] if transitions else level
    if not count or not transitions:
        return array.array("h", bytes(2 * count)), final
    levels = bytearray(count)
    position = 0
    for cycle, new_level in transitions:
        upto = min(count, max(position, (cycle - start) * count // (end - start)))
        if level:
            levels[position:upto] = b"\x01" * (upto - position)
        position = upto
        level = new_level
    if level:
        levels[position:] = b"\x01" * (count - position)
    mean = AMPLITUDE * sum(levels) // count
    return array.array("h", (AMPLITUDE * v - mean for v in levels)), final


@contextmanager
def _quiet_stderr():
    """SDL's audio back-ends print their own complaints (ALSA) when there is no device;
    the front-end prints one line instead."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class Sound:
    """Plays the buzzer; `enabled` is False when there is no audio device.

    Samples are gathered and handed to the mixer whenever its channel has room, so the
    stream has no gaps when frames jitter; after the last transition the stream goes on as
    silence for a while, so the pauses inside a melody keep their length.
    """

    def __init__(self, muted=False):
        self.muted = muted
        self.enabled = False
        self.notice = None
        self._level = 0
        self._channel = None
        self._rate = SAMPLE_RATE
        self._stereo = False
        self._pending = array.array("h")
        self._active_until = 0
        try:
            with _quiet_stderr():
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1, buffer=512)
            self._rate, _format, channels = pygame.mixer.get_init()
            self._stereo = channels == 2
            self._channel = pygame.mixer.Channel(0)
            self.enabled = True
        except pygame.error as exc:
            self.notice = f"pc1360: no sound ({exc or 'no audio device'})"
            print(self.notice, file=sys.stderr)

    def feed(self, start, end, transitions):
        """Xout for cycles start..end (what one frame emulated)."""
        if transitions:
            self._active_until = end + int(MAX_SECONDS * CYCLES_PER_SECOND)
        elif end > self._active_until and not self._pending:
            return  # a steady level is silence: nothing to play
        start = max(start, end - int(MAX_SECONDS * CYCLES_PER_SECOND))
        transitions = [t for t in transitions if t[0] >= start]
        samples, self._level = square_wave(start, end, self._level, transitions, self._rate)
        if self.muted or not self.enabled:
            return
        self._pending.extend(samples)
        del self._pending[:-int(MAX_SECONDS * self._rate)]
        self._flush()

    def _flush(self):
        if not self._pending or self._channel.get_queue() is not None:
            return
        samples = self._pending
        if self._stereo:
            samples = array.array("h", (s for s in samples for _ in (0, 1)))
        chunk = pygame.mixer.Sound(buffer=samples.tobytes())
        self._pending = array.array("h")
        if self._channel.get_busy():
            self._channel.queue(chunk)
        else:
            self._channel.play(chunk)

    def track(self, level):
        """Keep the level in step when the sound is skipped (turbo)."""
        self._level = level
        self._pending = array.array("h")

    def close(self):
        if self.enabled:
            pygame.mixer.quit()
            self.enabled = False

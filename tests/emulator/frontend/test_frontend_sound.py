"""The buzzer's square wave, and running without an audio device."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402

from emulator.frontend.audio import AMPLITUDE, SAMPLE_RATE, Sound, square_wave  # noqa: E402

FRAME = 256_000 // 60


def _two_khz(start, end):
    """Transitions of the firmware's 2 kHz mode: a half-period of 64 cycles."""
    first = (start // 64 + 1) * 64
    return [(cycle, (cycle // 64) & 1) for cycle in range(first, end, 64)]


def test_steady_level_is_silence():
    samples, level = square_wave(0, FRAME, 1, [])
    assert len(samples) == FRAME * SAMPLE_RATE // 256_000
    assert set(samples) == {0} and level == 1


def test_2khz_mode_gives_a_2khz_square_wave():
    samples, _level = square_wave(0, FRAME, 0, _two_khz(0, FRAME))
    assert abs(sum(samples)) < AMPLITUDE  # centred on zero
    rising = sum(1 for a, b in zip(samples, samples[1:]) if a < 0 <= b)
    seconds = len(samples) / SAMPLE_RATE
    assert abs(rising / seconds - 2000) < 2000 * 0.1


def test_level_carries_from_frame_to_frame():
    _samples, level = square_wave(0, FRAME, 0, [(100, 1)])
    assert level == 1
    samples, level = square_wave(FRAME, 2 * FRAME, level, [(FRAME + FRAME // 2, 0)])
    half = len(samples) // 2
    assert samples[half - 5] > samples[half + 5]
    assert level == 0


def test_no_audio_device_is_a_one_line_notice(monkeypatch, capsys):
    def fail(*args, **kwargs):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", fail)
    sound = Sound()
    assert not sound.enabled
    sound.feed(0, FRAME, _two_khz(0, FRAME))  # plays nothing, raises nothing
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no sound" in err


def test_plays_through_the_mixer():
    sound = Sound()
    try:
        assert sound.enabled
        for frame in range(3):
            sound.feed(frame * FRAME, (frame + 1) * FRAME, _two_khz(frame * FRAME, (frame + 1) * FRAME))
        assert sound._level in (0, 1)
    finally:
        sound.close()


def test_silence_after_a_tone_keeps_its_length():
    """Frames without transitions just after a tone still produce (silent) samples."""
    sound = Sound()
    try:
        sound.enabled = True
        fed = []
        sound._flush = lambda: fed.append(len(sound._pending))
        sound.feed(0, FRAME, _two_khz(0, FRAME))
        sound.feed(FRAME, 2 * FRAME, [])
        assert fed[-1] >= 2 * (FRAME * sound._rate // 256_000) - 2
    finally:
        sound.close()

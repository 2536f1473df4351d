"""`pc1360 run` with its window (SDL's dummy video driver): the zoom comes from the screen
size, and a window uncovered by another is repainted whole (issue 17's window points,
through the command a user types)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402

from emulator.frontend import app  # noqa: E402
from tools.cli import main  # noqa: E402

MAGENTA = (255, 0, 255)  # what another window left on ours


def test_the_window_picks_its_zoom_from_the_screen_and_repaints_when_uncovered(tmp_path, monkeypatch):
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(2560, 1440)])
    seen = {}
    frame = app.Window.frame

    def frame_then_act(window):
        frame(window)
        if window.frames == 3:
            seen["zoom"], seen["size"] = window.renderer.zoom, window.screen.get_size()
            window.screen.fill(MAGENTA)
            pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
        elif window.frames == 5:
            seen["left"] = pygame.transform.threshold(None, window.screen, MAGENTA, (0, 0, 0, 0),
                                                      set_behavior=0)
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(app.Window, "frame", frame_then_act)
    assert main(["run", "--engine", "builtin", "--mute", "--card-file", str(tmp_path / "card.bin")]) == 0
    assert (seen["zoom"], seen["size"]) == (3, (3 * 640, 3 * 256))  # 90% of 2560 x 1440
    assert seen["left"] == 0  # no pixel of what covered it

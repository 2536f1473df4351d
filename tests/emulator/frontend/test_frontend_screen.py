"""The window and the host screen: the zoom picked from the desktop size, zoom and contrast
kept between runs, a full repaint when the window is uncovered, and a clear refusal when
there is no display to show it on."""

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402
import pytest  # noqa: E402

from emulator.frontend import app  # noqa: E402
from emulator.frontend.app import Window  # noqa: E402
from tests.helpers.fake_machine import FakeMachine, paint_known_state  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("desktop, zoom", [((1280, 800), 2), ((1366, 768), 2), ((1920, 1080), 2),
                                           ((2560, 1440), 3), ((3840, 2160), 5), ((1024, 768), 1)])
def test_the_zoom_is_picked_from_the_desktop_size(monkeypatch, desktop, zoom):
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [desktop])
    window = Window(FakeMachine())
    try:
        assert window.renderer.zoom == zoom
        assert window.screen.get_size() == (640 * zoom, 256 * zoom)
    finally:
        window.close()


def test_zoom_and_contrast_are_kept_between_runs(tmp_path):
    kept = tmp_path / "config" / "window.json"
    window = Window(FakeMachine(), SimpleNamespace(zoom=3, settings_file=kept))
    window.command_contrast_up()
    contrast = window.renderer.contrast
    window.close()
    window = Window(FakeMachine(), SimpleNamespace(settings_file=kept))
    try:
        assert (window.renderer.zoom, window.renderer.contrast) == (3, contrast)
    finally:
        window.close()
    # an option given wins; a damaged file is the defaults, not a failed start
    kept.write_text("{not json")
    window = Window(FakeMachine(), SimpleNamespace(zoom=1, settings_file=kept))
    window.close()
    assert '"zoom": 1' in kept.read_text()


def test_a_zoom_picked_for_the_screen_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1920, 1080)])
    kept = tmp_path / "window.json"
    Window(FakeMachine(), SimpleNamespace(settings_file=kept)).close()
    assert "zoom" not in kept.read_text()
    window = Window(FakeMachine(), SimpleNamespace(settings_file=kept))
    window.resize(640 * 3, 256 * 3)  # the user made the window bigger: that zoom is kept
    window.close()
    assert '"zoom": 3' in kept.read_text()


@pytest.mark.parametrize("event", [pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWMOVED,
                                   pygame.WINDOWRESTORED])
def test_an_uncovered_window_is_repainted_whole(event):
    machine = FakeMachine()
    paint_known_state(machine)
    window = Window(machine, SimpleNamespace(zoom=1))
    try:
        window.frame()
        before = pygame.image.tobytes(window.screen, "RGB")
        window.screen.fill((255, 0, 255))  # what another window left on ours
        assert window.draw() == []  # nothing changed for the machine: no repaint by itself
        pygame.event.post(pygame.event.Event(event))
        window.frame()
        assert pygame.image.tobytes(window.screen, "RGB") == before
    finally:
        window.close()


def test_no_display_is_a_clear_message_and_a_failure(tmp_path):
    # no SDL_VIDEODRIVER and no display: SDL would fall back to its offscreen driver
    env = {key: value for key, value in os.environ.items()
           if key not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path),
               PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tools.cli", "run", "--engine", "builtin", "--mute",
                           "--card-file", str(tmp_path / "card.bin")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "cannot open a window (no usable display" in done.stderr and "--headless" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_display_driver_asked_for_is_kept(monkeypatch):
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    app._check_display()  # no error: the user chose it
    monkeypatch.delenv("SDL_VIDEODRIVER")
    with pytest.raises(pygame.error, match="no usable display"):
        app._check_display()

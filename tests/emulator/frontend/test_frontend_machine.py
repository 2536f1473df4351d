"""The window driving the real machine: mouse clicks and PC keys reach the firmware's key
scanner (or the built-in engine), and the LCD shows exactly what display RAM holds.

Run `python tests/emulator/frontend/test_frontend_machine.py --regen` to rewrite the stored
screenshots of a known state (both engines; the firmware one needs ../shared/roms).
"""

import os
import sys
from pathlib import Path
from types import SimpleNamespace

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402
import pytest  # noqa: E402

from emulator.frontend import case_layout as layout  # noqa: E402
from emulator.frontend.app import Window  # noqa: E402


@pytest.fixture
def booted(rom_dir):
    """A firmware machine at the RUN-mode prompt, in a window."""
    from emulator.machine.facade import PC1360

    machine = PC1360(rom_dir=rom_dir)
    machine.key_wait_ready(5.0)
    assert "RAM CARD S1 CLEAR O.K. ?" in machine.screen_text()
    window = Window(machine, SimpleNamespace(zoom=1))
    yield machine, window
    window.close()


def frames_until(window, predicate, limit=600):
    for _ in range(limit):
        window.frame()
        if predicate():
            return True
    return False


def click(window, name):
    pos = window.to_window(layout.key_centre(name))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    window.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    window.frame()


def type_text(window, text):
    for char in text:
        key = pygame.K_RETURN if char == "\r" else ord(char.lower())
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0, scancode=0))
        if char != "\r":
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, unicode=char, mod=0, scancode=0))
        window.frame()


def lcd_matches(window, machine):
    off, on = window.renderer.dot_colours()
    screen = pygame.display.get_surface()
    return all(tuple(screen.get_at(window.dot_centre(x, y)))[:3] == (on if lit else off)
               for y, row in enumerate(machine.pixels()) for x, lit in enumerate(row))


@pytest.mark.rom
def test_click_y_answers_the_card_question_and_lcd_follows(booted):
    machine, window = booted
    window.frame()
    assert lcd_matches(window, machine)
    click(window, "Y")
    assert frames_until(window, lambda: machine.screen_text()[0].startswith("RUN MODE"))
    assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
    window.frame()
    assert "RUN" in machine.symbols()
    assert lcd_matches(window, machine)


@pytest.mark.rom
def test_typed_sum_and_shifted_characters(booted):
    machine, window = booted
    click(window, "Y")
    assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
    type_text(window, "1+1\r")
    assert frames_until(window, lambda: machine.screen_text()[2].strip() == "2.")
    type_text(window, '"A!"')  # ! is the PC's Shift+1: the machine's SHIFT, Q
    assert frames_until(window, lambda: '"A!"' in machine.screen_text()[0] + machine.screen_text()[3])
    window.frame()
    assert lcd_matches(window, machine)


def symbol_lit(window, name):
    """Whether the legend of symbol `name` is drawn in the lit colour."""
    _text, x, y = layout.SYMBOLS[name]
    z = window.renderer.zoom
    ox, oy = window._origin
    area = pygame.display.get_surface().subsurface((ox + x * z, oy + y * z, 20 * z, layout.SYMBOL_FONT * z))
    lit = window.renderer.dot_colours()[1]
    return any(tuple(area.get_at((i, j)))[:3] == lit
               for i in range(area.get_width()) for j in range(area.get_height()))


@pytest.mark.rom
def test_shift_and_mode_light_their_symbols(booted):
    machine, window = booted
    click(window, "Y")
    assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
    assert symbol_lit(window, "RUN") and not symbol_lit(window, "SHIFT")
    click(window, "SHIFT")
    assert frames_until(window, lambda: "SHIFT" in machine.symbols())
    window.frame()
    assert symbol_lit(window, "SHIFT")
    click(window, "MODE")  # SHIFT, MODE: RESERVE MODE, neither RUN nor PRO lit
    assert frames_until(window, lambda: machine.screen_text()[0].startswith("RESERVE MODE"))
    window.frame()
    assert not symbol_lit(window, "RUN") and not symbol_lit(window, "PRO") and not symbol_lit(window, "SHIFT")


@pytest.mark.rom
def test_off_key_blanks_the_lcd_and_brk_turns_it_on(booted):
    machine, window = booted
    click(window, "Y")
    assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
    click(window, "OFF")
    assert frames_until(window, lambda: not any(map(any, machine.pixels())))
    window.frame()
    assert lcd_matches(window, machine)
    click(window, "BRK")
    assert frames_until(window, lambda: any(map(any, machine.pixels())))
    window.frame()
    assert lcd_matches(window, machine)


def test_built_in_engine_in_the_window():
    from emulator.builtin.engine import BuiltinEngine
    from emulator.machine.facade import PC1360

    machine = PC1360(engine=BuiltinEngine)
    window = Window(machine, SimpleNamespace(zoom=1))
    try:
        click(window, "Y")
        assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
        type_text(window, "2*21\r")
        assert frames_until(window, lambda: machine.screen_text()[2].strip() == "42.")
        window.frame()
        assert lcd_matches(window, machine)
    finally:
        window.close()


DATA = Path(__file__).resolve().parent / "data"
ENGINES = [pytest.param("firmware", marks=pytest.mark.rom), "builtin"]
ZOOM = 2


def known_state_screenshot(engine, rom_dir, path):
    """The card question answered with a click on Y, then 1+1 ENTER typed on the PC
    keyboard: the window's picture of that state."""
    from emulator.machine.facade import PC1360

    machine = PC1360(engine=engine, rom_dir=rom_dir)
    machine.key_wait_ready(5.0)
    window = Window(machine, SimpleNamespace(zoom=ZOOM, mute=True))
    try:
        click(window, "Y")
        assert frames_until(window, lambda: machine.screen_text()[1].startswith(">"))
        type_text(window, "1+1\r")
        assert frames_until(window, lambda: machine.screen_text()[2].strip() == "2.")
        frames_until(window, lambda: False, limit=30)  # let the cursor settle
        return window.screenshot(path)
    finally:
        window.close()


def lcd_area(surface):
    x, y, w, h = layout.LCD_RECT
    return pygame.image.tobytes(surface.subsurface(pygame.Rect(x * ZOOM, y * ZOOM, w * ZOOM, h * ZOOM)), "RGB")


@pytest.mark.parametrize("engine", ENGINES)
def test_known_state_matches_the_stored_png_in_the_lcd_area(engine, request, tmp_path):
    rom_dir = request.getfixturevalue("rom_dir") if engine == "firmware" else None
    shot = pygame.image.load(str(known_state_screenshot(engine, rom_dir, tmp_path / "shot.png")))
    stored = pygame.image.load(str(DATA / f"frontend_{engine}_sum.png"))
    assert shot.get_size() == stored.get_size()
    assert lcd_area(shot) == lcd_area(stored)


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        roms = Path(__file__).resolve().parents[4] / "shared" / "roms" / "pc1360"
        for name in ("firmware", "builtin"):
            print(known_state_screenshot(name, roms if name == "firmware" else None,
                                         DATA / f"frontend_{name}_sum.png"))
    else:
        print(__doc__)

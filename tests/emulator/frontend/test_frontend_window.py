"""The pygame window against a small fake machine (the PC1360 facade's API, no CPU).

Run `python tests/emulator/frontend/test_frontend_window.py --regen` to rewrite the stored
screenshot after a deliberate change to the drawing.
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
from emulator.frontend.key_feed import GAP, MIN_HOLD  # noqa: E402
from tests.helpers.fake_machine import FakeMachine, paint_known_state  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SCREENSHOT = DATA / "frontend_screenshot.png"
FRAME = 256_000 // 60


@pytest.fixture
def machine():
    return FakeMachine()


@pytest.fixture
def window(machine):
    win = Window(machine, SimpleNamespace(zoom=2))
    yield win
    win.close()


def run_frames(window, n=1):
    for _ in range(n):
        window.frame()


def click(window, name, hold_frames=1, button=1):
    pos = window.to_window(layout.key_centre(name))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    run_frames(window, hold_frames)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    run_frames(window)


def press_pc_key(window, key, text="", mod=0):
    """The events SDL sends for one key stroke: KEYDOWN, TEXTINPUT when it types, KEYUP."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=mod, scancode=0))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, unicode=text, mod=mod, scancode=0))
    run_frames(window)


def settle(window):
    """Frames until every queued key step is done."""
    run_frames(window, 4 * (MIN_HOLD + GAP) // FRAME * max(1, window.feeder.pending + 1))


def lcd_mismatches(window, machine):
    """Dots whose drawn colour is not what pixels() says, checked at every dot's centre."""
    off, on = window.renderer.dot_colours()
    screen = pygame.display.get_surface()
    wrong = []
    for y, row in enumerate(machine.pixels()):
        for x, lit in enumerate(row):
            if tuple(screen.get_at(window.dot_centre(x, y)))[:3] != (on if lit else off):
                wrong.append((x, y))
    return wrong


# -- mouse -----------------------------------------------------------------------------------
def test_click_presses_and_releases_each_key(window, machine):
    for key in layout.KEYS:
        machine.log.clear()
        click(window, key.name)
        settle(window)
        assert machine.keys_seen() == [("press", key.name), ("release", key.name)], key.name
        assert machine.pressed == set()


def test_key_stays_down_while_the_button_is_held(window, machine):
    pos = window.to_window(layout.key_centre("ENTER"))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    run_frames(window, 30)  # half a second
    assert machine.pressed == {"ENTER"}
    assert "ENTER" in window._drawn_down  # drawn pressed
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    run_frames(window, 2)
    assert machine.pressed == set()
    press, release = machine.log
    assert release[2] - press[2] >= 29 * FRAME


def test_short_click_is_held_long_enough_for_the_firmware(window, machine):
    click(window, "Q", hold_frames=0)
    settle(window)
    (_, _, down), (_, _, up) = machine.log
    assert up - down >= MIN_HOLD


def test_click_outside_keys_does_nothing(window, machine):
    pos = window.to_window(layout.LCD_ORIGIN)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    run_frames(window, 3)
    assert machine.log == []


def test_clicks_follow_a_resized_window(window, machine):
    pygame.display.set_mode((3 * 640 + 100, 3 * 256 + 40), pygame.RESIZABLE)
    window.handle_event(pygame.event.Event(pygame.VIDEORESIZE, w=3 * 640 + 100, h=3 * 256 + 40,
                                           size=(3 * 640 + 100, 3 * 256 + 40)))
    assert window.renderer.zoom == 3
    click(window, "7")
    settle(window)
    assert machine.keys_seen() == [("press", "7"), ("release", "7")]
    assert lcd_mismatches(window, machine) == []


# -- PC keyboard -----------------------------------------------------------------------------
def test_typed_letters_and_digits(window, machine):
    press_pc_key(window, pygame.K_a, "a")
    press_pc_key(window, pygame.K_1, "1")
    press_pc_key(window, pygame.K_RETURN)
    settle(window)
    assert machine.keys_seen() == [("press", "A"), ("release", "A"), ("press", "1"), ("release", "1"),
                                   ("press", "ENTER"), ("release", "ENTER")]


def test_shifted_pc_character_becomes_shift_then_key(window, machine):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT, unicode="", mod=0, scancode=0))
    press_pc_key(window, pygame.K_1, "!", mod=pygame.KMOD_LSHIFT)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LSHIFT, unicode="", mod=0, scancode=0))
    settle(window)
    assert machine.keys_seen() == [("press", "SHIFT"), ("release", "SHIFT"), ("press", "Q"), ("release", "Q")]


def test_lone_shift_tap_is_the_machine_shift(window, machine):
    press_pc_key(window, pygame.K_RSHIFT)
    settle(window)
    assert machine.keys_seen() == [("press", "SHIFT"), ("release", "SHIFT")]


def test_typed_key_waits_while_the_firmware_is_busy_at_the_prompt():
    machine = FakeMachine()
    window = Window(machine, SimpleNamespace(zoom=1))
    try:
        run_frames(window, 3)
        machine.waiting = False  # busy, e.g. clearing the screen after a result
        run_frames(window)
        press_pc_key(window, pygame.K_a, "a")
        run_frames(window, 10)
        assert machine.log == []
        machine.waiting = True
        run_frames(window, 2)
        assert machine.pressed == {"A"}
    finally:
        window.close()


def test_typed_key_goes_straight_in_while_a_program_runs():
    machine = FakeMachine()
    window = Window(machine, SimpleNamespace(zoom=1))
    try:
        machine.waiting = False  # a program polling INKEY$: no key-wait loop at all
        run_frames(window, 70)
        press_pc_key(window, pygame.K_a, "a")
        assert machine.pressed == {"A"}
    finally:
        window.close()


def test_named_pc_keys(window, machine):
    for key, expected in ((pygame.K_UP, ["UP"]), (pygame.K_BACKSPACE, ["LEFT", "DEL"]),
                          (pygame.K_ESCAPE, ["BRK"]), (pygame.K_TAB, ["DEF"]), (pygame.K_F3, ["MODE"]),
                          (pygame.K_F4, ["CLS"]), (pygame.K_F6, ["SML"]), (pygame.K_INSERT, ["INS"])):
        machine.log.clear()
        press_pc_key(window, key)
        settle(window)
        assert [k for action, k in machine.keys_seen() if action == "press"] == expected, key


def test_front_end_commands(window, machine, tmp_path):
    press_pc_key(window, pygame.K_F9)
    assert window.turbo
    press_pc_key(window, pygame.K_F9)
    press_pc_key(window, pygame.K_F10)
    before = machine.cycles
    run_frames(window, 3)
    assert window.paused and machine.cycles == before
    press_pc_key(window, pygame.K_F10)
    run_frames(window)
    assert machine.cycles > before
    press_pc_key(window, pygame.K_F11)
    assert window.sound.muted
    press_pc_key(window, pygame.K_r, mod=pygame.KMOD_LCTRL)
    assert machine.resets == 1
    window.screenshot_dir = tmp_path
    press_pc_key(window, pygame.K_F12)
    assert len(list(tmp_path.glob("pc1360-*.png"))) == 1
    contrast = window.renderer.contrast
    press_pc_key(window, pygame.K_F7)
    assert window.renderer.contrast == contrast - 1
    press_pc_key(window, pygame.K_q, "@", mod=pygame.KMOD_LCTRL | pygame.KMOD_RALT)  # AltGr+Q
    assert window.running
    press_pc_key(window, pygame.K_q, mod=pygame.KMOD_LCTRL)
    assert not window.running


def test_help_overlay_toggles(window, machine):
    press_pc_key(window, pygame.K_F1)
    assert window.help
    screen = pygame.display.get_surface()
    assert tuple(screen.get_at(window.dot_centre(0, 0)))[:3] != window.renderer.dot_colours()[0]
    press_pc_key(window, pygame.K_F1)
    assert not window.help
    assert lcd_mismatches(window, machine) == []


# -- speed -----------------------------------------------------------------------------------
def test_real_speed_runs_a_frame_of_cycles_per_frame(window, machine):
    run_frames(window, 60)
    assert abs(machine.cycles - 256_000) <= 1


def test_turbo_runs_faster_than_real_time(window, machine):
    window.turbo = True
    run_frames(window, 3)
    assert machine.cycles > 3 * FRAME * 5


# -- LCD -------------------------------------------------------------------------------------
def test_lcd_area_matches_pixels_exactly(window, machine):
    paint_known_state(machine)
    run_frames(window)
    assert sum(map(sum, machine.pixels())) > 1000
    assert lcd_mismatches(window, machine) == []
    machine.mem[0x2800] ^= 0xFF  # top-left strip of line 1
    machine.mem[0x3000 + 0x5E + 29] ^= 0x80  # bottom-right dot
    run_frames(window)
    assert lcd_mismatches(window, machine) == []


def test_gaps_between_dots_show_the_glass(window, machine):
    for addr in range(0x2800, 0x2800 + 30):
        machine.mem[addr] = 0xFF
    run_frames(window)
    cell, gap = window.renderer.cell
    x, y = window.dot_centre(3, 3)
    screen = pygame.display.get_surface()
    assert tuple(screen.get_at((x - (cell - gap) // 2 + cell - 1, y)))[:3] == layout.COLOURS["glass"]


def test_contrast_changes_the_lit_dots(window, machine):
    machine.mem[0x2800] = 0x01
    run_frames(window)
    first = tuple(pygame.display.get_surface().get_at(window.dot_centre(0, 0)))
    window.command_contrast_down()
    run_frames(window)
    assert tuple(pygame.display.get_surface().get_at(window.dot_centre(0, 0))) != first
    assert lcd_mismatches(window, machine) == []


def test_display_off_blanks_the_lcd(window, machine):
    paint_known_state(machine)
    run_frames(window)
    machine.lcd.enabled = False
    run_frames(window)
    assert lcd_mismatches(window, machine) == []
    assert not any(map(any, machine.pixels()))


def test_symbols_are_drawn_lit_only_when_set(window, machine):
    def symbol_colours(name):
        _text, x, y = layout.SYMBOLS[name]
        z = window.renderer.zoom
        ox, oy = window._origin
        area = pygame.display.get_surface().subsurface((ox + x * z, oy + y * z, 20 * z, 7 * z))
        return {tuple(area.get_at((i, j)))[:3] for i in range(area.get_width()) for j in range(area.get_height())}

    machine.mem[0x303C] = 0x10  # RUN
    run_frames(window)
    lit = window.renderer.dot_colours()[1]
    assert lit in symbol_colours("RUN")
    assert lit not in symbol_colours("PRO")
    machine.mem[0x303C] = 0x20  # PRO
    run_frames(window)
    assert lit in symbol_colours("PRO") and lit not in symbol_colours("RUN")


def test_lcd_redrawn_only_when_display_ram_changes(window, machine):
    run_frames(window, 2)
    draws = window.lcd_draws
    machine.mem[0x2A80] = 0x55  # firmware scratch inside display RAM: lights nothing
    run_frames(window, 10)
    assert window.lcd_draws == draws
    machine.mem[0x2801] = 0x01
    run_frames(window, 2)
    assert window.lcd_draws == draws + 1


def test_idle_frame_updates_nothing_on_screen(window, machine):
    run_frames(window, 2)
    assert window.draw() == []


# -- screenshot ------------------------------------------------------------------------------
def render_known_screenshot(path):
    """The stored picture: the known state at zoom 2. Returns the path and the (unlit, lit)
    dot colours."""
    machine = FakeMachine()
    paint_known_state(machine)
    win = Window(machine, SimpleNamespace(zoom=2))
    try:
        win.frame()
        return win.screenshot(path), win.renderer.dot_colours()
    finally:
        win.close()


def test_screenshot_matches_the_stored_png(tmp_path):
    shot = pygame.image.load(str(render_known_screenshot(tmp_path / "shot.png")[0]))
    stored = pygame.image.load(str(SCREENSHOT))
    assert shot.get_size() == stored.get_size()
    # the dot matrix must be exact; legends are font-rendered and may differ by a few pixels
    lcd = pygame.Rect(layout.LCD_RECT[0] * 2, layout.LCD_RECT[1] * 2, layout.LCD_RECT[2] * 2, layout.LCD_RECT[3] * 2)
    assert pygame.image.tobytes(shot.subsurface(lcd), "RGB") == pygame.image.tobytes(stored.subsurface(lcd), "RGB")
    ours, theirs = pygame.image.tobytes(shot, "RGB"), pygame.image.tobytes(stored, "RGB")
    differing = sum(a != b for a, b in zip(ours[::3], theirs[::3]))
    assert differing < 0.01 * shot.get_width() * shot.get_height()


def test_screenshot_lcd_area_matches_pixels(tmp_path):
    machine = FakeMachine()
    paint_known_state(machine)
    path, (off, on) = render_known_screenshot(tmp_path / "shot.png")
    shot = pygame.image.load(str(path))
    win_cell = layout.DOT_PITCH * 2
    gap = max(1, win_cell // 5)
    left, top = layout.LCD_ORIGIN[0] * 2, layout.LCD_ORIGIN[1] * 2
    for y, row in enumerate(machine.pixels()):
        for x, lit in enumerate(row):
            centre = (left + x * win_cell + (win_cell - gap) // 2, top + y * win_cell + (win_cell - gap) // 2)
            assert tuple(shot.get_at(centre))[:3] == (on if lit else off)


# -- files, sound, quitting ------------------------------------------------------------------
def test_dropping_an_image_loads_it(window, machine, tmp_path):
    program = tmp_path / "HELLO.img"
    program.write_bytes(b"\x00\x0a\x07\xfe\x60\x22\x48\x69\x22\x0d\xff")
    window.handle_event(pygame.event.Event(pygame.DROPFILE, file=str(program)))
    assert machine.loaded == [program.read_bytes()[:-1]]  # checked lines, the end mark dropped
    assert "HELLO.img" in window._message


def test_dropping_basic_source_tokenizes_it(window, machine, tmp_path):
    from pc1360.tokenizer import tokenize

    source = tmp_path / "hello.bas"
    source.write_text('10 PRINT "HI"\n')
    window.handle_event(pygame.event.Event(pygame.DROPFILE, file=str(source)))
    assert machine.loaded == [tokenize(source.read_bytes())]


def test_dropping_an_unknown_file_is_a_message_not_a_crash(window, machine, tmp_path, capsys):
    other = tmp_path / "notes.txt"
    other.write_text("hi")
    window.handle_event(pygame.event.Event(pygame.DROPFILE, file=str(other)))
    run_frames(window)
    assert machine.loaded == [] and "cannot load" in window._message
    assert "notes.txt" in capsys.readouterr().err


class RecordingChannel:
    def __init__(self):
        self.played = []

    def get_queue(self):
        return None

    def get_busy(self):
        return bool(self.played)

    def play(self, sound):
        self.played.append(sound)

    queue = play


def test_buzzer_transitions_reach_the_mixer(window, machine):
    assert window.sound.enabled
    window.sound._channel = channel = RecordingChannel()
    start = machine.cycles
    transitions = [(start + c, (c // 64) & 1) for c in range(64, FRAME, 64)]
    machine.buzzer.pending = list(transitions)
    run_frames(window)
    assert window.sound._level == transitions[-1][1]
    assert len(channel.played) == 1 and channel.played[0].get_length() > 0.01


def test_no_sound_while_muted_or_in_turbo(window, machine):
    window.sound._channel = channel = RecordingChannel()
    for setup in (window.command_mute, window.command_turbo):
        setup()
        machine.buzzer.pending = [(machine.cycles + c, (c // 64) & 1) for c in range(64, FRAME, 64)]
        run_frames(window)
        setup()
    assert channel.played == []


def test_closing_saves_the_ram_card(machine):
    win = Window(machine, SimpleNamespace())
    machine.mem[0x8000] = 0x42
    win.close()
    assert machine.card_store.saved == [machine.card_data()]


def test_first_frame_is_quick(machine):
    win = Window(machine, SimpleNamespace())
    try:
        win.frame()
        assert win.first_frame_seconds < 1.0
    finally:
        win.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        DATA.mkdir(exist_ok=True)
        print(render_known_screenshot(SCREENSHOT)[0])
    else:
        print(__doc__)


# -- screenshots (issue 18 item 9) ------------------------------------------------------
def test_screenshot_is_written_whole_through_a_temporary(window, tmp_path):
    path = window.screenshot(tmp_path / "shot.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert os.listdir(tmp_path) == ["shot.png"]


def test_a_screenshot_that_cannot_be_written_is_a_message(window, tmp_path):
    window.screenshot_dir = tmp_path / "missing"
    window.command_screenshot()
    assert "screenshot not saved" in window._message and "does not exist" in window._message
    os.mkfifo(tmp_path / "fifo.png")
    with pytest.raises(OSError, match="not a regular file"):
        window.screenshot(tmp_path / "fifo.png")
    with pytest.raises(OSError, match="is a directory"):
        window.screenshot(tmp_path)

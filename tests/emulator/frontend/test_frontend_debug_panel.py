"""The debugger's panel beside the calculator: Ctrl+D opens it and stops the machine, it shows
the registers (firmware engine), the BASIC statement and the variables, Ctrl+N steps and
Ctrl+G lets the machine go on until a breakpoint."""

import os
from types import SimpleNamespace

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402
import pytest  # noqa: E402

from emulator.frontend import case_layout as layout  # noqa: E402
from emulator.frontend.app import PANEL_UNITS, Window  # noqa: E402
from emulator.machine.facade import PC1360  # noqa: E402
from pc1360.tokenizer import tokenize  # noqa: E402
from tests.helpers.booting import boot_cleared  # noqa: E402

ZOOM = 1
LOOP = "10 FOR I=1 TO 1000\n20 S=S+I\n30 NEXT I\n"


def ctrl(window, letter):
    key = pygame.key.key_code(letter)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=pygame.KMOD_CTRL,
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, unicode="", mod=pygame.KMOD_CTRL,
                                         scancode=0))
    window.frame()


def lit_share(window):
    """The share of the panel's pixels not of its background colour (text drawn)."""
    rect = window.panel_rect
    background = layout.COLOURS["case_edge"]
    screen = pygame.display.get_surface()
    pixels = [tuple(screen.get_at((x, y)))[:3] for x in range(rect.left, rect.right, 3)
              for y in range(rect.top, rect.bottom, 3)]
    return sum(p != background for p in pixels) / len(pixels)


@pytest.fixture(params=[pytest.param("firmware", marks=[pytest.mark.rom, pytest.mark.slow]), "builtin"])
def window(request):
    rom_dir = request.getfixturevalue("rom_dir") if request.param == "firmware" else None
    machine = boot_cleared(PC1360(engine=request.param, rom_dir=rom_dir))
    machine.load_program(tokenize(LOOP))
    machine.type_keys("RUN{ENTER}")
    win = Window(machine, SimpleNamespace(zoom=ZOOM, mute=True))
    yield win
    win.close()


def test_the_panel_opens_beside_the_calculator_and_stops_the_machine(window):
    machine = window.machine
    case_w, case_h = layout.CASE_SIZE
    for _ in range(30):                 # half a second: the loop is under way
        window.frame()
    ctrl(window, "d")
    assert window.panel == "stopped"
    assert pygame.display.get_surface().get_size() == ((case_w + PANEL_UNITS) * ZOOM, case_h * ZOOM)
    stopped = machine.cycles
    window.frame()
    window.frame()
    assert machine.cycles == stopped
    lines = window.panel_lines
    if machine.engine.name == "firmware":
        cpu = machine.engine.cpu
        assert lines[0].startswith(f"PC={cpu.pc:04X} DP={cpu.dp:04X}")
        assert any(line.startswith(">") for line in lines)     # the code at the PC
    else:
        assert lines[0] == "built-in engine: no CPU"
    assert any(line.startswith("I = ") for line in lines)
    assert lit_share(window) > 0.005
    ctrl(window, "d")
    assert window.panel is None
    assert pygame.display.get_surface().get_size() == (case_w * ZOOM, case_h * ZOOM)


def test_step_and_go_on_to_a_breakpoint(window):
    machine = window.machine
    ctrl(window, "d")
    before = machine.cycles
    ctrl(window, "n")
    assert machine.cycles > before and window.panel == "stopped"
    point = machine.debugger.break_line(20)
    ctrl(window, "g")
    for _ in range(120):
        if window.panel == "stopped":
            break
        window.frame()
    assert window.panel == "stopped" and point.hits == 1
    assert any(line.startswith("line 20, statement 1 of 1") for line in window.panel_lines)

"""The pygame window: events in, emulated frames, drawing out.

One frame: handle events, feed due key steps, run the machine for a frame's worth of cycles
(real speed) or for most of the frame's wall time (turbo), play the buzzer, and redraw only
what changed: the LCD when display RAM changed, keys whose pressed state changed.
"""

import io
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import pygame

from emulator.frontend import case_layout as layout
from emulator.frontend import host_keys as keymap
from emulator.frontend import settings
from emulator.frontend.audio import Sound
from emulator.frontend.key_feed import KeyFeeder
from emulator.frontend.render import Renderer
from emulator.machine.atomic_write import write_atomic
from emulator.machine.program_files import load_file
from pc1360.facts import (
    CYCLES_PER_SECOND,
    LCD_BLOCK_BASES,
    LCD_BLOCK_COLUMNS,
    LCD_LINE_OFFSETS,
    SYMBOL_BYTE,
)

FPS = 60
DEFAULT_ZOOM = 2
MAX_ZOOM = 8  # as --zoom allows
INVISIBLE_DRIVERS = ("offscreen", "dummy")
# Events after which the window's pixels may be gone: it was uncovered, moved or restored.
REPAINT_EVENTS = (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWMOVED,
                  pygame.WINDOWRESTORED, pygame.WINDOWSHOWN)
# The display bytes that light something: in each 512-byte block, lines 1 and 3 (offsets
# 0x00-0x3B) and lines 2 and 4 (0x40-0x7B); then the symbol byte. The firmware keeps
# scratch bytes elsewhere in display RAM and changes them all the time.
DISPLAY_SLICES = tuple(slice(base + first, base + first + 2 * LCD_BLOCK_COLUMNS)
                       for base in LCD_BLOCK_BASES for first in LCD_LINE_OFFSETS[:2])
TURBO_SLICE = CYCLES_PER_SECOND // FPS
TURBO_SHARE = 0.75  # of a frame's wall time spent emulating in turbo; the rest draws
# No key-wait loop for this long: a program is running (INKEY$ polls without that loop), so
# keys go straight in instead of waiting for the loop.
KEYWAIT_STALE = CYCLES_PER_SECOND
MESSAGE_SECONDS = 4.0
# A tap takes MIN_HOLD + GAP (100 ms) of emulated time: PC key repeat is set a bit slower,
# and the queue is capped so that a held key stops typing soon after it is let go.
KEY_REPEAT = (400, 120)  # ms: delay, interval
MAX_QUEUED_STEPS = 32
PANEL_UNITS = 330  # the debugger panel's width beside the case, in layout units
PANEL_REFRESH = 15  # frames between redraws of the panel while the machine goes on


def _default_zoom():
    """The largest integer zoom that fits 90% of the desktop; at least 2 (where the case
    shows its detail) when 2 fits the whole desktop, as on a 1280- or 1366-pixel one."""
    sizes = pygame.display.get_desktop_sizes()
    if not sizes:
        return DEFAULT_ZOOM
    width, height = sizes[0]
    case_w, case_h = layout.CASE_SIZE
    fits = min(width * 9 // 10 // case_w, height * 9 // 10 // case_h)
    if fits < DEFAULT_ZOOM and width >= DEFAULT_ZOOM * case_w and height >= DEFAULT_ZOOM * case_h:
        return DEFAULT_ZOOM
    return max(1, min(MAX_ZOOM, fits))


def _check_display():
    """pygame.error when SDL fell back to a driver that shows nothing (no X or Wayland
    display): the window would run unseen. A driver chosen with SDL_VIDEODRIVER is kept."""
    driver = pygame.display.get_driver()
    if driver in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
        raise pygame.error(f"no usable display (SDL found only its {driver!r} driver; is "
                           "DISPLAY or WAYLAND_DISPLAY set?)")


def _first(*values):
    return next((value for value in values if value is not None), None)


class Window:
    """The PC-1360 in a window. `args` options (all optional): zoom, mute, contrast,
    turbo, screenshot_dir, settings_file (where zoom and contrast are kept between runs)."""

    def __init__(self, machine, args=None):
        started = time.perf_counter()
        self.machine = machine
        pygame.display.init()
        _check_display()
        pygame.font.init()
        # an option wins over the setting kept from the last run, which wins over the default
        self.settings_file = getattr(args, "settings_file", None)
        kept = settings.load(self.settings_file) if self.settings_file else {}
        contrast = _first(getattr(args, "contrast", None), kept.get("contrast"), layout.DEFAULT_CONTRAST)
        zoom = _first(getattr(args, "zoom", None), kept.get("zoom"))
        # only a zoom the user chose is kept: one picked for this screen is picked again
        self._zoom_chosen = zoom is not None
        self.renderer = Renderer(zoom or _default_zoom(), contrast)
        self.screen = pygame.display.set_mode(self.renderer.size, pygame.RESIZABLE)
        pygame.display.set_caption("Sharp PC-1360")
        pygame.key.set_repeat(*KEY_REPEAT)
        pygame.key.start_text_input()
        self.sound = Sound(muted=bool(getattr(args, "mute", False)))
        self._keywait_count = None
        self._keywait_recent = False
        self._keywait_seen = -KEYWAIT_STALE
        self.feeder = KeyFeeder(machine, self._key_wait_ready())
        self.clock = pygame.time.Clock()
        self.screenshot_dir = Path(getattr(args, "screenshot_dir", None) or ".")
        self.turbo = bool(getattr(args, "turbo", False))
        self.paused = False
        self.panel = None  # the debugger panel: None (closed), "stopped" or "going"
        self._panel_drawn = False
        self.panel_lines = []  # what the panel shows (debugger.panel_lines)
        self.help = False
        self.running = True
        self.now = machine.now()
        self.frames = 0
        self.lcd_draws = 0
        self.first_frame_seconds = None
        self._started = started
        self._budget_rest = 0.0
        self._display_key = None
        self._drawn_down = set()
        self._mouse_keys = {}  # mouse button -> key name held by it
        self._shift_alone = False
        self._message = None
        self._message_drawn = True
        self._message_until = 0.0
        self._caption = None
        self._speed = 1.0
        self._speed_mark = (time.monotonic(), self.now)
        self._origin = (0, 0)
        self._full_redraw = True
        self._layout_screen()
        if self.sound.notice:
            self.show_message(self.sound.notice.removeprefix("pc1360: "))

    # -- machine access -------------------------------------------------------------------
    def _key_wait_ready(self):
        """A predicate "a key pressed now will be seen", from the key-wait strobes the bus
        counts (bus.keywait_count; both engines write them): the machine was in its key-wait
        loop during the last frames, or has not been in it for a while (it runs a program).
        So a press waits while the machine is briefly busy at the prompt."""
        def ready(now):
            return self._keywait_recent or now - self._keywait_seen > KEYWAIT_STALE

        return ready

    def _track_keywait(self):
        """After each run (a frame or a turbo slice, several times the loop's 1547-cycle
        strobe period): did the firmware wait for a key in it, and when it last did."""
        count = self.machine.bus.keywait_count
        self._keywait_recent = count != self._keywait_count
        if self._keywait_recent:
            self._keywait_count = count
            self._keywait_seen = self.now

    def _display_state(self):
        """What the LCD shows depends on: display RAM and whether the display is on."""
        mem = self.machine.mem
        return (self.machine.lcd.enabled, mem[SYMBOL_BYTE],
                b"".join([mem[part] for part in DISPLAY_SLICES]))

    # -- layout on screen -------------------------------------------------------------------
    def _panel_width(self):
        return PANEL_UNITS * self.renderer.zoom if self.panel else 0

    def _layout_screen(self):
        """Centre the case (and the debugger's panel beside it) in the window and draw
        everything."""
        width, height = self.screen.get_size()
        case_w, case_h = self.renderer.size
        shown_w = case_w + self._panel_width()
        self._origin = (max(0, (width - shown_w) // 2), max(0, (height - case_h) // 2))
        self.screen.fill((0, 0, 0))
        self.screen.blit(self.renderer.case, self._origin)
        self._drawn_down = set()
        self._display_key = None
        self._panel_drawn = False
        self._full_redraw = True

    @property
    def panel_rect(self):
        """Where the debugger's panel is drawn in the window."""
        case_w, case_h = self.renderer.size
        return pygame.Rect(self._origin[0] + case_w, self._origin[1], self._panel_width(), case_h)

    @property
    def canvas(self):
        """The screen area of the case, drawn on in case coordinates."""
        rect = pygame.Rect(self._origin, self.renderer.size).clip(self.screen.get_rect())
        return self.screen.subsurface(rect)

    def resize(self, width, height):
        """Fit the largest integer zoom into the new window size."""
        case_w, case_h = layout.CASE_SIZE
        zoom = max(1, min(width // (case_w + (PANEL_UNITS if self.panel else 0)), height // case_h))
        if zoom != self.renderer.zoom:
            self.renderer.set_zoom(zoom)
            self._zoom_chosen = True
        self.screen = pygame.display.get_surface()
        self._layout_screen()

    def to_layout(self, pos):
        """Window pixel -> layout units."""
        z = self.renderer.zoom
        return (pos[0] - self._origin[0]) // z, (pos[1] - self._origin[1]) // z

    def to_window(self, point):
        """Layout units -> window pixel (the middle of that unit)."""
        z = self.renderer.zoom
        return self._origin[0] + point[0] * z + z // 2, self._origin[1] + point[1] * z + z // 2

    def dot_centre(self, x, y):
        """Window pixel in the middle of LCD dot (x, y)."""
        cell, gap = self.renderer.cell
        left, top = self.renderer.lcd_rect.topleft
        return (self._origin[0] + left + x * cell + (cell - gap) // 2,
                self._origin[1] + top + y * cell + (cell - gap) // 2)

    # -- events ------------------------------------------------------------------------------
    def handle_event(self, event):
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.VIDEORESIZE:
            self.resize(event.w, event.h)
        elif kind in REPAINT_EVENTS:
            self._layout_screen()
        elif kind == pygame.WINDOWFOCUSLOST:
            self._release_mouse_keys()
        elif kind == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self._shift_alone = False
            key = layout.key_at(*self.to_layout(event.pos))
            if key and event.button not in self._mouse_keys:
                self._mouse_keys[event.button] = key.name
                self.feeder.hold(key.name)
        elif kind == pygame.MOUSEBUTTONUP and event.button in self._mouse_keys:
            self.feeder.unhold(self._mouse_keys.pop(event.button))
        elif kind == pygame.KEYDOWN:
            self._key_down(event)
        elif kind == pygame.TEXTINPUT:
            self._type(keymap.translate_text(event.text))
        elif kind == pygame.KEYUP:
            if pygame.key.name(event.key) in keymap.SHIFT_KEY_NAMES and self._shift_alone:
                self._type(("SHIFT",))
            self._shift_alone = False
        elif kind == pygame.DROPFILE:
            self.load(event.file)

    def _key_down(self, event):
        name = pygame.key.name(event.key)
        if name in keymap.SHIFT_KEY_NAMES:
            self._shift_alone = True
            return
        self._shift_alone = False
        # AltGr arrives as Ctrl+Alt on some systems: it types characters, it is no command
        ctrl = bool(event.mod & pygame.KMOD_CTRL) and not event.mod & pygame.KMOD_ALT
        action = keymap.translate_key(name, ctrl)
        if action is None:
            return
        kind, what = action
        if kind == "command":
            getattr(self, "command_" + what)()
        else:
            self._type(what)

    def _type(self, keys):
        if keys and self.feeder.pending < MAX_QUEUED_STEPS:
            self.feeder.tap(keys)

    def _release_mouse_keys(self):
        for name in self._mouse_keys.values():
            self.feeder.unhold(name)
        self._mouse_keys.clear()

    # -- commands (keymap.COMMANDS) ----------------------------------------------------------
    def command_help(self):
        self.help = not self.help
        self._layout_screen()

    def command_contrast_down(self):
        self.renderer.set_contrast(self.renderer.contrast - 1)
        self._display_key = None

    def command_contrast_up(self):
        self.renderer.set_contrast(self.renderer.contrast + 1)
        self._display_key = None

    def command_turbo(self):
        self.turbo = not self.turbo
        self.show_message("turbo on" if self.turbo else "real speed")

    def command_pause(self):
        self.paused = not self.paused
        self.show_message("paused" if self.paused else "running")

    def command_mute(self):
        self.sound.muted = not self.sound.muted
        self.show_message("sound off" if self.sound.muted else "sound on")

    def command_screenshot(self):
        try:
            path = self.screenshot()
        except OSError as exc:
            self.show_message(f"screenshot not saved: {exc.strerror or exc}")
            return
        self.show_message(f"screenshot {path}")

    def command_reset(self):
        self.feeder.release_all()
        self.machine.reset()
        self.show_message("reset")

    def command_debug_panel(self):
        """Open the debugger's panel (the machine stops) or close it (the machine goes on)."""
        if self.panel:
            self.panel = None
        else:
            try:
                _debugger = self.machine.debugger  # made now: an engine it cannot debug says so
            except (AttributeError, ValueError) as exc:
                self.show_message(f"no debugger for this machine: {exc}")
                return
            self.panel = "stopped"
        case_w, case_h = self.renderer.size
        self.screen = pygame.display.set_mode((case_w + self._panel_width(), case_h), pygame.RESIZABLE)
        self._layout_screen()

    def command_debug_step(self):
        """One instruction (firmware engine) or one statement (built-in engine)."""
        if self.panel:
            self.panel = "stopped"
            debugger = self.machine.debugger
            reason = debugger.step() if debugger.target.has_cpu else debugger.step_statements()
            self.now = max(self.now, self.machine.now())
            self.show_message(reason)
            self._panel_drawn = False

    def command_debug_go(self):
        if self.panel:
            self.panel = "going" if self.panel == "stopped" else "stopped"
            self.show_message("going on" if self.panel == "going" else "stopped")
            self._panel_drawn = False

    def command_power_off(self):
        self._type(("OFF",))

    def command_quit(self):
        self.running = False

    # -- actions -----------------------------------------------------------------------------
    def show_message(self, text):
        self._message = text
        self._message_until = time.monotonic() + MESSAGE_SECONDS
        self._message_drawn = False

    def load(self, path):
        try:
            what = load_file(self.machine, path)
        except (OSError, ValueError) as exc:
            self.show_message(f"cannot load {Path(path).name}: {exc}")
            print(f"pc1360: cannot load {path}: {exc}", file=sys.stderr)
            return False
        self.show_message(f"loaded {what}")
        return True

    def screenshot(self, path=None):
        """Save the case as it is drawn now as a PNG; returns the path."""
        if path is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = self.screenshot_dir / f"pc1360-{stamp}.png"
            number = 2
            while path.exists():
                path = self.screenshot_dir / f"pc1360-{stamp}-{number}.png"
                number += 1
        self.draw()
        write_png(self.canvas, path)
        return Path(path)

    # -- the frame ---------------------------------------------------------------------------
    def emulate(self):
        """Run the machine for this frame; returns the cycles run."""
        if self.paused or self.panel == "stopped":
            return 0
        start = self.now
        if self.turbo:
            deadline = time.perf_counter() + TURBO_SHARE / FPS
            while time.perf_counter() < deadline:
                self._run(TURBO_SLICE)
        else:
            self._budget_rest += CYCLES_PER_SECOND / FPS
            budget = int(self._budget_rest)
            self._budget_rest -= budget
            self._run(budget)
        self.now = max(self.now, self.machine.now())
        self._play(start)
        return self.now - start

    def _run(self, cycles):
        self.feeder.update(self.now)
        if self.panel == "going":
            # through the debugger: its breakpoints and watchpoints stop the machine
            debugger, before = self.machine.debugger, self.machine.cycles
            reason = debugger.run(cycles / CYCLES_PER_SECOND, keys_stop=False)
            if not debugger.timed_out:
                self.panel = "stopped"
                self.show_message(reason)
                self._panel_drawn = False
            self.now += self.machine.cycles - before
        else:
            self.now += self.machine.run_cycles(cycles) or cycles
        self._track_keywait()

    def _play(self, start):
        transitions = self.machine.buzzer.take_transitions(self.now)
        if self.turbo:
            # emulated time runs faster than the sound card: keep the level, skip the sound
            if transitions:
                self.sound.track(transitions[-1][1])
            return
        self.sound.feed(start, self.now, transitions)

    def draw(self):
        """Redraw what changed; returns the dirty screen rectangles."""
        canvas = self.canvas
        dirty = []
        if self.help:
            if self._full_redraw:
                self.renderer.draw_help(canvas, keymap.HELP_LINES)
                dirty.append(self.screen.get_rect())
                self._full_redraw = False
            return dirty
        state = self._display_state()
        if state != self._display_key:
            self._display_key = state
            machine = self.machine
            rect = self.renderer.draw_lcd(canvas, machine.pixels(), machine.symbols())
            self.lcd_draws += 1
            dirty.append(rect.move(self._origin))
        down = self.feeder.down | set(self._mouse_keys.values())
        if down != self._drawn_down:
            for key in layout.KEYS:
                if (key.name in down) != (key.name in self._drawn_down):
                    self.renderer.draw_key(canvas, key, key.name in down)
                    dirty.append(self.renderer.rect(key.rect).inflate(4 * self.renderer.zoom,
                                                                      4 * self.renderer.zoom).move(self._origin))
            self._drawn_down = down
        if self._message and not self._message_drawn:
            dirty.append(self.renderer.draw_message(canvas, self._message).move(self._origin))
            self._message_drawn = True
        elif self._message and time.monotonic() > self._message_until:
            band = self.renderer.draw_message(canvas, "")
            dirty.append(band.move(self._origin))
            self._message = None
        if self.panel and (not self._panel_drawn
                           or self.panel == "going" and self.frames % PANEL_REFRESH == 0):
            self.panel_lines = self.machine.debugger.panel_lines()
            self.renderer.draw_panel(self.screen, self.panel_rect, self.panel_lines)
            dirty.append(self.panel_rect)
            self._panel_drawn = True
        if self._full_redraw:
            dirty = [self.screen.get_rect()]
            self._full_redraw = False
        return dirty

    def frame(self):
        for event in pygame.event.get():
            self.handle_event(event)
        self.emulate()
        dirty = self.draw()
        if dirty:
            pygame.display.update(dirty)
        self.frames += 1
        if self.first_frame_seconds is None:
            self.first_frame_seconds = time.perf_counter() - self._started
        self._update_caption()

    def _update_caption(self):
        """The title shows paused, or turbo with the speed reached (times real time)."""
        wall = time.monotonic()
        if wall - self._speed_mark[0] >= 1.0:
            emulated = (self.now - self._speed_mark[1]) / CYCLES_PER_SECOND
            self._speed = emulated / (wall - self._speed_mark[0])
            self._speed_mark = (wall, self.now)
        state = " [paused]" if self.paused else f" [turbo {self._speed:.0f}x]" if self.turbo else ""
        caption = f"Sharp PC-1360{state}"
        if caption != self._caption:
            pygame.display.set_caption(caption)
            self._caption = caption

    def run(self, seconds=None):
        """The main loop, until the window closes (or `seconds` of wall time pass)."""
        end = None if seconds is None else time.monotonic() + seconds
        while self.running and (end is None or time.monotonic() < end):
            self.frame()
            if not self.turbo:
                self.clock.tick(FPS)
            else:
                self.clock.tick()
        return 0

    def close(self):
        """Save the RAM card and shut pygame down."""
        self.feeder.release_all()
        if self.machine.card_store is not None:
            try:
                self.machine.save_card()
            except OSError as exc:
                print(f"pc1360: could not save the RAM card: {exc}", file=sys.stderr)
        if self.settings_file:
            try:
                settings.save(self.settings_file, contrast=self.renderer.contrast,
                              zoom=self.renderer.zoom if self._zoom_chosen else None)
            except OSError as exc:
                print(f"pc1360: could not keep the window settings in {self.settings_file}: "
                      f"{exc.strerror or exc}", file=sys.stderr)
        self.sound.close()
        pygame.display.quit()


def write_png(surface, path):
    """`surface` as a PNG file at `path`, written whole or not at all (atomic_write): pygame
    would write in place, and leave a cut file on a full disk. OSError if not written."""
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "screenshot.png")  # the name hint picks the format
    write_atomic(path, buffer.getvalue())

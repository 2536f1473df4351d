"""Drawing the PC-1360 front with pygame, from the layout table.

The case and the keys are drawn once per zoom into `case`; a frame then only redraws the
LCD glass, the symbol column and keys whose pressed state changed.
"""

import pygame

from emulator.frontend import case_layout as layout
from emulator.frontend import pixel_font
from emulator.frontend.case_layout import COLOURS

# Legend heights in layout units, by key kind.
_LEGEND_SIZE = {"grey": 14, "dark": 12}
_WORD_SIZE = 8  # multi-letter legends (SHIFT, ENTER, MODE ...)
_SHIFT_LEGEND_SIZE = 10
PANEL_FONT = 7  # the debugger panel's text, and its line pitch, in layout units
PANEL_PITCH = 9
# Text this many screen pixels high or less is drawn with the pixel font (when it has the
# characters): pygame's font at that size blurs C into O; larger, it is the TrueType font,
# never smaller than MIN_FONT (what pygame.font makes 11 pixels high).
PIXEL_TEXT = 11
MIN_FONT = 16
_ARROWS = {"UP": ((0, -1), (-1, 1), (1, 1)), "DOWN": ((0, 1), (-1, -1), (1, -1)),
           "LEFT": ((-1, 0), (1, -1), (1, 1)), "RIGHT": ((1, 0), (-1, -1), (-1, 1))}


def _blend(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def _shade(colour, factor):
    return tuple(max(0, min(255, round(c * factor))) for c in colour)


class Renderer:
    def __init__(self, zoom=2, contrast=layout.DEFAULT_CONTRAST):
        self.contrast = contrast
        self._fonts = {}
        self._texts = {}
        self.set_zoom(zoom)

    # -- geometry --------------------------------------------------------------------------
    def set_zoom(self, zoom):
        self.zoom = max(1, int(zoom))
        self.size = (layout.CASE_SIZE[0] * self.zoom, layout.CASE_SIZE[1] * self.zoom)
        self._fonts.clear()
        self._texts.clear()
        self.case = self._draw_case()
        self._grid = self._draw_grid()

    def rect(self, rect):
        """A layout rectangle in case pixels."""
        z = self.zoom
        return pygame.Rect(rect[0] * z, rect[1] * z, rect[2] * z, rect[3] * z)

    @property
    def lcd_rect(self):
        return self.rect(layout.LCD_RECT)

    @property
    def cell(self):
        """Screen pixels per LCD dot, and the gap drawn between dots."""
        cell = layout.DOT_PITCH * self.zoom
        return cell, max(1, cell // 5)

    def dot_colours(self):
        """(unlit dot, lit dot) colours at the current contrast."""
        glass = COLOURS["glass"]
        off = _shade(glass, 0.95)
        on = _blend(glass, COLOURS["dot_on"], (self.contrast + 1) / layout.CONTRAST_LEVELS)
        return off, on

    def set_contrast(self, contrast):
        self.contrast = max(0, min(layout.CONTRAST_LEVELS - 1, contrast))

    # -- fonts -----------------------------------------------------------------------------
    def font(self, units):
        size = max(MIN_FONT, round(units * self.zoom * 1.3))
        if size not in self._fonts:
            # pygame's own font: the same pixels on every system, so screenshots compare
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def text_image(self, text, units, colour):
        """`text` `units` high as drawn on the case: small text with the pixel font, at
        its size (one font pixel a screen pixel), the rest with the TrueType font."""
        if units * self.zoom <= PIXEL_TEXT and pixel_font.covers(text):
            lines = pixel_font.rows(text)
            image = pygame.Surface((len(lines[0]), len(lines)), pygame.SRCALPHA)
            for y, line in enumerate(lines):
                for x, dot in enumerate(line):
                    if dot == "#":
                        image.set_at((x, y), colour)
            return image
        return self.font(units).render(text, True, colour)

    def _text(self, surface, text, units, colour, centre=None, topleft=None, cache=True):
        key = (text, units, colour)
        image = self._texts.get(key)
        if image is None:
            image = self.text_image(text, units, colour)
            if cache:  # legends, symbols, help: a fixed set, rendered once per zoom
                self._texts[key] = image
        box = image.get_rect()
        if centre is not None:
            box.center = centre
        else:
            box.topleft = topleft
        surface.blit(image, box)

    # -- the case --------------------------------------------------------------------------
    def _draw_case(self):
        z = self.zoom
        surface = pygame.Surface(self.size)
        surface.fill((0, 0, 0))
        whole = surface.get_rect()
        pygame.draw.rect(surface, COLOURS["case_edge"], whole, border_radius=layout.CASE_RADIUS * z)
        pygame.draw.rect(surface, COLOURS["case"], whole.inflate(-4 * z, -4 * z),
                     border_radius=(layout.CASE_RADIUS - 2) * z)
        pygame.draw.rect(surface, COLOURS["bezel"], self.rect(layout.BEZEL), border_radius=6 * z)
        pygame.draw.rect(surface, COLOURS["def_panel"], self.rect(layout.DEF_PANEL), border_radius=4 * z)
        for text, x, y, height, colour in layout.LABELS:
            self._text(surface, text, height, COLOURS[colour], topleft=(x * z, y * z))
        for key in layout.KEYS:
            self.draw_key(surface, key, pressed=False)
        return surface

    def draw_key(self, surface, key, pressed):
        """Draw `key` (its cap and shift legend) onto `surface` in case coordinates."""
        z = self.zoom
        box = self.rect(key.rect)
        colour = COLOURS[key.colour]
        # clear the key's surroundings back to the case before drawing (keys move when pressed)
        background = COLOURS["def_panel"] if box.colliderect(self.rect(layout.DEF_PANEL)) else COLOURS["case"]
        pygame.draw.rect(surface, background, box.inflate(2 * z, 2 * z).move(0, z))
        if pressed:
            box = box.move(0, z)
            colour = _blend(colour, COLOURS["pressed"], 0.35)
        else:
            pygame.draw.rect(surface, _shade(colour, 0.55), box.move(0, z), border_radius=3 * z)
        pygame.draw.rect(surface, colour, box, border_radius=3 * z)
        pygame.draw.rect(surface, _shade(colour, 1.35), box, width=max(1, z // 2), border_radius=3 * z)
        legend_colour = COLOURS["legend"]
        if key.name in _ARROWS:
            r = min(box.w, box.h) * 0.22
            points = [(box.centerx + dx * r, box.centery + dy * r) for dx, dy in _ARROWS[key.name]]
            pygame.draw.polygon(surface, legend_colour, points)
        else:
            units = _LEGEND_SIZE.get(key.colour, _WORD_SIZE) if len(key.legend) == 1 else _WORD_SIZE
            self._text(surface, key.legend, units, legend_colour, centre=box.center)
        # the shift legend is printed on the case, so a pressed key leaves it as it is
        if key.shift_legend and not pressed:
            above = (box.centerx, box.top - 6 * z)
            units = _SHIFT_LEGEND_SIZE if len(key.shift_legend) == 1 else _WORD_SIZE
            self._text(surface, key.shift_legend, units, COLOURS["shift_legend"], centre=above)

    # -- the LCD ---------------------------------------------------------------------------
    def _draw_grid(self):
        """A transparent sheet with the glass colour in the gaps between dots."""
        cell, gap = self.cell
        width, height = layout.LCD_DOTS
        grid = pygame.Surface((width * cell, height * cell))
        key = (255, 0, 255)
        grid.fill(key)
        grid.set_colorkey(key)
        glass = COLOURS["glass"]
        for x in range(width):
            grid.fill(glass, (x * cell + cell - gap, 0, gap, height * cell))
        for y in range(height):
            grid.fill(glass, (0, y * cell + cell - gap, width * cell, gap))
        return grid

    def draw_lcd(self, surface, pixels, symbols):
        """Draw the glass with the dot matrix `pixels` (32 rows of 150 0/1) and the lit
        `symbols` onto `surface` (case coordinates); returns the dirty rectangle."""
        window = self.rect(layout.LCD_WINDOW)
        pygame.draw.rect(surface, COLOURS["glass"], window)
        width, height = layout.LCD_DOTS
        dots = pygame.image.frombuffer(b"".join(bytes(row) for row in pixels), (width, height), "P")
        off, on = self.dot_colours()
        dots.set_palette([off, on] + [off] * 254)
        cell, _gap = self.cell
        # the grid goes onto the (RGB) target: on the 2-colour matrix it would lose the glass
        surface.blit(pygame.transform.scale(dots, (width * cell, height * cell)), self.lcd_rect.topleft)
        surface.blit(self._grid, self.lcd_rect.topleft)
        z = self.zoom
        for name, (text, x, y) in layout.SYMBOLS.items():
            colour = on if name in symbols else _blend(COLOURS["glass"], off, 2.0)
            self._text(surface, text, layout.SYMBOL_FONT, colour, topleft=(x * z, y * z))
        return window

    # -- overlays --------------------------------------------------------------------------
    def draw_help(self, surface, lines):
        """The key-mapping help over the whole case."""
        z = self.zoom
        shade = pygame.Surface(self.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 215))
        surface.blit(shade, (0, 0))
        self._text(surface, "PC keyboard -> PC-1360", 12, COLOURS["shift_legend"], topleft=(24 * z, 10 * z))
        row = 11
        for i, (pc_key, machine_key) in enumerate(lines):
            column, line = divmod(i, row)
            x = (24 + column * 300) * z
            y = (30 + line * 19) * z
            self._text(surface, pc_key, 9, COLOURS["legend"], topleft=(x, y))
            self._text(surface, machine_key, 9, COLOURS["model"], topleft=(x + 150 * z, y))

    def draw_message(self, surface, text):
        """A one-line notice along the bottom edge of the case; returns its rectangle."""
        z = self.zoom
        band = pygame.Rect(0, self.size[1] - 14 * z, self.size[0], 14 * z)
        surface.blit(self.case, band, band)
        self._text(surface, text, 9, COLOURS["brand"], centre=band.center, cache=False)
        return band

    def draw_panel(self, surface, rect, lines):
        """The debugger's panel: `lines` of text in the window rectangle `rect`."""
        z = self.zoom
        surface.fill(COLOURS["case_edge"], rect)
        for row, line in enumerate(lines):
            self._text(surface, line, PANEL_FONT, COLOURS["legend"], cache=False,
                       topleft=(rect.left + 6 * z, rect.top + (4 + row * PANEL_PITCH) * z))

"""The key legends as the case shows them at zoom 1 (640 x 256), read back from its pixels:
each legend is inside its key, each letter a glyph of its own, at least 6 pixels high, and
any two letters differ in at least 2 pixels, so CLS does not read as OLS nor C as O."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402
import pytest  # noqa: E402

from emulator.frontend import case_layout as layout  # noqa: E402
from emulator.frontend.render import Renderer  # noqa: E402

MIN_HEIGHT = 6  # pixels of a capital
MIN_DIFFERENCE = 2  # pixels between two letters' glyphs
LETTER_KEYS = [key for key in layout.KEYS if key.legend.isalpha()]


@pytest.fixture(scope="module")
def case():
    pygame.init()
    yield Renderer(zoom=1).case
    pygame.quit()


def legend_dots(case, key):
    """The key's face (inside its 1-pixel rim) as rows of 0/1: 1 where the pixel is nearer
    the legend's colour than the key's."""
    x, y, w, h = key.rect
    cap, ink = layout.COLOURS[key.colour], layout.COLOURS["legend"]
    middle = (sum(cap) + sum(ink)) / 2
    return [[int(sum(case.get_at((px, py))[:3]) > middle) for px in range(x + 1, x + w - 1)]
            for py in range(y + 1, y + h - 1)]


def glyphs(dots):
    """The runs of lit columns, each trimmed to its lit rows (as a tuple of row tuples)."""
    lit = [any(row[x] for row in dots) for x in range(len(dots[0]))]
    runs, start = [], None
    for x, on in enumerate(lit + [False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            runs.append([row[start:x] for row in dots])
            start = None
    return [tuple(tuple(row) for row in run if any(row)) for run in runs]


def difference(a, b):
    """Pixels that differ between two glyphs laid over each other at their bottom left."""
    height, width = max(len(a), len(b)), max(len(a[0]), len(b[0]))

    def padded(glyph):
        rows = [row + (0,) * (width - len(row)) for row in glyph]
        return [(0,) * width] * (height - len(rows)) + rows
    return sum(p != q for row_a, row_b in zip(padded(a), padded(b)) for p, q in zip(row_a, row_b))


def test_every_legend_is_inside_its_key_one_glyph_a_letter(case):
    for key in LETTER_KEYS:
        dots = legend_dots(case, key)
        found = glyphs(dots)
        assert len(found) == len(key.legend), (key.legend, len(found))
        assert not any(dots[0]) and not any(dots[-1]), key.legend  # clear of the rim
        assert not any(row[0] or row[-1] for row in dots), key.legend
        assert all(len(glyph) >= MIN_HEIGHT for glyph in found), key.legend


def test_any_two_letters_of_the_legends_can_be_told_apart(case):
    shapes = {}
    for key in LETTER_KEYS:
        for letter, glyph in zip(key.legend, glyphs(legend_dots(case, key))):
            shapes.setdefault((letter, len(key.legend) == 1), glyph)
    close = [(a[0], b[0], difference(shapes[a], shapes[b])) for a in shapes for b in shapes
             if a[1] == b[1] and a[0] < b[0] and difference(shapes[a], shapes[b]) < MIN_DIFFERENCE]
    assert not close
    assert difference(shapes[("C", False)], shapes[("O", False)]) >= 4  # CLS against OFF

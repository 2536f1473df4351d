"""The faithfulness harness itself: case files, pixel encoding and the screen comparison
(glyph-aware and strict, blink phases). No engine runs here."""

import pytest

from tests.faithful import faithful_harness as harness

BLANK_ROW = "0" * 38


def frame(cells=None, extra=()):
    """A screen as observe() records it: hex rows and codes. `cells` maps (line, cell)
    to (code, five column bytes); `extra` lists (x, y) dots set outside any glyph."""
    columns = [[0] * harness.WIDTH for _ in range(harness.LINES)]
    codes = [[0x20] * harness.COLUMNS for _ in range(harness.LINES)]
    for (line, cell), (code, dots) in (cells or {}).items():
        codes[line][cell] = code
        x0 = harness.CELL_X0 + harness.CELL_PITCH * cell
        columns[line][x0:x0 + harness.GLYPH_WIDTH] = dots
    pixels = [[(columns[y // 8][x] >> (y % 8)) & 1 for x in range(harness.WIDTH)] for y in range(32)]
    for x, y in extra:
        pixels[y][x] = 1
    return harness.pixels_hex(pixels), codes


def step(first, blink=None, symbols=("RUN",)):
    rows, codes = first
    obs = {"pixels": rows, "codes": codes, "symbols": list(symbols), "text": [""] * 4,
           "blink": None, "blink_codes": None, "keys": ""}
    if blink:
        obs["blink"], obs["blink_codes"] = blink
    return obs


ROM_A = (0x41, [0x7C, 0x12, 0x11, 0x12, 0x7C])
OWN_A = (0x41, [0x7E, 0x11, 0x11, 0x11, 0x7E])
OWN_B = (0x42, [0x7F, 0x49, 0x49, 0x49, 0x36])


def test_pixels_hex_is_38_digits_leftmost_pixel_first():
    rows = [[0] * 150 for _ in range(32)]
    rows[0][0] = rows[0][149] = 1
    encoded = harness.pixels_hex(rows)
    assert len(encoded) == 32 and all(len(r) == 38 for r in encoded)
    assert encoded[0] == "8" + "0" * 36 + "4"
    assert encoded[1] == BLANK_ROW


def test_identical_screens_match():
    a = frame({(0, 0): ROM_A})
    assert harness.compare([step(a)], [step(a)]) == []


def test_same_code_with_other_dots_matches_by_glyph_not_strictly():
    rom, own = step(frame({(1, 3): ROM_A})), step(frame({(1, 3): OWN_A}))
    assert harness.compare([rom], [own]) == []
    assert harness.compare([rom], [own], glyphs=False)


def test_other_code_does_not_match():
    assert harness.compare([step(frame({(1, 3): ROM_A}))], [step(frame({(1, 3): OWN_B}))])


def test_dots_outside_glyphs_compare_exactly():
    base = {(0, 0): ROM_A}
    rom = step(frame(base))
    own_gap = step(frame({(0, 0): OWN_A}, extra=[(11, 2)]))      # the gap column after cell 0
    own_margin = step(frame({(0, 0): OWN_A}, extra=[(3, 2)]))    # pixel columns 0-5
    assert harness.compare([rom], [own_gap])
    assert harness.compare([rom], [own_margin])


def test_an_unread_cell_compares_its_dots():
    graphics = (None, [0x01, 0x02, 0x04, 0x08, 0x10])
    assert harness.compare([step(frame({(2, 5): graphics}))], [step(frame({(2, 5): graphics}))]) == []
    other = (None, [0x01, 0x02, 0x04, 0x08, 0x11])
    assert harness.compare([step(frame({(2, 5): graphics}))], [step(frame({(2, 5): other}))])


def test_blink_phase_does_not_matter_but_blinking_does():
    on, off = frame({(0, 2): (0xF9, [0x7F] * 5)}), frame({(0, 2): ROM_A})
    assert harness.compare([step(on, off)], [step(off, on)]) == []
    assert harness.compare([step(on, off)], [step(on)])
    assert harness.compare([step(on)], [step(on, off)])


def test_symbols_and_step_count_compare():
    a = frame()
    assert harness.compare([step(a, symbols=("RUN",))], [step(a, symbols=("PRO",))])
    assert harness.compare([step(a), step(a)], [step(a)])


def test_case_digest_ignores_the_description(tmp_path):
    text = "description = '{}'\nprogram = '''\n10 PRINT 1\n'''\nsteps = ['RUN{{ENTER}}']\n"
    (tmp_path / "ONE.toml").write_text(text.format("first"))
    (tmp_path / "TWO.toml").write_text(text.format("second"))
    one, two = harness.load_case(tmp_path / "ONE.toml"), harness.load_case(tmp_path / "TWO.toml")
    assert one.digest() == two.digest()
    assert one.steps == (harness.Step("RUN{ENTER}"),)


@pytest.mark.parametrize("text, message", [
    ("steps = []\n", "no steps"),
    ("steps = ['{NOPE}']\n", "unknown key"),
    ("steps = [{ keys = 'A', wait = 1 }]\n", "unknown step option"),
    ("steps = ['A']\ncolour = 1\n", "unknown key"),
])
def test_bad_case_files_are_refused(tmp_path, text, message):
    (tmp_path / "BAD.toml").write_text(text)
    with pytest.raises(harness.CaseError, match=message):
        harness.load_case(tmp_path / "BAD.toml")


def test_known_failures_file_format(tmp_path, monkeypatch):
    path = tmp_path / "known.txt"
    path.write_text("# comment\n\nCASE_ONE  step 0 row 1: 'x', firmware 'y'\nCASE_TWO\n")
    monkeypatch.setattr(harness, "KNOWN_FAILURES", path)
    assert harness.read_known_failures() == {"CASE_ONE": "step 0 row 1: 'x', firmware 'y'",
                                             "CASE_TWO": "known failure"}

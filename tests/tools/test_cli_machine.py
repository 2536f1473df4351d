"""`pc1360 run` (headless) and its card file."""

import pytest

from emulator.machine import card_file as card
from tools.cli import main

pytestmark = pytest.mark.rom


def run(rom_dir, tmp_path, *args):
    return main(["run", "--rom", str(rom_dir), "--headless", "--card-file", str(tmp_path / "card.bin"),
                 *args])


def test_headless_run_prints_the_screen_and_time(rom_dir, tmp_path, capsys):
    # a first start: the CLEAR question is answered and the keys begin at the cleared prompt
    assert run(rom_dir, tmp_path, "--keys", "1+1{ENTER}", "--screen", "--for", "0.5") == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["1+1".ljust(24), "2.".rjust(24), " " * 24, " " * 24]
    assert "emulated time:" in err


def test_card_and_state_survive_between_runs(rom_dir, tmp_path, capsys):
    assert run(rom_dir, tmp_path, "--keys", "{MODE}NEW{ENTER}10 PRINT 7{ENTER}{MODE}", "--for", "0.2") == 0
    data, state, problem = card.decode((tmp_path / "card.bin").read_bytes())
    assert problem is None and state and len(data) == 32768
    capsys.readouterr()
    assert run(rom_dir, tmp_path, "--keys", "RUN{ENTER}", "--screen", "--for", "1") == 0
    assert "7.".rjust(24) in capsys.readouterr().out.splitlines()


def test_screenshot_is_a_png(rom_dir, tmp_path):
    shot = tmp_path / "lcd.png"
    assert run(rom_dir, tmp_path, "--screenshot", str(shot), "--for", "0.5") == 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_load_bas_answers_the_card_question_and_runs(rom_dir, tmp_path, capsys):
    source = tmp_path / "p.bas"
    source.write_text('10 PRINT "LOADED"\n')
    assert run(rom_dir, tmp_path, "--load", str(source), "--keys", "RUN{ENTER}", "--screen", "--for", "1") == 0
    out, err = capsys.readouterr()
    assert "LOADED" in out
    assert "answering Y" in err


def test_bad_key_script_is_a_usage_error(rom_dir, tmp_path, capsys):
    assert run(rom_dir, tmp_path, "--keys", "{NOPE}") == 1
    assert "--keys: unknown key {NOPE}" in capsys.readouterr().err


def test_unknown_load_suffix_is_a_usage_error(rom_dir, tmp_path, capsys):
    other = tmp_path / "x.doc"
    other.write_bytes(b"")
    assert run(rom_dir, tmp_path, "--load", str(other)) == 1
    assert "no reader for .doc" in capsys.readouterr().err


def test_missing_rom_set_is_a_usage_error(tmp_path, capsys):
    assert main(["run", "--rom", str(tmp_path), "--headless", "--card-file", str(tmp_path / "c.bin")]) == 1
    err = capsys.readouterr().err
    assert "cpu-1360.rom: missing" in err and "pc1360 rom install" in err


def test_corrupt_card_file_is_set_aside_and_reported(rom_dir, tmp_path, capsys):
    # the blank card started in its place is a new card: it gets Kniffel
    (tmp_path / "card.bin").write_bytes(b"junk")
    assert run(rom_dir, tmp_path, "--screen", "--for", "0.5") == 0
    out, err = capsys.readouterr()
    assert "moved to" in err
    assert "answering Y to the S1 CLEAR question" in err and "loaded program kniffel.bas" in err
    assert "RAM CARD S1 CLEAR O.K. ?" not in out
    assert any(p.name.startswith("card.bin.corrupt-") for p in tmp_path.iterdir())


def test_installed_set_is_the_default(rom_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["rom", "install", str(rom_dir)]) == 0
    assert main(["run", "--headless", "--screen", "--for", "0.5"]) == 0
    err = capsys.readouterr().err
    assert "answering Y to the S1 CLEAR question" in err  # the firmware's question
    assert (tmp_path / "data" / "pc1360" / "card-s1-32k.bin").is_file()


def test_load_tap_and_ram_images(rom_dir, tmp_path, capsys):
    from emulator.machine.facade import PC1360
    from pc1360.tape import encode_tap
    from pc1360.tokenizer import tokenize

    tap = tmp_path / "p.tap"
    tap.write_bytes(encode_tap(tokenize('10 PRINT "TAPE"\n'), name="P"))
    assert run(rom_dir, tmp_path, "--load", str(tap), "--keys", "RUN{ENTER}", "--screen", "--for", "1") == 0
    assert "TAPE" in capsys.readouterr().out
    ram = tmp_path / "p.ram"
    # a card as the firmware leaves it: header block at card start (pc1360.ramcard.build_card
    # does not write it yet, and the firmware refuses such a card with its "*" screen)
    donor = PC1360(rom_dir=rom_dir)
    donor.type_keys("Y")
    donor.key_wait_ready()
    donor.load_program(tokenize('10 PRINT "CARD"\n'))
    ram.write_bytes(donor.card_data())
    assert run(rom_dir, tmp_path, "--load", str(ram), "--keys", "RUN{ENTER}", "--screen", "--for", "1") == 0
    assert "CARD" in capsys.readouterr().out


def test_card_image_without_the_firmware_work_areas_loads_its_program(rom_dir, tmp_path, capsys):
    # The ROM refuses a card whose work areas (0xFF00-0xFFFF ...) it did not write: its "*"
    # screen, where only OFF works. Such an image (pc1360.ramcard.build_card) gives its program.
    from pc1360.ramcard import build_card
    from pc1360.tokenizer import tokenize

    ram = tmp_path / "p.ram"
    ram.write_bytes(build_card(tokenize('10 PRINT "BUILT"\n'), 32))
    assert run(rom_dir, tmp_path, "--load", str(ram), "--keys", "RUN{ENTER}", "--screen", "--for", "1") == 0
    out, err = capsys.readouterr()
    assert "BUILT" in out
    assert "lacks the firmware's work areas" in err

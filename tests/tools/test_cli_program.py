"""`pc1360 tokenize` and `pc1360 list` from the command line."""

import argparse
import importlib
import io
import sys

import pytest

from pc1360.tokenizer import tokenize
from tools.cli import COMMAND_MODULES, build_parser, main

SOURCE = '10 PRINT "HI":GOTO 10\n20 A$="π¥"\n'
LISTING = '10:PRINT "HI": GOTO 10\n20:A$="π¥"\n'


@pytest.fixture
def src(tmp_path):
    path = tmp_path / "prog.bas"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def run(capsys, *argv):
    status = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


def test_tokenize_to_img_next_to_the_source(capsys, src):
    assert run(capsys, "tokenize", src) == (0, "", "")
    assert src.with_suffix(".img").read_bytes() == tokenize(SOURCE)


@pytest.mark.parametrize("suffix", ["img", "ram", "tap", "wav"])
def test_each_format_lists_back(capsys, src, tmp_path, suffix):
    out = tmp_path / f"out.{suffix}"
    assert run(capsys, "tokenize", src, "-o", out, "--name", "HI")[0] == 0
    assert run(capsys, "list", out) == (0, LISTING, "")


def test_format_option_and_card_size(capsys, src, tmp_path):
    out = tmp_path / "card.bin"
    assert run(capsys, "tokenize", src, "-o", out, "--format", "ram", "--card", "16")[0] == 0
    assert len(out.read_bytes()) == 16 * 1024
    assert run(capsys, "list", out)[1] == LISTING


def test_list_ascii(capsys, src):
    run(capsys, "tokenize", src)
    status, out, _ = run(capsys, "list", "--ascii", src.with_suffix(".img"))
    assert out == '10:PRINT "HI": GOTO 10\n20:A$="\\xFB\\x5C"\n'


def test_bad_source_reports_file_line_column_and_writes_nothing(capsys, tmp_path):
    path = tmp_path / "bad.bas"
    path.write_text("10 A=1\nPRINT 2\n")
    out = tmp_path / "bad.img"
    out.write_bytes(b"old")
    status, _, err = run(capsys, "tokenize", path, "-o", out)
    assert status == 1
    assert err == f"{path}:2:1: a program line must start with a line number\n"
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.bas", "bad.img"]


def test_duplicate_line_warning(capsys, tmp_path):
    path = tmp_path / "dup.bas"
    path.write_text("10 A=1\n10 A=2\n")
    status, _, err = run(capsys, "tokenize", path)
    assert status == 0 and err.startswith(f"{path}:2:1: warning: line number 10 appears again")


def test_long_lines_option(capsys, tmp_path):
    path = tmp_path / "long.bas"
    path.write_text('10 A$="' + "X" * 90 + '"\n')
    status, _, err = run(capsys, "tokenize", path)
    assert status == 1 and "longer than 80 typed characters" in err
    assert run(capsys, "tokenize", path, "--long-lines")[0] == 0


def test_stdin_to_stdout(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SOURCE.encode())))
    buffer = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buffer))
    assert main(["tokenize", "-", "--format", "tap"]) == 0
    sys.stdout.flush()
    assert buffer.getvalue()[:1] == b"\x72"


def test_usage_errors(capsys, src, tmp_path):
    status, _, err = run(capsys, "tokenize", src, "-o", tmp_path / "x.zip")
    assert status == 1 and "cannot tell the format" in err
    status, _, err = run(capsys, "tokenize", tmp_path / "missing.bas")
    assert status == 1 and "cannot read" in err
    status, _, err = run(capsys, "tokenize", src, "--format", "tap", "--name", "TOOLONGNAME")
    assert status == 1 and "tape name" in err


def test_list_damaged_file_and_salvage(capsys, src, tmp_path):
    out = tmp_path / "p.tap"
    run(capsys, "tokenize", src, "-o", out)
    cut = tmp_path / "cut.tap"
    cut.write_bytes(out.read_bytes()[:-1])
    status, text, err = run(capsys, "list", cut)
    assert (status, text) == (1, "") and err.startswith(f"{cut}: byte ")
    status, text, err = run(capsys, "list", "--salvage", cut)
    assert status == 0 and text == LISTING and "damaged: " in err


def test_list_garbage_never_tracebacks(capsys, tmp_path):
    for data in (b"", b"\x00", b"RIFF\x00\x00\x00\x00WAVEfmt ", bytes(range(256))):
        path = tmp_path / "junk"
        path.write_bytes(data)
        status, _, err = run(capsys, "list", path)
        assert status == 1 and "Traceback" not in err and err.startswith(str(path))


def test_tokenize_several_sources_makes_one_program(capsys, src, tmp_path):
    later = tmp_path / "later.bas"
    later.write_text('5 REM FIRST\n30 END\n', encoding="utf-8")
    both = tmp_path / "all.img"
    assert run(capsys, "tokenize", src, later, "-o", both) == (0, "", "")
    assert run(capsys, "list", both) == (0, "5:REM FIRST\n" + LISTING + "30:END\n", "")


def test_tokenize_refuses_sources_that_share_a_line_number(capsys, src, tmp_path):
    clash = tmp_path / "clash.bas"
    clash.write_text('20 END\n', encoding="utf-8")
    status, _out, err = run(capsys, "tokenize", src, clash, "-o", tmp_path / "all.img")
    assert status == 1
    assert "clash.bas: line 20 also in " in err and "prog.bas" in err
    assert not (tmp_path / "all.img").exists()


def test_tokenize_several_sources_needs_an_output(capsys, src):
    status, _out, err = run(capsys, "tokenize", src, src)
    assert status == 1 and "give -o OUT" in err


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_get_the_umasks_mode(capsys, src, tmp_path, umask, mode):
    import os
    import stat

    old = os.umask(umask)
    try:
        assert run(capsys, "tokenize", src, "-o", tmp_path / "p.img")[0] == 0
        assert main(["run", "--engine", "builtin", "--headless", "--for", "0",
                     "--card-file", str(tmp_path / "card.bin"),
                     "--screenshot", str(tmp_path / "lcd.png")]) == 0
    finally:
        os.umask(old)
    for name in ("p.img", "card.bin", "lcd.png"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name
    # a file replaced keeps the mode it has
    (tmp_path / "p.img").chmod(0o640)
    assert run(capsys, "tokenize", src, "-o", tmp_path / "p.img")[0] == 0
    assert stat.S_IMODE((tmp_path / "p.img").stat().st_mode) == 0o640


def test_each_command_module_registers_the_commands_the_cli_table_names():
    for name, commands in COMMAND_MODULES.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(name).register(sub)
        assert tuple(sub.choices) == commands, name


def test_a_command_parsed_alone_parses_as_with_every_command(tmp_path):
    args = ["tokenize", str(tmp_path / "a.bas"), "-o", str(tmp_path / "a.img")]
    assert vars(build_parser("tokenize").parse_args(args)) == vars(build_parser().parse_args(args))

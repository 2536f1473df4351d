"""`pc1360 run` and `rom` under faults (issue 18): damaged card files, special paths, full
disks, signals. Each case ends with a message and an exit status that says what happened."""

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from emulator.machine import atomic_write
from emulator.machine import card_file as card
from pc1360.listing import list_program
from pc1360.ramcard import read_card
from tests.helpers.file_faults import read_only_file_system
from tools.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_builtin(tmp_path, *args):
    return main(["run", "--engine", "builtin", "--headless", "--card-file", str(tmp_path / "card.bin"),
                 *args])


@pytest.mark.rom
def test_a_saved_rom_bank_out_of_range_is_reported_and_the_card_kept(rom_dir, tmp_path, capsys):
    def run(*args):
        return main(["run", "--rom", str(rom_dir), "--headless", "--card-file", str(path), *args])

    path = tmp_path / "card.bin"
    assert run("--keys", "{MODE}NEW{ENTER}10 PRINT 7{ENTER}{MODE}", "--for", "0.2") == 0
    blob = bytearray(path.read_bytes())
    blob[32794] = 8  # the saved ROM bank
    path.write_bytes(blob)
    capsys.readouterr()
    assert run("--for", "0.5") == 0
    err = capsys.readouterr().err
    assert "machine state not used" in err and "ROM bank 8" in err and "the card's RAM is kept" in err
    (aside,) = tmp_path.glob("card.bin.corrupt-*")
    assert aside.read_bytes() == blob
    data = card.decode(path.read_bytes())[0]
    assert list_program(read_card(data)) == "10:PRINT 7\n"


@pytest.mark.parametrize("make", ["directory", "fifo", "zero"])
def test_a_card_file_that_is_no_regular_file_is_refused(tmp_path, capsys, make):
    target = tmp_path / "card.bin"
    if make == "directory":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    assert run_builtin(tmp_path, "--for", "0") == 1
    assert "is not a regular file" in capsys.readouterr().err
    assert target.is_dir() if make == "directory" else not target.is_file() or target.is_symlink()


def test_a_card_that_cannot_be_saved_fails_the_run(tmp_path, capsys, monkeypatch):
    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(card, "write_atomic", full)
    assert run_builtin(tmp_path, "--for", "0") == 1
    assert "could not save the RAM card" in capsys.readouterr().err
    assert not (tmp_path / "card.bin").exists()


def test_a_tape_recording_that_cannot_be_written_fails_the_run(tmp_path, capsys, monkeypatch):
    real = atomic_write.write_atomic

    def no_wav(path, data, **kwargs):
        if str(path).endswith(".wav"):
            raise OSError(errno.EFBIG, "File too large")
        return real(path, data, **kwargs)

    monkeypatch.setattr(atomic_write, "write_atomic", no_wav)  # cmd_machine imports it when it writes
    assert run_builtin(tmp_path, "--tape-record", str(tmp_path / "t.wav"), "--for", "0.1") == 1
    assert "could not write" in capsys.readouterr().err
    assert (tmp_path / "card.bin").exists()  # the card is saved all the same


@pytest.mark.parametrize("option", ["--screenshot", "--tape-record"])
def test_outputs_into_a_directory_or_a_missing_one_are_refused_before_the_run(tmp_path, capsys, option):
    assert run_builtin(tmp_path, option, str(tmp_path), "--for", "0") == 1
    assert "is a directory" in capsys.readouterr().err
    assert run_builtin(tmp_path, option, str(tmp_path / "no" / "x.png"), "--for", "0") == 1
    assert "does not exist" in capsys.readouterr().err


def test_an_unwritable_screenshot_is_a_message_not_a_traceback(tmp_path, capsys, monkeypatch):
    def read_only(*_args, **_kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("emulator.frontend.app.write_atomic", read_only)
    assert run_builtin(tmp_path, "--screenshot", str(tmp_path / "s.png"), "--for", "0") == 1
    assert "--screenshot: cannot write" in capsys.readouterr().err
    assert not (tmp_path / "s.png").exists()


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "1e308", "-1"])
def test_run_for_refuses_numbers_out_of_bounds(tmp_path, capsys, seconds):
    with pytest.raises(SystemExit) as stop:
        run_builtin(tmp_path, "--for", seconds)
    assert stop.value.code == 2
    assert "--for" in capsys.readouterr().err


@pytest.mark.parametrize("signum, mode", [(signal.SIGTERM, "--headless"), (signal.SIGHUP, "--headless"),
                                          (signal.SIGHUP, "window"), (signal.SIGTERM, "window")])
def test_a_stop_signal_saves_the_card_like_ctrl_c(tmp_path, signum, mode):
    path = tmp_path / "card.bin"
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    options = ["--headless", "--for", "3600"] if mode == "--headless" else ["--mute"]
    process = subprocess.Popen(
        [sys.executable, "-m", "tools.cli", "run", "--engine", "builtin", "--card-file", str(path),
         "--serial", "pty", *options],
        cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        # the port line comes once the machine runs, the signal handlers in place (after
        # the first start's lines: the CLEAR question answered, Kniffel loaded)
        assert any("15-pin serial port" in process.stderr.readline() for _line in range(3))
        if mode == "window":
            time.sleep(1.5)  # into the window's loop
        process.send_signal(signum)
        err = process.communicate(timeout=60)[1]
    finally:
        process.kill()
    assert process.returncode == 128 + signum
    assert f"stopped by {signal.Signals(signum).name}" in err
    _data, state, problem = card.decode(path.read_bytes())
    assert problem is None and state


def test_a_5000_digit_line_number_gives_file_line_column_everywhere(tmp_path, capsys):
    source = tmp_path / "p.bas"
    source.write_text("10 PRINT 1\n" + "1" * 5000 + " PRINT 2\n")
    assert main(["tokenize", str(source)]) == 1
    assert f"{source}:2:1: line number 111111111111... (5000 digits)" in capsys.readouterr().err
    assert main(["send", str(source), "--port", "loop://", "--handshake", "none"]) == 1
    assert f"{source}:2:1: line number" in capsys.readouterr().err
    assert run_builtin(tmp_path, "--load", str(source)) == 1
    assert f"--load {source}:2:1: line number" in capsys.readouterr().err
    assert run_builtin(tmp_path, "--keys", "{WAIT " + "9" * 5000 + "}") == 1
    assert "--keys: {WAIT 999999999999... (5000 digits)}" in capsys.readouterr().err


@pytest.mark.parametrize("option, value", [("--line-delay", "inf"), ("--line-delay", "nan"),
                                           ("--timeout", "inf"), ("--timeout", "1e308")])
def test_send_refuses_numbers_out_of_bounds(tmp_path, capsys, option, value):
    source = tmp_path / "p.bas"
    source.write_text("10 PRINT 1\n")
    with pytest.raises(SystemExit) as stop:
        main(["send", str(source), "--port", "loop://", option, value])
    assert stop.value.code == 2 and option in capsys.readouterr().err


def test_a_damaged_card_on_a_read_only_file_system_is_kept_and_the_run_fails(tmp_path, capsys, monkeypatch):
    path = tmp_path / "card.bin"
    path.write_bytes(b"junk")
    read_only_file_system(monkeypatch)
    assert run_builtin(tmp_path, "--for", "0") == 1
    err = capsys.readouterr().err
    assert "could not be set aside (Read-only file system)" in err and "could not save the RAM card" in err
    assert path.read_bytes() == b"junk"

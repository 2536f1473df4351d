"""`pc1360 run --headless` with a tape: --for counts from when the tape goes quiet, so a
CSAVE or CLOAD needs no --for of its own length, and a run stopped in the middle of one
says that the tape is cut off (the recording is still written)."""

import re
import signal

import pytest

from emulator.machine import card_file as card
from emulator.machine.facade import PC1360
from pc1360 import tape
from pc1360.ramcard import read_card
from pc1360.tokenizer import tokenize
from tools.cli import Terminated, main

SMALL = '10 PRINT "HI":GOTO 10\n20 A=1.5E3:B$="X":REM OK\n'
# CSAVE's lead-in alone is about 8 s (docs/stored_format.md §7), the default --for 2
CSAVE_SECONDS = 8


@pytest.fixture(params=["builtin", pytest.param("firmware", marks=pytest.mark.rom)])
def run(request, capsys):
    """`pc1360 run --headless` with the parameter's engine; (exit status, standard error,
    the emulated seconds it reported)."""
    engine = ["--engine", "builtin"]
    if request.param == "firmware":
        engine = ["--rom", str(request.getfixturevalue("rom_dir"))]

    def run(*args):
        capsys.readouterr()
        status = main(["run", *engine, "--headless", *args])
        err = capsys.readouterr().err
        found = re.search(r"emulated time: ([0-9.]+) s", err)
        return status, err, float(found.group(1)) if found else None

    return run


def test_csave_and_cload_run_as_long_as_the_tape_with_the_default_for(run, tmp_path):
    source, wav = tmp_path / "p.bas", tmp_path / "p.wav"
    source.write_text(SMALL)
    status, err, seconds = run("--card-file", str(tmp_path / "one.bin"), "--load", str(source),
                               "--tape-record", str(wav), "--keys", "CSAVE{ENTER}")
    assert status == 0 and "cut off" not in err
    assert seconds > CSAVE_SECONDS
    assert tape.program_from_tape(wav.read_bytes(), "wav") == tokenize(SMALL)
    fresh = tmp_path / "two.bin"
    status, err, seconds = run("--card-file", str(fresh), "--tape", str(wav), "--keys", "CLOAD{ENTER}")
    assert status == 0 and "cut off" not in err and seconds > CSAVE_SECONDS
    assert read_card(card.decode(fresh.read_bytes())[0]) == tokenize(SMALL)


def test_a_tape_that_never_starts_leaves_for_as_it_is(run, tmp_path):
    wav = tmp_path / "p.wav"
    wav.write_bytes(b"")
    source = tmp_path / "p.bas"
    source.write_text(SMALL)
    status, _err, seconds = run("--card-file", str(tmp_path / "c.bin"), "--tape", str(source),
                                "--tape-record", str(wav), "--for", "1")
    assert status == 0 and seconds < 3


@pytest.fixture
def stop_mid_transfer(monkeypatch):
    """SIGTERM, as the run's handler takes it, once the tape has been busy 2 emulated s."""
    run_for = PC1360.run_for
    busy = []

    def run_then_stop(machine, seconds):
        ran = run_for(machine, seconds)
        busy.append(machine.cassette.busy)
        if busy[-100:] == [True] * 100:
            raise Terminated(signal.SIGTERM)
        return ran

    monkeypatch.setattr(PC1360, "run_for", run_then_stop)


def test_a_run_stopped_during_csave_says_the_recording_is_cut_off(run, tmp_path, stop_mid_transfer):
    source, wav = tmp_path / "p.bas", tmp_path / "p.wav"
    source.write_text(SMALL)
    status, err, _seconds = run("--card-file", str(tmp_path / "c.bin"), "--load", str(source),
                                "--tape-record", str(wav), "--keys", "CSAVE{ENTER}")
    assert status == 128 + signal.SIGTERM
    assert f"the run ended while the machine was sending to tape: the recording in {wav} is cut off" in err
    assert wav.read_bytes()[:4] == b"RIFF"


def test_a_run_stopped_during_cload_says_the_tape_is_cut_off(run, tmp_path, stop_mid_transfer):
    source = tmp_path / "p.bas"
    source.write_text(SMALL)
    status, err, _seconds = run("--card-file", str(tmp_path / "c.bin"), "--tape", str(source),
                                "--keys", "CLOAD{ENTER}")
    assert status == 128 + signal.SIGTERM
    assert re.search(rf"the run ended with the tape {re.escape(str(source))} playing "
                     r"\(2\.\d s of \d\.\d s\): what CLOAD read of it is cut off", err), err

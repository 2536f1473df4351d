"""Bad inputs and odd output paths at the command line (issue 18 items 7, 10, 12, 13, 16):
a message naming the file, exit status 1, and no file replaced or half-written."""

import os
import struct

import pytest

from pc1360 import ramcard
from pc1360.tape import encode_tap
from pc1360.tapesound import encode_samples, wav_bytes
from pc1360.tokenizer import tokenize
from tools.cli import main

IMAGE = tokenize("10 PRINT 1\n")


def bad_wav(tmp_path):
    """A WAV header claiming 65535 bits per sample."""
    fmt = struct.pack("<HHIIHH", 1, 1, 16_000, 16_000, 1, 65535)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", 100) + bytes(100)
    path = tmp_path / "bad.wav"
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def run_builtin(tmp_path, *args):
    return main(["run", "--engine", "builtin", "--headless", "--card-file", str(tmp_path / "card.bin"), *args])


# -- item 7 -------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["list", "send", "load", "tape"])
def test_a_wav_of_65535_bits_is_refused_by_name_everywhere(tmp_path, capsys, command):
    path = bad_wav(tmp_path)
    if command == "list":
        status = main(["list", str(path)])
    elif command == "send":
        status = main(["send", str(path), "--port", "loop://", "--handshake", "none"])
    elif command == "load":
        status = run_builtin(tmp_path, "--load", str(path))
    else:
        status = run_builtin(tmp_path, "--tape", str(path))
    assert status == 1
    assert "65535 bits per sample are not supported" in capsys.readouterr().err


def test_list_reads_a_long_wav_from_the_file(tmp_path, capsys):
    path = tmp_path / "p.wav"
    path.write_bytes(wav_bytes(encode_samples(encode_tap(IMAGE, "P"))))
    assert main(["list", str(path)]) == 0
    assert capsys.readouterr().out == "10:PRINT 1\n"


# -- item 10 ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, content, message", [
    ("random.img", bytes(range(7, 250)), "no 0x0D where the length byte"),
    ("empty.img", b"", "empty file"),
    ("short.ram", bytes(1000), "1000 bytes is not the size of an 8, 16 or 32 KB card"),
    ("lines.img", IMAGE + b"\x00", "line header cut off"),
])
def test_load_checks_a_stored_program_as_list_does(tmp_path, capsys, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["list", str(path)]) == 1
    assert message in capsys.readouterr().err
    assert run_builtin(tmp_path, "--load", str(path)) == 1
    err = capsys.readouterr().err
    assert f"--load {path}" in err and message in err and "loaded" not in err


def test_load_takes_a_card_made_by_tokenize(tmp_path, capsys):
    path = tmp_path / "p.ram"
    path.write_bytes(ramcard.build_card(IMAGE, 32))
    assert run_builtin(tmp_path, "--load", str(path), "--keys", "RUN{ENTER}", "--screen") == 0
    out, err = capsys.readouterr()
    assert "loaded the program of card image p.ram" in err and "ERROR" not in out


# -- item 12 ------------------------------------------------------------------------------
def test_tokenize_will_not_overwrite_its_source(tmp_path, capsys):
    source = tmp_path / "p.img"
    source.write_text("10 PRINT 1\n")
    assert main(["tokenize", str(source)]) == 1
    assert "is the source file itself" in capsys.readouterr().err
    assert source.read_text() == "10 PRINT 1\n"


def test_outputs_keep_links_and_refuse_fifos_and_devices(tmp_path, capsys):
    source = tmp_path / "p.bas"
    source.write_text("10 PRINT 1\n")
    real = tmp_path / "real.img"
    real.write_bytes(b"old")
    link = tmp_path / "link.img"
    link.symlink_to(real)
    assert main(["tokenize", str(source), "-o", str(link)]) == 0
    assert link.is_symlink() and real.read_bytes() == IMAGE
    fifo = tmp_path / "fifo.img"
    os.mkfifo(fifo)
    assert main(["tokenize", str(source), "-o", str(fifo)]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert main(["tokenize", str(source), "-o", "/dev/null", "--format", "img"]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_an_output_into_a_missing_directory_is_refused_not_created(tmp_path, capsys):
    source = tmp_path / "p.bas"
    source.write_text("10 PRINT 1\n")
    assert main(["tokenize", str(source), "-o", str(tmp_path / "new" / "p.img")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
    assert main(["receive", str(tmp_path / "new" / "p.bas"), "--port", "loop://", "--timeout", "0.1"]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


# -- item 16 ------------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["socket://127.0.0.1", "socket://:5000", "socket://host:0",
                                 "socket://host:99999", "rfc2217://host:port", "socket://[::1"])
def test_a_network_url_without_a_port_is_named(tmp_path, capsys, url):
    source = tmp_path / "p.bas"
    source.write_text("10 PRINT 1\n")
    assert main(["send", str(source), "--port", url, "--handshake", "none"]) == 1
    assert "give a host and a port from 1 to 65535" in capsys.readouterr().err
    assert run_builtin(tmp_path, "--serial", url) == 1
    assert "give a host and a port from 1 to 65535" in capsys.readouterr().err

"""`pc1360 receive` against `pc1360 run --serial pty`, as a user runs them in two
terminals: a receive started after SAVE began still gets the whole program."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_receive_started_after_save_began_gets_the_whole_program(tmp_path):
    source = tmp_path / "p.bas"
    source.write_text("".join(f'{n} PRINT "LINE {n}"\n' for n in range(10, 210, 10)))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "tools.cli"]
    keys = 'OPEN "1200,N,8,1,A,L,&1A"{ENTER}SAVE{ENTER}'
    machine = subprocess.Popen([*command, "run", "--engine", "builtin", "--headless",
                                "--card-file", str(tmp_path / "card.bin"), "--load", str(source),
                                "--serial", "pty", "--keys", keys, "--for", "1"],
                               env=env, stderr=subprocess.PIPE, text=True)
    try:
        for _line in range(4):
            found = re.search(r"serial port on (\S+)", machine.stderr.readline())
            if found:
                break
        time.sleep(1.5)  # SAVE sends 20 lines at 1200 baud, about 3 s: it is well under way
        out = tmp_path / "back.bas"
        received = subprocess.run([*command, "receive", str(out), "--port", found.group(1),
                                   "--handshake", "none", "--timeout", "10", "--idle", "2"],
                                  env=env, capture_output=True, text=True, timeout=60)
        machine.communicate(timeout=60)
    finally:
        machine.kill()
    assert received.returncode == 0, received.stderr
    assert "bytes were already waiting" in received.stdout
    assert out.read_text() == source.read_text()

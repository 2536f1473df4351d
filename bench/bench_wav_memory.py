"""Memory and time of `pc1360 list` on a long WAV recording (issue 18 item 15).

Run: python bench/bench_wav_memory.py [MINUTES]. It writes a 48 kHz 16-bit mono WAV of
MINUTES (default 30) to a temporary directory: a program's tape record, then a 4 kHz
lead-in tone to the end, the worst case for the decoder, whose every half-cycle is an
edge. `pc1360 list` runs on it in a child process; the figures are the child's peak
resident memory (getrusage's ru_maxrss) and its wall time. The target: under 200 MB for
30 minutes, whatever the file's size (172.8 MB then).
"""

import resource
import subprocess
import sys
import tempfile
import time
import wave
from array import array
from pathlib import Path

from pc1360.tape import encode_tap
from pc1360.tapesound import LEAD_IN_BITS, _bit_samples, encode_samples
from pc1360.tokenizer import tokenize

RATE = 48_000
SOURCE = '10 PRINT "LONG TAPE"\n20 GOTO 10\n'


def _sixteen_bit(samples):
    """Unsigned 8-bit samples as signed 16-bit little-endian frames."""
    wide = array("h", ((value - 128) * 256 for value in samples))
    if sys.byteorder == "big":
        wide.byteswap()
    return wide.tobytes()


def write_recording(path, minutes):
    record = _sixteen_bit(encode_samples(encode_tap(tokenize(SOURCE), "LONG")))
    second = _sixteen_bit(_bit_samples([1] * LEAD_IN_BITS, RATE))  # one second of 4 kHz
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(record)
        for _ in range(round(minutes * 60)):
            out.writeframes(second)


def main(minutes=30.0):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "long.wav"
        write_recording(path, minutes)
        size = path.stat().st_size
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "tools.cli", "list", str(path)],
                                capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    print(f"{minutes:g} min, {size / 1e6:.1f} MB WAV: list exit {result.returncode}, "
          f"peak {peak_mb:.0f} MB resident, {seconds:.1f} s")
    print(result.stdout.strip() or result.stderr.strip())
    return 0 if result.returncode == 0 and peak_mb < 200 else 1


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0))

"""The README's quick start: two commands, each doing its own set-up, and CI runs the test
command exactly as the README writes it. The scripts are run here with a stand-in python3
that records what it is asked to do, so no package is downloaded."""

import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the stand-in for python3 and for the venv's python and pc1360: each call is a line
FAKE_PYTHON = """#!/bin/sh
echo "$0 $*" >> "$LOG"
if [ "$1 $2" = "-m venv" ]; then
    [ -n "${FAIL_VENV:-}" ] && { mkdir -p "$3"; exit 1; }
    mkdir -p "$3/bin"
    cp "$0" "$3/bin/python"
    cp "$0" "$3/bin/pc1360"
fi
exit 0
"""


def quick_start():
    """The indented commands of the README's Quick start section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    before_image = section.split("![", 1)[0]
    return re.findall(r"^    (\S.*)$", before_image, re.MULTILINE)


def ci_commands():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_the_quick_start_is_two_commands_and_ci_runs_the_second_as_written():
    run, test = quick_start()
    assert (run, test) == ("./run.sh", "./test.sh")
    assert ci_commands()[-1] == test
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Tab or F2" in text.split("./run.sh", 1)[0]  # DEF's PC key, before the command


@pytest.mark.parametrize("script", ["run.sh", "test.sh"])
def test_the_scripts_are_executable_posix_shell(script):
    path = ROOT / script
    assert path.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert path.stat().st_mode & stat.S_IXUSR
    for checked in (path, ROOT / "scripts" / "venv.sh"):
        assert subprocess.run(["sh", "-n", str(checked)]).returncode == 0


@pytest.fixture
def checkout(tmp_path):
    """A copy of what the scripts need, and a PATH whose python3 is the stand-in."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    for name in ("run.sh", "test.sh", "pyproject.toml", "scripts/venv.sh"):
        shutil.copy2(ROOT / name, repo / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    for tool in ("sh", "cp", "cmp", "mkdir", "rm", "dirname"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    log = tmp_path / "calls"
    env = {"PATH": str(bin_dir), "LOG": str(log), "HOME": str(tmp_path)}
    return repo, env, log


def _calls(log):
    return log.read_text().splitlines() if log.exists() else []


def test_test_sh_makes_the_venv_installs_the_test_extra_and_runs_pytest(checkout):
    repo, env, log = checkout
    done = subprocess.run(["./test.sh", "-k", "quick"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    venv = repo / ".venv"
    assert _calls(log) == [
        f"{env['PATH']}/python3 -m venv {venv}",
        f"{venv}/bin/python -m pip install --quiet --disable-pip-version-check -e {repo}[test]",
        f"{venv}/bin/python -m pytest -q -k quick",
    ]
    # a second run installs nothing again; run.sh is content with the test extra's install
    log.unlink()
    subprocess.run(["./test.sh"], cwd=repo, env=env, check=True)
    subprocess.run(["./run.sh", "--headless"], cwd=repo, env=env, check=True)
    assert _calls(log) == [f"{venv}/bin/python -m pytest -q", f"{venv}/bin/pc1360 run --headless"]


def test_run_sh_installs_the_project_and_starts_the_emulator(checkout):
    repo, env, log = checkout
    subprocess.run(["./run.sh"], cwd=repo, env=env, check=True, capture_output=True)
    venv = repo / ".venv"
    assert _calls(log)[1:] == [
        f"{venv}/bin/python -m pip install --quiet --disable-pip-version-check -e {repo}",
        f"{venv}/bin/pc1360 run",
    ]


def test_without_a_venv_module_it_says_what_to_install(checkout):
    repo, env, log = checkout
    done = subprocess.run(["./run.sh"], cwd=repo, env={**env, "FAIL_VENV": "1"},
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "apt-get install python3-venv" in done.stderr
    assert not (repo / ".venv").exists()  # no half-made environment is left to trip the next run
    assert "Traceback" not in done.stderr

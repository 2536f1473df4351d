#!/bin/sh
# Sourced by ../run.sh and ../test.sh: make the virtual environment .venv in the
# repository (once) and install the project into it, editable, with the extra named in
# $pc1360_extra (or none). A virtual environment, since Debian's and Ubuntu's system Python refuses pip
# installs (PEP 668). The install is redone only when pyproject.toml changed since.
# Sets $venv. Python: $PYTHON, else python3.

root=$(cd "$(dirname "$0")" && pwd)
venv="$root/.venv"
python=${PYTHON:-python3}

_pc1360_make_venv() {
    if ! command -v "$python" >/dev/null 2>&1; then
        echo "$0: no $python found; install Python 3.11 or later (Debian/Ubuntu:" \
             "apt-get install python3 python3-venv)" >&2
        return 1
    fi
    # Debian's python3 has the venv module but not ensurepip without python3-venv:
    # `python3 -m venv` then fails half-way, so its leftovers are removed first.
    if "$python" -m venv "$venv" >/dev/null 2>&1; then
        return 0
    fi
    rm -rf "$venv"
    if command -v virtualenv >/dev/null 2>&1 && virtualenv -q -p "$python" "$venv"; then
        return 0
    fi
    rm -rf "$venv"
    echo "$0: cannot make a virtual environment with $python: on Debian/Ubuntu run" \
         "'sudo apt-get install python3-venv' (or install virtualenv), then try again" >&2
    return 1
}

_pc1360_install() {
    extra=$1
    stamp="$venv/.pc1360-installed${extra:+-$extra}"
    # the test extra's install holds the plain one
    if cmp -s "$root/pyproject.toml" "$stamp" \
        || { [ -z "$extra" ] && cmp -s "$root/pyproject.toml" "$venv/.pc1360-installed-test"; }; then
        return 0
    fi
    echo "$0: installing the project into $venv (once)" >&2
    spec="$root"
    [ -n "$extra" ] && spec="$root[$extra]"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" \
        && cp "$root/pyproject.toml" "$stamp"
}

if [ ! -x "$venv/bin/python" ]; then
    _pc1360_make_venv || exit 1
fi
_pc1360_install "${pc1360_extra:-}" || exit 1

#!/bin/sh
# Run the tests: `./test.sh [pytest options]`. The first call makes .venv and installs
# the project with its test extra into it (scripts/venv.sh).
set -u
pc1360_extra=test
. "$(dirname "$0")/scripts/venv.sh"
exec "$venv/bin/python" -m pytest -q "$@"

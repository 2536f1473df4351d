#!/bin/sh
# Start the emulator: `./run.sh [pc1360 run options]`. The first call makes .venv and
# installs the project into it (scripts/venv.sh).
set -u
. "$(dirname "$0")/scripts/venv.sh"
exec "$venv/bin/pc1360" run "$@"

"""The window's settings kept between runs: zoom and LCD contrast, in a small JSON file in
the user's configuration directory. A file that cannot be read is ignored (the defaults
are used and the file is written anew at the next close), so that it never stops a start."""

import json
from pathlib import Path

import platformdirs

from emulator.machine.atomic_write import write_atomic

KEYS = ("zoom", "contrast")


def default_path():
    return Path(platformdirs.user_config_dir("pc1360")) / "window.json"


def load(path):
    """{"zoom": int, "contrast": int} as far as the file at `path` holds them."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: data[key] for key in KEYS if type(data.get(key)) is int}


def save(path, **values):
    """Write the settings given (a None is left out); OSError if they cannot be written."""
    kept = {key: values[key] for key in KEYS if values.get(key) is not None}
    write_atomic(path, (json.dumps(kept) + "\n").encode(), create_dirs=True)

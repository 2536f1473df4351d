"""The pygame front-end: the PC-1360 drawn in a window, played with mouse and PC keyboard.

pygame is imported only when a window is opened, so the rest of the project (and this
package's data modules, layout and keymap) work without it.
"""

import os


def run_window(machine, args=None):
    """Open the window and run `machine` until it is closed; returns an exit status.

    `args` may carry zoom, mute, contrast, turbo, screenshot_dir and settings_file (all
    optional).
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from emulator.frontend.app import Window

    window = Window(machine, args)
    try:
        return window.run()
    finally:
        window.close()

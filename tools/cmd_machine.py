"""`pc1360 rom verify|install` and `pc1360 run`: the emulated machine from the command line."""

import argparse
import contextlib
import os
import signal
import sys
from pathlib import Path

from tools.cli import Terminated, UsageError, bounded_number

# The machine's modules are imported by the functions that use them: `pc1360 --help` and
# the other commands do not load the emulator.

DEFAULT_AFTER_KEYS = 2.0  # emulated seconds to run after the last key (headless)
BOOT_TIMEOUT = 5.0  # emulated seconds for the firmware to reach its first key wait
CARD_QUESTION = "RAM CARD S1 CLEAR O.K. ?"
# The firmware's screen after any answer but Y to the CLEAR question: only a reset leaves it.
REFUSED_CARD = ["*".rjust(24)] + [" " * 24] * 3
PROMPT_TIMEOUT = 0.3  # emulated seconds to wait for a key wait (a program may poll INKEY$)
MODES = 3  # RUN, PRO, RESERVE: MODE steps through them
PACE_SLICE = 0.02  # emulated seconds between looks at the wall clock and the serial link
MAX_SECONDS = 24 * 3600  # the longest --for: a day of emulated time
DEFAULT_FORMAT = "1200,N,8,1"  # the SIO line's format unless --serial-format says otherwise
# Signals that end a run as Ctrl-C does: the card is saved and the outputs written.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def register(subparsers):
    rom = subparsers.add_parser("rom", help="check or install the PC-1360 ROM set")
    rom_sub = rom.add_subparsers(dest="rom_command", metavar="ACTION", required=True)
    verify = rom_sub.add_parser("verify", help="check a directory's ROM files by SHA-1 (like mame -verifyroms)")
    verify.add_argument("dir", type=Path)
    verify.set_defaults(handler=cmd_rom_verify)
    install = rom_sub.add_parser("install", help="verify a ROM set and copy it to the user data directory")
    install.add_argument("dir", type=Path)
    install.set_defaults(handler=cmd_rom_install)

    run = subparsers.add_parser("run", help="run the emulated PC-1360")
    add_machine_options(run)
    run.add_argument("--headless", action="store_true", help="no window: type --keys, run, print or save the screen")
    run.add_argument("--keys", default="", help="key script, e.g. '1+1{ENTER}' ({NAME} keys, {WAIT n} tenths of a second, "
                          "{READY} until the program reads the keyboard, {HOLD n} hold the later keys n "
                          "milliseconds, not until read); it begins at the RUN-mode prompt")
    run.add_argument("--for", dest="seconds", type=bounded_number(0, MAX_SECONDS), default=DEFAULT_AFTER_KEYS,
                     help=f"emulated seconds to run after the last key (default {DEFAULT_AFTER_KEYS})")
    run.add_argument("--screen", action="store_true", help="print the LCD as 4 lines of 24 characters")
    run.add_argument("--screenshot", type=Path, help="write the LCD to a PNG file")
    run.add_argument("--turbo", action="store_true", help="window: run as fast as possible, not in real time")
    run.add_argument("--zoom", type=int, choices=range(1, 9), metavar="1-8", help="window: integer zoom")
    run.add_argument("--contrast", type=int, choices=range(10), metavar="0-9", help="window: LCD contrast")
    run.add_argument("--mute", action="store_true", help="window: no sound")
    run.add_argument("--fast", action="store_true",
                     help="headless with --serial: do not keep real time (by default the run "
                          "keeps pace with the peer, and --for counts from when the link goes quiet)")
    run.set_defaults(handler=cmd_run)


def add_machine_options(parser):
    """The options that say which machine to build and what to plug into it (`run` and
    `debug` share them)."""
    rom_option = parser.add_argument("--rom", type=Path, help="ROM directory (default: %(rom_dir)s)")
    rom_option.rom_dir = _UserRomDir()  # argparse fills the help from the option's attributes
    parser.add_argument("--engine", choices=("firmware", "builtin"),
                        help="firmware: the real ROM (default when --rom is given or a set is installed); "
                             "builtin: the project's own BASIC, no ROM needed")
    parser.add_argument("--card", type=int, choices=(8, 16, 32), default=32, help="RAM card size in KB (default 32)")
    parser.add_argument("--card-file", type=Path, help="file that keeps the card's contents between runs")
    parser.add_argument("--load", type=Path, action="append", metavar="FILE",
                        help="program to put on the card: .bas .img .ram .tap .wav; given more than "
                             "once, the programs go on the card together (each needs its own line "
                             "numbers). The run starts at the RUN-mode prompt")
    parser.add_argument("--serial", metavar="PORT",
                        help="connect the 15-pin SIO: 'pty' (a pseudo-terminal, whose path is printed, "
                             "for pc1360 send/receive or a terminal), or a pyserial URL such as "
                             "socket://HOST:PORT")
    parser.add_argument("--serial-format", type=_frame_format, default=DEFAULT_FORMAT,
                        metavar="BAUD,PARITY,BITS,STOP",
                        help=f"the line's format; it must match the OPEN statement (default {DEFAULT_FORMAT})")
    parser.add_argument("--tape", type=Path, metavar="FILE",
                        help="tape for CLOAD, played when CLOAD starts: .wav .tap (.bas .img are put "
                             "on tape first); headless, --for counts from the end of the tape")
    parser.add_argument("--tape-record", type=Path, metavar="FILE",
                        help="record what CSAVE sends: a .wav file, or the tape record as .tap; "
                             "headless, --for counts from the end of what is sent")


class _UserRomDir:
    """The user's ROM directory as text, asked for only when a help text shows it (finding
    it imports platformdirs, which `pc1360 --help` and `pc1360 tokenize` do without)."""

    def __str__(self):
        return str(_user_rom_dir())


def _user_rom_dir():
    from emulator.machine import romset

    return romset.user_rom_dir()


def cmd_rom_verify(args):
    from emulator.machine import romset

    if not args.dir.is_dir():
        raise UsageError(f"{args.dir}: no such directory" if not args.dir.exists()
                         else f"{args.dir} is not a directory")
    bad = 0
    for rom, _path, status in romset.audit(args.dir):
        print(f"{rom.name:14} {status}")
        bad += status != "ok"
    if bad:
        print(f"romset pc1360 in {args.dir} is bad ({bad} of {len(romset.PC1360_ROMS)} files)")
        return 1
    print(f"romset pc1360 in {args.dir} is good")
    return 0


def cmd_rom_install(args):
    from emulator.machine import romset

    try:
        destination = romset.install(args.dir)
    except romset.RomError as exc:
        raise UsageError(str(exc)) from None
    print(f"installed the pc1360 ROM set to {destination}")
    return 0


def choose_engine(args):
    """The firmware engine when a ROM set is given or installed, else the built-in one."""
    if args.engine:
        return args.engine
    if args.rom or _user_rom_dir().is_dir():
        return "firmware"
    return "builtin"


def _build_machine(args, engine):
    from emulator.machine import card_file as cardfile
    from emulator.machine import romset
    from emulator.machine.facade import PC1360

    path = args.card_file or cardfile.default_path(args.card, engine=engine)
    store = cardfile.CardStore(path, args.card)
    try:
        data, state = store.load()
    except cardfile.CardFileError as exc:
        raise UsageError(str(exc)) from None
    try:
        machine = PC1360(engine=engine, card_kb=args.card, rom_dir=args.rom, card_data=data)
    except romset.RomError as exc:
        raise UsageError(f"{exc}\n(install a ROM set with: pc1360 rom install DIR)") from None
    if state:
        store.resume(machine, state)
    for message in store.messages:
        print(f"pc1360: {message}", file=sys.stderr)
    machine.card_store = store
    # a card without a file, or whose damaged file was set aside, is a new card
    return machine, data is None


def _load(machine, paths):
    """One --load puts its file on the card as CLOAD would; several are put there together,
    as if each were MERGEd after the one before (their line numbers must differ)."""
    from emulator.machine.program_files import load_file, load_together, read_program

    if len(paths) == 1:
        loaded = _file_step(paths[0], load_file, machine, paths[0])
    else:
        programs = [(path.name, *_file_step(path, read_program, path)) for path in paths]
        try:
            loaded = load_together(machine, programs)
        except ValueError as exc:
            raise UsageError(f"--load: {exc}") from None
    print(f"pc1360: loaded {loaded}", file=sys.stderr)


def _file_step(path, step, *args):
    """step(*args), its faults told as those of the --load file `path`."""
    from pc1360.errors import FormatError

    try:
        return step(*args)
    except FormatError as exc:
        raise UsageError(f"--load {exc.in_file(path)}") from None
    except (ValueError, OSError) as exc:
        raise UsageError(f"--load {path}: {exc}") from None


def _boot(machine):
    """Run to a key wait with the card ready for a program: Y to the CLEAR question (a
    fresh card must be initialised before a program goes on it); a card refused at the
    question (its lone "*", which no key leaves) is reset first, as with the machine's
    reset button."""
    machine.key_wait_ready(BOOT_TIMEOUT)
    if machine.screen_text() == REFUSED_CARD:
        print("pc1360: the card was left refused at the S1 CLEAR question (\"*\"): resetting",
              file=sys.stderr)
        machine.reset()
        machine.key_wait_ready(BOOT_TIMEOUT)
    if CARD_QUESTION in machine.screen_text():
        print("pc1360: answering Y to the S1 CLEAR question (a fresh RAM card)", file=sys.stderr)
        machine.type_keys("Y")
        machine.key_wait_ready(BOOT_TIMEOUT)


def _to_run_prompt(machine):
    """Bring the machine to the RUN-mode prompt, whatever state its card was saved in, by
    the keys a user of the real machine would press: BRK to stop a program, CLS to clear
    an error, MODE until RUN shows."""
    machine.tap("BRK", timeout=PROMPT_TIMEOUT)
    machine.type_keys("{CLS}", timeout=PROMPT_TIMEOUT)
    for _mode in range(MODES):
        if "RUN" in machine.symbols():
            break
        machine.type_keys("{MODE}", timeout=PROMPT_TIMEOUT)


def save_png(machine, path, scale=4):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from emulator.frontend.app import write_png

    rows = machine.pixels()
    surface = pygame.Surface((len(rows[0]) * scale, len(rows) * scale))
    surface.fill((0x9c, 0xa8, 0x8c))
    on = (0x20, 0x24, 0x1c)
    for y, row in enumerate(rows):
        for x, value in enumerate(row):
            if value:
                surface.fill(on, (x * scale, y * scale, scale, scale))
    try:
        write_png(surface, path)
    except OSError as exc:
        raise UsageError(f"--screenshot: cannot write {path}: {exc.strerror or exc}") from None


def cmd_run(args):
    from emulator.machine.key_script import KeyScriptError
    from emulator.machine.key_script import parse as parse_keys

    try:
        parse_keys(args.keys)
    except KeyScriptError as exc:
        raise UsageError(f"--keys: {exc}") from None
    _check_output("--screenshot", args.screenshot)
    return with_machine(args, lambda machine: _session(machine, args), typing=bool(args.keys))


def with_machine(args, body, typing=False):
    """Build the machine the options of add_machine_options describe, bring it to the
    RUN-mode prompt with its links plugged in, run body(machine) -> exit status; then
    unplug it and save its card. A file not saved makes the status 1."""
    _check_output("--tape-record", args.tape_record)
    engine = choose_engine(args)
    with _stop_signals_interrupt():
        machine, first_start = _build_machine(args, engine)
        try:
            _prepare(machine, args, first_start, typing)
            status = body(machine)
        finally:
            written = _disconnect(machine, args)
            written = _save_card(machine) and written
    # something the user asked for was not saved: that is a failure, whatever ran before
    return status or (0 if written else 1)


def _prepare(machine, args, first_start, typing):
    """The card ready, the programs loaded, the RUN-mode prompt (when keys will be typed
    or the card is new), the links plugged in."""
    import importlib.resources

    if args.load or typing or first_start:
        _boot(machine)
    if first_start and not args.load:
        # A new card comes with Kniffel on it, so DEF K starts the game at once.
        _load(machine, [importlib.resources.files("basic_src") / "kniffel.bas"])
    if args.load:
        _load(machine, args.load)
    if args.load or typing or first_start:
        _to_run_prompt(machine)
    # plugged in once the machine is ready, so that a peer started on seeing the port's
    # path finds the keys' LOAD or OPEN soon, not the card being prepared
    _connect(machine, args)


def _session(machine, args):
    if not args.headless:
        return _run_window(machine, args)
    from emulator.machine.key_script import KeyScriptError

    try:
        machine.type_keys(args.keys)
    except KeyScriptError as exc:  # a {READY} the program did not answer
        raise UsageError(f"--keys: {exc}") from None
    _run_after_keys(machine, args)
    if args.screen:
        for line in machine.screen_text():
            print(line)
    if args.screenshot:
        save_png(machine, args.screenshot)
    print(f"emulated time: {machine.emulated_seconds:.3f} s", file=sys.stderr)
    return 0


def _run_after_keys(machine, args):
    """Run --for seconds after the last key. With a serial link (unless --fast) or a tape
    they count from when the link and the tape last carried a signal, once nothing is left
    queued for the machine and the tape neither plays nor records a tone. Only the serial
    link keeps real time, since the peer (pc1360 send, a terminal) sends and reads at
    wall-clock pace; a tape file is all there at once and takes whatever comes. Bytes still
    queued at the end are reported: the program was cut off mid-transfer."""
    import time

    from pc1360.facts import CYCLES_PER_SECOND

    sio = machine.sio if args.serial and not args.fast else None
    tape = machine.cassette if args.tape or args.tape_record else None
    if not (sio or tape):
        machine.run_for(args.seconds)
        return
    wall_start, start = time.monotonic(), machine.now()
    quiet = round(args.seconds * CYCLES_PER_SECOND)
    limit = start + round(MAX_SECONDS * CYCLES_PER_SECOND)
    while machine.now() < limit:
        machine.run_for(PACE_SLICE)
        now = machine.now()
        active = [start] + [link.active_at for link in (sio, tape) if link and link.active_at]
        if now - max(active) >= quiet and not (sio and sio.pending) and not (tape and tape.busy):
            break
        ahead = (now - start) / CYCLES_PER_SECOND - (time.monotonic() - wall_start)
        if sio and ahead > 0:
            time.sleep(ahead)
    if sio and sio.pending:
        print(f"pc1360: the run ended with {sio.pending} bytes from the serial link not yet "
              "read by the machine (the transfer was cut off; give a longer --for)", file=sys.stderr)


def _save_card(machine):
    """Save the card at the end of a run; False (and a message) if it was not saved."""
    try:
        machine.save_card()
    except OSError as exc:
        print(f"pc1360: could not save the RAM card to {machine.card_store.path}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _check_output(option, path):
    """Refuse an output path that cannot be written before the run, not after it."""
    if path is None:
        return
    from emulator.machine.atomic_write import writable_target

    try:
        writable_target(path)
    except OSError as exc:
        raise UsageError(f"{option}: {exc.strerror}") from None


@contextlib.contextmanager
def _stop_signals_interrupt():
    def stop(signum, _frame):
        for other in STOP_SIGNALS:  # a second signal must not break off the save
            signal.signal(other, signal.SIG_IGN)
        raise Terminated(signum)

    previous = [(number, signal.signal(number, stop)) for number in STOP_SIGNALS]
    try:
        yield
    finally:
        for number, handler in previous:
            signal.signal(number, handler)


def _frame_format(text):
    """"1200,N,8,1" (the first four fields of OPEN) -> FrameFormat."""
    from emulator.connectors.serial_line import FrameFormat

    fields = text.upper().split(",")
    try:
        baud, parity, bits, stop = fields
        return FrameFormat(int(baud), int(bits), parity, int(stop))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not BAUD,PARITY,BITS,STOP ({exc})") from None


def _connect(machine, args):
    """--serial, --tape, --tape-record: plug in the host link and the recorder."""
    from emulator.connectors.sio import LinkError, open_link

    if args.serial:
        try:
            link = open_link(args.serial, args.serial_format)
        except LinkError as exc:
            raise UsageError(f"--serial: {exc}") from None
        machine.sio.set_format(args.serial_format)
        machine.sio.connect(link)
        note = ""
        if args.serial == "pty":  # a pty has no modem lines for the rts handshake
            note = " (a pseudo-terminal: use --handshake none with pc1360 send/receive)"
        print(f"pc1360: 15-pin serial port on {link.path}{note}", file=sys.stderr)
    if args.tape:
        try:
            machine.cassette.insert_file(args.tape)
        except (ValueError, OSError) as exc:
            raise UsageError(f"--tape {args.tape}: {exc}") from None
    if args.tape_record:
        machine.cassette.record()


def _disconnect(machine, args):
    """Unplug the link and write the tape recording; False if the recording was not written."""
    from emulator.machine.atomic_write import write_atomic

    if machine.sio.link_error:
        print(f"pc1360: serial link dropped: {machine.sio.link_error}", file=sys.stderr)
    machine.sio.disconnect()
    _report_cut_tape(machine.cassette, args)
    recording = machine.cassette.stop()
    if recording is None:
        return True
    if args.tape_record.suffix.lower() == ".tap":
        content = recording.tape_record()
        if not content:
            print(f"pc1360: nothing was recorded; {args.tape_record} not written", file=sys.stderr)
            return True
    else:
        content = recording.wav()
    try:
        write_atomic(args.tape_record, content)
    except OSError as exc:
        print(f"pc1360: could not write {args.tape_record}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _report_cut_tape(cassette, args):
    """A tape transfer the end of the run (Ctrl-C, the window closed) broke off."""
    if cassette.playing:
        played, length = cassette.played
        print(f"pc1360: the run ended with the tape {args.tape} playing ({played:.1f} s of "
              f"{length:.1f} s): what CLOAD read of it is cut off", file=sys.stderr)
    if cassette.sending:
        print(f"pc1360: the run ended while the machine was sending to tape: the recording "
              f"in {args.tape_record} is cut off", file=sys.stderr)


def _run_window(machine, args):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame

        from emulator.frontend import run_window, settings
    except ImportError as exc:
        raise UsageError(f"the window front-end is not available ({exc}); use --headless") from None
    args.settings_file = settings.default_path()  # zoom and contrast kept between runs
    try:
        return run_window(machine, args)
    except pygame.error as exc:
        raise UsageError(f"cannot open a window ({exc}); use --headless") from None

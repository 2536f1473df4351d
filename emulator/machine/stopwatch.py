"""How long a BASIC program runs in emulated time, measured the same way on either
engine: the cycles from the press of ENTER after RUN until the machine is back in its
key-wait loop (a spell of key-wait strobes after ENTER is up). The timing tests, the
timing benchmark and the capture of the firmware's figures all use this one clock."""

from emulator.machine.facade import KEY_HOLD, PC1360
from pc1360.tokenizer import tokenize

POLL = 256              # cycles between looks at the key-wait strobe
QUIET_GAP = 8_000       # cycles: strobes closer than this belong to one key-wait spell
SPELL = 3               # strobes that make a spell (machine.READY_STROBES)
MAX_SECONDS = 120       # emulated seconds a program may run before the measurement gives up


def boot(engine, rom_dir=None):
    """A machine at the RUN-mode prompt with a cleared card."""
    machine = PC1360(engine=engine, rom_dir=rom_dir if engine == "firmware" else None)
    machine.key_wait_ready(5)
    machine.type_keys("Y")
    machine.key_wait_ready()
    return machine


def time_program(machine, source):
    """Emulated cycles from the press of ENTER after RUN until the program is back at
    the prompt (None if it never gets there within MAX_SECONDS)."""
    machine.load_program(tokenize(source))
    machine.type_keys("RUN")
    machine.key_wait_ready()
    start = machine.cycles
    machine.press("ENTER")
    hold_end = start + round(KEY_HOLD * machine.CYCLES_PER_SECOND)
    bus = machine.bus
    count, spell = bus.keywait_count, []
    deadline = start + MAX_SECONDS * machine.CYCLES_PER_SECOND
    while machine.cycles < deadline:
        machine.run_cycles(POLL)
        if "ENTER" in machine.keyboard.pressed and machine.cycles >= hold_end:
            machine.release("ENTER")
        if bus.keywait_count != count:
            count = bus.keywait_count
            cycle = bus.keywait_cycle
            if spell and cycle - spell[-1] > QUIET_GAP:
                spell = []
            spell.append(cycle)
            if len(spell) >= SPELL and "ENTER" not in machine.keyboard.pressed:
                return spell[0] - start
    return None

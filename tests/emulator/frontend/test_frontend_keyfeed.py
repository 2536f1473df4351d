"""The key feeder: presses held long enough in emulated time, one key at a time."""

from emulator.frontend.key_feed import GAP, MIN_HOLD, READY_TIMEOUT, KeyFeeder


class Recorder:
    def __init__(self):
        self.events = []

    def press(self, key):
        self.events.append(("press", key))

    def release(self, key):
        self.events.append(("release", key))


def _run(feeder, start, end, step=500):
    """Call update every `step` cycles; returns [(cycle, event)]."""
    log = []
    seen = 0
    for now in range(start, end, step):
        feeder.update(now)
        for event in feeder.machine.events[seen:]:
            log.append((now, event))
        seen = len(feeder.machine.events)
    return log


def test_tap_holds_min_hold_then_waits_a_gap_before_the_next_key():
    feeder = KeyFeeder(Recorder())
    feeder.tap(["SHIFT", "Q"])
    log = _run(feeder, 0, 4 * (MIN_HOLD + GAP))
    assert [event for _, event in log] == [("press", "SHIFT"), ("release", "SHIFT"),
                                           ("press", "Q"), ("release", "Q")]
    (t0, _), (t1, _), (t2, _), (t3, _) = log
    assert t1 - t0 >= MIN_HOLD and t2 - t1 >= GAP and t3 - t2 >= MIN_HOLD
    assert feeder.pending == 0 and feeder.down == set()


def test_held_key_stays_down_until_unhold():
    feeder = KeyFeeder(Recorder())
    feeder.hold("A")
    feeder.update(0)
    assert feeder.down == {"A"}
    feeder.update(10 * MIN_HOLD)
    assert feeder.down == {"A"}
    feeder.unhold("A")
    feeder.update(10 * MIN_HOLD)
    assert feeder.down == set()


def test_a_quick_click_is_still_held_min_hold():
    feeder = KeyFeeder(Recorder())
    feeder.hold("A")
    feeder.update(0)
    feeder.unhold("A")
    assert feeder.update(100) == MIN_HOLD  # the release waits for the clock
    assert feeder.down == {"A"}
    feeder.update(MIN_HOLD)
    assert feeder.down == set()


def test_rolled_over_keys_are_typed_one_after_the_other():
    feeder = KeyFeeder(Recorder())
    feeder.tap(["A"])
    feeder.tap(["B"])
    log = _run(feeder, 0, 3 * (MIN_HOLD + GAP))
    assert [event for _, event in log] == [("press", "A"), ("release", "A"), ("press", "B"), ("release", "B")]


def test_press_waits_for_the_key_wait_loop_then_gives_up():
    ready = {"now": False}
    feeder = KeyFeeder(Recorder(), ready=lambda now: ready["now"])
    feeder.tap(["A"])
    feeder.update(0)
    assert feeder.down == set()
    ready["now"] = True
    feeder.update(1000)
    assert feeder.down == {"A"}

    stuck = KeyFeeder(Recorder(), ready=lambda now: False)
    stuck.tap(["B"])
    stuck.update(0)
    stuck.update(READY_TIMEOUT - 1)
    assert stuck.down == set()
    stuck.update(READY_TIMEOUT)
    assert stuck.down == {"B"}


def test_release_all_lets_go_at_once():
    feeder = KeyFeeder(Recorder())
    feeder.hold("A")
    feeder.tap(["B", "C"])
    feeder.update(0)
    assert feeder.down == {"A", "B"}  # a held key is like a finger on it: B goes down too
    feeder.release_all()
    assert feeder.down == set() and feeder.pending == 0
    assert sorted(feeder.machine.events[-2:]) == [("release", "A"), ("release", "B")]


def test_brk_does_not_wait_for_the_key_wait_loop():
    feeder = KeyFeeder(Recorder(), ready=lambda now: False)
    feeder.tap(["BRK"])
    feeder.update(0)
    assert feeder.down == {"BRK"}

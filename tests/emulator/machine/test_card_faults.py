"""Damaged, special and unlucky card files (issue 18 items 1-4, 13, 14): each fault is
reported, nothing is lost, nothing half-written, and no exception but the project's own
comes out of the reader."""

import errno
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.machine import atomic_write
from emulator.machine import card_file as card
from emulator.machine.card_file import CardFileError, CardNotSaved, CardStore
from emulator.machine.facade import PC1360
from tests.helpers.file_faults import read_only_file_system


class StateEngine:
    """An engine whose resume() fails as a damaged state may make any engine fail."""

    name = "fake"

    def __init__(self, machine, error=None):
        self.error = error
        self.resets = 0

    def reset(self):
        self.resets += 1

    def run(self, cycles):
        return cycles

    def power_state(self):
        return b"ENGINE"

    def resume(self, blob):
        if self.error:
            raise self.error


def machine_with(error):
    return PC1360(engine=lambda m: StateEngine(m, error), card_kb=8)


def saved_state(machine):
    return machine.power_state()


def aside_files(directory, name="c.bin"):
    return sorted(p for p in directory.iterdir() if p.name.startswith(f"{name}.corrupt-"))


# -- item 1: a damaged machine state -------------------------------------------------------
def test_a_saved_rom_bank_out_of_range_is_refused_before_anything_changes():
    machine = machine_with(None)
    state = bytearray(saved_state(machine))
    state[8] = 8  # the ROM bank byte (card file offset 32794 for a 32 KB card)
    with pytest.raises(ValueError, match="ROM bank 8"):
        machine.resume(bytes(state))


@pytest.mark.parametrize("error", [TypeError("run: 1"), RecursionError("deep"), KeyError("clock"),
                                   IndexError("bank"), ValueError("bad")])
def test_any_error_from_a_resume_sets_the_file_aside_and_keeps_the_card(tmp_path, error):
    path = tmp_path / "c.bin"
    ram = bytes([0x42]) * 8192
    machine = machine_with(error)
    path.write_bytes(card.encode(ram, saved_state(machine)))
    store = CardStore(path, 8)
    data, state = store.load()
    machine.bus.set_card_data(0, data)
    resets = machine.engine.resets
    store.resume(machine, state)
    assert machine.engine.resets == resets + 1  # started from reset, not half-resumed
    assert machine.card_data() == ram
    (aside,) = aside_files(tmp_path)
    assert card.decode(aside.read_bytes())[0] == ram  # the damaged file is kept whole
    assert type(error).__name__ in store.messages[0] and "the card's RAM is kept" in store.messages[0]
    machine.card_store = store
    machine.save_card()  # and the card is saved again in the usual place
    assert card.decode(path.read_bytes())[0] == ram


# -- item 2: set-aside names never collide -------------------------------------------------
def test_two_damaged_cards_set_aside_in_one_second_are_both_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(time, "strftime", lambda _fmt: "20260101T000000")
    path = tmp_path / "c.bin"
    for junk in (b"first", b"second", b"third"):
        path.write_bytes(junk)
        assert CardStore(path, 8).load() == (None, None)
    assert sorted(p.read_bytes() for p in aside_files(tmp_path)) == [b"first", b"second", b"third"]


# -- item 3: a damaged card that cannot be set aside ---------------------------------------
def test_a_damaged_card_on_a_read_only_file_system_is_kept_and_not_overwritten(tmp_path, monkeypatch):
    path = tmp_path / "c.bin"
    path.write_bytes(b"junk")
    read_only_file_system(monkeypatch)
    store = CardStore(path, 8)
    assert store.load() == (None, None)
    assert "could not be set aside (Read-only file system)" in store.messages[0]
    monkeypatch.undo()
    with pytest.raises(CardNotSaved, match="not saved"):
        store.save(bytes(8192))
    assert path.read_bytes() == b"junk"


# -- item 4: a card file that is no regular file -------------------------------------------
def test_a_directory_is_refused(tmp_path):
    with pytest.raises(CardFileError, match="not a regular file"):
        CardStore(tmp_path, 8).load()


def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(CardFileError, match="not a regular file"):
        CardStore(fifo, 8).load()
    assert fifo.exists()


def test_a_link_to_a_device_is_refused_unread(tmp_path):
    link = tmp_path / "zero.bin"
    link.symlink_to("/dev/zero")
    with pytest.raises(CardFileError, match="not a regular file"):
        CardStore(link, 8).load()
    assert link.is_symlink()


def test_an_overlong_regular_file_is_read_only_to_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "c.bin"
    path.write_bytes(card.encode(bytes(8192), b"S" * 100))
    monkeypatch.setattr(card, "MAX_FILE", 1000)
    store = CardStore(path, 8)
    assert store.load() == (None, None)
    assert "too long" in store.messages[0]


# -- item 13: a save that fails leaves the old file ----------------------------------------
@pytest.mark.parametrize("code, text", [(errno.ENOSPC, "No space left on device"),
                                        (errno.EFBIG, "File too large")])
def test_a_failed_save_keeps_the_old_card_and_no_temporary(tmp_path, monkeypatch, code, text):
    path = tmp_path / "c.bin"
    store = CardStore(path, 8)
    store.save(bytes([1]) * 8192)
    real_fsync = os.fsync

    def failing_fsync(fd):
        raise OSError(code, text)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match=text):
        store.save(bytes([2]) * 8192)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert card.decode(path.read_bytes())[0] == bytes([1]) * 8192
    assert os.listdir(tmp_path) == ["c.bin"]


# -- item 14: the temporaries of killed saves ----------------------------------------------
def test_a_killed_save_s_temporary_is_removed_at_the_next_save(tmp_path):
    path = tmp_path / "c.bin"
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)  # a process id that is surely gone
    stale = tmp_path / f".c.bin.{dead}.abc123.tmp"
    stale.write_bytes(b"half a card")
    alive = tmp_path / f".c.bin.{os.getppid()}.def456.tmp"  # a live writer's: left alone
    alive.write_bytes(b"in progress")
    CardStore(path, 8).save(bytes(8192))
    assert sorted(os.listdir(tmp_path)) == sorted(["c.bin", alive.name])


def test_outputs_refuse_special_files_and_follow_links(tmp_path):
    fifo = tmp_path / "out.img"
    os.mkfifo(fifo)
    with pytest.raises(atomic_write.TargetError, match="not a regular file"):
        atomic_write.write_atomic(fifo, b"x")
    real = tmp_path / "real.img"
    real.write_bytes(b"old")
    link = tmp_path / "link.img"
    link.symlink_to(real)
    atomic_write.write_atomic(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    with pytest.raises(atomic_write.TargetError, match="does not exist"):
        atomic_write.write_atomic(tmp_path / "missing" / "out.img", b"x")


# -- hypothesis: the card file reader ------------------------------------------------------
def _damaged(blob, data):
    blob = bytearray(blob)
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(blob) - 1))
        blob[index] = data.draw(st.integers(0, 255))
    return bytes(blob[:data.draw(st.integers(0, len(blob)))])


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_damaged_card_files_give_only_a_fresh_card_or_the_project_s_errors(tmp_path_factory, data):
    directory = tmp_path_factory.mktemp("card")
    machine = PC1360(engine="builtin", card_kb=8)
    good = card.encode(bytes(8192), machine.power_state())
    blob = data.draw(st.one_of(st.binary(max_size=300), st.just(good).map(lambda g: _damaged(g, data))))
    path = directory / "c.bin"
    path.write_bytes(blob)
    store = CardStore(path, 8)
    try:
        content, state = store.load()
    except CardFileError:
        assert path.read_bytes() == blob  # refused (another size): left as it is
        return
    if content is None:
        assert [p.read_bytes() for p in aside_files(directory)] == [blob]
        return
    machine.bus.set_card_data(0, content)
    if state:
        store.resume(machine, state)  # never raises: damage is reported and set aside
    # the program area is kept (a reset may rewrite the work areas at the card's top)
    assert machine.card_data()[:0x1800] == content[:0x1800]


def test_old_temporaries_without_a_process_id_are_removed_once_old(tmp_path):
    path = tmp_path / "c.bin"
    old = tmp_path / ".c.bin.k2j_x9ab.tmp"  # the name an earlier version gave
    old.write_bytes(b"half")
    os.utime(old, (0, 0))
    recent = tmp_path / ".c.bin.q8z_w1cd.tmp"  # perhaps a write under way: kept
    recent.write_bytes(b"half")
    CardStore(path, 8).save(bytes(8192))
    assert sorted(os.listdir(tmp_path)) == sorted(["c.bin", recent.name])

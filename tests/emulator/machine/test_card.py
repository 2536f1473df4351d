"""RAM card persistence: emulator/machine/card_file.py."""

import os

import pytest

from emulator.machine import card_file as card
from emulator.machine.card_file import CardFileError, CardStore


def test_encode_decode_round_trip_with_and_without_state():
    data = bytes(range(256)) * 32
    assert card.decode(card.encode(data)) == (data, None, None)
    assert card.decode(card.encode(data, b"STATE")) == (data, b"STATE", None)
    assert card.encode(data)[:14] == card.MAGIC


@pytest.mark.parametrize("blob, reason", [
    (b"short", "too short"),
    (b"X" * 40, "bad magic"),
    (card.HEADER.pack(card.MAGIC, 99, 8, 0) + bytes(8192), "version 99"),
    (card.HEADER.pack(card.MAGIC, 1, 8, 0) + bytes(100), "do not match"),
    (card.HEADER.pack(card.MAGIC, 1, 8, 0) + bytes(8193), "do not match"),
    (card.HEADER.pack(card.MAGIC, 1, 8, 1) + bytes(8192), "do not match"),
    (card.HEADER.pack(card.MAGIC, 1, 3, 0) + bytes(3072), "do not match"),
])
def test_decode_names_what_is_wrong(blob, reason):
    data, state, problem = card.decode(blob)
    assert data is None and state is None
    assert reason in problem


def test_missing_file_is_a_fresh_card(tmp_path):
    assert CardStore(tmp_path / "c.bin", 8).load() == (None, None)


def test_save_then_load(tmp_path):
    store = CardStore(tmp_path / "sub" / "c.bin", 8)
    store.save(bytes([7]) * 8192, b"S")
    assert CardStore(tmp_path / "sub" / "c.bin", 8).load() == (bytes([7]) * 8192, b"S")
    assert os.listdir(tmp_path / "sub") == ["c.bin"]  # no temporary file left behind


def test_corrupt_file_is_renamed_aside_and_reported(tmp_path):
    path = tmp_path / "c.bin"
    path.write_bytes(b"garbage")
    store = CardStore(path, 8)
    assert store.load() == (None, None)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("c.bin.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == b"garbage"
    assert not path.exists()
    assert "too short" in store.messages[0] and str(aside[0]) in store.messages[0]


def test_card_of_another_size_is_refused_not_moved(tmp_path):
    path = tmp_path / "c.bin"
    CardStore(path, 8).save(bytes(8192))
    with pytest.raises(CardFileError, match="8 KB card, not 32 KB"):
        CardStore(path, 32).load()
    assert path.exists()


def test_unchanged_card_is_not_rewritten(tmp_path):
    path = tmp_path / "c.bin"
    store = CardStore(path, 8)
    store.save(bytes(8192))
    os.utime(path, (0, 0))
    store.save(bytes(8192))
    assert path.stat().st_mtime == 0


def test_timer_save_comes_after_the_interval(tmp_path, monkeypatch):
    store = CardStore(tmp_path / "c.bin", 8)
    store.autosave(lambda: bytes(8192), lambda: None)
    assert not store.path.exists()
    monkeypatch.setattr(card, "SAVE_INTERVAL", 0.0)
    store.autosave(lambda: bytes(8192), lambda: None)
    assert store.path.exists()


def test_a_failing_timer_save_does_not_stop_the_machine(tmp_path, monkeypatch):
    store = CardStore(tmp_path / "c.bin", 8)
    monkeypatch.setattr(card, "SAVE_INTERVAL", 0.0)

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(card, "write_atomic", full)
    store.autosave(lambda: bytes(8192), lambda: None)  # no exception
    with pytest.raises(OSError, match="No space"):
        store.save(bytes(8192))


def test_default_path_is_in_the_user_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert card.default_path(16) == tmp_path / "pc1360" / "card-s1-16k.bin"


def test_a_store_saves_its_machine_state_even_when_the_caller_gives_only_the_card(tmp_path):
    store = CardStore(tmp_path / "c.bin", 8)
    store.state_source = lambda: b"STATE"
    store.save(bytes(8192))
    assert card.decode((tmp_path / "c.bin").read_bytes())[1] == b"STATE"

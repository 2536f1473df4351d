"""The translation cache (emulator/machine/translation_cache.py): blocks kept for the next
run, read only from a file that is ours (same ROM set, same translator, this user's key,
undamaged); any other file is deleted and rebuilt."""

import linecache
import marshal
import traceback
import zlib

import pytest

from emulator.cpu import sc61860, translator
from emulator.cpu.sc61860 import SC61860
from emulator.machine import translation_cache as tc

ROM = "ab" * 20  # a ROM set's SHA-1, as the firmware engine names it
INA = 0x4C
# 0x0100: INCP; DECI; INA; JP 0x0100 -- one block that loops into itself
PROGRAM = bytes([0x50, 0xC1, INA, 0x79, 0x01, 0x00])


class Bus:
    def __init__(self, fail_at=None):
        self.reads, self.fail_at = 0, fail_at

    def ina(self):
        self.reads += 1
        if self.reads == self.fail_at:
            raise RuntimeError("port broken")
        return self.reads & 0xFF


def new_process(monkeypatch):
    """From here on the process is as a new run: no block translated yet."""
    monkeypatch.setattr(sc61860, "_TRANSLATED", {})
    monkeypatch.setattr(translator, "_block_cache", {})


@pytest.fixture(autouse=True)
def each_test_a_new_process(monkeypatch):
    new_process(monkeypatch)
    monkeypatch.setattr(sc61860, "HOT", 2)


def cpu_with(store, fail_at=None, translate=True):
    mem = bytearray(0x10000)
    mem[0x100:0x100 + len(PROGRAM)] = PROGRAM
    cpu = SC61860(mem, Bus(fail_at))
    if translate:
        cpu.set_code_regions((0x0000, 0x0200), store=store)
    cpu.pc = 0x100
    return cpu


def block_at(cpu, addr):
    run = cpu._run
    pages = dict(zip(run.__code__.co_freevars, run.__closure__))["pages"].cell_contents
    return pages[addr >> 8][addr & 0xFF]


def filled(directory, version="v1"):
    """A cache file made by one run that translated the program's block."""
    store = tc.TranslationCache(directory, ROM, version)
    cpu_with(store).run(2_000)
    store.save()
    return store


def state(cpu):
    return (cpu.pc, cpu.p, cpu.q, cpu.r, cpu.dp, cpu.c, cpu.z, cpu.d, cpu.cycles, bytes(cpu.iram))


def test_a_second_run_uses_the_kept_block_at_once(tmp_path, monkeypatch):
    filled(tmp_path)
    new_process(monkeypatch)
    store = tc.TranslationCache(tmp_path, ROM, "v1")
    assert store.get((None, 0x100)) is not tc.MISSING
    cpu = cpu_with(store)
    cpu.step()  # the first time the entry point runs
    assert block_at(cpu, 0x100).__name__ == "block_0100"
    plain = cpu_with(None, translate=False)  # the interpreter
    plain.step()
    for budget in (1, 7, 50, 333, 1000):
        assert cpu.run(budget) == plain.run(budget)
        assert state(cpu) == state(plain)


def test_a_kept_block_shows_its_source_in_a_traceback(tmp_path, monkeypatch):
    filled(tmp_path)
    new_process(monkeypatch)
    for name in [n for n in linecache.cache if n.startswith("<sc61860 block")]:
        monkeypatch.delitem(linecache.cache, name)
    cpu = cpu_with(tc.TranslationCache(tmp_path, ROM, "v1"), fail_at=5)
    with pytest.raises(RuntimeError) as caught:
        cpu.run(10_000)
    frame = [f for f in traceback.extract_tb(caught.value.__traceback__)
             if f.filename.startswith("<sc61860 block")][-1]
    assert frame.name == "block_0100" and frame.line == "v = bus.ina() & 0xFF"


@pytest.mark.parametrize("other", [
    {"rom": "cd" * 20}, {"version": "v2"}, {"key": b"k" * tc.KEY_SIZE}])
def test_a_file_of_another_rom_set_version_or_user_is_discarded(tmp_path, other):
    store = filled(tmp_path)
    if "key" in other:  # another user's key: the file was not made here
        store.key_path.write_bytes(other["key"])
    rom = other.get("rom", ROM)
    if rom != ROM:  # the same bytes under the other ROM set's name
        (tmp_path / f"blocks-{rom}.bin").write_bytes(store.path.read_bytes())
    reader = tc.TranslationCache(tmp_path, rom, other.get("version", "v1"))
    assert reader.get((None, 0x100)) is tc.MISSING
    assert not reader.path.exists()


@pytest.mark.parametrize("damage", ["flip", "truncate", "magic", "empty"])
def test_a_damaged_file_is_discarded_and_rebuilt(tmp_path, monkeypatch, damage):
    store = filled(tmp_path)
    data = bytearray(store.path.read_bytes())
    if damage == "flip":
        data[-10] ^= 0x40
    elif damage == "truncate":
        del data[len(data) // 2:]
    elif damage == "magic":
        data[0] ^= 1
    else:
        data.clear()
    store.path.write_bytes(bytes(data))
    reader = tc.TranslationCache(tmp_path, ROM, "v1")
    assert reader.get((None, 0x100)) is tc.MISSING and not reader.path.exists()
    new_process(monkeypatch)
    cpu_with(reader).run(2_000)  # the block is translated anew and kept
    reader.save()
    assert tc.TranslationCache(tmp_path, ROM, "v1").get((None, 0x100)) is not tc.MISSING


@pytest.mark.parametrize("entry", [
    b"not compressed", zlib.compress(b"not marshal"), zlib.compress(marshal.dumps((1, "x"))),
    zlib.compress(marshal.dumps(((lambda: 0).__code__, "")))])
def test_a_tagged_entry_that_is_not_a_block_is_not_used(tmp_path, entry):
    store = tc.TranslationCache(tmp_path, ROM, "v1")
    store.entries[(None, 0x100)] = entry
    store.added[(None, 0x200)] = (None, "")  # something new, so that the file is written
    store.save()
    reader = tc.TranslationCache(tmp_path, ROM, "v1")
    assert reader.get((None, 0x100)) is tc.MISSING
    assert (None, 0x100) not in reader.entries  # translated anew when it gets hot


def test_the_key_is_the_users_own(tmp_path):
    store = filled(tmp_path)
    assert store.key_path.stat().st_mode & 0o077 == 0
    store.key_path.write_bytes(b"short")  # not a key: replaced, the old file then fails
    reader = tc.TranslationCache(tmp_path, ROM, "v1")
    assert len(reader.key_path.read_bytes()) == tc.KEY_SIZE
    assert reader.get((None, 0x100)) is tc.MISSING


def test_a_directory_that_cannot_be_written_leaves_the_machine_without_a_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    store = tc.TranslationCache(blocker / "cache", ROM, "v1")
    cpu = cpu_with(store)
    cpu.run(2_000)
    store.save()  # nothing written, nothing raised
    assert block_at(cpu, 0x100).__name__ == "block_0100"


def test_the_firmware_engine_keys_its_cache_by_the_rom_set(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tc, "_OPEN", {})
    one, two = tc.for_rom(ROM), tc.for_rom("cd" * 20)
    assert one is tc.for_rom(ROM) and one is not two
    assert one.path.parent == tmp_path / "pc1360"
    assert one.binding.split()[1] == translator.translator_version().encode()


def test_a_block_whose_source_linecache_forgot_is_not_kept(tmp_path, monkeypatch):
    store = tc.TranslationCache(tmp_path, ROM, "v1")
    cpu = cpu_with(store)
    cpu.run(2_000)
    code = block_at(cpu, 0x100).__code__
    monkeypatch.setattr(linecache, "cache", dict(linecache.cache))  # the other tests keep theirs
    linecache.clearcache()  # as a tool may do while the machine runs
    store.put((None, 0x200), code)  # a kept block must show its source: nothing kept
    assert store.get((None, 0x200)) is tc.MISSING
    cpu.run(2_000)

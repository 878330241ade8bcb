"""The worker's chunk store: memory within budget, LRU spilling, pins, disk errors."""

import errno
import os
import pickle
import random
import sys
import threading
from decimal import Decimal

import numpy as np
import pytest

from jupyter_mars.engine.storage import ChunkLostError, ChunkStore, admission, sizeof
from jupyter_mars.engine.storage import store as store_module
from jupyter_mars.engine.storage.spill_file import (
    SpillFormatError,
    read_value,
    write_value,
)

KB = 1000


def block(i, nbytes=KB):
    """A float64 array of ``nbytes`` bytes, filled with ``i`` so it can be told apart."""
    return np.full(nbytes // 8, i, dtype="f8")


def on_disk(root):
    """Keys (as written in the file names) of the chunks spilled under ``root``."""
    files = root.glob("**/jupyter-mars-chunks-*/*.chunk")
    return {path.name.split("-", 1)[1].removesuffix(".chunk") for path in files}


def only_on_disk(store):
    """Keys of the chunks the store holds on disk only (not in memory)."""
    return {str(key) for key, entry in store._entries.items() if not entry.held}


@pytest.fixture
def make_store(tmp_path):
    stores = []

    def make(cache_bytes=3 * KB, spill_dirs=(str(tmp_path),), **kwargs):
        store = ChunkStore(cache_bytes, spill_dirs, **kwargs)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.validate_state()
        store.close()


VALUES = {
    "f8": np.linspace(0, 1, 50),
    "i4-2d": np.arange(24, dtype="i4").reshape(4, 6),
    "c16": np.array([1 + 2j, 3 - 4j]),
    "bool": np.array([True, False, True]),
    "datetime": np.array(["2024-01-01", "2024-06-30"], dtype="datetime64[D]"),
    "structured": np.array([(1, 2.5)], dtype=[("a", "i8"), ("b", "f4")]),
    "fortran": np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    "strided": np.arange(20.0)[::3],
    "scalar-array": np.array(7, dtype="u2"),
    "empty": np.empty((0, 3), dtype="f4"),
    "objects": np.array([Decimal(1), "x", None], dtype=object),
    "dict": {"a": [1, 2, 3], "b": ("x", 2.5)},
    "tuple-of-arrays": (np.ones(3), np.zeros(2, dtype="i2")),
    "str": "hello",
    "none": None,
}


@pytest.mark.parametrize("cache_bytes", [10**9, 0], ids=["in-memory", "spilled"])
@pytest.mark.parametrize("name", list(VALUES))
def test_get_returns_what_was_put(make_store, cache_bytes, name):
    store = make_store(cache_bytes=cache_bytes)
    store.put(name, VALUES[name])
    expected = VALUES[name]
    assert store.info()["n_spilled"] == (cache_bytes == 0 and sizeof(expected) > 0)
    out = store.get(name)
    if isinstance(expected, np.ndarray):
        assert out.dtype == expected.dtype
        assert out.shape == expected.shape
        assert out.flags.f_contiguous == expected.flags.f_contiguous or expected.ndim < 2
        np.testing.assert_array_equal(out, expected)
    elif name == "tuple-of-arrays":
        for got, want in zip(out, expected):
            np.testing.assert_array_equal(got, want)
    else:
        assert out == expected


def test_chunks_beyond_the_cache_are_spilled_and_read_back(make_store, tmp_path):
    store = make_store(cache_bytes=3 * KB)
    for i in range(5):
        store.put(f"k{i}", block(i))
    assert on_disk(tmp_path) == {"k0", "k1"}
    assert store.info()["memory_bytes"] == 3 * KB
    for i in range(5):
        np.testing.assert_array_equal(store.get(f"k{i}"), block(i))
    assert len(store) == 5
    assert sorted(store.keys()) == [f"k{i}" for i in range(5)]
    assert store.nbytes("k0") == KB


def test_least_recently_used_chunk_is_spilled_first(make_store, tmp_path):
    store = make_store(cache_bytes=3 * KB)
    for key in "abc":
        store.put(key, block(0))
    store.get("a")  # now b is the least recently used
    store.put("d", block(0))
    assert on_disk(tmp_path) == {"b"}
    store.get("b")  # read back: most recent, so c (now the oldest) goes out
    assert on_disk(tmp_path) == {"b", "c"}  # b's file stays, a clean copy
    assert store.info()["spill_reads"] == 1
    assert store.info()["spilled_bytes"] == KB  # c: only on disk
    store.get("a")
    store.get("d")
    writes = store.info()["spill_writes"]
    store.put("e", block(0))  # b goes out again: its file holds it, nothing is written
    assert on_disk(tmp_path) == {"b", "c"}
    assert store.info()["spill_writes"] == writes
    np.testing.assert_array_equal(store.get("b"), block(0))


def test_chunk_read_back_is_not_spilled_by_its_own_read(make_store, tmp_path):
    store = make_store(cache_bytes=KB)
    store.put("big", block(1, 2 * KB))
    assert on_disk(tmp_path) == {"big"}
    np.testing.assert_array_equal(store.get("big"), block(1, 2 * KB))
    info = store.info()
    assert (info["n_memory"], info["spilled_bytes"], info["disk_bytes"]) == (1, 0, 2 * KB)
    assert info["overflow_bytes"] == KB


def test_pinned_chunks_are_never_spilled(make_store, tmp_path):
    store = make_store(cache_bytes=KB)
    store.put("input", block(1, 2 * KB))  # over budget on its own: spilled at once
    store.pin("input")  # two tasks read it, as a worker does: pin, then get
    store.pin("input")
    np.testing.assert_array_equal(store.get("input"), block(1, 2 * KB))
    for i in range(3):
        store.put(f"k{i}", block(i))
    assert only_on_disk(store) == {"k0", "k1", "k2"}
    assert store.info()["n_pinned"] == 1
    assert store.info()["overflow_bytes"] == KB
    store.unpin("input")
    assert "input" not in only_on_disk(store)
    store.unpin("input")  # the last unpin spills it: the store is over budget
    assert "input" in only_on_disk(store)
    store.unpin("input")  # once too often: a no-op, as after a delete
    store.unpin("missing")
    with pytest.raises(KeyError):
        store.pin("missing")


def test_put_again_replaces_value_and_file_and_keeps_pins(make_store, tmp_path):
    store = make_store(cache_bytes=0)
    store.put("a", block(1))
    store.pin("a")  # pinned while on disk: stays there until read
    assert on_disk(tmp_path) == {"a"}
    store.put("a", block(2, 2 * KB))
    assert on_disk(tmp_path) == set()  # old file gone; new value pinned in memory
    assert store.nbytes("a") == 2 * KB
    np.testing.assert_array_equal(store.get("a"), block(2, 2 * KB))
    store.unpin("a")
    assert on_disk(tmp_path) == {"a"}


def test_delete_removes_memory_copy_and_file(make_store, tmp_path):
    store = make_store(cache_bytes=KB)
    store.put("a", block(1))
    store.put("b", block(2))
    assert on_disk(tmp_path) == {"a"}
    assert store.delete("a")
    assert store.delete("b")
    assert not store.delete("a")
    assert on_disk(tmp_path) == set()
    assert "a" not in store
    assert len(store) == 0
    info = store.info()
    assert (info["memory_bytes"], info["spilled_bytes"]) == (0, 0)
    with pytest.raises(KeyError):
        store.get("a")


def test_info_reports_true_figures(make_store):
    store = make_store(cache_bytes=2 * KB)
    for i in range(4):
        store.put(i, block(i))
    store.get(0)
    assert store.info() == {
        "memory_bytes": 2 * KB,
        "spilled_bytes": 2 * KB,
        "disk_bytes": 3 * KB,  # 0 was read back: its file stays, a clean copy
        "n_memory": 2,
        "n_spilled": 2,
        "n_pinned": 0,
        "cache_bytes": 2 * KB,
        "phy_mem_bytes": store.phy_mem_bytes,
        "overflow_bytes": 0,
        "spill_reads": 1,
        "spill_writes": 3,
        "spill_errors": 0,
        "drops": 0,
        "recomputes": 0,
        "undrawn": 0,
        "spare_reused": store_module.spare.POOL.reused,
        "warnings": [],
    }


def test_without_spill_dirs_everything_stays_in_memory(make_store):
    store = make_store(cache_bytes=KB, spill_dirs=())
    for i in range(3):
        store.put(i, block(i))
    info = store.info()
    assert (info["n_memory"], info["n_spilled"], info["overflow_bytes"]) == (3, 0, 2 * KB)


def test_overflow_without_spill_dirs_is_said_once_in_the_log_and_the_info(make_store, caplog):
    store = make_store(cache_bytes=KB, spill_dirs=())
    store.put(0, block(0))
    assert store.info()["warnings"] == []
    for i in range(1, 4):
        store.put(i, block(i))
    (warning,) = store.info()["warnings"]
    assert "--cache-mem" in warning
    assert "--spill-dir" in warning
    logged = [r for r in caplog.records if "--spill-dir" in r.getMessage()]
    assert len(logged) == 1
    assert logged[0].levelname == "WARNING"


def test_spill_memory_spills_within_the_cache_when_the_process_is_short(make_store, tmp_path):
    store = make_store(cache_bytes=10 * KB, spill_dirs=[str(tmp_path)])
    for i in range(4):
        store.put(i, block(i))
    store.pin(0)
    assert store.info()["n_spilled"] == 0
    assert store.spill_memory(2 * KB) == 2 * KB
    info = store.info()
    assert (info["n_memory"], info["n_spilled"]) == (2, 2)
    assert store.get(1).sum() == block(1).sum()  # the least recently used unpinned went
    store.validate_state()
    assert make_store(cache_bytes=10 * KB, spill_dirs=()).spill_memory(KB) == 0


def test_spills_spread_over_directories(make_store, tmp_path):
    dirs = [tmp_path / "d1", tmp_path / "d2"]
    store = make_store(cache_bytes=0, spill_dirs=[str(d) for d in dirs])
    for i in range(4):
        store.put(i, block(i))
    assert [len(on_disk(d)) for d in dirs] == [2, 2]


def test_full_disk_keeps_values_in_memory_and_counts_errors(make_store, tmp_path, monkeypatch):
    def full(path, value):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(store_module, "write_value", full)
    store = make_store(cache_bytes=KB)
    for i in range(3):
        store.put(i, block(i))
    info = store.info()
    assert (info["n_memory"], info["n_spilled"], info["spill_errors"]) == (3, 0, 3)
    for i in range(3):
        np.testing.assert_array_equal(store.get(i), block(i))
    store.validate_state()

    monkeypatch.setattr(store_module, "write_value", write_value)  # space freed
    store.put(3, block(3))
    assert on_disk(tmp_path) == {"0", "1", "2"}


def test_failing_directory_falls_back_to_the_next(make_store, tmp_path, monkeypatch):
    bad = tmp_path / "bad"
    attempts_on_bad = []

    def picky(path, value):
        if path.startswith(str(bad)):
            attempts_on_bad.append(path)
            raise PermissionError(errno.EACCES, "Permission denied", path)
        write_value(path, value)

    monkeypatch.setattr(store_module, "write_value", picky)
    store = make_store(cache_bytes=0, spill_dirs=[str(bad), str(tmp_path / "good")])
    for i in range(3):
        store.put(i, block(i))
    assert on_disk(tmp_path / "good") == {"0", "1", "2"}
    assert store.info()["spill_errors"] == 0
    assert len(attempts_on_bad) == 1  # then it goes to the back of the line


def test_unpicklable_value_stays_in_memory_and_is_not_retried(make_store, tmp_path):
    store = make_store(cache_bytes=0)
    lock = threading.Lock()
    store.put("lock", lock)
    store.put("a", block(1))
    assert store.get("lock") is lock
    assert store.info()["spill_errors"] == 1
    assert on_disk(tmp_path) == {"a"}


def test_unreadable_spill_file_raises_chunk_lost_naming_the_key(make_store, tmp_path):
    store = make_store(cache_bytes=0)
    store.put("a", block(1))
    store.put("b", block(2))
    (path_a,) = tmp_path.glob("*/*-a.chunk")
    (path_b,) = tmp_path.glob("*/*-b.chunk")
    path_a.unlink()
    path_b.write_bytes(path_b.read_bytes()[:20])
    for key, path in [("a", path_a), ("b", path_b)]:
        with pytest.raises(ChunkLostError, match=f"chunk '{key}' is lost") as caught:
            store.get(key)
        assert isinstance(caught.value, OSError)
        assert caught.value.key == key
        assert caught.value.filename == str(path)
        assert pickle.loads(pickle.dumps(caught.value)).key == key
    assert store.delete("a")


def test_close_removes_only_its_own_files(tmp_path):
    neighbour = tmp_path / "other-worker.chunk"
    neighbour.write_bytes(b"keep me")
    other = ChunkStore(0, [str(tmp_path)])
    other.put("x", block(9))
    with ChunkStore(0, [str(tmp_path)]) as store:
        store.put("a", block(1))
        assert on_disk(tmp_path) == {"a", "x"}
    assert on_disk(tmp_path) == {"x"}
    assert neighbour.read_bytes() == b"keep me"
    assert len(list(tmp_path.iterdir())) == 2  # neighbour and the other store's directory
    store.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        store.put("b", 1)
    other.close()
    assert list(tmp_path.iterdir()) == [neighbour]


def test_can_admit_counts_rss_and_what_spilling_frees(make_store, monkeypatch):
    monkeypatch.setattr(admission, "process_rss", lambda trim_above=None, live=False: 8 * KB)
    store = make_store(cache_bytes=10 * KB, phy_mem_bytes=10 * KB)
    assert store.can_admit(2 * KB)
    assert not store.can_admit(3 * KB)
    store.put("a", block(1, 2 * KB))  # spillable, so it counts as room
    assert store.can_admit(4 * KB)
    store.pin("a")
    assert not store.can_admit(4 * KB)
    no_disk = make_store(cache_bytes=10 * KB, spill_dirs=(), phy_mem_bytes=10 * KB)
    no_disk.put("a", block(1, 2 * KB))
    assert not no_disk.can_admit(4 * KB)


def test_default_physical_limit_is_machine_memory(make_store):
    assert make_store().phy_mem_bytes == admission.physical_memory() > 0
    assert admission.process_rss() > 0


def test_concurrent_puts_and_gets_stay_consistent(make_store, tmp_path):
    store = make_store(cache_bytes=8 * KB, spill_dirs=[str(tmp_path / "a"), str(tmp_path / "b")])
    errors = []

    def work(seed):
        rng = random.Random(seed)
        try:
            for step in range(150):
                key = (seed, rng.randrange(12))
                action = rng.random()
                if action < 0.5:
                    store.put(key, block(key[1], rng.choice([KB, 2 * KB])))
                elif action < 0.9 and key in store:
                    value = store.get(key)
                    assert (value == key[1]).all()
                else:
                    store.delete(key)
                shared = ("shared", step % 5)
                store.put(shared, block(step % 5))
                assert (store.get(shared) == step % 5).all()
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    store.validate_state()
    info = store.info()
    assert info["memory_bytes"] <= 8 * KB
    assert info["n_spilled"] == len(only_on_disk(store)) > 0
    assert len(on_disk(tmp_path)) >= info["n_spilled"]  # and clean copies of some in memory
    for key in store.keys():
        assert (store.get(key) == key[1]).all()


class BlockingWriter:
    """A ``write_value`` that stops inside the write until the test lets it go on."""

    def __init__(self):
        self.started = threading.Event()
        self.proceed = threading.Event()

    def __call__(self, path, value):
        self.started.set()
        assert self.proceed.wait(5)
        write_value(path, value)


def spill_in_background(store, monkeypatch, key):
    writer = BlockingWriter()
    monkeypatch.setattr(store_module, "write_value", writer)
    thread = threading.Thread(target=store.put, args=(key, block(1)))
    thread.start()
    assert writer.started.wait(5)
    return writer, thread


def test_chunk_pinned_while_being_written_stays_in_memory(make_store, tmp_path, monkeypatch):
    store = make_store(cache_bytes=0)
    writer, thread = spill_in_background(store, monkeypatch, "a")
    store.pin("a")
    np.testing.assert_array_equal(store.get("a"), block(1))  # served from memory meanwhile
    writer.proceed.set()
    thread.join()
    assert only_on_disk(store) == set()
    assert store.info()["n_memory"] == 1
    assert on_disk(tmp_path) == {"a"}  # a clean copy: the next spill of it writes nothing
    store.unpin("a")
    assert only_on_disk(store) == {"a"}
    assert store.info()["spill_writes"] == 1


def test_chunk_deleted_while_being_written_leaves_no_file(make_store, tmp_path, monkeypatch):
    store = make_store(cache_bytes=0)
    writer, thread = spill_in_background(store, monkeypatch, "a")
    assert store.delete("a")
    writer.proceed.set()
    thread.join()
    assert on_disk(tmp_path) == set()
    assert len(store) == 0


def test_concurrent_readers_of_a_spilled_chunk_read_it_once(make_store, monkeypatch):
    store = make_store(cache_bytes=KB)
    store.put("a", block(1))
    store.put("b", block(2))  # spills a
    started, proceed = threading.Event(), threading.Event()

    def slow_read(path):
        started.set()
        assert proceed.wait(5)
        return read_value(path)

    monkeypatch.setattr(store_module, "read_value", slow_read)
    results = []
    readers = [threading.Thread(target=lambda: results.append(store.get("a"))) for _ in range(3)]
    for reader in readers:
        reader.start()
    assert started.wait(5)
    proceed.set()
    for reader in readers:
        reader.join()
    assert len(results) == 3
    assert all((r == 1).all() for r in results)
    assert store.info()["spill_reads"] == 1


def test_spill_file_round_trip_gives_writable_arrays(tmp_path):
    path = str(tmp_path / "x.chunk")
    value = {"a": np.arange(10.0), "b": np.asfortranarray(np.ones((2, 3)))}
    write_value(path, value)
    with pytest.raises(FileExistsError):
        write_value(path, value)
    out = read_value(path)
    assert out["a"].flags.writeable
    assert out["b"].flags.f_contiguous
    np.testing.assert_array_equal(out["a"], value["a"])
    (tmp_path / "junk.chunk").write_bytes(b"not a spill file at all!")
    with pytest.raises(SpillFormatError):
        read_value(str(tmp_path / "junk.chunk"))


class FakeFrame:
    """Quacks like a pandas DataFrame: ``memory_usage(deep=True)`` answers per column."""

    def memory_usage(self, deep=False):
        return np.array([100, 250] if deep else [100, 8])


class FakeSeries:
    def memory_usage(self, deep=False):
        return 300 if deep else 16


def test_sizeof_measures_data_not_wrappers():
    assert sizeof(np.zeros((10, 10))) == 800
    assert sizeof(np.zeros(100)[::2]) == 400
    assert sizeof(FakeFrame()) == 350
    assert sizeof(FakeSeries()) == 300
    assert sizeof((np.zeros(100), [np.zeros(50)])) > 1200
    assert sizeof({"k": np.zeros(100)}) > 800
    assert sizeof("abc") == sys.getsizeof("abc")


def test_peek_reads_only_chunks_in_memory(tmp_path):
    import numpy as np

    from jupyter_mars.engine.storage import ChunkStore

    store = ChunkStore(cache_bytes=1000, spill_dirs=[str(tmp_path)])
    try:
        first = np.arange(100, dtype=np.int64)  # 800 bytes
        store.put("a", first)
        found, value = store.peek("a")
        assert found
        assert value is first
        assert store.has_room(200)
        assert not store.has_room(201)
        store.put("b", np.arange(100, dtype=np.int64))  # spills "a"
        assert store.peek("a") == (False, None)
        assert store.peek("missing") == (False, None)
        np.testing.assert_array_equal(store.get("a"), first)
    finally:
        store.close()


def test_large_arrays_are_read_back_over_a_mapping_of_their_file(tmp_path):
    path = str(tmp_path / "big.chunk")
    value = {"a": np.arange(300_000, dtype="f8"), "b": np.asfortranarray(np.ones((300, 500)))}
    write_value(path, value)
    out = read_value(path)
    os.remove(path)  # the mapping outlives the file's name
    for name, array in value.items():
        got = out[name]
        np.testing.assert_array_equal(got, array)
        assert got.ctypes.data % 64 == 0  # aligned as NumPy's own arrays
        assert got.flags.writeable
        assert got.flags.f_contiguous == array.flags.f_contiguous
    out["a"][0] = -1.0  # copy on write: the process's private page
    assert out["a"][0] == -1.0


class PausedRead:
    """``read_value`` that waits, before it opens the file, until told to go on."""

    def __init__(self):
        self.started = threading.Event()
        self.proceed = threading.Event()

    def __call__(self, path):
        self.started.set()
        assert self.proceed.wait(5)
        return read_value(path)


@pytest.mark.parametrize("meanwhile", ["deleted", "replaced"])
def test_a_chunk_released_while_read_back_is_still_read(make_store, monkeypatch, meanwhile):
    # A task read its input back from disk while the supervisor released the chunk (or
    # had it recomputed): the release unlinked the file before the reader opened it, and
    # the reader failed with a bare KeyError of the chunk, or, a moment later, got it
    store = make_store(cache_bytes=KB)
    store.put("a", block(1))
    store.put("b", block(2))  # spills a
    paused = PausedRead()
    monkeypatch.setattr(store_module, "read_value", paused)
    results, errors = [], []

    def read():
        try:
            results.append(store.get("a"))
        except BaseException as exc:  # reported to the test
            errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(2)]  # one reads, one waits
    for reader in readers:
        reader.start()
    assert paused.started.wait(5)
    if meanwhile == "deleted":
        assert store.delete("a")
    else:
        store.put("a", block(1))
    paused.proceed.set()
    for reader in readers:
        reader.join()
    assert errors == []
    assert len(results) == 2
    assert all((r == 1).all() for r in results)
    assert ("a" in store) == (meanwhile == "replaced")


def test_small_chunks_are_spilled_after_large_ones(make_store):
    store = make_store(cache_bytes=10**9)
    store.put("partial", np.zeros(1))  # a reduction's result, least recently used
    store.put("chunk", block(1, 256 * KB))
    assert store.spill_memory(1) == 256 * KB
    assert only_on_disk(store) == {"chunk"}
    assert store.spill_memory(10**6) == 8  # then the small ones, when nothing else is left
    assert only_on_disk(store) == {"chunk", "partial"}


def test_a_demoted_chunk_is_the_first_to_spill(make_store):
    store = make_store(cache_bytes=3 * KB)
    for key in ("a", "b", "c"):
        store.put(key, block(1))
    store.demote("c")  # read by all its readers: the next to go, before a and b
    store.demote("gone")  # unknown keys are no error
    store.put("d", block(2))
    assert only_on_disk(store) == {"c"}
    store.demote("c")  # on disk already: nothing to do
    assert store.in_memory("a")

"""Chunks put with a recipe: dropped rather than written, drawn again when read."""

import threading

import numpy as np
import pytest

from jupyter_mars.engine.storage import ChunkStore

KB = 1000


def block(i, nbytes=KB):
    return np.full(nbytes // 8, i, dtype="f8")


class Recipe:
    """Makes ``block(i)`` again, counting its calls; ``gate`` holds each call back."""

    def __init__(self, i, gate=None, error=None):
        self.i, self.gate, self.error = i, gate, error
        self.calls = 0
        self.started = threading.Event()

    def __call__(self):
        self.calls += 1
        self.started.set()
        if self.gate is not None:
            assert self.gate.wait(5)
        if self.error is not None:
            raise self.error
        return block(self.i)


def files(root):
    return sorted(p.name for p in root.glob("**/*.chunk"))


@pytest.fixture
def make_store(tmp_path):
    stores = []

    def make(cache_bytes=2 * KB, spill_dirs=(str(tmp_path),)):
        store = ChunkStore(cache_bytes, spill_dirs)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.validate_state()
        store.close()


@pytest.mark.parametrize("with_dirs", [True, False], ids=["spill-dir", "no-spill-dir"])
def test_a_chunk_with_a_recipe_is_dropped_and_drawn_again(make_store, tmp_path, with_dirs):
    store = make_store(spill_dirs=(str(tmp_path),) if with_dirs else ())
    recipes = {i: Recipe(i) for i in range(4)}
    for i in range(4):
        store.put(i, block(i), recompute=recipes[i])
    info = store.info()
    assert (info["memory_bytes"], info["spilled_bytes"]) == (2 * KB, 2 * KB)
    assert (info["drops"], info["spill_writes"], info["disk_bytes"]) == (2, 0, 0)
    assert files(tmp_path) == []
    for i in range(4):
        np.testing.assert_array_equal(store.get(i), block(i))
    # 0 and 1 came back, which dropped 2 and 3, which came back in turn
    assert [recipes[i].calls for i in range(4)] == [1, 1, 1, 1]
    assert store.info()["recomputes"] == 4
    assert store.info()["overflow_bytes"] == 0
    assert files(tmp_path) == []


def test_chunks_with_a_recipe_go_before_any_that_needs_a_write(make_store, tmp_path):
    store = make_store(cache_bytes=3 * KB)
    store.put("written", block(1))  # least recently used, yet a write would cost more
    store.put("drawn", block(2), recompute=Recipe(2))
    store.put("new", block(3))
    store.put("newer", block(4))
    assert store.info()["spill_writes"] == 0
    assert not store.in_memory("drawn")
    store.put("newest", block(5))  # nothing left to drop: the least recently used is written
    assert store.info()["spill_writes"] == 1
    assert [name.split("-", 1)[1] for name in files(tmp_path)] == ["written.chunk"]
    np.testing.assert_array_equal(store.get("written"), block(1))


def test_without_spill_dirs_only_chunks_with_a_recipe_can_go(make_store):
    store = make_store(cache_bytes=2 * KB, spill_dirs=())
    store.put("kept", block(1))
    store.put("drawn", block(2), recompute=Recipe(2))
    assert store.reclaimable_bytes() == KB  # "drawn" only
    assert store.spill_memory(10 * KB) == KB
    info = store.info()
    assert (info["n_memory"], info["drops"]) == (1, 1)
    assert store.in_memory("kept")


def test_pinned_chunks_with_a_recipe_stay(make_store):
    store = make_store(cache_bytes=0)
    store.put("a", block(1), recompute=Recipe(1), spill=False)
    store.pin("a")
    assert store.spill_memory(KB) == 0
    assert store.in_memory("a")
    store.unpin("a")  # over budget and unpinned: dropped now
    assert not store.in_memory("a")
    assert store.info()["drops"] == 1


def test_a_failing_recipe_raises_its_error_and_the_next_read_tries_again(make_store):
    store = make_store(cache_bytes=0)
    recipe = Recipe(1, error=MemoryError("no room to draw it"))
    store.put("a", block(1), recompute=recipe)
    with pytest.raises(MemoryError, match="no room to draw it"):
        store.get("a")
    recipe.error = None
    np.testing.assert_array_equal(store.get("a"), block(1))
    assert recipe.calls == 2


def test_concurrent_readers_of_a_dropped_chunk_draw_it_once(make_store):
    store = make_store(cache_bytes=0)
    gate = threading.Event()
    recipe = Recipe(7, gate=gate)
    store.put("a", block(7), recompute=recipe)
    results = []
    readers = [threading.Thread(target=lambda: results.append(store.get("a"))) for _ in range(3)]
    for reader in readers:
        reader.start()
    assert recipe.started.wait(5)
    gate.set()
    for reader in readers:
        reader.join()
    assert recipe.calls == 1
    assert len(results) == 3
    assert all((r == 7).all() for r in results)


def test_a_dropped_chunk_deleted_or_replaced_is_gone(make_store):
    store = make_store(cache_bytes=0)
    store.put("a", block(1), recompute=Recipe(1))
    store.put("b", block(2), recompute=Recipe(2))
    assert store.delete("a")
    with pytest.raises(KeyError):
        store.get("a")
    store.put("b", block(3))  # replaced by a value with no recipe: it is written now
    np.testing.assert_array_equal(store.get("b"), block(3))
    assert store.info()["spill_writes"] == 1


def test_a_dropped_chunk_deleted_while_drawn_still_reaches_its_reader(make_store):
    store = make_store(cache_bytes=0)
    gate = threading.Event()
    recipe = Recipe(4, gate=gate)
    store.put("a", block(4), recompute=recipe)
    results = []
    reader = threading.Thread(target=lambda: results.append(store.get("a")))
    reader.start()
    assert recipe.started.wait(5)
    assert store.delete("a")
    gate.set()
    reader.join()
    np.testing.assert_array_equal(results[0], block(4))
    assert "a" not in store


def test_an_undrawn_chunk_is_drawn_by_its_first_reader(make_store, tmp_path):
    store = make_store(cache_bytes=2 * KB)
    store.put("held", block(0))
    recipe = Recipe(5)
    store.put_undrawn("owed", recipe, KB)
    assert recipe.calls == 0
    info = store.info()
    assert (info["memory_bytes"], info["spilled_bytes"], info["undrawn"]) == (KB, KB, 1)
    assert "owed" in store
    assert not store.in_memory("owed")
    assert store.peek("owed") == (False, None)
    np.testing.assert_array_equal(store.get("owed"), block(5))
    assert recipe.calls == 1
    assert store.in_memory("owed")
    assert store.info()["recomputes"] == 1
    np.testing.assert_array_equal(store.get("owed"), block(5))  # kept once drawn
    assert recipe.calls == 1
    assert files(tmp_path) == []


def test_an_undrawn_chunk_replaces_a_value_and_keeps_its_pins(make_store, tmp_path):
    store = make_store(cache_bytes=2 * KB)
    store.put("k", block(1))
    store.pin("k")
    store.put_undrawn("k", Recipe(2), KB)
    assert store.info()["memory_bytes"] == 0
    np.testing.assert_array_equal(store.get("k"), block(2))
    store.put("other", block(3))
    store.put("more", block(4))
    assert store.in_memory("k")  # still pinned: never dropped
    store.unpin("k")
    store.delete("k")
    assert "k" not in store


def test_a_failing_recipe_of_an_undrawn_chunk_raises_to_its_reader(make_store):
    store = make_store()
    store.put_undrawn("bad", Recipe(1, error=ValueError("no draw")), KB)
    with pytest.raises(ValueError, match="no draw"):
        store.get("bad")
    assert "bad" in store
    assert not store.in_memory("bad")

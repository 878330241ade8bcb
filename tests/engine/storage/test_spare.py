"""The spare pool: blocks of dropped chunks nobody references, reused by the next draw."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import execute_task
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.engine.storage import ChunkStore, spare
from jupyter_mars.engine.storage.spare import SparePool

MIB = 1 << 20


def fresh(nbytes=MIB, dtype="f8"):
    return np.ones(nbytes // np.dtype(dtype).itemsize, dtype=dtype)


def test_only_arrays_nothing_else_holds_are_kept():
    pool = SparePool(8 * MIB)
    held = fresh()
    view_of_held = held[: held.size // 2]
    pool.offer([held, view_of_held])
    assert pool.nbytes == 0
    strided = fresh(2 * MIB)[::2]  # its owner is referenced by the view only, but the view
    pool.offer([strided])  # does not span it
    read_only = fresh()
    read_only.flags.writeable = False
    pool.offer([read_only, fresh(MIB // 2), [1, 2, 3], None, fresh(MIB, "i4")])
    assert pool.nbytes == MIB  # the int32 array alone


def test_a_whole_view_gives_its_owner_and_empty_reuses_the_memory():
    pool = SparePool(8 * MIB)
    flat = pool.empty((256, 512), np.float64).reshape(-1)  # a whole view of a new array
    address = flat.ctypes.data
    values = [flat]
    del flat  # the list holds the only reference: the pool takes it
    pool.offer(values)
    assert values == []
    assert pool.nbytes == MIB
    again = pool.empty((1024, 256), np.float32)  # another dtype and shape, same size
    assert again.ctypes.data == address
    assert again.shape == (1024, 256)
    assert again.dtype == np.float32
    assert again.flags.c_contiguous
    assert again.flags.writeable
    assert pool.nbytes == 0
    other = pool.empty((1024, 256), np.float32)
    assert other.ctypes.data != address  # nothing kept: a new array


def test_the_limit_holds_and_clear_gives_everything_back():
    pool = SparePool(2 * MIB)
    pool.offer([fresh(), fresh(), fresh()])
    assert pool.nbytes == 2 * MIB
    pool.clear()
    assert pool.nbytes == 0
    assert SparePool().offer([fresh()]) is None  # a limit of 0 keeps nothing


@pytest.fixture
def pool(monkeypatch):
    process_pool = SparePool(16 * MIB)
    monkeypatch.setattr(spare, "POOL", process_pool)
    return process_pool


def test_chunks_dropped_by_the_store_feed_the_pool(pool, tmp_path):
    store = ChunkStore(MIB, [str(tmp_path)])
    try:
        store.put("a", fresh(), recompute=fresh)
        store.put("b", fresh(), recompute=fresh)  # "a" is dropped: its block is kept
        assert pool.nbytes == MIB
        store.put("c", fresh())  # "b" is dropped too
        assert pool.nbytes == 2 * MIB
        np.testing.assert_array_equal(store.get("a"), fresh())  # drawn again
        store.validate_state()
    finally:
        store.close()


@pytest.mark.parametrize(
    "make",
    [
        lambda rs: rs.rand(600, 1000, chunk_size=(300, 1000)),
        lambda rs: rs.random_sample((600, 1000), chunk_size=(300, 1000), dtype="f4"),
        lambda rs: rs.standard_normal((600, 1000), chunk_size=(300, 1000)),
        lambda rs: rs.standard_exponential((600, 1000), chunk_size=(300, 1000)),
    ],
    ids=["rand", "float32", "normal", "exponential"],
)
def test_random_chunks_drawn_into_spare_blocks_are_the_same_numbers(pool, make):
    x = make(mt.random.RandomState(11))
    stage = next(plan_stages([x.node], {}))
    for key in stage.outputs:
        task = stage.graph[key]
        expected = execute_task(task, {})  # no block kept: a new array
        pool.offer([np.empty(expected.nbytes, dtype=np.uint8)])
        assert pool.nbytes == expected.nbytes
        drawn = execute_task(task, {})
        assert pool.nbytes == 0  # the block was taken
        np.testing.assert_array_equal(drawn, expected)
        assert drawn.dtype == expected.dtype

"""The GPU chunk store's bookkeeping: device bytes apart, least recently used order, the
limit that names chunks to move to host memory, pins. The store only counts and orders
what it is given, so host bytes objects stand for chunks here; GPU runs use CuPy arrays
(``tests/engine/test_gpu_slots.py``)."""

from __future__ import annotations

import pytest

from jupyter_mars.engine.storage.device import DeviceStore


def test_the_store_counts_device_bytes_and_forgets_what_is_popped():
    store = DeviceStore()
    store.put("a", b"a" * 10, 10)
    store.put("b", b"b" * 20, 20)
    assert (store.nbytes, len(store), "a" in store) == (30, 2, True)
    assert store.info() == {"device_bytes": 30, "n_device": 2}
    assert store.pop("a") == b"a" * 10
    assert store.pop("a") is None
    store.put("b", b"b" * 5, 5)  # a new value of a key replaces the old one
    assert store.info() == {"device_bytes": 5, "n_device": 1}
    store.clear()
    assert store.info() == {"device_bytes": 0, "n_device": 0}
    with pytest.raises(KeyError):
        store.get("b")


def test_without_a_limit_nothing_is_moved_to_host():
    store = DeviceStore()
    store.put("a", b"", 10**12)
    assert store.over_limit(room=10**12) == []


def test_over_limit_names_the_least_recently_used_chunks_that_are_not_pinned():
    store = DeviceStore(limit=100)
    for key in "abcd":
        store.put(key, key, 30)
    assert store.over_limit() == ["a"]  # 120 bytes: a goes
    store.get("a")  # read: now the most recent
    assert store.over_limit() == ["b"]
    store.pin("b")
    assert store.over_limit(room=30) == ["c", "d"]  # b is read by a running task
    store.unpin("b")
    assert store.over_limit(room=30) == ["b", "c"]


def test_a_chunk_pinned_twice_stays_until_both_readers_are_done():
    store = DeviceStore(limit=0)
    store.put("a", "a", 10)
    store.pin("a")
    store.pin("a")
    store.unpin("a")
    assert store.over_limit() == []
    store.unpin("a")
    assert store.over_limit() == ["a"]


def test_a_negative_limit_is_refused():
    with pytest.raises(ValueError, match="limit must be >= 0 bytes, got -1"):
        DeviceStore(limit=-1)

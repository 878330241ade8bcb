import numpy as np

from jupyter_mars.engine.cluster.storage.replicas import ReplicaCache


def test_least_recently_used_copies_go_first():
    cache = ReplicaCache(max_bytes=3 * 80)
    for key in "abc":
        cache.put(key, np.zeros(10))
    cache.get("a")  # now b is the least recently used
    cache.put("d", np.zeros(10))
    assert "b" not in cache
    assert {"a", "c", "d"} == {k for k in "abcd" if k in cache}
    assert cache.nbytes == 240


def test_putting_a_key_again_replaces_its_copy():
    cache = ReplicaCache(max_bytes=1000)
    cache.put("a", np.zeros(10))
    cache.put("a", np.zeros(20))
    assert len(cache) == 1
    assert cache.nbytes == 160
    assert cache.get("a").shape == (20,)


def test_discard_and_clear_free_their_bytes():
    cache = ReplicaCache(max_bytes=1000)
    cache.put("a", np.zeros(10))
    cache.put("b", np.zeros(10))
    cache.discard("a")
    cache.discard("missing")
    assert cache.nbytes == 80
    cache.clear()
    assert len(cache) == 0
    assert cache.nbytes == 0

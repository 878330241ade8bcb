import numpy as np

from jupyter_mars.cluster.worker.replicas import ReplicaCache


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


def test_a_workers_copies_take_only_the_room_its_chunks_leave_in_the_cache():
    from jupyter_mars.cluster.worker.server import WorkerServer

    worker = WorkerServer(supervisors=[], token="t", cache_bytes=4000)
    try:
        worker.store.put("chunk", np.zeros(400))  # 3200 of the 4000 bytes
        worker.fit_replicas()
        worker.replicas.put("copy", np.zeros(125))  # 1000 bytes: no room left for it
        assert "copy" not in worker.replicas
        worker.replicas.put("small", np.zeros(50))  # 400 bytes fit beside the chunk
        assert "small" in worker.replicas
        worker.fit_replicas(incoming=800)  # a result about to be stored comes first
        assert len(worker.replicas) == 0
        worker.store.delete("chunk")
        worker.fit_replicas()
        assert worker.replicas.max_bytes == 1000  # a quarter of the cache at most
    finally:
        worker.store.close()

"""Spill directories of workers that died are removed by the next worker that starts there."""

from __future__ import annotations

import signal
import subprocess
import sys

from jupyter_mars.engine.storage import ChunkStore
from jupyter_mars.engine.storage.spill_owner import PREFIX
from tests.cluster.processes import cli_cluster


def _owned(root):
    return sorted(p.name for p in root.iterdir() if p.name.startswith(PREFIX))


def test_a_starting_worker_removes_what_killed_workers_left(tmp_path, session):
    root = tmp_path / "spill"
    args = ("--n-cpu", "1", "--spill-dir", str(root))
    with cli_cluster(0) as cluster:
        for _ in range(3):
            cluster.add_worker(*args)
        for worker in cluster.workers:
            worker.popen.kill()  # SIGKILL: no clean-up of its own
            worker.popen.wait(30)
        left = _owned(root)
        assert len(left) == 3, "each killed worker left its directory"
        survivor = cluster.add_worker(*args)
        after = _owned(root)
        assert len(after) == 1
        assert after[0] not in left
        second = cluster.add_worker(*args)
        both = _owned(root)
        assert len(both) == 2
        assert after[0] in both, "a live worker's directory was swept"
        second.popen.send_signal(signal.SIGTERM)
        second.popen.wait(30)
        assert _owned(root) == after, "a stopped worker removes its own directory"
        assert survivor.popen.poll() is None


def test_stores_of_one_process_keep_each_others_directories(tmp_path):
    first = ChunkStore(0, [str(tmp_path)])
    second = ChunkStore(0, [str(tmp_path)])
    try:
        first.put("a", b"x" * 100)
        second.put("b", b"y" * 100)
        assert len(_owned(tmp_path)) == 2
        assert first.get("a") == b"x" * 100
    finally:
        first.close()
        second.close()
    assert _owned(tmp_path) == []


def test_directories_of_stores_without_a_lock_are_swept(tmp_path):
    stale = tmp_path / f"{PREFIX}abc123"  # as stores made them before they held a lock
    stale.mkdir()
    (stale / "00000001-x.chunk").write_bytes(b"data")
    store = ChunkStore(0, [str(tmp_path)])
    try:
        assert not stale.exists()
        assert len(_owned(tmp_path)) == 1
    finally:
        store.close()


def test_a_store_in_a_killed_process_is_swept(tmp_path):
    code = (
        "import sys, time\n"
        "from jupyter_mars.engine.storage import ChunkStore\n"
        f"store = ChunkStore(0, [{str(tmp_path)!r}])\n"
        "store.put('k', b'z' * 1000)\n"
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        held = _owned(tmp_path)
        store = ChunkStore(0, [str(tmp_path)])  # the child lives: its directory stays
        assert set(held) < set(_owned(tmp_path))
        store.close()
        child.kill()
        child.wait(30)
        store = ChunkStore(0, [str(tmp_path)])
        try:
            assert not set(held) & set(_owned(tmp_path))
        finally:
            store.close()
    finally:
        child.kill()
        child.wait(30)
        if child.stdout is not None:
            child.stdout.close()

"""The PyODPS-style handle of a local cluster: the worker keywords, returning once
``min_worker_num`` joined, ``options.verbose``, the logview, and re-attaching by id from
another process, which runs a job and stops the cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import numpy as np
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.launcher import LocalCluster, new_cluster, registry
from jupyter_mars.remote import HttpClient

GIB = 1 << 30


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _workers(cluster: LocalCluster) -> list[dict[str, object]]:
    workers: list[dict[str, object]] = HttpClient(cluster.endpoint, cluster.token, 5).json(
        "GET", "/api/v1/cluster"
    )["workers"]
    return workers


def test_worker_mem_without_a_unit_is_gib_and_the_handle_answers(
    session: mars.Session, capsys: pytest.CaptureFixture[str]
) -> None:
    with option_context(verbose=True), new_cluster(1, 1, 2) as cluster:
        said = capsys.readouterr().out
        (worker,) = _workers(cluster)
        store = worker["resources"]["store"]  # type: ignore[index]
        assert store["phy_mem_bytes"] == 2 * GIB  # 2 GiB, not 2 bytes
        assert cluster.get_logview_address() == cluster.endpoint + "/"
        assert cluster.session.get_web_endpoint() == cluster.endpoint + "/"  # Mars's name
        assert cluster.instance_id == cluster.id
        assert registry.find(cluster.id) is not None
        assert said.strip() == (
            f"Mars cluster {cluster.id} started: endpoint {cluster.endpoint}, "
            f"logview {cluster.endpoint}/, 1 of 1 workers joined"
        )
        t = mt.random.rand(100, 100)
        data = cluster.session.run(t)
        assert f"logview {cluster.endpoint}/" in capsys.readouterr().out  # run says it too
        assert data.shape == (100, 100)
        assert 0 <= data.min()
        assert data.max() < 1
        cluster.stop_server()
        assert not cluster.running
    session.as_default()


def _hold_all_workers_but_the_first(stop: threading.Event, held: list[int]) -> None:
    """SIGSTOP every worker this process starts after its first: they cannot join."""
    me = psutil.Process()
    seen: set[int] = set()
    while not stop.is_set():
        for child in me.children():
            try:
                is_worker = "jupyter_mars.deploy.worker" in child.cmdline()
            except psutil.Error:
                continue
            if is_worker and child.pid not in seen:
                seen.add(child.pid)
                if len(seen) > 1:
                    child.send_signal(signal.SIGSTOP)
                    held.append(child.pid)
        time.sleep(0.005)


def test_min_worker_num_returns_once_that_many_joined(session: mars.Session) -> None:
    stop, held = threading.Event(), list[int]()
    watcher = threading.Thread(target=_hold_all_workers_but_the_first, args=(stop, held))
    watcher.start()
    try:
        # without their nanny, the processes held are the workers themselves
        cluster = new_cluster(worker_num=3, worker_cpu=1, min_worker_num=1, nanny=False)
    finally:
        stop.set()
        watcher.join()
    try:
        assert len(held) == 2
        assert cluster.joined_workers == 1
        assert cluster.n_workers == 3
        assert repr(cluster) == f"<LocalCluster {cluster.endpoint} 1 of 3 workers joined>"
        for pid in held:
            os.kill(pid, signal.SIGCONT)
        deadline = time.monotonic() + 60
        while cluster.joined_workers < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert repr(cluster) == f"<LocalCluster {cluster.endpoint} 3 workers>"
        assert cluster.session.run(mt.ones((20, 20), chunk_size=5).sum()) == 400
    finally:
        cluster.stop()
        session.as_default()


def test_bad_requests_fail_before_anything_starts(session: mars.Session) -> None:
    before = psutil.Process().children()
    with pytest.raises(ValueError, match="worker_mem must be at most this machine's memory"):
        new_cluster(1, 1, 100_000)  # 100000 GiB
    with pytest.raises(ValueError, match="memory must be at least 1MiB"):
        new_cluster(n_worker=1, memory="16b")  # 16 bytes: what new_cluster(memory=16) was
    with pytest.raises(ValueError, match="min_worker_num must be at most worker_num"):
        new_cluster(2, min_worker_num=3)
    with pytest.raises(TypeError, match="give worker_cpu or n_cpu, not both"):
        new_cluster(worker_cpu=1, n_cpu=1)
    with pytest.raises(TypeError, match="instance_id re-attaches.*worker_num"):
        new_cluster(2, instance_id="abc")
    assert psutil.Process().children() == before


def test_an_unknown_or_stale_id_is_named_in_the_error(session: mars.Session) -> None:
    with pytest.raises(LookupError, match="no cluster 'nosuchcluster' runs on this machine"):
        new_cluster(instance_id="nosuchcluster")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = registry.ClusterRecord("http://127.0.0.1:9", "local", owner_pid=gone.pid)
    registry.record(stale)
    with pytest.raises(LookupError, match=f"no cluster '{stale.id}' runs"):
        LocalCluster.from_id(stale.id)
    assert registry.find(stale.id) is None  # and the stale record is removed


REATTACH = textwrap.dedent(
    """
    import json, sys
    import jupyter_mars.tensor as mt
    from jupyter_mars.config import options
    from jupyter_mars.launcher import new_cluster

    options.verbose = True
    client = new_cluster(instance_id=sys.argv[1])
    session = client.session
    total = session.run(mt.ones((100, 100), chunk_size=25).sum())
    a, b = session.run(mt.arange(4), mt.arange(4) * 2)
    print(json.dumps({
        "logview": client.get_logview_address(),
        "endpoint": client.endpoint,
        "workers": client.n_workers,
        "total": total,
        "pair": [a.tolist(), b.tolist()],
    }))
    client.stop_server()
    """
)


@pytest.fixture
def local_cluster(session: mars.Session) -> Iterator[LocalCluster]:
    cluster = new_cluster(worker_num=2, worker_cpu=1, worker_mem="1GiB")
    try:
        yield cluster
    finally:
        cluster.stop()
        session.as_default()


def test_another_process_reattaches_by_id_runs_a_job_and_stops_the_cluster(
    local_cluster: LocalCluster,
) -> None:
    cluster = local_cluster
    pids = cluster.pids
    done = subprocess.run(
        [sys.executable, "-c", REATTACH, str(cluster.instance_id)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    attached, first_run, second_run, result_line = done.stdout.strip().splitlines()
    assert attached == (
        f"Mars cluster {cluster.id} attached: endpoint {cluster.endpoint}, "
        f"logview {cluster.endpoint}/, 2 of 2 workers joined"
    )
    assert first_run == f"Running sum(ones): logview {cluster.endpoint}/"
    assert second_run.startswith("Running arange, multiply(arange): logview")
    result = json.loads(result_line)
    assert result == {
        "logview": cluster.endpoint + "/",
        "endpoint": cluster.endpoint,
        "workers": 2,
        "total": 10000.0,
        "pair": [[0, 1, 2, 3], [0, 2, 4, 6]],
    }
    # stopped by the other process: every process gone, the record too
    assert all(_gone(pid) for pid in pids)
    assert registry.find(str(cluster.id)) is None
    assert not cluster.running


def test_a_reattached_handle_in_this_process_has_a_session(local_cluster: LocalCluster) -> None:
    again = LocalCluster.from_id(str(local_cluster.id))
    try:
        assert again.session is mars.get_default_session()
        assert again.n_workers == 2
        assert again.joined_workers == 2
        assert repr(again) == f"<AttachedLocalCluster {again.id} {again.endpoint} 2 workers>"
        np.testing.assert_array_equal(again.session.run(mt.arange(3) + 1), [1, 2, 3])
    finally:
        again.session.close()  # the cluster stays: its owner stops it
    assert local_cluster.running

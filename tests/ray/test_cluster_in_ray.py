"""new_cluster_in_ray: this project's supervisor and workers as actors of a real local Ray
cluster (a head and a second node), used through the cluster's handle."""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.ray import cluster_in_ray_fixtures

ray = cluster_in_ray_fixtures.ray
local_ray = cluster_in_ray_fixtures.local_ray

from jupyter_mars.launcher.ray.cluster import RayCluster, new_cluster_in_ray  # noqa: E402
from jupyter_mars.remote import HttpClient  # noqa: E402

GIB = 1 << 30


def _named_actors() -> set[str]:
    return {a["name"] for a in ray.util.list_named_actors(all_namespaces=True)}


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"worker_num": 0}, ValueError, "worker_num must be at least 1"),
        ({"worker_num": "2"}, TypeError, "worker_num must be an int"),
        ({"worker_cpu": 1.5}, TypeError, "worker_cpu must be an int"),
        ({"worker_mem": "80%"}, ValueError, "worker_mem must be a size Ray can reserve"),
        ({"worker_mem": "lots"}, ValueError, "worker_mem"),
        ({"supervisor_mem": -1}, ValueError, "supervisor_mem"),
        ({"worker_num": 2, "min_worker_num": 3}, ValueError, "min_worker_num must be at most"),
        ({"timeout": 0}, ValueError, "timeout must be a positive number"),
        ({"timeout": "soon"}, TypeError, "timeout must be a number"),
        ({"address": 6379}, TypeError, "address must be a Ray address"),
        ({"config": {"a": 1}}, TypeError, "config must be the path of a config file"),
    ],
)
def test_bad_arguments_raise_naming_the_argument_before_ray_is_touched(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    connected = ray.is_initialized()
    with pytest.raises(error, match=match):
        new_cluster_in_ray(**kwargs)
    assert ray.is_initialized() == connected  # not connected (nor a local Ray started)


@pytest.fixture(scope="module")
def cluster(local_ray: cluster_in_ray_fixtures.LocalRay) -> Iterator[RayCluster]:
    cluster = new_cluster_in_ray(
        worker_num=2,
        worker_cpu=1,
        worker_mem="1GiB",
        supervisor_mem="256MiB",
        address=local_ray.address,
    )
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def remote(cluster: RayCluster, session: Any) -> Iterator[Any]:
    """The cluster's session as the default (the suite's embedded one again after)."""
    cluster.session.as_default()
    yield cluster.session
    session.as_default()


def _model(cluster: RayCluster) -> dict[str, Any]:
    return HttpClient(cluster.endpoint, cluster.token, timeout=10).json("GET", "/api/v1/cluster")


def test_the_cluster_forms_of_two_spread_workers_and_runs_the_seed(
    cluster: RayCluster, remote: Any
) -> None:
    assert cluster.n_workers == cluster.joined_workers == 2
    assert mars.get_default_session() is cluster.session
    a = mt.random.rand(400, 400, chunk_size=100)
    b = mt.inner(a, a).execute()
    data = a.execute().fetch()
    np.testing.assert_allclose(b.fetch(), np.inner(data, data))
    frame = pd.DataFrame({"k": np.arange(1000) % 7, "v": np.arange(1000.0)})
    got = md.DataFrame(frame, chunk_size=250).groupby("k").sum().execute().fetch()
    pd.testing.assert_frame_equal(got, frame.groupby("k").sum())
    nodes = {
        described["node_id"]
        for described in ray.get([w.describe.remote() for w in cluster.workers.values()])
    }
    assert len(nodes) == 2  # SPREAD: one worker on each Ray node


def test_the_dashboard_answers_at_the_logview_address(cluster: RayCluster, remote: Any) -> None:
    link = cluster.session.dashboard_link()
    assert link.startswith(cluster.get_logview_address())
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with opener.open(link, timeout=10) as response:
        assert response.status == 200
        assert b"<title>jupyter_mars cluster</title>" in response.read()


def test_workers_serve_with_the_cores_and_memory_ray_reserved_for_them(
    cluster: RayCluster,
) -> None:
    workers = _model(cluster)["workers"]
    assert [w["n_cpu"] for w in workers] == [1, 1]
    assert [w["resources"]["store"]["phy_mem_bytes"] for w in workers] == [GIB, GIB]
    total = ray.cluster_resources()
    expected = {"CPU": total["CPU"] - 2, "memory": total["memory"] - 2 * GIB - GIB // 4}
    deadline = time.monotonic() + 30  # each node reports its free resources now and then
    while True:
        free = ray.available_resources()
        if {k: free.get(k, 0.0) for k in expected} == expected or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert {k: free.get(k, 0.0) for k in expected} == expected
    for name, pid in cluster.pids.items():
        program = "supervisor" if name.endswith("-supervisor") else "worker"
        assert f"jupyter_mars.deploy.{program}" in " ".join(psutil.Process(pid).cmdline())


def test_scaling_up_and_down_starts_and_stops_worker_actors(cluster: RayCluster) -> None:
    cluster.scale(3)
    assert cluster.n_workers == cluster.joined_workers == 3
    third = list(cluster.workers)[-1]
    assert third in _named_actors()
    cluster.scale(1)
    assert cluster.n_workers == cluster.joined_workers == 1
    assert third not in _named_actors()
    retiring = _model(cluster)["workers"][0]["address"]
    cluster.resize(2)
    cluster.resize(1, retire=[retiring])  # the named worker leaves, not the newest
    assert [w["address"] for w in _model(cluster)["workers"]] != [retiring]
    cluster.scale(2)
    assert cluster.n_workers == cluster.joined_workers == 2
    with pytest.raises(ValueError, match="n must be a non-negative int"):
        cluster.scale(-1)


def test_adapting_retires_an_idle_worker_actor(cluster: RayCluster) -> None:
    assert cluster.most_workers(1) == 3  # the Ray cluster's CPUs, one per worker
    adaptive = cluster.adapt(minimum=1, maximum=2, wait=0.5, interval=0.2)
    try:
        deadline = time.monotonic() + 60
        while cluster.n_workers != 1 or cluster.joined_workers != 1:
            assert time.monotonic() < deadline, f"still {cluster.n_workers}: {adaptive}"
            assert adaptive.last_error is None, adaptive.last_error
            time.sleep(0.2)
    finally:
        cluster.scale(2)  # ends adapting
    assert cluster.adaptive is None
    assert cluster.n_workers == cluster.joined_workers == 2


def test_a_worker_whose_server_dies_is_replaced_by_ray(cluster: RayCluster) -> None:
    name, actor = next(iter(cluster.workers.items()))
    before = ray.get(actor.describe.remote())
    psutil.Process(before["pid"]).kill()
    deadline = time.monotonic() + 90
    while True:  # Ray restarts the actor, whose new worker joins the supervisor
        try:
            now = ray.get(actor.describe.remote(), timeout=10)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            now = before
        addresses = [w["address"] for w in _model(cluster)["workers"]]
        replaced = now["pid"] != before["pid"] and now["addresses"].get("rpc") in addresses
        if replaced and before["addresses"]["rpc"] not in addresses:
            break
        assert time.monotonic() < deadline, f"{name} was not replaced: {now}, {addresses}"
        time.sleep(0.5)
    assert cluster.n_workers == len(addresses) == 2


ATTACH = """
import sys
import ray
import jupyter_mars.tensor as mt
from jupyter_mars.launcher.ray.cluster import new_cluster_in_ray

cluster = new_cluster_in_ray(instance_id=sys.argv[2], address=sys.argv[1])
assert cluster.n_workers == 1, cluster.workers
print("sum", (mt.arange(10) * 2).sum().execute().fetch(), flush=True)
cluster.stop()
"""


def test_another_driver_re_attaches_by_id_runs_a_job_and_stops_it(
    local_ray: cluster_in_ray_fixtures.LocalRay, cluster: RayCluster, session: Any
) -> None:
    other = new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, supervisor_mem=0.25)
    session.as_default()
    try:
        assert other.instance_id is not None
        pids = other.pids
        assert len(pids) == 2
        assert set(pids) <= _named_actors()
        run = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(ATTACH), local_ray.address, other.instance_id],
            env=local_ray.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "sum 90" in run.stdout
        assert not set(pids) & _named_actors()  # its actors are gone
        for pid in pids.values():  # and their servers with them
            assert not psutil.pid_exists(pid) or (
                psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
            )
        assert not other.running
        with pytest.raises(ValueError, match=f"no cluster '{other.instance_id}' runs"):
            RayCluster.from_id(other.instance_id)
    finally:
        other.stop()
    assert cluster.joined_workers == 2  # the first cluster runs on


def test_stop_leaves_no_actor_nor_server_process(local_ray: Any, session: Any) -> None:
    cluster = new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, supervisor_mem=0.25)
    session.as_default()
    pids = cluster.pids
    cluster.stop()
    assert not cluster.running
    assert not set(pids) & _named_actors()
    for pid in pids.values():
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    with pytest.raises(RuntimeError, match="does not run"):
        cluster.scale(2)


def test_ray_init_arguments_are_refused_once_connected(local_ray: Any) -> None:
    with pytest.raises(TypeError, match="num_cpus: this process is connected to Ray already"):
        new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, num_cpus=4)


def test_a_lost_supervisor_is_reported_and_stop_still_cleans_up(
    local_ray: Any, session: Any
) -> None:
    cluster = new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, supervisor_mem=0.25)
    session.as_default()
    pids = cluster.pids
    supervisor = next(pid for name, pid in pids.items() if name.endswith("-supervisor"))
    psutil.Process(supervisor).kill()
    deadline = time.monotonic() + 60
    while cluster.running:  # its actor ends with its server, and Ray does not restart it
        assert time.monotonic() < deadline, "the supervisor's actor outlived its server"
        time.sleep(0.2)
    with pytest.raises(RuntimeError, match=f"the cluster {cluster.id} does not run"):
        cluster.scale(2)
    cluster.stop()
    assert not set(pids) & _named_actors()
    for pid in pids.values():
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_a_server_that_cannot_start_is_reported_with_its_output_and_nothing_stays(
    local_ray: Any, tmp_path: Any
) -> None:
    before = _named_actors()
    missing = tmp_path / "missing.yml"
    with pytest.raises(RuntimeError, match="the supervisor exited with status 2") as failed:
        new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, config=str(missing))
    assert str(missing) in str(failed.value)  # the program's own error, from its output
    assert _named_actors() == before


def test_an_actor_killed_outright_takes_its_server_with_it(local_ray: Any, session: Any) -> None:
    cluster = new_cluster_in_ray(worker_num=1, worker_cpu=1, worker_mem=1, supervisor_mem=0.25)
    session.as_default()
    pids = cluster.pids
    for actor in [cluster.supervisor, *cluster.workers.values()]:
        ray.kill(actor, no_restart=True)  # no stop(): the servers learn it from their pipe
    deadline = time.monotonic() + 30
    while any(cluster_in_ray_fixtures.running(pid) for pid in pids.values()):
        assert time.monotonic() < deadline, f"servers outlived their actors: {pids}"
        time.sleep(0.2)
    cluster.stop()


def test_it_returns_once_min_worker_num_joined_and_fails_clearly_when_ray_cannot_place(
    cluster: RayCluster, session: Any
) -> None:
    assert cluster.n_workers == 2  # of the Ray cluster's 3 CPUs, 1 is free
    before = _named_actors()
    partial = new_cluster_in_ray(
        worker_num=2, worker_cpu=1, worker_mem=1, supervisor_mem=0.25, min_worker_num=1
    )
    session.as_default()
    try:
        assert partial.n_workers == 2
        assert partial.joined_workers == 1  # the other actor waits for a CPU
    finally:
        partial.stop()
    assert _named_actors() == before
    with pytest.raises(TimeoutError, match=r"within 2.0 s: Ray (has|may) not") as failed:
        new_cluster_in_ray(worker_num=1, worker_cpu=8, worker_mem=1, timeout=2)
    # the workers' wait, or the supervisor's on a slow machine: both say what Ray has free
    assert re.search(r"available now: CPU 1, memory \d", str(failed.value)), failed.value
    assert _named_actors() == before


def test_a_lost_ray_node_s_worker_is_placed_again_and_the_seed_still_runs(
    local_ray: cluster_in_ray_fixtures.LocalRay, cluster: RayCluster, remote: Any
) -> None:
    """Last: the second node is gone for good after it (every test before may use it)."""
    head = ray.get_runtime_context().get_node_id()
    cluster.scale(3)  # every CPU of the Ray cluster: one of them is the second node's
    described = {n: ray.get(w.describe.remote()) for n, w in cluster.workers.items()}
    (lost,) = [n for n, d in described.items() if d["node_id"] != head]
    on_head = [d["addresses"]["rpc"] for n, d in described.items() if n != lost]
    cluster.resize(2, retire=on_head[:1])  # a CPU of the head's is free for the lost one
    assert lost in cluster.workers
    a = mt.random.rand(400, 400, chunk_size=100)
    data = a.execute().fetch()  # chunks on both workers
    cluster_in_ray_fixtures.kill_node(local_ray, described[lost]["node_id"])
    deadline = time.monotonic() + 120
    while True:  # Ray sees the node dead and places the actor on the head: a new worker
        try:
            now = ray.get(cluster.workers[lost].describe.remote(), timeout=10)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            now = described[lost]
        addresses = [w["address"] for w in _model(cluster)["workers"]]
        moved = now["node_id"] == head and now["addresses"].get("rpc") in addresses
        if moved and described[lost]["addresses"]["rpc"] not in addresses:
            break
        assert time.monotonic() < deadline, f"{lost} was not placed again: {now}, {addresses}"
        time.sleep(0.5)
    assert len(addresses) == 2
    np.testing.assert_allclose(mt.inner(a, a).execute().fetch(), np.inner(data, data))

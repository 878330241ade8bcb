"""The launcher's objects run: each container's command started here as a local process
with the environment its pod would get (resolved as the kubelet does), forming a real
cluster that runs the seed.

What stands in for Kubernetes: the pod IP is ``127.0.0.1``; the pods' fixed ports are
free loopback ports (several clusters share this machine), and the supervisor Service's
name resolves to the supervisor pod, as cluster DNS and the Service's proxy would do.
"""

from __future__ import annotations

import doctest
import http.client
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher.kubernetes import objects
from jupyter_mars.launcher.kubernetes.spec import cluster_spec
from jupyter_mars.launcher.local import _Process
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import WEB, WORKER, free_port, wait_until
from tests.deploy.kubernetes import kubelet
from tests.deploy.kubernetes.schemas import containers

pytest.importorskip(
    "jupyter_mars.deploy.kubernetes.worker", reason="the programs a pod runs are not here"
)

MIB = 1 << 20


def test_kubelet_doctests() -> None:
    assert doctest.testmod(kubelet).failed == 0


def _pod_env(obj: dict[str, Any], pod: str, token: str, ports: dict[str, str]) -> dict[str, str]:
    container = containers(obj)[0]
    env = kubelet.container_env(
        container,
        pod_ip="127.0.0.1",
        pod_name=pod,
        namespace="team",
        secrets={"demo-token": {"token": token}},
    )
    assert env["MARS_SUPERVISOR_ADDRESS"] == "demo-supervisor.team.svc:7103"
    return {**env, **ports, "PYTHONUNBUFFERED": "1"}


def _start(obj: dict[str, Any], env: dict[str, str]) -> _Process:
    command = containers(obj)[0]["command"]
    assert command[:2] == ["python", "-m"]
    # the image's python is this one, with this test's environment (PYTHONPATH) under
    # the pod's
    return _Process([sys.executable, *command[1:]], {**os.environ, **env})


def test_the_objects_pods_form_a_cluster_that_runs_the_seed(tmp_path: Path) -> None:
    spill = [str(tmp_path / "spill-a"), str(tmp_path / "spill-b")]
    spec = cluster_spec(
        name="demo",
        namespace="team",
        worker_num=2,
        worker_cpu=1,
        worker_mem="1Gi",
        worker_cache_mem="25%",
        worker_spill_paths=spill,
    )
    supervisor, worker = objects.supervisor_deployment(spec), objects.worker_deployment(spec)
    token = "s3cret-" + "x" * 20
    rpc, web = free_port(), free_port()
    service = {"MARS_SUPERVISOR_ADDRESS": f"127.0.0.1:{rpc}"}
    processes = []
    try:
        sup_env = _pod_env(
            supervisor,
            "demo-supervisor-0",
            token,
            {"MARS_BIND_PORT": str(rpc), "MARS_WEB_PORT": str(web), **service},
        )
        processes.append(_start(supervisor, sup_env))
        processes[0].wait_for(WEB, 60)
        for i in range(2):
            env = _pod_env(
                worker, f"demo-worker-{i}", token, {"MARS_BIND_PORT": str(free_port()), **service}
            )
            processes.append(_start(worker, env))
            processes[-1].wait_for(WORKER, 60)
        url = f"http://127.0.0.1:{web}"
        http = HttpClient(url, token, timeout=10)
        assert wait_until(lambda: len(http.json("GET", "/api/v1/workers")) == 2, 30)
        for model in http.json("GET", "/api/v1/workers"):
            store = model["resources"]["store"]
            assert model["n_cpu"] == 1
            assert store["phy_mem_bytes"] == 1024 * MIB
            assert store["cache_bytes"] == 256 * MIB
        # its web service answers to its Service's names (MARS_WEB_ALLOWED_HOSTS), as a
        # browser in the cluster sends them, and to no other
        for host, status in _host_answers(web, token).items():
            assert status == (403 if host == "evil.example" else 200), host
        # the supervisor pod's readiness probe, with its pod's environment
        probe = containers(supervisor)[0]["readinessProbe"]["exec"]["command"]
        probe_env = {**os.environ, **sup_env}
        ready = subprocess.run([sys.executable, *probe[1:]], env=probe_env, capture_output=True)
        assert ready.returncode == 0, ready.stderr
        session = mars.new_session(url, token=token, default=False)
        try:
            a = mt.ones((400, 400), chunk_size=100)
            got = (a @ a).sum().execute(session=session).fetch(session=session)
            assert got == np.ones((400, 400)).dot(np.ones((400, 400))).sum()
        finally:
            session.close()
    finally:
        for process in reversed(processes):
            process.stop()


def _host_answers(port: int, token: str) -> dict[str, int]:
    """The status of ``GET /api/v1/cluster`` sent to 127.0.0.1 with each ``Host`` a
    client of the supervisor Service may send."""
    answers = {}
    service = "demo-supervisor"
    hosts = [service, f"{service}.team", f"{service}.team.svc", f"{service}.team.svc.cluster.local"]
    for host in [*hosts, "evil.example"]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        try:
            conn.request(
                "GET",
                "/api/v1/cluster",
                headers={"Host": f"{host}:7104", "Authorization": f"token {token}"},
            )
            answers[host] = conn.getresponse().status
        finally:
            conn.close()
    return answers

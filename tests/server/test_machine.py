"""Every cluster of this machine through the server's API: a cluster another process
started with ``new_cluster`` is listed beside the server's own, its running execution is
listed and cancelled through the server, its dashboard is served through it, and it goes
from the list when that process stops it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient

from jupyter_mars.launcher import registry
from jupyter_mars.remote.tokens import write_token_file
from tests.cluster.processes import free_port
from tests.server.conftest import get_json, wait_for_state

ROOT = Path(__file__).resolve().parents[2]

OWNER = """\
import sys
import numpy as np
import jupyter_mars.tensor as mt
from jupyter_mars.launcher import new_cluster
from tests.server.kernels import sleepy

cluster = new_cluster(1, 1)
print("endpoint", cluster.endpoint, flush=True)
slow = mt.elemwise(sleepy, mt.tensor(np.arange(60), chunk_size=1), 0.2, dtype=np.int64)
future = cluster.session.execute(slow, wait=False, name="slow job")
for line in sys.stdin:
    if line.strip() == "outcome":
        try:
            future.result(timeout=20)
            print("outcome finished", flush=True)
        except BaseException as exc:
            print("outcome", type(exc).__name__, flush=True)
    elif line.strip() == "stop":
        cluster.stop()
        print("stopped", flush=True)
"""


class Owner:
    """A Python process that started a cluster and runs a slow job on it; told what to do
    line by line."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path[:1]])}
        self.process = subprocess.Popen(
            [sys.executable, "-c", OWNER],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def read(self, word: str) -> str:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(word):
                return line.split(maxsplit=1)[1].strip() if " " in line.strip() else ""
        raise AssertionError(f"the owner exited ({self.process.wait()}) before saying {word}")

    def tell(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture
def owner(private_token_dir: None) -> Iterator[Owner]:
    started = Owner()
    try:
        yield started
    finally:
        started.close()


async def _clusters(jp_fetch: Any) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = (await get_json(jp_fetch, "mars", "api", "clusters"))["clusters"]
    return listed


async def _running_task(jp_fetch: Any, cluster_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        tasks = (await get_json(jp_fetch, "mars", "api", "clusters", cluster_id, "tasks"))["tasks"]
        running = [t for t in tasks if t["state"] == "running"]
        if running:
            return running[0]
        assert time.monotonic() < deadline, tasks
        await asyncio.sleep(0.1)


async def _refused(jp_fetch: Any, *path: str, **kwargs: Any) -> tuple[int, str]:
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await jp_fetch(*path, **kwargs)
    assert refused.value.response is not None
    message = json.loads(refused.value.response.body)["message"]
    return refused.value.code, message


async def test_a_cluster_another_process_started_is_listed_cancelled_and_goes_when_stopped(
    jp_fetch, manager, owner
):
    endpoint = await asyncio.to_thread(owner.read, "endpoint")
    await jp_fetch("mars", "api", "cluster", "start", method="POST", body="")
    own = await wait_for_state(jp_fetch, "running", n_workers=1)

    clusters = await _clusters(jp_fetch)
    # the server's own first, once (its registry record is a 'server' one), then the other
    assert [(c["own"], c["endpoint"]) for c in clusters] == [
        (True, own["endpoint"]),
        (False, endpoint),
    ]
    mine, theirs = clusters
    assert mine["origin"] == "server"
    assert mine["stop_hint"] is None
    assert mine["dashboard"] == "/jupyter/mars/dashboard/"
    assert theirs["origin"] == "process"
    assert theirs["started_by"] == f"a process, pid {owner.process.pid}"
    assert theirs["owner_pid"] == owner.process.pid
    assert "stop it there" in theirs["stop_hint"]
    assert theirs["dashboard"] == f"/jupyter/mars/dashboards/{theirs['id']}/"
    assert theirs["supervisor_error"] is None
    assert theirs["n_workers"] == 1
    assert theirs["n_cpu"] == 1
    assert [w["n_cpu"] for w in theirs["workers"]] == [1]
    assert "token" not in json.dumps(clusters).lower()

    # its running execution is listed and cancelled through the server
    task = await _running_task(jp_fetch, theirs["id"])
    assert task["name"] == "slow job"
    one = await get_json(jp_fetch, "mars", "api", "clusters", theirs["id"])
    assert [t["execution_id"] for t in one["tasks"]] == [task["execution_id"]]
    cancel = ("mars", "api", "clusters", theirs["id"], "tasks")
    cancel += (task["session_id"], task["execution_id"], "cancel")
    answer = await get_json(jp_fetch, *cancel, method="POST", body="")
    assert answer["state"] in ("cancelling", "cancelled")
    owner.tell("outcome")
    assert await asyncio.to_thread(owner.read, "outcome") == "CancelledError"
    tasks = await get_json(jp_fetch, "mars", "api", "clusters", theirs["id"], "tasks")
    assert {t["execution_id"]: t["state"] for t in tasks["tasks"]}[task["execution_id"]] == (
        "cancelled"
    )
    # the server's own cluster ran none of it
    assert (await get_json(jp_fetch, "mars", "api", "tasks"))["tasks"] == []

    # its dashboard, page and API, through this server with the token the server read
    page = await jp_fetch("mars", "dashboards", f"{theirs['id']}/")
    assert 'src="static/dashboard.js"' in page.body.decode()
    model = await get_json(jp_fetch, "mars", "dashboards", theirs["id"], "api", "v1", "cluster")
    assert len(model["workers"]) == 1

    # stopped by the process that started it: gone from the list, its id a 404
    owner.tell("stop")
    await asyncio.to_thread(owner.read, "stopped")
    assert [c["id"] for c in await _clusters(jp_fetch)] == [mine["id"]]
    code, message = await _refused(jp_fetch, "mars", "api", "clusters", theirs["id"], "tasks")
    assert code == 404
    assert f"no cluster {theirs['id']!r} runs on this machine" in message
    await jp_fetch("mars", "api", "cluster", "stop", method="POST", body="")
    assert await _clusters(jp_fetch) == []


async def test_bad_ids_are_404s_naming_the_cluster(jp_fetch, manager):
    for path in (
        ("clusters", "nosuch"),
        ("clusters", "nosuch", "tasks"),
    ):
        code, message = await _refused(jp_fetch, "mars", "api", *path)
        assert (code, message) == (
            404,
            "no cluster 'nosuch' runs on this machine; its clusters: none",
        )
    code, _ = await _refused(
        jp_fetch,
        "mars",
        "api",
        "clusters",
        "nosuch",
        "tasks",
        "s",
        "e",
        "cancel",
        method="POST",
        body="",
    )
    assert code == 404
    code, message = await _refused(jp_fetch, "mars", "dashboards", "nosuch/")
    assert code == 404
    assert "no cluster 'nosuch'" in message


async def test_a_cluster_whose_supervisor_is_gone_is_shown_so_not_a_failed_list(
    jp_fetch, manager, private_token_dir
):
    # a record owned by this (live) process, for a supervisor that does not answer
    port = free_port()
    write_token_file(f"127.0.0.1:{port}", "some-token")
    entry = registry.ClusterRecord(f"http://127.0.0.1:{port}", "local")
    registry.record(entry)
    tokenless = registry.ClusterRecord(f"http://127.0.0.1:{free_port()}", "local")
    registry.record(tokenless)
    try:
        clusters = {c["id"]: c for c in await _clusters(jp_fetch)}
        assert "did not answer" in clusters[entry.id]["supervisor_error"]
        assert clusters[entry.id]["workers"] == []
        assert "not on this machine" in clusters[tokenless.id]["supervisor_error"]
        code, message = await _refused(jp_fetch, "mars", "api", "clusters", entry.id, "tasks")
        assert code == 502
        assert "state stream could not be opened" in message
    finally:
        registry.remove(entry.id)
        registry.remove(tokenless.id)


async def test_a_cluster_a_notebooks_kernel_owns_is_named_after_the_notebook(
    jp_fetch, manager, jp_serverapp
):
    # a notebook's session and its real kernel, as JupyterLab opens them
    body = {"path": "work/analysis.ipynb", "type": "notebook", "kernel": {"name": "python3"}}
    session = await get_json(jp_fetch, "api", "sessions", method="POST", body=json.dumps(body))
    kernel_id = session["kernel"]["id"]
    try:
        kernel = jp_serverapp.kernel_manager.get_kernel(kernel_id)
        pid = kernel.provisioner.pid
        # what new_cluster in that kernel records: the kernel's process owns it
        entry = registry.ClusterRecord(f"http://127.0.0.1:{free_port()}", "local", owner_pid=pid)
        registry.record(entry)
        try:
            (listed,) = await _clusters(jp_fetch)
            assert listed["origin"] == "kernel"
            assert listed["started_by"] == "notebook work/analysis.ipynb"
            assert listed["stop_hint"] == (
                "started by notebook work/analysis.ipynb: stop it there with %mars stop"
            )
        finally:
            registry.remove(entry.id)
    finally:
        await jp_fetch("api", "sessions", session["id"], method="DELETE")

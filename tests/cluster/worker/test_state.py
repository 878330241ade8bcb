"""A worker's ``state`` and ``stack`` RPCs, asked of real workers while they run tasks.

Most tests use real supervisor and worker processes (``cli_cluster``); the one running a
task defines its kernel inside the test, so it travels by value (cloudpickle). Another
runs a supervisor and a worker in this process, to log through the root logger the
worker's tail is on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.cluster.supervisor.server import SupervisorServer
from jupyter_mars.cluster.wire.rpc import RPCClient
from jupyter_mars.cluster.worker.nvml import gpu_figures
from jupyter_mars.cluster.worker.server import WorkerServer, key_text, running_tasks
from tests.cluster.processes import WORKER, cli_cluster
from tests.conftest import needs_gpu, no_gpu

GPU_INDICES = [gpu["index"] for gpu in gpu_figures(None)]
"""The GPUs of this machine, as NVML numbers them: none without one."""


def ask(address: str, token: str, method: str, **kwargs: Any) -> Any:
    """One RPC call to ``address`` from this (synchronous) test."""

    async def call() -> Any:
        client = RPCClient(address, token, timeout=10)
        try:
            return await client.call(method, **kwargs)
        finally:
            await client.close()

    return asyncio.run(call())


def wait_until(check: Callable[[], Any], timeout: float = 20) -> Any:
    """The first true value ``check()`` gives within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_keys_are_shown_as_name_and_index():
    assert key_text(("sum-1a457de82-chunk", 0, 3)) == "sum-1a457de82-chunk[0, 3]"
    assert key_text(("ones-1a4", 7)) == "ones-1a4[7]"
    assert key_text(("x",)) == "x"
    assert key_text("plain-key") == "plain-key"


def test_running_tasks_come_longest_running_first_then_those_waiting():
    arrived = [(("add-1-chunk", 1), 104.5), (("sum-2", 0, 0), 100.0), (("mul-3", 2), 99.0)]
    computing = {("add-1-chunk", 1): 104.6, ("sum-2", 0, 0): 101.0}
    assert running_tasks(arrived, computing, now=105.0) == [
        {"key": "sum-2[0, 0]", "op": "sum", "state": "running", "since": 4.0},
        {"key": "add-1-chunk[1]", "op": "add", "state": "running", "since": 0.4},
        {"key": "mul-3[2]", "op": "mul", "state": "waiting", "since": 6.0},
    ]


def test_state_and_stack_show_the_task_running_now(tmp_path: Path):
    release = tmp_path / "release"

    def parked_in_kernel(block: np.ndarray, flag: str) -> np.ndarray:
        deadline = time.monotonic() + 30
        while not os.path.exists(flag) and time.monotonic() < deadline:
            time.sleep(0.01)
        return block + 1

    def running(address: str, token: str) -> dict[str, Any] | None:
        state: dict[str, Any] = ask(address, token, "state", log_lines=50)
        tasks = state["running_tasks"]
        return state if len(tasks) == 2 and tasks[-1]["since"] >= 0.2 else None

    with cli_cluster(1, "--n-cpu", "2") as cluster:
        address = cluster.workers[0].wait_for(WORKER, 5)
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            data = np.arange(1000, dtype=np.float64)
            x = mt.tensor(data, chunk_size=500)
            y = mt.elemwise(parked_in_kernel, x, str(release), dtype=np.float64)
            future = remote.execute(y, wait=False)
            try:  # both chunks wait for the release, one in each slot
                state = wait_until(lambda: running(address, cluster.token))
                stack = ask(address, cluster.token, "stack")
            finally:
                release.touch()
            future.result(timeout=30)
            after_run = ask(address, cluster.token, "state")
            np.testing.assert_array_equal(remote.fetch(y), data + 1)
            after_fetch = ask(address, cluster.token, "state")
            with pytest.raises(ValueError, match="log_lines"):
                ask(address, cluster.token, "state", log_lines="x")
        finally:
            remote.close()

    assert state["address"] == address
    assert state["n_cpu"] == 2
    tasks = state["running_tasks"]
    assert [t["op"] for t in tasks] == ["parked_in_kernel"] * 2
    assert sorted(t["key"].rsplit("[", 1)[1] for t in tasks) == ["0]", "1]"]
    assert all(t["key"].startswith("parked_in_kernel-") for t in tasks)
    assert tasks[0]["since"] >= tasks[1]["since"] >= 0.2  # longest running first
    assert isinstance(state["log"], list)
    # no --cuda-devices: every GPU NVML sees, none on a machine without one
    assert [gpu["index"] for gpu in state["gpus"]] == GPU_INDICES

    assert stack["address"] == address
    slots = [t for t in stack["threads"] if t["thread"].startswith("mars-slot")]
    assert len(slots) == 2
    assert stack["threads"][:2] == slots  # task slots first
    assert all("in parked_in_kernel" in t["stack"] for t in slots)

    assert after_run["running_tasks"] == []
    sent = after_fetch["transfer"]["sent_bytes"] - after_run["transfer"]["sent_bytes"]
    assert sent >= data.nbytes  # the supervisor fetched the result's chunks from it
    assert after_fetch["transfer"]["received_bytes"] == 0  # it had no peer to fetch from


def test_the_log_tail_holds_the_workers_log_lines_and_no_traceback():
    async def main() -> tuple[dict[str, Any], ...]:
        token = "worker-state-test"
        supervisor = SupervisorServer(token=token)
        await supervisor.start()
        worker = WorkerServer(
            supervisors=[supervisor.address], token=token, heartbeat_interval=0.05
        )
        await worker.start()
        client = RPCClient(worker.address, token, timeout=10)
        try:
            log = logging.getLogger("tests.worker_state")
            log.warning("chunk store is %d%% full", 93)
            try:
                raise OSError("spill dir /srv/private/spill is gone")
            except OSError:
                log.exception("spilling failed")
            state = await client.call("state", log_lines=5)
            last = await client.call("state", log_lines=1)
            none = await client.call("state", log_lines=-3)
            many = await client.call("state", log_lines=10_000)
            with pytest.raises(ValueError, match="log_lines"):
                await client.call("state", log_lines=True)
            # the next heartbeats carry the transfer and GPU figures to the supervisor
            connection = supervisor.runtime.workers[worker.address]
            deadline = time.monotonic() + 5
            while "transfer" not in connection.resources:
                assert time.monotonic() < deadline, "no heartbeat with transfer figures"
                await asyncio.sleep(0.01)
            resources = connection.resources
        finally:
            await client.close()
            await worker.stop()
            await supervisor.stop()
        assert worker._log_tail not in logging.getLogger().handlers
        return state, last, none, many, resources

    root = logging.getLogger()
    level = root.level
    state, last, none, many, resources = asyncio.run(main())
    assert root.level == level

    lines = [line for line in state["log"] if "tests.worker_state" in line]
    assert [line.split(" ", 2)[2] for line in lines] == [
        "WARNING tests.worker_state: chunk store is 93% full",
        "ERROR tests.worker_state: spilling failed",
    ]
    assert not any("Traceback" in line or "/srv/private" in line for line in state["log"])
    assert last["log"] == state["log"][-1:]
    assert none["log"] == []
    assert many["log"][-2:] == state["log"][-2:]
    assert state["running_tasks"] == []
    assert resources["transfer"]["sent_bytes"] == 0
    assert [gpu["index"] for gpu in resources["gpus"]] == GPU_INDICES


@no_gpu
def test_a_worker_without_a_gpu_reports_an_empty_gpu_list():
    with cli_cluster(1) as cluster:
        address = cluster.workers[0].wait_for(WORKER, 5)
        (listed,) = cluster.http().json("GET", "/api/v1/workers")
        state = ask(address, cluster.token, "state")
    assert listed["resources"]["gpus"] == []  # there, and empty: not absent, no error
    assert state["gpus"] == []


@needs_gpu
def test_a_gpu_workers_status_carries_its_devices_figures():
    def listed_gpus(cluster: Any) -> list[dict[str, Any]] | None:
        (worker,) = cluster.http().json("GET", "/api/v1/workers")
        return worker["resources"]["gpus"] or None

    with cli_cluster(1, "--cuda-devices", "0") as cluster:
        address = cluster.workers[0].wait_for(WORKER, 5)
        (gpu,) = wait_until(lambda: listed_gpus(cluster))
        state = ask(address, cluster.token, "state")
    assert gpu["index"] == 0
    assert gpu["name"]
    assert set(gpu) == {
        "index",
        "name",
        "utilization",
        "memory_used",
        "memory_total",
        "temperature_c",
        "power_w",
    }
    assert 0 < gpu["memory_total"]
    assert [g["index"] for g in state["gpus"]] == [0]

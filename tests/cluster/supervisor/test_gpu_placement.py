"""The supervisor places GPU tasks only on workers with a GPU slot, in their own pool.

The workers are the in-process stand-ins of ``test_worker_loss.py``: they run whatever
task they get, so the tasks here are NumPy ones marked to run on a GPU slot, and what is
checked is where the supervisor sends them (real GPU runs: ``tests/cluster/test_gpu_slots.py``).
"""

from __future__ import annotations

import asyncio

import numpy as np

from jupyter_mars.cluster.supervisor.runtime import ClusterRuntime
from jupyter_mars.engine.devices import GPU, GPUUnavailable
from jupyter_mars.engine.graph import Ref, Task
from tests.cluster.supervisor.test_worker_loss import FakeWorker, run_job, until


def _graph(n: int) -> dict:
    """``n`` GPU-marked chunks and a CPU task that adds them up."""
    graph = {("dev", i): Task(("dev", i), np.ones, (3,), device=GPU) for i in range(n)}
    graph["total"] = Task("total", lambda *xs: np.sum(xs), tuple(Ref(k) for k in list(graph)))
    return graph


def test_gpu_tasks_go_only_to_the_worker_with_gpu_slots() -> None:
    async def main() -> None:
        runtime = ClusterRuntime(asyncio.get_running_loop(), probe_timeout=1)
        workers: dict[str, FakeWorker] = {}
        runtime.add_worker("cpu:1", 4, FakeWorker("cpu:1", workers))
        runtime.add_worker("gpu:1", 1, FakeWorker("gpu:1", workers), n_gpu=1)
        assert (runtime.core.n_slots, runtime.core.n_gpu_slots) == (10, 2)
        job = run_job(runtime, _graph(12), ("total",))
        await until(job.done.is_set)
        assert job.error is None
        assert await runtime.fetch("total") == 36
        gpu_keys = {k for k in workers["gpu:1"].attempts if k != "total"}
        assert gpu_keys
        assert not any(k in gpu_keys for k in workers["cpu:1"].attempts)
        assert all(k[0] == "dev" for k in gpu_keys)
        runtime.core.validate_state()
        runtime.close()

    asyncio.run(main())


def test_a_gpu_job_fails_at_once_when_the_last_gpu_worker_leaves() -> None:
    async def main() -> None:
        runtime = ClusterRuntime(asyncio.get_running_loop(), probe_timeout=1)
        workers: dict[str, FakeWorker] = {}
        runtime.add_worker("cpu:1", 1, FakeWorker("cpu:1", workers))
        gpu = FakeWorker("gpu:1", workers)
        gpu.gate = asyncio.Event()  # its tasks wait: the job is under way when it leaves
        runtime.add_worker("gpu:1", 1, gpu, n_gpu=1)
        job = run_job(runtime, _graph(2), ("total",))
        await until(lambda: bool(gpu.in_flight))
        runtime.remove_worker("gpu:1")
        await until(job.done.is_set)
        assert isinstance(job.error, GPUUnavailable)
        assert "mars-worker --cuda-devices 0" in str(job.error)
        assert runtime.core.n_gpu_slots == 0
        runtime.core.validate_state()
        runtime.close()

    asyncio.run(main())

"""Inputs a worker fetches from its peers, shared between the tasks that need them.

A supervisor and two workers run in this process, on loopback: ``holder`` computes a
chunk, and ``reader`` runs tasks that read it, fetching it from ``holder``. The worker's
RPC handlers are called directly, so that the test decides the order in which calls
arrive.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import CancelledError
from contextlib import asynccontextmanager

import numpy as np
import pytest

from jupyter_mars.cluster.supervisor.server import SupervisorServer
from jupyter_mars.cluster.wire.errors import InputLost
from jupyter_mars.cluster.worker.server import WorkerServer
from jupyter_mars.engine.graph import Ref, Task

TOKEN = "worker-fetches-test"
X = ("x", 0)


@asynccontextmanager
async def two_workers() -> AsyncIterator[tuple[WorkerServer, WorkerServer]]:
    supervisor = SupervisorServer(token=TOKEN)
    await supervisor.start()
    workers = [WorkerServer(supervisors=[supervisor.address], token=TOKEN) for _ in range(2)]
    try:
        for worker in workers:
            await worker.start()
        yield workers[0], workers[1]
    finally:
        for worker in workers:
            await worker.stop()
        await supervisor.stop()


async def wait_for_arrivals(worker: WorkerServer, n: int) -> None:
    for _ in range(1000):
        if len((await worker.state())["running_tasks"]) >= n:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{n} tasks never arrived")


def test_cancelling_the_task_that_started_a_fetch_leaves_it_to_the_others() -> None:
    async def main() -> None:
        async with two_workers() as (holder, reader):
            data = np.arange(1_000_000, dtype=np.float64)
            await holder.execute(X, Task(X, np.array, (data,)), {})
            where = {X: holder.address}
            first = asyncio.ensure_future(
                reader.execute("first", Task("first", np.add, (Ref(X), 1.0)), where)
            )
            second = asyncio.ensure_future(
                reader.execute("second", Task("second", np.multiply, (Ref(X), 2.0)), where)
            )
            await wait_for_arrivals(reader, 2)
            # the first task started the fetch of x, which the second waits for too
            assert await reader.cancel(["first"]) == 1
            with pytest.raises(CancelledError):
                await asyncio.wait_for(first, 10)
            reply = await asyncio.wait_for(second, 10)
            assert reply["nbytes"] == data.nbytes
            np.testing.assert_array_equal((await reader.get_data(["second"]))["second"], data * 2)
            assert "first" not in reader.store

    asyncio.run(main())


def test_an_input_from_a_dead_peer_is_a_lost_input_naming_it() -> None:
    async def main() -> None:
        async with two_workers() as (_, reader):
            dead = "127.0.0.1:9"  # discard port: nothing listens there
            task = Task("t", np.add, (Ref(X), 1.0))
            with pytest.raises(InputLost, match=r"\('x', 0\).*127\.0\.0\.1:9"):
                await asyncio.wait_for(reader.execute("t", task, {X: dead}), 30)
            with pytest.raises(InputLost, match="not held by any worker"):
                await reader.execute("t", task, {X: None})
            assert (await reader.state())["running_tasks"] == []

    asyncio.run(main())

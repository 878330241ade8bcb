"""A job's outputs that read nothing are spread over the workers, not left to whichever
is free first (the chunks a persist holds, which every later pass reads where they are)."""

from __future__ import annotations

import asyncio

import numpy as np

from jupyter_mars.cluster.supervisor.placement import (
    SPREAD_SLACK,
    WorkerSlots,
    choose_worker,
    spread_out,
)
from jupyter_mars.engine.graph import Task
from tests.cluster.supervisor.test_worker_loss import fake_cluster, run_job, until


def test_the_free_worker_that_took_fewest_per_slot_takes_the_next() -> None:
    a, b = WorkerSlots("a:1", 2, order=0), WorkerSlots("b:1", 1, order=1)
    assert spread_out([a, b], {"a:1": 4, "b:1": 3}).address == "a:1"  # 2 per slot against 3
    assert spread_out([a, b], {}).address == "a:1"  # none yet: the first registered
    b.running = 1
    assert spread_out([a, b], {"a:1": 2, "b:1": 0}) is not None  # one more per slot: on
    assert spread_out([a, b], {"a:1": 2 * 2 * SPREAD_SLACK, "b:1": 0}) is None
    a.running = 2
    assert spread_out([a, b], {}) is None  # nobody free


def test_tasks_that_read_held_chunks_still_go_where_those_are() -> None:
    a, b = WorkerSlots("a:1", 1, order=0), WorkerSlots("b:1", 1, order=1)
    chosen = choose_worker(["x"], [a, b], {"x": "b:1"}, {"x": 8}, spread={"b:1": 9})
    assert chosen is not None
    assert chosen.address == "b:1"
    chosen = choose_worker(["x"], [a, b], {}, {}, spread={"a:1": 9})  # nothing held: spread
    assert chosen is not None
    assert chosen.address == "b:1"


def test_a_busy_worker_keeps_its_share_of_a_held_job() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("slow:1", "fast:1")
        slow = workers["slow:1"]
        slow.gate = asyncio.Event()  # its tasks hang until the gate opens
        graph = {("x", i): Task(("x", i), np.full, (2, float(i))) for i in range(16)}
        outputs = tuple(graph)
        job = run_job(runtime, graph, outputs)
        await until(lambda: len(slow.attempts) > 0 and len(workers["fast:1"].attempts) > 0)
        await asyncio.sleep(0.2)  # the fast worker would take every other chunk meanwhile
        fast_took, slow_took = len(workers["fast:1"].attempts), len(slow.attempts)
        assert fast_took - slow_took <= SPREAD_SLACK * 2 + 1
        assert fast_took < len(graph) - slow_took  # some wait for the slow worker
        slow.gate.set()
        await until(job.done.is_set)
        assert job.error is None
        took = {a: len(w.attempts) for a, w in workers.items()}
        assert abs(took["fast:1"] - took["slow:1"]) <= SPREAD_SLACK * 2 + 1, took
        for key in outputs:
            np.testing.assert_array_equal(await runtime.fetch(key), np.full(2, float(key[1])))
        runtime.core.validate_state()
        runtime.close()

    asyncio.run(main())

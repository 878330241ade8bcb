"""The supervisor's runtime with in-process workers: subgraphs, followers, progress."""

from __future__ import annotations

import asyncio
import operator
from concurrent.futures import CancelledError

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref, Task
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.engine.scheduler.events import JobCancelled
from tests.cluster.supervisor.test_worker_loss import fake_cluster, run_job, until


def _reduction(n: int) -> dict:
    """``n`` chunks of ones summed four at a time, like ``mt.ones(...).sum()``."""
    g = {("ones", i): Task(("ones", i), np.ones, (3,)) for i in range(n)}
    keys, level = list(g), 0
    while len(keys) > 1:
        parents = []
        for j in range(0, len(keys), 4):
            key = ("sum", level, j // 4)
            g[key] = Task(
                key, lambda *xs: np.sum(xs, axis=0), tuple(Ref(k) for k in keys[j : j + 4])
            )
            parents.append(key)
        keys, level = parents, level + 1
    return g


def test_a_job_runs_as_subgraphs_and_counts_every_chunk_task() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1")
        graph = _reduction(400)
        root = ("sum", 4, 0)
        job = run_job(runtime, graph, (root,))
        await until(job.done.is_set)
        assert job.error is None
        executed = sum(len(w.attempts) for w in workers.values())
        assert executed < len(graph) / 10  # one RPC per subgraph, not per chunk
        assert job.n_done == job.n_tasks == len(graph)
        np.testing.assert_array_equal(await runtime.fetch(root), [400.0] * 3)
        runtime.core.validate_state()

    asyncio.run(main())


def test_a_follower_runs_with_its_input_and_costs_no_call_of_its_own() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1")
        graph = {
            "x": Task("x", np.arange, (4,)),
            "y": Task("y", operator.neg, (Ref("x"),)),
        }
        job = run_job(runtime, graph, ("x", "y"))
        await until(job.done.is_set)
        assert job.error is None
        assert workers["a:1"].attempts == ["x", "y"]  # y went along with x's call
        np.testing.assert_array_equal(await runtime.fetch("y"), -np.arange(4))
        assert runtime._prefinished == {}
        runtime.core.validate_state()

    asyncio.run(main())


def test_a_failing_follower_runs_again_and_its_error_names_it() -> None:
    async def main() -> None:
        runtime, _ = fake_cluster("a:1")
        graph = {
            "x": Task("x", np.arange, (4,)),
            "y": Task("y", operator.truediv, (Ref("x"), "not a number")),
        }
        job = run_job(runtime, graph, ("x", "y"))
        await until(job.done.is_set)
        assert isinstance(job.error, TypeError)
        assert job.failed_key == "y"

    asyncio.run(main())


def test_a_cancelled_task_in_flight_is_cancelled_on_its_worker_and_its_slot_freed() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1")
        worker = workers["a:1"]
        worker.gate = asyncio.Event()  # x (and its follower) are in flight
        graph = {
            "x": Task("x", np.arange, (4,)),
            "y": Task("y", operator.neg, (Ref("x"),)),
        }
        job = run_job(runtime, graph, ("x", "y"))
        await until(lambda: worker.attempts == ["x"])
        runtime._handle(JobCancelled(stimulus_id="test", job_id=job.job_id))
        await until(job.done.is_set)
        assert runtime.workers["a:1"].running == 0  # free before the worker answers
        await until(lambda: "x" in worker.cancelled)
        worker.gate.set()
        await until(lambda: not worker.in_flight)
        assert worker.attempts == ["x"]  # neither it nor its follower ran
        assert worker.store == {}
        runtime.core.validate_state()

    asyncio.run(main())


def test_a_follower_result_that_arrives_after_a_cancel_is_deleted() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1")
        worker = workers["a:1"]
        worker.reply_gate = asyncio.Event()  # x and its follower ran; the reply is on its way
        graph = {
            "x": Task("x", np.arange, (4,)),
            "y": Task("y", operator.neg, (Ref("x"),)),
        }
        job = run_job(runtime, graph, ("x", "y"))
        await until(lambda: set(worker.store) == {"x", "y"})
        runtime._handle(JobCancelled(stimulus_id="test", job_id=job.job_id))
        await until(job.done.is_set)
        worker.reply_gate.set()
        await until(lambda: not worker.store)
        assert runtime._prefinished == {}
        runtime.core.validate_state()

    asyncio.run(main())


def test_the_loop_runs_on_while_a_large_graph_is_coarsened() -> None:
    # a sort of 100 chunks: 20,000 chunk tasks to coarsen before the core sees the job
    stage = next(plan_stages([mt.sort(mt.random.rand(400_000, chunk_size=4_000)).node], {}))
    assert len(stage.graph) > 20_000

    async def main() -> None:
        runtime, _ = fake_cluster()  # no worker: the jobs wait in the core
        job = runtime.submit(stage.graph, stage.outputs, stage.priorities)
        turns = 0  # times this coroutine ran before the job was planned
        while job.operators is None:
            turns += 1
            await asyncio.sleep(0)
        # the loop ran on: heartbeats, RPCs and HTTP would have been answered meanwhile
        assert turns > 1
        assert runtime.core._jobs.keys() == {job.job_id}
        runtime.cancel(job)
        # a job cancelled while it is planned ends as cancelled once planned
        other = runtime.submit(stage.graph, stage.outputs, stage.priorities)
        runtime.cancel(other)
        await until(lambda: job.done.is_set() and other.done.is_set(), timeout=120)
        assert isinstance(job.error, CancelledError)
        assert isinstance(other.error, CancelledError)
        runtime.core.validate_state()
        runtime.close()

    asyncio.run(main())


def test_closing_the_runtime_ends_the_jobs_it_is_planning() -> None:
    stage = next(plan_stages([mt.sort(mt.random.rand(40_000, chunk_size=1_000)).node], {}))

    async def main() -> None:
        runtime, _ = fake_cluster("a:1")
        job = runtime.submit(stage.graph, stage.outputs, stage.priorities)
        await asyncio.sleep(0)  # its planning started
        runtime.close()
        late = runtime.submit(stage.graph, stage.outputs, stage.priorities)
        await until(lambda: job.done.is_set() and late.done.is_set(), timeout=60)
        assert "closed" in str(job.error)
        assert "closed" in str(late.error)
        await asyncio.sleep(0.5)  # the planning that was under way reports back: ignored
        runtime.core.validate_state()

    asyncio.run(main())

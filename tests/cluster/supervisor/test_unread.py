"""The supervisor tells a worker which results no task waits for: chunks held for later,
which a full chunk store may keep as their recipe rather than draw."""

from __future__ import annotations

import asyncio

import numpy as np

from jupyter_mars.engine.graph import Ref, Task
from tests.cluster.supervisor.test_worker_loss import fake_cluster, run_job, until


def test_only_results_no_task_reads_are_sent_as_unread() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("w:1", "w:2")
        graph = {
            "a": Task("a", np.ones, (3,)),
            "b": Task("b", np.ones, (3,)),
            "total": Task("total", np.add, (Ref("a"), Ref("b"))),
            "alone": Task("alone", np.zeros, (2,)),
        }
        job = run_job(runtime, graph, ("a", "total", "alone"))
        await until(job.done.is_set)
        assert job.error is None
        flags = {k: v for w in workers.values() for k, v in w.unread.items()}
        # "a" is an output too, but "total" read it when it ran
        assert flags == {"a": False, "b": False, "total": True, "alone": True}
        np.testing.assert_array_equal(await runtime.fetch("total"), np.full(3, 2.0))
        # a later job reading the held "a" does not change how it was computed
        later = run_job(runtime, {"twice": Task("twice", np.multiply, (Ref("a"), 2.0))}, ("twice",))
        await until(later.done.is_set)
        assert later.error is None
        assert {k: v for w in workers.values() for k, v in w.unread.items()}["twice"] is True
        runtime.core.validate_state()
        runtime.close()

    asyncio.run(main())

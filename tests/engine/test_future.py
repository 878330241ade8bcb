"""Progress and ExecutionFuture: a cancel reaches the job running now and any job of the
execution submitted after it, the name shows in the repr, and the session is kept."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.future import ExecutionFuture, Progress
from jupyter_mars.engine.graph import Task
from jupyter_mars.engine.opstats import OperatorStats
from jupyter_mars.engine.runtime import JobHandle


class _Job:
    def __init__(self, n: int) -> None:
        self.n_done, self.n_tasks, self.operators = 0, n, None


def test_a_stop_reaches_the_current_job_and_those_added_later() -> None:
    stopped: list[Any] = []
    progress = Progress()
    first, second = _Job(2), _Job(3)
    progress.add_job(first)
    progress.stop(stopped.append)
    assert stopped == [first]
    progress.add_job(second)  # a stage submitted while the cancel came
    assert stopped == [first, second]


def test_a_stop_before_any_job_reaches_the_first_one() -> None:
    stopped: list[Any] = []
    progress = Progress()
    progress.stop(stopped.append)
    job = _Job(1)
    progress.add_job(job)
    assert stopped == [job]


def slow(block: np.ndarray) -> np.ndarray:
    time.sleep(0.2)
    return block


def test_cancelling_right_after_submitting_stops_the_work(session: Any) -> None:
    x = mt.arange(40, chunk_size=1)
    future = mt.elemwise(slow, x, dtype=x.dtype).execute(wait=False)
    assert isinstance(future, ExecutionFuture)
    assert future.session is session
    future.name = "slow"
    assert "'slow'" in repr(future)
    assert future.cancel()
    assert future.cancelled()
    # the work stopped: a later execution runs, and most of the slow chunks never ran
    assert (mt.arange(4) + 1).sum().execute().fetch() == 10
    ops = [op for op in future.operators()["operators"] if op["op"] == "slow"]
    assert all(op["done"] < op["total"] == 40 for op in ops)  # none if cancelled before


def test_only_a_complete_execution_is_at_100_percent() -> None:
    graph = {k: Task(k, int, (1,)) for k in [("a", 0), ("a", 1), ("a", 2), ("a", 3)]}
    job = JobHandle("job", len(graph))
    job.operators = OperatorStats(graph)
    progress = Progress()
    progress.add_job(job)
    job.operators.finished(("a", 0), 0.0)
    progress.finish(complete=False)  # failed or cancelled after one task of four
    assert progress.fraction() == 0.25
    for i in (1, 2, 3):
        job.operators.finished(("a", i), 0.0)
    assert progress.fraction() == 0.999  # every task ran, yet the result was not kept
    progress.finish(complete=True)
    assert progress.fraction() == 1.0


def test_progress_is_the_share_of_chunks_the_operators_count(session: Any) -> None:
    x = mt.arange(40, chunk_size=1)
    y = ((x + 1) * 2).sum()  # fused tasks of several chunks each, then a tree of sums
    progress = Progress()
    session.engine.run([y.node], progress)
    ops = progress.operators()["operators"]
    done, total = sum(op["done"] for op in ops), sum(op["total"] for op in ops)
    assert total > 3 * 40  # arange, add and mul of every chunk, and the sums
    assert progress.counts() == (done, total)  # one measure: chunks, fused or not
    future = ((x + 2) * 3).sum().execute(wait=False)
    future.result(timeout=60)
    ops = future.operators()["operators"]
    assert future.chunks() == (total, total) == (sum(op["done"] for op in ops), total)
    assert future.progress() == 1.0


def _fails(block: np.ndarray) -> np.ndarray:
    raise ValueError("bad block")


def test_a_failed_execution_keeps_the_share_of_its_tasks_that_ran(session: Any) -> None:
    x = mt.arange(4, chunk_size=1)
    future = mt.elemwise(_fails, x, dtype=x.dtype).execute(wait=False)
    assert isinstance(future.exception(timeout=30), ValueError)
    assert future.progress() < 1.0


def _sleepy(block: np.ndarray) -> np.ndarray:
    time.sleep(0.5)
    return block


def test_an_interrupt_while_waiting_for_the_result_cancels_the_execution() -> None:
    """Ctrl-C (or a notebook's stop button) in future.result() stops the work too."""
    # Python's own handler, as a script or a kernel has it: a library loaded by another
    # test of this process may have put one of its own in place
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        x = mt.tensor(np.arange(40), chunk_size=1)
        future = mt.elemwise(_sleepy, x, dtype=np.int64).execute(wait=False)
        # a real SIGINT, as the kernel's interrupt sends: it wakes the wait on the result
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            future.result(timeout=60)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert future.cancelled()
    assert future.cancel_event.is_set()

"""The embedded runtime honours its core budget, measured."""

import time

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.executors.threads import ThreadRuntime
from jupyter_mars.engine.graph import Ref, Task

SEEN = []


def square_matmul(block):
    from threadpoolctl import threadpool_info

    SEEN.append(threadpool_info()[0]["num_threads"])
    out = block
    for _ in range(3):
        out = out @ block
    return out


def test_one_cpu_session_keeps_one_core_busy_even_in_blas():
    data = np.random.default_rng(0).random((1600, 1600))
    SEEN.clear()
    with mars.new_session(n_cpu=1, default=False) as session:
        session.execute(mt.tensor(np.ones(3)) + 1)  # warm: threads and BLAS controller
        t = mt.elemwise(square_matmul, mt.tensor(data, chunk_size=800), dtype=np.float64)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        session.execute(t)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    # BLAS would use every core without the limit; load on the machine only lowers this
    assert SEEN == [1, 1, 1, 1], "BLAS pools were not limited to one thread"
    assert cpu / wall < 1.3, f"{cpu / wall:.2f} cores busy for n_cpu=1"


def blas_threads(_: object = None) -> list[int]:
    from threadpoolctl import threadpool_info

    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]


def test_blas_limits_hold_while_busy_and_are_lifted_for_the_user_when_idle():
    before = blas_threads()
    runtime = ThreadRuntime(n_threads=2, n_cpu=2)
    job = runtime.submit({"a": Task("a", blas_threads, (None,))}, ("a",), {})
    assert job.wait(10)
    assert runtime.get("a") == [1] * len(before)
    runtime.release_keys(("a",))
    # seen from this (the user's) thread, as NumPy code here would see them
    assert blas_threads() == before
    runtime.close()


def test_runtime_runs_a_graph_and_frees_intermediates():
    runtime = ThreadRuntime(n_threads=2)
    graph = {
        "x": Task("x", np.arange, (10,)),
        "y": Task("y", np.multiply, (Ref("x"), 2)),
        "z": Task("z", np.sum, (Ref("y"),)),
    }
    job = runtime.submit(graph, ("z",), {"x": 0, "y": 1, "z": 2})
    assert job.wait(10)
    assert job.error is None
    assert runtime.get("z") == 90
    assert set(runtime.store) == {"z"}
    runtime.release_keys(("z",))
    assert runtime.store == {}
    runtime.close()


def test_memory_errors_are_retried():
    attempts = []

    def flaky():
        attempts.append(1)
        if len(attempts) < 3:
            raise MemoryError("transient")
        return 1

    runtime = ThreadRuntime(n_threads=1)
    job = runtime.submit({"a": Task("a", flaky)}, ("a",), {})
    assert job.wait(10)
    assert job.error is None
    assert len(attempts) == 3
    runtime.close()

"""The embedded runtime honours its core budget, measured."""

import threading
import time

import numpy as np
import psutil
import sklearn.cluster  # noqa: F401 - brings an OpenMP pool of its own, loaded before any task

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.executors.threads import ThreadRuntime
from jupyter_mars.engine.graph import Ref, Task

SEEN = []


def square_matmul(block):
    from threadpoolctl import threadpool_info

    SEEN.append(max(pool["num_threads"] for pool in threadpool_info()))
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
    assert SEEN == [1, 1, 1, 1], "BLAS and OpenMP pools were not limited to one thread"
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
    assert set(runtime.store.keys()) == {"z"}
    runtime.release_keys(("z",))
    assert len(runtime.store) == 0
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


class _ShapeRaises:
    """A result whose shape cannot be read."""

    @property
    def shape(self) -> tuple[int, ...]:
        raise RuntimeError("no shape here")


def test_a_result_that_cannot_be_recorded_fails_its_job_and_the_threads_live_on():
    runtime = ThreadRuntime(n_threads=1)
    job = runtime.submit({"a": Task("a", _ShapeRaises)}, ("a",), {})
    assert job.wait(10), "the job hung"
    assert isinstance(job.error, RuntimeError)
    assert "no shape here" in str(job.error)
    job = runtime.submit({"b": Task("b", np.arange, (3,))}, ("b",), {})
    assert job.wait(10)
    assert job.error is None
    np.testing.assert_array_equal(runtime.get("b"), np.arange(3))
    runtime.close()


class _Marks:
    """Records what tasks did (a list in a task's arguments would be copied)."""

    def __init__(self) -> None:
        self.seen: list[str] = []


def _slow_then_mark(marks: _Marks, started: threading.Event | None = None) -> int:
    if started is not None:
        started.set()
    try:
        time.sleep(0.3)
        marks.seen.append("slow done")
    finally:
        marks.seen.append("slow ended")
    return 1


def _fail_once_started(started: threading.Event) -> int:
    started.wait(10)
    raise ValueError("boom")


def test_a_failed_job_is_reported_once_its_running_tasks_have_ended():
    marks = _Marks()
    started = threading.Event()
    runtime = ThreadRuntime(n_threads=2)
    # a task of some length first, so that the runtime runs tasks on both threads
    warm = runtime.submit({"w": Task("w", time.sleep, (0.05,))}, ("w",), {})
    assert warm.wait(10)
    graph = {
        "slow": Task("slow", _slow_then_mark, (marks, started)),
        "bad": Task("bad", _fail_once_started, (started,)),
    }
    job = runtime.submit(graph, ("slow", "bad"), {"slow": 0, "bad": 1})
    assert job.wait(10)
    assert isinstance(job.error, ValueError)
    # nothing of the job still runs when the caller learns of the failure; the other task
    # was interrupted when its sleep (code in C) returned
    assert marks.seen == ["slow ended"]
    runtime.close()


def test_a_cancelled_jobs_task_in_c_code_stops_when_the_call_returns():
    marks = _Marks()
    started = threading.Event()
    runtime = ThreadRuntime(n_threads=1)
    job = runtime.submit({"slow": Task("slow", _slow_then_mark, (marks, started))}, ("slow",), {})
    assert started.wait(10)
    runtime.cancel(job)
    assert job.wait(10)
    deadline = time.monotonic() + 10
    while marks.seen != ["slow ended"] and time.monotonic() < deadline:
        time.sleep(0.01)
    # interrupted once its sleep returned, before the next line of Python
    assert marks.seen == ["slow ended"]
    runtime.close()


class _Spins:
    """Counts the spinning tasks that started and those that stopped."""

    def __init__(self) -> None:
        self.started = threading.Semaphore(0)
        self.stopped: list[str] = []


def _spin(spins: _Spins, name: str, seconds: float) -> int:
    spins.started.release()
    end = time.monotonic() + seconds
    n = 0
    try:
        while time.monotonic() < end:  # pure Python: no C call to wait for
            n += 1
    finally:
        spins.stopped.append(name)
    return n


def test_cancel_stops_running_python_tasks_and_frees_their_threads_for_the_next_job():
    spins = _Spins()
    runtime = ThreadRuntime(n_threads=2)
    graph = {f"spin{i}": Task(f"spin{i}", _spin, (spins, f"spin{i}", 30.0)) for i in range(4)}
    job = runtime.submit(graph, tuple(graph), {})
    for _ in range(2):  # both threads spin
        assert spins.started.acquire(timeout=10)
    runtime.cancel(job)
    assert job.wait(10)
    nxt = runtime.submit({"next": Task("next", sum, ([1, 2, 3],))}, ("next",), {})
    # far sooner than the 30 s the spinning tasks would take
    assert nxt.wait(10), "the next job waited for the cancelled job's tasks"
    assert runtime.get("next") == 6
    deadline = time.monotonic() + 10
    while len(spins.stopped) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(spins.stopped) == 2
    assert not spins.started.acquire(timeout=0)  # the two queued ones never ran
    process = psutil.Process()
    busy = sum(process.cpu_times()[:2])
    time.sleep(1.0)
    assert sum(process.cpu_times()[:2]) - busy < 0.5, "threads still busy after the cancel"
    runtime.close()


def test_kept_memory_is_given_back_once_no_task_ran_for_a_while(monkeypatch):
    from jupyter_mars.engine.storage import heap

    given: list[float] = []
    monkeypatch.setattr(heap, "give_back", lambda: given.append(time.monotonic()))
    monkeypatch.setattr(heap, "IDLE_GIVE_BACK", 0.2)
    runtime = ThreadRuntime(n_threads=2)
    try:
        time.sleep(0.4)
        assert given == []  # nothing ran: nothing to give back
        for i in range(3):  # jobs closer together than the delay: kept between them
            time.sleep(0.05)
            job = runtime.submit({f"a{i}": Task(f"a{i}", np.ones, (1 << 20,))}, (f"a{i}",), {})
            assert job.wait(10)
        ended = time.monotonic()
        assert given == []
        deadline = ended + 5
        while not given and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(given) == 1
        assert given[0] - ended >= 0.15
        time.sleep(0.4)
        assert len(given) == 1  # once per idle spell
        # a released result is given back too
        runtime.release_keys(("a0", "a1", "a2"))
        deadline = time.monotonic() + 5
        while len(given) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(given) == 2
    finally:
        runtime.close()

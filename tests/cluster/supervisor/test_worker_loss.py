"""A worker that dies loses nothing: its chunks are recomputed on the others.

Real supervisor and worker processes (``new_cluster``, without nannies: a worker killed
stays dead); the tests SIGKILL only worker processes they started. Kernels are defined
inside the tests, so they travel by value (cloudpickle) and the workers need not import
this module.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.cluster.supervisor.runtime import ClusterRuntime, WorkerLost
from jupyter_mars.engine.graph import Key, Ref, Task, execute_task
from jupyter_mars.engine.runtime import JobHandle
from jupyter_mars.engine.scheduler.events import KeysReleased
from jupyter_mars.launcher import new_cluster
from jupyter_mars.launcher.local import LocalCluster
from tests.cluster.processes import cli_cluster, free_port, remote_session


@pytest.fixture
def cluster(request: pytest.FixtureRequest) -> Iterator[LocalCluster]:
    n_worker = getattr(request, "param", 3)
    running = new_cluster(n_worker=n_worker, n_cpu=1, nanny=False)
    try:
        yield running
    finally:
        running.stop()


def computed_by(directory: Path) -> dict[int, int]:
    """Worker pid -> how many chunks it computed (written by the ``noting`` kernels)."""
    return {int(p.name): len(p.read_text()) for p in directory.iterdir()}


def kill(cluster: LocalCluster, pid: int) -> None:
    """SIGKILL one of this cluster's worker processes and reap it."""
    (worker,) = [w for w in cluster.workers if w.popen.pid == pid]
    worker.popen.send_signal(signal.SIGKILL)
    worker.popen.wait(10)


def test_worker_killed_mid_job_gives_the_right_answer(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    def slow_noting(block: np.ndarray, seconds: float, directory: str) -> np.ndarray:
        with open(os.path.join(directory, str(os.getpid())), "a") as f:
            f.write("x")
        time.sleep(seconds)
        return block + 1

    data = np.arange(480, dtype=np.float64)
    x = mt.tensor(data, chunk_size=10)  # 48 chunks of 0.05 s on 3 workers
    y = mt.elemwise(slow_noting, x, 0.05, str(tmp_path), dtype=np.float64)
    total = (y * 2).sum()
    future = cluster.session.execute(total, wait=False)

    # kill a worker once it has finished some chunks, while it runs another
    victim = cluster.workers[0].popen.pid
    deadline = time.monotonic() + 20
    while computed_by(tmp_path).get(victim, 0) < 4:
        assert time.monotonic() < deadline, "the job did not start"
        time.sleep(0.01)
    assert not future.done()
    kill(cluster, victim)

    future.result(timeout=30)
    assert total.fetch() == ((data + 1) * 2).sum()
    assert sum(computed_by(tmp_path).values()) > 48  # the victim's chunks ran again


def test_held_result_survives_its_workers(cluster: LocalCluster, tmp_path: Path) -> None:
    def noting(block: np.ndarray, directory: str) -> np.ndarray:
        with open(os.path.join(directory, str(os.getpid())), "a") as f:
            f.write("x")
        return block * 3

    data = np.arange(120, dtype=np.float64).reshape(12, 10)
    y = mt.elemwise(noting, mt.tensor(data, chunk_size=(2, 10)), str(tmp_path), dtype=np.float64)
    y.execute()
    holders = computed_by(tmp_path)
    assert sum(holders.values()) == 6

    # the worker that computed most chunks of y holds them; nobody knows it died yet
    first = max(holders, key=holders.__getitem__)
    kill(cluster, first)
    np.testing.assert_array_equal(y.fetch(), data * 3)  # recomputed on the others

    # another holder dies: a later graph reading y recomputes its chunks too
    alive = {w.popen.pid for w in cluster.workers if w.popen.poll() is None}
    second = max(alive & set(computed_by(tmp_path)), key=computed_by(tmp_path).__getitem__)
    kill(cluster, second)
    assert (y + 1).sum().execute().fetch() == (data * 3 + 1).sum()
    np.testing.assert_array_equal(y.fetch(), data * 3)


@pytest.mark.parametrize("cluster", [4], indirect=True)
def test_task_that_kills_its_workers_fails_after_bounded_attempts(
    cluster: LocalCluster,
) -> None:
    worker_pids = [w.popen.pid for w in cluster.workers]

    def kill_its_worker(block: np.ndarray, pids: list[int]) -> np.ndarray:
        if os.getpid() in pids:  # only ever on this test's worker processes
            os._exit(1)
        return block

    bad = mt.elemwise(kill_its_worker, mt.ones(4, chunk_size=4), worker_pids, dtype=np.float64)
    with pytest.raises(RuntimeError, match="kill_its_worker") as info:
        bad.execute()
    assert "was given up after 3 attempts: the worker running the last one died" in str(info.value)
    # the last one may still be exiting when its death has failed the task
    deadline = time.monotonic() + 30
    while len(dead := [w for w in cluster.workers if w.popen.poll() is not None]) < 3:
        assert time.monotonic() < deadline, f"{len(dead)} workers died"
        time.sleep(0.05)
    assert len(dead) == 3  # a first run and the core's max_retries of 2: a bounded number

    # the last worker keeps serving
    assert (mt.arange(10, chunk_size=3) + 1).sum().execute().fetch() == 55


# ---------------------------------------------------------------------- in-process
# The runtime against fake workers: the races of worker loss, made deterministic.


class FakeWorker:
    """An RPC client stand-in that runs tasks in-process and holds their results."""

    def __init__(self, address: str, peers: dict[str, FakeWorker]) -> None:
        self.address = address
        self.peers = peers
        peers[address] = self
        self.store: dict[Key, Any] = {}
        self.dead = False
        self.gate: asyncio.Event | None = None
        """When set, ``execute`` waits for it (a task in flight)."""
        self.reply_gate: asyncio.Event | None = None
        """When set, ``execute`` waits for it once the results are kept (a reply in flight)."""
        self.attempts: list[Key] = []
        """Keys of the ``execute`` calls it received, in order."""
        self.unread: dict[Key, bool] = {}
        """Per key, the ``unread`` flag of its last ``execute`` call."""
        self.in_flight: list[Key] = []
        self.cancelled: set[Key] = set()
        """Keys whose ``execute`` calls under way were cancelled."""

    async def call(self, op: str, **kwargs: Any) -> Any:
        if self.dead:
            raise ConnectionError(f"cannot connect to {self.address}")
        if op == "execute":
            return await self.execute(**kwargs)
        if op == "get_data":
            return {k: self.store[k] for k in kwargs["keys"]}
        if op == "delete_data":
            for k in kwargs["keys"]:
                self.store.pop(k, None)
            return None
        if op == "cancel":  # as a real worker: calls under way stop, results are dropped
            for k in kwargs["keys"]:
                if k in self.in_flight:
                    self.cancelled.add(k)
                self.store.pop(k, None)
            return None
        assert op == "info"
        return {}

    async def execute(
        self,
        key: Key,
        task: Task,
        locations: dict[Key, str | None],
        then: tuple[Key, Task] | None = None,
        unread: bool = False,
    ) -> Any:
        self.attempts.append(key)
        self.unread[key] = unread
        self.in_flight.append(key)
        try:
            return await self._execute(key, task, locations, then)
        finally:
            self.in_flight.remove(key)
            if key not in self.in_flight:
                self.cancelled.discard(key)

    async def _execute(
        self,
        key: Key,
        task: Task,
        locations: dict[Key, str | None],
        then: tuple[Key, Task] | None,
    ) -> Any:
        if self.gate is not None:
            await self.gate.wait()
        if key in self.cancelled:
            raise CancelledError(f"task {key!r} was cancelled")
        if self.dead:
            raise ConnectionError(f"connection to {self.address} lost before the reply")
        data = {}
        for dep in task.dependencies:
            holder = self if dep in self.store else self.peers[str(locations[dep])]
            if holder.dead:  # what the real worker reports: its peer fetch failed
                raise ConnectionError(f"cannot connect to {holder.address}")
            data[dep] = holder.store[dep]
        value = execute_task(task, data)
        self.store[key] = value
        reply = {"nbytes": value.nbytes, "shape": value.shape}
        if then is not None:  # the follower runs right after, as on a real worker
            self.attempts.append(then[0])
            try:
                follower = self.store[then[0]] = execute_task(then[1], {key: value})
            except Exception:  # noqa: BLE001 - the supervisor runs it again and reports it
                reply["then"] = None
            else:
                reply["then"] = {"nbytes": follower.nbytes, "shape": follower.shape}
        if self.reply_gate is not None:
            await self.reply_gate.wait()
        return reply

    async def close(self) -> None:
        pass


def chain_graph(n: int, name: str = "inc") -> dict[Key, Task]:
    """``(name-0, 0)`` = [1.0], each next one adds 1 to the one before."""
    graph: dict[Key, Task] = {(f"{name}-0", 0): Task((f"{name}-0", 0), np.ones, (1,))}
    for i in range(1, n):
        key, prev = (f"{name}-{i}", 0), (f"{name}-{i - 1}", 0)
        graph[key] = Task(key, np.add, (Ref(prev), 1.0))
    return graph


async def until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.001)


def run_job(runtime: ClusterRuntime, graph: dict[Key, Task], outputs: tuple[Key, ...]) -> JobHandle:
    job = JobHandle(f"job-{id(graph)}-{len(runtime._jobs)}", len(graph))
    runtime._plan(job, graph, outputs, {})
    return job


def fake_cluster(
    *addresses: str, max_retries: int = 3
) -> tuple[ClusterRuntime, dict[str, FakeWorker]]:
    runtime = ClusterRuntime(asyncio.get_running_loop(), max_retries=max_retries, probe_timeout=1)
    workers: dict[str, FakeWorker] = {}
    for address in addresses:
        runtime.add_worker(address, 1, FakeWorker(address, workers))
    return runtime, workers


def test_lineage_lives_as_long_as_the_held_result() -> None:
    async def main() -> None:
        runtime, _ = fake_cluster("a:1")
        graph = chain_graph(5)
        job = run_job(runtime, graph, (("inc-4", 0),))
        await until(job.done.is_set)
        assert job.error is None
        assert len(runtime.lineage) == 5  # all it takes to recompute the result
        runtime._handle(KeysReleased("test", (("inc-4", 0),)))
        assert len(runtime.lineage) == 0
        assert runtime._weights == {}
        assert runtime._job_keys == {}

    asyncio.run(main())


def test_failed_job_drops_its_lineage() -> None:
    async def main() -> None:
        runtime, _ = fake_cluster("a:1")
        graph = chain_graph(3)
        graph[("inc-1", 0)] = Task(("inc-1", 0), np.divide, (Ref(("inc-0", 0)), "x"))
        job = run_job(runtime, graph, (("inc-2", 0),))
        await until(job.done.is_set)
        assert job.error is not None
        assert job.failed_key == ("inc-1", 0)
        assert len(runtime.lineage) == 0

    asyncio.run(main())


def test_held_result_on_a_dead_worker_is_fetched_after_recompute() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1")
        graph = chain_graph(3)
        out = ("inc-2", 0)
        job = run_job(runtime, graph, (out,))
        await until(job.done.is_set)
        holder = workers[runtime.locations[out]]
        holder.dead = True  # nobody has noticed yet
        value = await runtime.fetch(out)
        np.testing.assert_array_equal(value, [3.0])
        assert holder.address not in runtime.workers
        assert runtime.locations[out] != holder.address
        runtime.core.validate_state()
        runtime._handle(KeysReleased("test", (out,)))
        assert len(runtime.lineage) == 0
        assert runtime._recomputing == set()

    asyncio.run(main())


@pytest.mark.parametrize("late", ["reply", "connection error"])
def test_late_outcome_of_a_worker_given_up_is_ignored(late: str) -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1")
        workers["a:1"].gate = asyncio.Event()  # a's task stays in flight
        key = ("inc-0", 0)
        job = run_job(runtime, chain_graph(1), (key,))
        await until(lambda: bool(runtime.workers["a:1"].tasks))
        runtime.remove_worker("a:1")  # missed heartbeats, but still alive
        await until(job.done.is_set)
        assert runtime.locations[key] == "b:1"
        workers["a:1"].dead = late == "connection error"
        workers["a:1"].gate.set()  # its outcome arrives late
        await asyncio.sleep(0.01)
        assert (key in workers["a:1"].store) == (late == "reply")
        assert runtime.locations[key] == "b:1"
        assert runtime.core.n_running == 0
        runtime.core.validate_state()

    asyncio.run(main())


def test_peer_that_died_under_a_fetch_is_found_and_its_chunk_recomputed() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1")
        first = run_job(runtime, chain_graph(1), (("inc-0", 0),))
        await until(first.done.is_set)
        holder = runtime.locations[("inc-0", 0)]
        other = "b:1" if holder == "a:1" else "a:1"
        runtime.add_worker("c:1", 1, FakeWorker("c:1", workers))
        workers[holder].dead = True
        runtime.workers[holder].running = runtime.workers[holder].n_slots  # busy: the reader
        # goes to another worker,
        job = run_job(runtime, chain_graph(2), (("inc-1", 0),))
        await until(job.done.is_set)  # whose fetch from the dead one fails
        assert job.error is None
        assert set(runtime.workers) == {other, "c:1"}  # the reader's worker was kept
        runs = [k for w in workers.values() for k in w.attempts]
        assert runs.count(("inc-0", 0)) == 2  # recomputed
        assert runs.count(("inc-1", 0)) == 2  # failed once for want of its input, then ran
        value = await runtime.fetch(("inc-1", 0))
        np.testing.assert_array_equal(value, [2.0])
        runtime.core.validate_state()

    asyncio.run(main())


def test_task_that_kills_its_workers_fails_naming_it() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1", "c:1", "d:1", max_retries=1)

        for worker in workers.values():

            async def execute(key: Key, w: FakeWorker = worker, **call: Any) -> Any:
                if key[0].startswith("boom"):
                    w.dead = True
                    raise ConnectionError("connection lost before the reply")
                return await FakeWorker.execute(w, key, **call)

            worker.execute = execute  # type: ignore[method-assign]

        graph = chain_graph(2, name="boom")
        graph.update(chain_graph(1))
        job = run_job(runtime, graph, (("boom-1", 0),))
        await until(job.done.is_set)
        assert isinstance(job.error, RuntimeError)
        assert str(job.error) == (
            "task ('boom-0', 0) of operator 'boom' was given up after 2 attempts: "
            "the worker running the last one died"
        )
        assert len(runtime.workers) == 2
        ok = run_job(runtime, chain_graph(2), (("inc-1", 0),))
        await until(ok.done.is_set)
        assert ok.error is None
        runtime.core.validate_state()

    asyncio.run(main())


def test_a_later_job_gets_every_attempt_whatever_an_earlier_one_spent() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1", "c:1", "d:1", max_retries=1)
        # the task's runs, in order: its worker dies, it raises (the first job fails);
        # in the second job its worker dies, then it succeeds on its one retry
        script = ["die", "raise", "die", "run"]

        for worker in workers.values():

            async def execute(key: Key, w: FakeWorker = worker, **call: Any) -> Any:
                if key[0].startswith("boom"):
                    step = script.pop(0)
                    if step == "die":
                        w.dead = True
                        raise ConnectionError("connection lost before the reply")
                    if step == "raise":
                        raise ValueError("bad data")
                return await FakeWorker.execute(w, key, **call)

            worker.execute = execute  # type: ignore[method-assign]

        first = run_job(runtime, chain_graph(1, name="boom"), (("boom-0", 0),))
        await until(first.done.is_set)
        assert isinstance(first.error, ValueError)
        second = run_job(runtime, chain_graph(1, name="boom"), (("boom-0", 0),))
        await until(second.done.is_set)
        assert second.error is None  # its first run's death was retried: a fresh count
        assert script == []
        np.testing.assert_array_equal(await runtime.fetch(("boom-0", 0)), [1.0])
        runtime.core.validate_state()

    asyncio.run(main())


def test_graph_reading_an_unknown_chunk_fails_instead_of_hanging() -> None:
    async def main() -> None:
        runtime, _ = fake_cluster("a:1")
        graph = {("x-0", 0): Task(("x-0", 0), np.negative, (Ref(("gone-0", 0)),))}
        job = run_job(runtime, graph, (("x-0", 0),))
        await until(job.done.is_set)
        assert isinstance(job.error, ValueError)
        assert len(runtime.lineage) == 0

    asyncio.run(main())


def test_held_result_that_cannot_be_recomputed_fails_its_fetch() -> None:
    async def main() -> None:
        runtime, workers = fake_cluster("a:1", "b:1")
        calls = []

        def once(n: int) -> np.ndarray:
            calls.append(n)
            if len(calls) > 1:
                raise ValueError("the source is gone")
            return np.ones(n)

        graph = chain_graph(2)
        graph[("inc-0", 0)] = Task(("inc-0", 0), once, (1,))
        out = ("inc-1", 0)
        job = run_job(runtime, graph, (out,))
        await until(job.done.is_set)
        workers[runtime.locations[out]].dead = True
        with pytest.raises(WorkerLost, match="is not recomputed"):
            await runtime.fetch(out)
        assert len(calls) == 2
        assert runtime.core.task_state(out) is None
        assert len(runtime.lineage) == 0
        assert runtime._recomputing == set()
        runtime._handle(KeysReleased("test", (out,)))  # the client's late release
        runtime.core.validate_state()

    asyncio.run(main())


def test_a_worker_restarted_on_a_dead_workers_address_is_not_taken_for_it() -> None:
    """A new worker on the port of one that was SIGKILLed (before its heartbeats were
    missed) holds none of its chunks: they are recomputed, not fetched from it."""
    port = free_port()
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        victim = cluster.add_worker("--n-cpu", "1", "-p", str(port))
        cluster.wait_for_workers(2)
        with remote_session(cluster, mars.new_session(default=False)) as remote:
            data = np.arange(400.0)
            held = remote.execute(mt.tensor(data, chunk_size=10) + 1)  # on both workers
            victim.popen.send_signal(signal.SIGKILL)
            victim.popen.wait(10)
            victim.stop()
            cluster.workers.remove(victim)
            cluster.add_worker("--n-cpu", "1", "-p", str(port))  # at once, same address
            np.testing.assert_array_equal(held.fetch(session=remote), data + 1)
            total = (held * 2).sum()
            remote.execute(total)
            assert total.fetch(session=remote) == ((data + 1) * 2).sum()

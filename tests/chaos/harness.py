"""Chaos on a cluster of real processes: mixed jobs while workers or supervisors die.

Used by ``tests/chaos/`` at a size that fits the test suite and by ``bench/chaos.py`` at a
larger one. Everything runs on loopback; only processes started here are ever killed.

- ``JOBS``: job builders. Each takes a seed and a size and returns a lazy result with the
  answer computed by NumPy or pandas on the same data.
- ``run_jobs``: runs jobs from several client threads, each bounded in time, and sorts
  every outcome into right, wrong, error (a clear exception) or lost (no answer in time).
- ``WorkerKiller`` / ``SupervisorKiller``: background threads that SIGKILL a process every
  few seconds and start its replacement, a bounded number of times.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import psutil

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.launcher.local import _Process

Check = Callable[[Any], bool]
Job = Callable[[int, int], tuple[Any, Check]]
"""``job(seed, rows) -> (lazy result, check of its fetched value)``."""


def _close(expected: np.ndarray | float) -> Check:
    return lambda got: bool(np.allclose(got, expected, rtol=1e-9, atol=1e-6))


def _frame(seed: int, rows: int, keys: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "k": rng.integers(0, keys, rows),
            "j": rng.integers(0, 4, rows),
            "v": rng.standard_normal(rows),
        }
    )


def _same_rows(expected: pd.DataFrame) -> Check:
    """Equal as a multiset of rows: the order of a shuffle's output is not checked."""

    def check(got: pd.DataFrame) -> bool:
        columns = list(expected.columns)
        left = expected.sort_values(columns).reset_index(drop=True)
        right = got[columns].sort_values(columns).reset_index(drop=True)
        try:
            pd.testing.assert_frame_equal(left, right, check_exact=False)
        except AssertionError:
            return False
        return True

    return check


def tensor_product(seed: int, rows: int) -> tuple[Any, Check]:
    """``(a @ a.T).sum(axis=0)`` of a square matrix in 16 x 16 chunks (256 chunks)."""
    side = max(64, int(rows**0.5) // 4)
    data = np.random.default_rng(seed).standard_normal((side, side))
    a = mt.tensor(data, chunk_size=max(1, side // 16))
    return (a @ a.T).sum(axis=0), _close((data @ data.T).sum(axis=0))


def tensor_reduction(seed: int, rows: int) -> tuple[Any, Check]:
    """Mean and standard deviation of ``rows`` numbers in 400 chunks."""
    data = np.random.default_rng(seed).standard_normal(rows)
    x = mt.tensor(data, chunk_size=max(1, rows // 400))
    moments = mt.stack([(x * 2 + 1).mean(), x.std()])
    return moments, _close(np.array([(data * 2 + 1).mean(), data.std()]))


def groupby_sum(seed: int, rows: int) -> tuple[Any, Check]:
    frame = _frame(seed, rows, 1000)
    lazy = md.DataFrame(frame, chunk_size=max(1, rows // 20)).groupby("k").v.sum()
    expected = frame.groupby("k").v.sum()
    return lazy, lambda got: bool(np.allclose(got.sort_index(), expected))


def merge(seed: int, rows: int) -> tuple[Any, Check]:
    left = _frame(seed, rows, rows // 10 + 1)
    right = pd.DataFrame({"k": np.arange(rows // 10 + 1), "w": np.arange(rows // 10 + 1) * 3})
    lazy = md.DataFrame(left, chunk_size=max(1, rows // 10)).merge(
        md.DataFrame(right, chunk_size=max(1, rows // 40)), on="k"
    )
    return lazy, _same_rows(left.merge(right, on="k"))


def sort_values(seed: int, rows: int) -> tuple[Any, Check]:
    frame = _frame(seed, rows, 1 << 30)
    lazy = md.DataFrame(frame, chunk_size=max(1, rows // 10)).sort_values("v")
    expected = frame.sort_values("v")
    return lazy, lambda got: bool(np.array_equal(got["v"].to_numpy(), expected["v"].to_numpy()))


def drop_duplicates(seed: int, rows: int) -> tuple[Any, Check]:
    frame = _frame(seed, rows, 5000)
    lazy = md.DataFrame(frame, chunk_size=max(1, rows // 10)).drop_duplicates(subset=["k", "j"])
    return lazy, _same_rows(frame.drop_duplicates(subset=["k", "j"]))


JOBS: dict[str, Job] = {
    "tensor_product": tensor_product,
    "tensor_reduction": tensor_reduction,
    "groupby_sum": groupby_sum,
    "merge": merge,
    "sort_values": sort_values,
    "drop_duplicates": drop_duplicates,
}


@dataclass
class Outcome:
    job: str
    status: str
    """``right``, ``wrong``, ``error`` (an exception reached the client) or ``lost``."""
    seconds: float
    detail: str = ""


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    kills: int = 0

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    def summary(self) -> str:
        counts = ", ".join(
            f"{status} {self.count(status)}" for status in ("right", "wrong", "error", "lost")
        )
        slowest = max((o.seconds for o in self.outcomes), default=0.0)
        lines = [
            f"{len(self.outcomes)} jobs: {counts}; {self.kills} kills; slowest {slowest:.1f} s"
        ]
        lines += [f"  {o.job}: {o.status} after {o.seconds:.1f} s: {o.detail}" for o in self.bad()]
        return "\n".join(lines)

    def bad(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status != "right"]


def run_one(session: Any, name: str, seed: int, rows: int, timeout: float) -> Outcome:
    started = time.monotonic()
    lazy, check = JOBS[name](seed, rows)
    future = session.execute(lazy, wait=False, show_progress=False)
    try:
        future.result(timeout=timeout)
        value = lazy.fetch(session=session)
    except TimeoutError:
        future.cancel()
        return Outcome(name, "lost", time.monotonic() - started, "no answer in time")
    except Exception as exc:  # noqa: BLE001 - every failure is an outcome to report
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return Outcome(name, "error", time.monotonic() - started, detail)
    status = "right" if check(value) else "wrong"
    return Outcome(name, status, time.monotonic() - started)


def run_jobs(
    session: Any,
    n_jobs: int,
    rows: int,
    *,
    clients: int = 3,
    timeout: float = 120.0,
    seed: int = 0,
) -> list[Outcome]:
    """``n_jobs`` jobs, the kinds in turn, from ``clients`` threads at once."""
    names = list(JOBS)
    with ThreadPoolExecutor(clients) as pool:
        futures = [
            pool.submit(run_one, session, names[i % len(names)], seed + i, rows, timeout)
            for i in range(n_jobs)
        ]
        return [f.result() for f in futures]


def worker_pid(process: _Process) -> int:
    """The process that runs tasks: the started one, or its child where it runs under a
    parent that restarts it."""
    try:
        children = psutil.Process(process.popen.pid).children()
    except psutil.NoSuchProcess:
        return process.popen.pid
    for child in children:
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "jupyter_mars" in " ".join(
                child.cmdline()
            ):
                return int(child.pid)
        except psutil.NoSuchProcess:
            continue
    return process.popen.pid


class _Killer:
    """A thread that kills a victim every ``interval`` seconds, ``limit`` times at most."""

    def __init__(self, interval: float, limit: int, seed: int) -> None:
        self.interval = interval
        self.limit = limit
        self.kills = 0
        self.errors: list[str] = []
        self.random = random.Random(seed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="chaos-killer")

    def _run(self) -> None:
        while self.kills < self.limit and not self._stop.wait(self.interval):
            try:
                self.kill_one()
                self.kills += 1
            except Exception:  # noqa: BLE001 - reported by the test, the thread goes on
                self.errors.append(traceback.format_exc())

    def kill_one(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(60)


def _add_once(workers: list[_Process], worker: _Process) -> None:
    """List a new worker once: a ``start_worker`` such as ``CliCluster.add_worker`` lists
    it already."""
    if worker not in workers:
        workers.append(worker)


class WorkerKiller(_Killer):
    """SIGKILLs a random worker and starts another in its place (``start_worker``)."""

    def __init__(
        self,
        workers: list[_Process],
        start_worker: Callable[[], _Process],
        interval: float,
        limit: int,
        seed: int = 0,
    ) -> None:
        super().__init__(interval, limit, seed)
        self.workers = workers
        self.start_worker = start_worker
        self.died_alone: list[str] = []
        """Exit status and last lines of each worker that died without being killed."""

    def _replace(self) -> None:
        _add_once(self.workers, self.start_worker())

    def kill_one(self) -> None:
        for worker in [w for w in self.workers if w.popen.poll() is not None]:
            # a worker this thread did not kill: it died by itself, which is a fault
            self.died_alone.append(
                f"exit status {worker.popen.returncode}:\n" + "\n".join(list(worker.lines)[-30:])
            )
            worker.stop()
            self.workers.remove(worker)
            self._replace()
        victim = self.random.choice(self.workers)
        pid = worker_pid(victim)
        os.kill(pid, signal.SIGKILL)
        if pid == victim.popen.pid:
            victim.popen.wait(10)
            victim.stop()  # closes its output pipe
            self.workers.remove(victim)
            self._replace()


class SupervisorKiller(_Killer):
    """SIGKILLs the active supervisor and, after ``downtime``, starts it again on its old
    address (``restart(index)``)."""

    def __init__(
        self,
        active: Callable[[], int | None],
        kill: Callable[[int], None],
        restart: Callable[[int], None],
        interval: float,
        limit: int,
        downtime: float = 3.0,
    ) -> None:
        super().__init__(interval, limit, 0)
        self.active = active
        self.kill = kill
        self.restart = restart
        self.downtime = downtime

    def kill_one(self) -> None:
        index = self.active()
        if index is None:
            raise RuntimeError("no supervisor says it is active")
        self.kill(index)
        time.sleep(self.downtime)
        self.restart(index)


@contextmanager
def running(killer: _Killer) -> Iterator[_Killer]:
    killer.start()
    try:
        yield killer
    finally:
        killer.stop()


def process_rss(pids: Sequence[int]) -> int:
    """Bytes resident in the largest of ``pids`` (0 for those that are gone)."""
    largest = 0
    for pid in pids:
        try:
            largest = max(largest, psutil.Process(pid).memory_info().rss)
        except psutil.NoSuchProcess:
            continue
    return largest


class PeakRss:
    """The largest RSS seen in any of the processes ``pids()`` lists, sampled every 50 ms."""

    def __init__(self, pids: Callable[[], Sequence[int]]) -> None:
        self.pids = pids
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="chaos-rss")

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, process_rss(self.pids()))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(5)


class KeepAlive(threading.Thread):
    """Starts a new worker in place of each one that has exited, every 0.2 s: what a
    process manager does for workers that run without a parent that restarts them."""

    def __init__(self, workers: list[_Process], start_worker: Callable[[], _Process]) -> None:
        super().__init__(daemon=True, name="chaos-keep-alive")
        self.workers = workers
        self.start_worker = start_worker
        self.started_again = 0
        self._stopping = threading.Event()

    def _replace(self) -> None:
        _add_once(self.workers, self.start_worker())

    def run(self) -> None:
        while not self._stopping.wait(0.2):
            for worker in [w for w in self.workers if w.popen.poll() is not None]:
                self.workers.remove(worker)
                worker.stop()  # reaps it and closes its output pipe
                while not self._stopping.is_set():
                    try:
                        self._replace()
                        break
                    except RuntimeError:  # died as it started (a deadly task came first)
                        continue
                self.started_again += 1

    def __enter__(self) -> KeepAlive:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stopping.set()
        self.join(60)

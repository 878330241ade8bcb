"""Helpers for the scheduler core tests: event builders, a checked core, a model shell."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import CancelledError

from hypothesis import strategies as st

from jupyter_mars.engine.scheduler.events import (
    GraphSubmitted,
    JobCancelled,
    KeysLost,
    KeysReleased,
    SchedulerEvent,
    SlotsChanged,
    TaskFailed,
    TaskFinished,
)
from jupyter_mars.engine.scheduler.instructions import (
    Execute,
    Instruction,
    Interrupt,
    JobFailed,
    JobFinished,
    Release,
)
from jupyter_mars.engine.scheduler.state import SchedulerState

_sid = itertools.count()


class Checked:
    """A SchedulerState that validates its invariants after every ``handle`` call."""

    def __init__(self, n_slots: int = 1, max_retries: int = 3, n_gpu_slots: int = 0) -> None:
        self.state = SchedulerState(n_slots, max_retries, n_gpu_slots)
        self.state.validate_state()

    def __call__(self, *events: SchedulerEvent) -> list[Instruction]:
        out = self.state.handle(*events)
        self.state.validate_state()
        return out

    def __getattr__(self, name: str) -> object:
        return getattr(self.state, name)


_created: list[Checked] = []


def make(n_slots: int = 1, max_retries: int = 3, n_gpu_slots: int = 0) -> Checked:
    s = Checked(n_slots, max_retries, n_gpu_slots)
    _created.append(s)
    return s


def submit(
    job_id: str,
    deps: Mapping[Hashable, Sequence[Hashable]],
    outputs: Sequence[Hashable],
    priorities: Mapping[Hashable, int] | None = None,
    sid: str | None = None,
    gpu: Sequence[Hashable] = (),
) -> GraphSubmitted:
    return GraphSubmitted(
        sid or f"submit-{next(_sid)}",
        job_id,
        {k: tuple(v) for k, v in deps.items()},
        tuple(outputs),
        dict(priorities or {}),
        frozenset(gpu),
    )


def fin(key: Hashable, nbytes: int = 8, sid: str | None = None) -> TaskFinished:
    return TaskFinished(sid or f"fin-{next(_sid)}", key, nbytes)


def fail(key: Hashable, retriable: bool = False, error: BaseException | None = None) -> TaskFailed:
    return TaskFailed(f"fail-{next(_sid)}", key, error or RuntimeError(f"boom {key}"), retriable)


def cancel(job_id: str) -> JobCancelled:
    return JobCancelled(f"cancel-{next(_sid)}", job_id)


def rel(*keys: Hashable) -> KeysReleased:
    return KeysReleased(f"release-{next(_sid)}", keys)


def lost(
    keys: Sequence[Hashable],
    lineage: Mapping[Hashable, Sequence[Hashable]],
    gpu: Sequence[Hashable] = (),
) -> KeysLost:
    return KeysLost(
        f"lost-{next(_sid)}",
        tuple(keys),
        {k: tuple(v) for k, v in lineage.items()},
        frozenset(gpu),
    )


def slots(n: int, gpu: int | None = None) -> SlotsChanged:
    return SlotsChanged(f"slots-{next(_sid)}", n, gpu)


def kinds(out: list[Instruction]) -> list[tuple[str, object]]:
    """Instructions without stimulus ids, for compact assertions."""
    result: list[tuple[str, object]] = []
    for ins in out:
        if isinstance(ins, Execute):
            result.append(("execute", ins.key))
        elif isinstance(ins, Release):
            result.append(("release", ins.key))
        elif isinstance(ins, Interrupt):
            result.append(("interrupt", ins.key))
        elif isinstance(ins, JobFinished):
            result.append(("finished", ins.job_id))
        elif isinstance(ins, JobFailed):
            result.append(("failed", ins.job_id))
        else:  # pragma: no cover
            raise AssertionError(ins)
    return result


@st.composite
def worlds(draw: st.DrawFn) -> tuple[dict[int, tuple[int, ...]], list[list[int]]]:
    """A random DAG over keys 0..n-1 (deps point to lower keys) and job output lists."""
    n = draw(st.integers(1, 18))
    dag: dict[int, tuple[int, ...]] = {}
    for i in range(n):
        deps = draw(st.lists(st.integers(0, i - 1), max_size=3)) if i else []
        dag[i] = tuple(deps)
    jobs = draw(st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=3), max_size=6))
    return dag, jobs


def _ancestors(dag: Mapping[int, tuple[int, ...]], outputs: Sequence[int]) -> set[int]:
    seen: set[int] = set()
    stack = list(outputs)
    while stack:
        k = stack.pop()
        if k not in seen:
            seen.add(k)
            stack.extend(dag[k])
    return seen


class Shell:
    """A model of the IO shell: checks every instruction against what it knows."""

    def __init__(
        self,
        dag: dict[int, tuple[int, ...]],
        n_slots: int,
        max_retries: int,
        gpu: frozenset[int] = frozenset(),
        n_gpu_slots: int = 0,
    ) -> None:
        self.dag = dag
        self.s = SchedulerState(n_slots, max_retries, n_gpu_slots)
        self.n_slots = n_slots
        self.gpu = gpu
        """Keys that run on a GPU slot."""
        self.n_gpu_slots = n_gpu_slots
        self.store: set[int] = set()
        self.running: set[int] = set()
        self.holds: Counter[int] = Counter()
        self.outputs: dict[str, tuple[int, ...]] = {}
        self.needed: dict[str, set[int]] = {}
        self.outcome: dict[str, str] = {}

    def send(self, event: SchedulerEvent) -> None:
        if isinstance(event, SlotsChanged):
            self.n_slots = event.n_slots
            if event.n_gpu_slots is not None:
                self.n_gpu_slots = event.n_gpu_slots
        for ins in self.s.handle(event):
            assert ins.stimulus_id == event.stimulus_id
            if isinstance(ins, Execute):
                key = ins.key
                assert isinstance(key, int)
                assert key not in self.running, f"{key} executed twice"
                assert key not in self.store, f"{key} recomputed while in memory"
                assert all(d in self.store for d in self.dag[key]), f"{key}: deps missing"
                assert self.s.on_gpu(key) == (key in self.gpu), f"{key} in the wrong pool"
                self.running.add(key)
                if key in self.gpu:
                    assert len(self.running & self.gpu) <= self.n_gpu_slots
                else:
                    assert len(self.running - self.gpu) <= self.n_slots
            elif isinstance(ins, Release):
                key = ins.key
                assert isinstance(key, int)
                assert key in self.store, f"release of {key} not in memory"
                assert self.holds[key] == 0, f"release of held {key}"
                self.store.remove(key)
            elif isinstance(ins, Interrupt):
                key = ins.key
                assert isinstance(key, int)
                assert key in self.running, f"interrupt of {key} not running"
                self.running.remove(key)  # its late report is stale: none is sent
            elif isinstance(ins, JobFinished):
                job = ins.job_id
                assert job not in self.outcome, f"{job} ended twice"
                self.outcome[job] = "finished"
                for key in self.outputs[job]:
                    assert key in self.store
                    self.holds[key] += 1
            else:
                assert isinstance(ins, JobFailed)
                job = ins.job_id
                assert job not in self.outcome, f"{job} ended twice"
                self.outcome[job] = "failed"
                if ins.key is None:
                    assert isinstance(event, JobCancelled)
                    assert event.job_id == job
                    assert isinstance(ins.error, CancelledError)
                else:
                    assert isinstance(event, TaskFailed)
                    assert ins.key == event.key
                    assert ins.error is event.error
                    assert ins.key in self.needed[job]
        self.s.validate_state()
        assert self.s.n_running == len(self.running)
        assert self.s.keys_in_memory() == self.store

    def finish(self, key: int) -> None:
        self.running.remove(key)
        self.store.add(key)
        self.send(fin(key, nbytes=key + 1))

    def fail(self, key: int, retriable: bool) -> None:
        self.running.remove(key)
        self.send(fail(key, retriable=retriable))

    def lineage(self, keys: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """What an IO shell sends with ``keys``: their deps and those of every ancestor
        the core no longer knows."""
        out: dict[int, tuple[int, ...]] = {}
        stack = list(keys)
        while stack:
            key = stack.pop()
            if key in out:
                continue
            out[key] = self.dag[key]
            stack.extend(d for d in self.dag[key] if self.s.task_state(d) is None)
        return out

    def lose(self, keys: Sequence[int], running: Sequence[int], full_lineage: bool) -> None:
        """A worker died holding ``keys`` and running ``running``: as the cluster shell
        reports it, the data is lost first, then the tasks fail (retriably)."""
        self.store.difference_update(keys)
        lineage = self.dag if full_lineage else self.lineage(keys)
        self.send(KeysLost(f"lost-{next(_sid)}", tuple(keys), lineage, self.gpu))
        for key in running:
            if key in self.running:  # else interrupted meanwhile: nothing to report
                self.fail(key, retriable=True)

"""Where a task runs: pure choice over the workers' free slots and the data they hold.

A task goes to the worker that already holds the most bytes of its inputs, so the fewest
bytes cross the network; ties go to the least busy worker, then to the first registered.
When the worker holding most of them is busy, the task waits for it rather than go to a
free one, if moving the bytes would take longer than the tasks queued there (at
``BANDWIDTH``, each as long as tasks take on average): the sum of a 64 MB chunk takes a
few milliseconds, and moving the chunk takes a hundred.

The outputs of a job that read nothing (the chunks of ``mt.random.rand(...).execute()``,
held for the passes that follow) are spread over the workers by how many of them each
already took, per slot: left to whichever worker is free first, one worker took 66 of 96
chunks and the other 30, and every later pass over them waited for the first. A free
worker that took ``SPREAD_SLACK`` more per slot than a busy one leaves the next to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from jupyter_mars.engine.graph import Key


@dataclass(slots=True)
class WorkerSlots:
    """What placement needs to know of one worker."""

    address: str
    """Its RPC address, ``host:port``."""
    n_slots: int
    """Tasks it may run at once (``--n-cpu``)."""
    running: int = 0
    """Tasks placed on it that have not reported back."""
    order: int = 0
    """Registration order, the last tie-breaker."""

    @property
    def free(self) -> int:
        return self.n_slots - self.running


W = TypeVar("W", bound=WorkerSlots)

BANDWIDTH: Final = 500e6
"""Bytes a second a chunk crosses between workers, pickling and copies included."""
MOVE_FREELY: Final = 0.002
"""Seconds of moving that never make a task wait (a megabyte)."""
SPREAD_SLACK: Final = 2
"""How many more of a job's spread outputs per slot a free worker may take than a busy one
before the next waits for the busy one."""


def spread_out(workers: Sequence[W], spread: Mapping[str, int]) -> W | None:
    """The free worker that took the fewest of a job's outputs per slot (``spread``: by
    address); None while a busy worker took ``SPREAD_SLACK`` per slot fewer.

    >>> a, b = WorkerSlots("a:1", 1, order=0), WorkerSlots("b:1", 1, order=1)
    >>> spread_out([a, b], {"a:1": 3, "b:1": 2}).address
    'b:1'
    >>> b.running = 1
    >>> spread_out([a, b], {"a:1": 3, "b:1": 2}).address  # one more: it goes on
    'a:1'
    >>> spread_out([a, b], {"a:1": 4, "b:1": 2}) is None  # two more: it waits for b
    True
    """
    slotted = [w for w in workers if w.n_slots > 0]
    free = [w for w in slotted if w.free > 0]
    if not free:
        return None

    def load(worker: W) -> float:
        return spread.get(worker.address, 0) / worker.n_slots

    best = min(free, key=lambda w: (load(w), w.running, w.order))
    lightest = min(load(w) for w in slotted)
    return None if load(best) - lightest >= SPREAD_SLACK else best


def choose_worker(
    dependencies: Iterable[Key],
    workers: Iterable[W],
    locations: Mapping[Key, str],
    sizes: Mapping[Key, int],
    replicas: Mapping[Key, Iterable[str]] | None = None,
    task_seconds: float | None = None,
    spread: Mapping[str, int] | None = None,
) -> W | None:
    """The worker with a free slot that holds most input bytes; None when all are busy,
    or when the task had better wait for the busy worker that holds its inputs.

    ``replicas`` names, by key, the workers that keep a copy of a chunk besides its holder.
    ``task_seconds`` is how long tasks take on average (None: not known yet, never wait).
    ``spread``: for an output of a job that reads nothing held, how many of the job's such
    outputs each worker took (``spread_out``).

    >>> a, b = WorkerSlots("a:1", 1, order=0), WorkerSlots("b:1", 1, order=1)
    >>> choose_worker(["x"], [a, b], {"x": "b:1"}, {"x": 8}).address
    'b:1'
    >>> b.running = 1
    >>> choose_worker(["x"], [a, b], {"x": "b:1"}, {"x": 8}).address
    'a:1'
    >>> b.running = 0
    >>> choose_worker(["x", "y"], [a, b], {"x": "b:1", "y": "b:1"}, {"x": 8, "y": 8},
    ...               {"x": ["a:1"], "y": ["a:1"]}).address  # a tie: the first registered
    'a:1'
    >>> b.running = 1  # 64 MB on b, whose task ends in 10 ms: wait for it
    >>> choose_worker(["x"], [a, b], {"x": "b:1"}, {"x": 64 << 20}, task_seconds=0.01)
    >>> choose_worker(["x"], [a, b], {"x": "b:1"}, {"x": 64 << 20}, task_seconds=2).address
    'a:1'
    """
    local_bytes: dict[str, int] = {}
    for dep in dependencies:
        where = locations.get(dep)
        if where is None:
            continue
        nbytes = sizes.get(dep, 0)
        local_bytes[where] = local_bytes.get(where, 0) + nbytes
        for copy in replicas.get(dep, ()) if replicas else ():
            local_bytes[copy] = local_bytes.get(copy, 0) + nbytes
    if spread is not None and not local_bytes:
        return spread_out(list(workers), spread)
    best: W | None = None
    best_score: tuple[int, int, int] | None = None
    holder: W | None = None
    for worker in workers:
        held = local_bytes.get(worker.address, 0)
        if holder is None or held > local_bytes.get(holder.address, 0):
            holder = worker
        if worker.free <= 0:
            continue
        score = (held, -worker.running, -worker.order)
        if best_score is None or score > best_score:
            best, best_score = worker, score
    if best is None or holder is None or holder is best or task_seconds is None:
        return best
    moved = local_bytes.get(holder.address, 0) - local_bytes.get(best.address, 0)
    # the holder's queue: its tasks in flight over its cores (two in flight per core)
    wait = task_seconds * holder.running * 2 / max(holder.n_slots, 1)
    return None if moved / BANDWIDTH > max(wait, MOVE_FREELY) else best

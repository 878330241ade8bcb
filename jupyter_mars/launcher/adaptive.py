"""Adaptive scaling's policy: how many workers a cluster should run, from its load.

Pure logic, no IO: the driver (``adaptive_loop.py``) reads the supervisor's
``GET /api/v1/cluster`` answer, turns it into a ``ClusterLoad`` and asks
``AdaptivePolicy.decide`` for a ``Decision``, with the clock passed in, so that a test can
replay any trace of loads and times.

Theory of operation (state: ``_busy_until``, ``_idle_since``):

- **Up** at once, when tasks wait for a slot (``ready`` > 0): as many workers as the
  ready and running tasks fill, at the slots a worker has now, never more than
  ``maximum``. Waiting tasks that cannot run yet (their inputs are not computed) do not
  count: a worker started for them would sit idle.
- **Down** one worker a decision, and only a worker that has run nothing and held no chunk
  for ``wait`` seconds, while no task has waited for a slot for ``wait`` seconds either.
  A worker holding chunks is never chosen: stopping it would make the supervisor
  recompute them from their lineage (nothing is lost, but the work is done twice).
  Results a session keeps pin their worker until the session releases them.
- **Hysteresis**: up is immediate, down waits ``wait`` seconds of calm after the last
  queued task, so a job's pauses (iterative tiling, a reduction's tail) do not flap.
- **Bounds**: a cluster below the minimum grows to it in one decision; one above the
  maximum loses its idle, empty workers first, then (none left) its newest ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AdaptiveBounds",
    "AdaptivePolicy",
    "ClusterLoad",
    "Decision",
    "WorkerLoad",
    "check_bounds",
]

DEFAULT_WAIT = 10.0
"""Seconds a worker stays idle and empty before it may be stopped."""
DEFAULT_INTERVAL = 1.0
"""Seconds between two looks at the cluster's load."""


@dataclass(frozen=True)
class AdaptiveBounds:
    """What ``adapt(...)`` was given, checked (``check_bounds``)."""

    minimum: int
    """Fewest workers (at least one: see ``check_bounds``)."""
    maximum: int
    """Most workers."""
    wait: float = DEFAULT_WAIT
    """Seconds of idleness before a worker is stopped."""
    interval: float = DEFAULT_INTERVAL
    """Seconds between two decisions."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "minimum": self.minimum,
            "maximum": self.maximum,
            "wait": self.wait,
            "interval": self.interval,
        }


def _whole(name: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number (int), got {value!r}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return value


def _seconds(name: str, value: object, positive: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number of seconds, got {value!r}")
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        expected = "a finite number of seconds > 0" if positive else "a finite number >= 0"
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return float(value)


def check_bounds(
    minimum: object,
    maximum: object,
    wait: object = DEFAULT_WAIT,
    interval: object = DEFAULT_INTERVAL,
) -> AdaptiveBounds:
    """``adapt``'s arguments, checked: whole numbers with 1 <= minimum <= maximum.

    The minimum is at least one because a supervisor with no worker fails the jobs that
    find none after its ``no_workers_timeout``, and every first task would pay a worker's
    start; a cluster that should cost nothing while idle is stopped instead.

    >>> check_bounds(1, 4).maximum
    4
    >>> check_bounds(3, 2)
    Traceback (most recent call last):
    ValueError: maximum must be at least minimum (3), got 2
    """
    low = _whole("minimum", minimum, 1)
    if isinstance(maximum, bool) or not isinstance(maximum, int):
        raise TypeError(f"maximum must be a whole number (int), got {maximum!r}")
    if maximum < low:
        raise ValueError(f"maximum must be at least minimum ({low}), got {maximum}")
    return AdaptiveBounds(
        low, maximum, _seconds("wait", wait, False), _seconds("interval", interval, True)
    )


@dataclass(frozen=True)
class WorkerLoad:
    """One worker as the supervisor reports it."""

    address: str
    running: int = 0
    """Tasks in flight to it."""
    stored: int = 0
    """Chunks it holds."""


@dataclass(frozen=True)
class ClusterLoad:
    """The load the policy weighs: one ``/api/v1/cluster`` answer."""

    ready: int
    """Tasks whose inputs are computed, waiting for a free slot."""
    running: int
    """Tasks in the workers' slots."""
    slots: int
    """The workers' slots together."""
    workers: tuple[WorkerLoad, ...] = ()

    @classmethod
    def from_model(cls, model: Mapping[str, Any]) -> ClusterLoad:
        """From a supervisor's ``/api/v1/cluster`` answer (``tasks``, ``workers``)."""
        tasks = model.get("tasks") or {}
        workers = tuple(
            WorkerLoad(str(w["address"]), int(w.get("running") or 0), int(w.get("stored") or 0))
            for w in model.get("workers", [])
        )
        return cls(
            int(tasks.get("ready") or 0),
            int(tasks.get("running") or 0),
            int(tasks.get("slots") or 0),
            workers,
        )


@dataclass(frozen=True)
class Decision:
    """What to do: run ``target`` workers; to get there by stopping some, stop only
    workers in ``retire``, the first ones first."""

    target: int
    retire: tuple[str, ...] = ()
    """Supervisor addresses of the workers that may be stopped (idle, holding nothing),
    the longest idle first; more than needed, since some may be none of the launcher's
    (a worker joined by hand). Empty: the launcher stops its newest."""


@dataclass
class AdaptivePolicy:
    """Decides a worker count from loads (the module docstring says how)."""

    bounds: AdaptiveBounds
    _busy_until: float | None = None
    """The last time tasks waited for a slot (None: never seen)."""
    _idle_since: dict[str, float] = field(default_factory=dict)
    """Worker address -> since when it has run nothing and held nothing."""

    def decide(self, load: ClusterLoad, launched: int, now: float) -> Decision:
        """The workers to run, given ``load``, the ``launched`` workers and the time."""
        self._observe(load, now)
        low, high = self.bounds.minimum, self.bounds.maximum
        if launched > high:
            # idle, empty workers first; with none, the launcher stops its newest
            retire = self._retirable(now, anytime=True)
            return Decision(max(high, launched - len(retire)) if retire else high, retire)
        if launched < low:
            return Decision(low)
        if load.ready > 0:
            return Decision(min(high, max(launched, self._needed(load, launched))))
        if launched > low and self._calm(now):
            retire = self._retirable(now, anytime=False)
            if retire:
                return Decision(launched - 1, retire)
        return Decision(launched)

    def _observe(self, load: ClusterLoad, now: float) -> None:
        if load.ready > 0:
            self._busy_until = now
        present = set()
        for worker in load.workers:
            present.add(worker.address)
            if worker.running or worker.stored:
                self._idle_since.pop(worker.address, None)
            else:
                self._idle_since.setdefault(worker.address, now)
        for gone in set(self._idle_since) - present:
            del self._idle_since[gone]

    def _needed(self, load: ClusterLoad, launched: int) -> int:
        """Workers that the ready and running tasks fill, at today's slots a worker."""
        per_worker = load.slots / len(load.workers) if load.workers and load.slots else 1.0
        return max(1, math.ceil((load.ready + load.running) / max(per_worker, 1.0)))

    def _calm(self, now: float) -> bool:
        return self._busy_until is None or now - self._busy_until >= self.bounds.wait

    def _retirable(self, now: float, anytime: bool) -> tuple[str, ...]:
        """The idle, empty workers, the longest idle first; ``anytime``: not only those
        idle for ``wait`` seconds."""
        idle = sorted(
            (since, address)
            for address, since in self._idle_since.items()
            if anytime or now - since >= self.bounds.wait
        )
        return tuple(address for _, address in idle)

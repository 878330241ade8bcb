"""The per-task record of the worker core, and the task state names.

Per-task record ``WorkerTask`` (``__slots__``)
    ``key``, ``attempt``  the task and the ``execute`` call of it that the record serves;
    ``state``      one of the live states below;
    ``deps``       the keys it reads;
    ``local``, ``locations``  while ``waiting``: which deps are here, and where the others
                   are (what its fetches are planned from once it is admitted);
    ``nbytes``     the bytes of its inputs known here, reserved from its admission on;
    ``arrived``    ``time.monotonic()`` of its call: how long it waited for memory;
    ``rss_at_start``  the process's resident size when its current run started: the
                   task that has seen the most growth is the one stopped for memory;
    ``missing``    deps still being fetched from peers (an ordered set); empty unless
                   ``fetching``;
    ``inputs``     deps fetched so far, by key; handed to the shell with ``Run`` (and then
                   the task's own result, for its follower's ``Run``);
    ``follower``   the key of the task run right after it in the same slot, or None;
    ``figures``    the task's own figures while its follower runs;
    ``epoch``      the core's epoch when it arrived: after a reset its results are not kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jupyter_mars.engine.worker.events import Key

WAITING: Final = "waiting"
"""Not admitted yet: memory is short (above the soft limit); it holds and fetches nothing."""
FETCHING: Final = "fetching"
"""Some inputs are on their way from peers."""
READY: Final = "ready"
"""Every input is here; waiting for a free slot."""
RUNNING: Final = "running"
"""``Run`` emitted for the task: it holds a slot."""
FOLLOWING: Final = "following"
"""The task's result is kept, and its follower runs in the same slot."""
DONE: Final = "done"
"""Pseudo-state: replied with the result; the record is dropped."""
ERRED: Final = "erred"
"""Pseudo-state: replied with an error; the record is dropped."""
CANCELLED: Final = "cancelled"
"""Pseudo-state: stopped, replied ``Cancelled``; the record is dropped."""

LIVE_STATES: Final = (WAITING, FETCHING, READY, RUNNING, FOLLOWING)


class WorkerTask:
    """The record of one task here (its fields: see the module docstring)."""

    __slots__ = (
        "key",
        "attempt",
        "state",
        "deps",
        "local",
        "locations",
        "nbytes",
        "arrived",
        "rss_at_start",
        "missing",
        "inputs",
        "follower",
        "figures",
        "epoch",
    )

    def __init__(
        self, key: Key, attempt: int, deps: tuple[Key, ...], follower: Key | None, epoch: int
    ) -> None:
        self.key = key
        self.attempt = attempt
        self.state: str = WAITING
        self.deps = deps
        self.local: frozenset[Key] = frozenset()
        self.locations: Mapping[Key, str | None] = {}
        self.nbytes = 0
        self.arrived = 0.0
        self.rss_at_start = 0
        self.missing: dict[Key, None] = {}
        self.inputs: dict[Key, Any] = {}
        self.follower = follower
        self.figures: Mapping[str, Any] | None = None
        self.epoch = epoch

    def __repr__(self) -> str:
        return f"<Task {self.key!r} #{self.attempt} {self.state}>"

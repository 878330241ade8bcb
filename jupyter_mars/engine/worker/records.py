"""The per-task record of the worker core, and the task state names.

Per-task record ``_Task`` (``__slots__``)
    ``key``, ``attempt``  the task and the ``execute`` call of it that the record serves;
    ``state``      one of the live states below;
    ``deps``       the keys it reads;
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

LIVE_STATES: Final = (FETCHING, READY, RUNNING, FOLLOWING)


class _Task:
    """The record of one task here (its fields: see the module docstring)."""

    __slots__ = (
        "key",
        "attempt",
        "state",
        "deps",
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
        self.state: str = FETCHING
        self.deps = deps
        self.missing: dict[Key, None] = {}
        self.inputs: dict[Key, Any] = {}
        self.follower = follower
        self.figures: Mapping[str, Any] | None = None
        self.epoch = epoch

    def __repr__(self) -> str:
        return f"<Task {self.key!r} #{self.attempt} {self.state}>"

"""Events fed to the worker core.

Every event is a frozen dataclass carrying a ``stimulus_id`` so that each state change can
be traced back to its cause. The IO shell (``cluster/worker/server.py``) builds them from
RPCs (``execute``, ``cancel``, ``reset``) and from the completions of the work it carried
out (fetches from peers, task runs), and passes them to ``WorkerState.handle``.

A task is known by its ``key`` and the ``attempt`` the shell numbered its ``execute`` call
with: a report of an attempt that is no longer the key's current one is stale and ignored.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

Key = Hashable


@dataclass(frozen=True, slots=True)
class WorkerEvent:
    stimulus_id: str
    """Why this event happened, e.g. ``"execute-('add-1f2e', 0)"``."""


@dataclass(frozen=True, slots=True)
class TaskAssigned(WorkerEvent):
    """The supervisor asks this worker to run ``key`` (one ``execute`` call).

    A later attempt of a key still here replaces the earlier one, which is cancelled: the
    supervisor waits only for its latest call of a key.
    """

    key: Key
    attempt: int
    """Numbers the ``execute`` calls of this worker, increasing."""
    deps: tuple[Key, ...]
    """The keys the task reads, without duplicates."""
    local: frozenset[Key]
    """Those of ``deps`` held here (chunk store or copies of peers' chunks)."""
    locations: Mapping[Key, str | None]
    """The peer holding each other dep; None: no live worker holds it."""
    follower: Key | None = None
    """A task reading only this one's result, run right after it in the same slot."""
    nbytes: int = 0
    """The bytes of its inputs known here: reserved for it, against the soft memory
    limit, from its admission until it ends."""
    now: float = 0.0
    """``time.monotonic()`` when the call came: it waits for memory from then."""


@dataclass(frozen=True, slots=True)
class InputsFetched(WorkerEvent):
    """A fetch from ``peer`` brought ``data`` (every key it asked for)."""

    peer: str
    data: Mapping[Key, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FetchFailed(WorkerEvent):
    """A fetch of ``keys`` from ``peer`` failed: the peer died or no longer holds them."""

    peer: str
    keys: tuple[Key, ...]
    reason: str
    """What went wrong, for the reply's message."""


@dataclass(frozen=True, slots=True)
class PeerLost(WorkerEvent):
    """``peer`` could not be reached: every fetch from it fails, whoever waits for it."""

    peer: str
    reason: str


@dataclass(frozen=True, slots=True)
class TaskFinished(WorkerEvent):
    """The run of ``key``'s task (or of its follower, once the task's own run finished)
    computed ``value``."""

    key: Key
    attempt: int
    value: Any
    figures: Mapping[str, Any]
    """What the supervisor records of the result: size, shape, seconds per step."""


@dataclass(frozen=True, slots=True)
class TaskErred(WorkerEvent):
    """The run of ``key``'s task (or of its follower) raised ``error``, or was stopped."""

    key: Key
    attempt: int
    error: BaseException


@dataclass(frozen=True, slots=True)
class CancelRequested(WorkerEvent):
    """Nobody needs ``keys`` any more: stop them, keep none of their results."""

    keys: tuple[Key, ...]
    attempt: int | None = None
    """Only this attempt (its ``execute`` call was dropped); None: every attempt."""


@dataclass(frozen=True, slots=True)
class ResetRequested(WorkerEvent):
    """A supervisor that took over dropped every chunk: results of the tasks under way
    now are reported but not stored."""


@dataclass(frozen=True, slots=True)
class MemorySampled(WorkerEvent):
    """A sample of the process's memory (every tenth of a second or so)."""

    rss: int
    """The process's resident size, bytes."""
    reclaimable: int
    """Bytes of chunks in memory that spilling could still give back."""
    now: float
    """``time.monotonic()`` of the sample."""


@dataclass(frozen=True, slots=True)
class SpillDone(WorkerEvent):
    """The ``Spill`` under way ended, having written ``nbytes`` to disk."""

    nbytes: int

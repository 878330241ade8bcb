"""Events fed to the scheduler core.

Every event is a frozen dataclass carrying a ``stimulus_id`` so that each state change
can be traced back to its cause. The IO shells (the embedded runtime's threads, the
cluster supervisor) build these and pass them to ``SchedulerState.handle``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Set
from dataclasses import dataclass, field

Key = Hashable
JobId = str


@dataclass(frozen=True, slots=True)
class SchedulerEvent:
    stimulus_id: str
    """Why this event happened, e.g. ``"task-finished-('add-1f2e', 0)"``."""


@dataclass(frozen=True, slots=True)
class GraphSubmitted(SchedulerEvent):
    """A job asks for ``outputs`` to be computed from ``dependencies``.

    ``dependencies`` maps every task key of the submitted graph to the keys it reads.
    A key already held in memory (a result of an earlier job) or already known to the
    core from another job that is still running is not computed twice.
    """

    job_id: JobId
    """Unique id of the job (one stage of one ``execute`` call)."""
    dependencies: Mapping[Key, tuple[Key, ...]]
    """Every task of the graph -> the keys it reads (each must be a task or in memory)."""
    outputs: tuple[Key, ...]
    """Keys the job must deliver; each gets one hold when the job finishes."""
    priorities: Mapping[Key, int] = field(default_factory=dict)
    """Lower runs first among ready tasks of this job; missing keys get 0."""
    gpu_keys: Set[Key] = frozenset()
    """Tasks that run on a GPU slot (``Task.device == "gpu"``); the others take a CPU
    slot."""


@dataclass(frozen=True, slots=True)
class TaskFinished(SchedulerEvent):
    key: Key
    nbytes: int
    """Size of the result, for memory accounting."""


@dataclass(frozen=True, slots=True)
class TaskFailed(SchedulerEvent):
    key: Key
    error: BaseException
    retriable: bool
    """True for faults of the machine (lost worker, MemoryError, OSError); those are retried
    up to ``max_retries`` times. Errors raised by the user's data are not."""


@dataclass(frozen=True, slots=True)
class JobCancelled(SchedulerEvent):
    job_id: JobId
    error: BaseException | None = None
    """What the job fails with when the runtime gives up on it (no worker to run it on);
    None: a ``CancelledError``, the user cancelled it."""


@dataclass(frozen=True, slots=True)
class KeysReleased(SchedulerEvent):
    """The client drops one hold on each key (its tensor was garbage-collected)."""

    keys: tuple[Key, ...]


@dataclass(frozen=True, slots=True)
class KeysLost(SchedulerEvent):
    """The data of ``keys`` is gone (the worker holding it died); recompute what is needed.

    A lost key in memory goes back to computing, keeping its holds, its dependents and its
    output jobs; a lost key nobody needs any more is forgotten. Keys that are not in memory
    are ignored (a task running on the dead worker is reported with ``TaskFailed``).
    """

    keys: tuple[Key, ...]
    lineage: Mapping[Key, tuple[Key, ...]]
    """Each needed lost key, and each ancestor of one that the core no longer knows -> the
    keys it reads. The shell keeps the task graph; extra entries are ignored."""
    gpu_keys: Set[Key] = frozenset()
    """Which of the re-created ancestors run on a GPU slot (a lost record keeps its
    own); extra entries are ignored."""


@dataclass(frozen=True, slots=True)
class SlotsChanged(SchedulerEvent):
    """The number of tasks that may run at once changed."""

    n_slots: int
    """CPU tasks that may run at once."""
    n_gpu_slots: int | None = None
    """GPU tasks that may run at once; None: unchanged. At 0, every live job that needs
    a GPU task not in memory fails with ``GPUUnavailable``."""

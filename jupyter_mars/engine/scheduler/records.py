"""Per-job and per-task records of the scheduler core, and the task state names.

Per-task record ``TaskRecord`` (``__slots__``)
    ``deps``         records this task reads (deduplicated); emptied once it is in memory;
    ``waiting_on``   how many of ``deps`` are not in memory (0 when it became ready; a
                     running task counts an input lost while it runs, and waits for it
                     if it is retried);
    ``dependents``   records *not in memory* that read this key (they pin its data); a
                     dict used as an ordered set, so the core is deterministic;
    ``jobs``         live jobs whose submission walk reached this key while it was not in
                     memory (cleared when the key reaches memory);
    ``output_jobs``  live unfinished jobs that have this key as an output (pins its data);
    ``holds``        references owned by the client (one per output entry of each finished
                     job), dropped by ``KeysReleased``; kept when the data is lost, so a
                     record outside ``memory`` is held only while it is recomputed;
    ``seq``/``priority``/``token``  ready-heap ordering; ``retries``; ``nbytes``;
    ``gpu``          whether it runs on a GPU slot (queued in the GPU heap) or a CPU slot.

A record is *needed* while it has ``jobs``, ``dependents``, ``holds`` or ``output_jobs``
(holds outside ``memory`` only after a loss): see :func:`is_needed`.
"""

from __future__ import annotations

from typing import Final

from jupyter_mars.engine.scheduler.events import JobId, Key

TOKEN_SPAN: Final = 1 << 64
"""Heap tokens are ``priority * TOKEN_SPAN + counter`` (the counter stays below it)."""

WAITING: Final = "waiting"
READY: Final = "ready"
RUNNING: Final = "running"
MEMORY: Final = "memory"
ERRED: Final = "erred"
FORGOTTEN: Final = "forgotten"


class JobRecord:
    """A live job."""

    __slots__ = ("job_id", "seq", "outputs", "out_tasks", "tasks", "missing")

    def __init__(self, job_id: JobId, seq: int, outputs: tuple[Key, ...]) -> None:
        self.job_id = job_id
        self.seq = seq
        self.outputs = outputs
        """The outputs as submitted (duplicates kept: one hold per entry)."""
        self.out_tasks: list[TaskRecord] = []
        """Records of the distinct outputs."""
        self.tasks: list[TaskRecord] = []
        """Records this job created or joined (their ``jobs`` contained this job)."""
        self.missing = 0
        """Distinct outputs not in memory yet."""

    def __repr__(self) -> str:
        return f"<Job {self.job_id!r} seq={self.seq} missing={self.missing}>"


class TaskRecord:
    """The record of one key (its fields: see the module docstring)."""

    __slots__ = (
        "key",
        "state",
        "deps",
        "waiting_on",
        "dependents",
        "jobs",
        "output_jobs",
        "holds",
        "seq",
        "priority",
        "token",
        "retries",
        "nbytes",
        "gpu",
    )

    def __init__(
        self, key: Key, seq: int, priority: int, job: JobRecord | None, gpu: bool = False
    ) -> None:
        self.key = key
        self.state: str = WAITING
        self.deps: list[TaskRecord] = []
        self.waiting_on = 0
        self.dependents: dict[TaskRecord, None] = {}
        """An ordered set: iterating it in insertion order keeps the core deterministic."""
        self.jobs: set[JobRecord] = set() if job is None else {job}
        self.output_jobs: set[JobRecord] | None = None
        self.holds = 0
        self.seq = seq
        self.priority = priority
        self.token: int | None = None
        self.retries = 0
        self.nbytes = 0
        self.gpu = gpu

    def __repr__(self) -> str:
        return f"<Task {self.key!r} {self.state}{' gpu' if self.gpu else ''}>"


def is_needed(ts: TaskRecord) -> bool:
    """Whether anyone still needs the record: a job, a dependent, a client hold or a job
    waiting for it as an output (the last two only outside ``memory`` after a loss)."""
    return bool(ts.jobs or ts.dependents or ts.holds or ts.output_jobs)

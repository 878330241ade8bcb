"""Decisions returned by the scheduler core, for the IO shell to carry out."""

from __future__ import annotations

from dataclasses import dataclass

from jupyter_mars.engine.scheduler.events import JobId, Key


@dataclass(frozen=True, slots=True)
class Instruction:
    stimulus_id: str


@dataclass(frozen=True, slots=True)
class Execute(Instruction):
    """Run the task ``key``; all of its dependencies are in memory."""

    key: Key


@dataclass(frozen=True, slots=True)
class Release(Instruction):
    """Forget the data of ``key``: no waiting task reads it and nobody holds it."""

    key: Key


@dataclass(frozen=True, slots=True)
class Interrupt(Instruction):
    """Stop the running task ``key``: nobody needs it any more. Its slot is free at once
    (the core counts it no longer), and a result that still arrives is not kept."""

    key: Key


@dataclass(frozen=True, slots=True)
class JobFinished(Instruction):
    """Every output of the job is in memory and holds one extra reference."""

    job_id: JobId


@dataclass(frozen=True, slots=True)
class JobFailed(Instruction):
    """The job cannot finish; ``key`` is the task that failed (None when cancelled)."""

    job_id: JobId
    key: Key | None
    error: BaseException

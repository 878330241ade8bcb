"""How the Ray runtime reads a failed or stopped Ray task.

A chunk function's own exception reaches the user as itself, unwrapped from Ray's
``RayTaskError``, so that NumPy's and pandas' exception types (and the note naming the
operator) survive. A worker, node or object lost is the machine's fault: the scheduler
core retries the task, after Ray's own retries.
"""

from __future__ import annotations

from typing import Any

import ray
import ray.exceptions

from jupyter_mars.engine.executors.threads import RETRIABLE

SYSTEM_ERRORS: tuple[type[BaseException], ...] = (
    ray.exceptions.WorkerCrashedError,
    ray.exceptions.NodeDiedError,
    ray.exceptions.ObjectLostError,
    ray.exceptions.OwnerDiedError,
    ray.exceptions.ObjectReconstructionFailedError,
    ray.exceptions.RaySystemError,
    ray.exceptions.OutOfMemoryError,
)
"""Failures of the machine rather than of the data: retried by the core."""


def task_error(error: BaseException) -> tuple[BaseException, bool]:
    """What a failed Ray task reports to its job, and whether the core should retry it:
    the chunk function's own exception, unwrapped, so that users see NumPy's and pandas'
    types; a lost worker, node or object as it is, retriable."""
    if isinstance(error, ray.exceptions.RayTaskError):
        cause = error.cause
        if isinstance(cause, BaseException):
            return cause, isinstance(cause, RETRIABLE)
        return error, False
    if isinstance(error, SYSTEM_ERRORS):
        return error, True
    return error, isinstance(error, RETRIABLE)


def cancel_task(value: ray.ObjectRef[Any], force: bool) -> bool:
    """``ray.cancel`` of the task that returns ``value``; False where Ray refused (it ended)."""
    try:
        ray.cancel(value, force=force)
    except Exception:  # noqa: BLE001 - finished meanwhile: nothing to stop
        return False
    return True

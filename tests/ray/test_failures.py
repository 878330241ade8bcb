"""How a failed Ray task is read: the chunk function's own exception, or a machine fault
to retry."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")

from jupyter_mars.ray.failures import task_error  # noqa: E402 - needs Ray


def test_a_chunk_functions_exception_is_unwrapped_and_not_retried() -> None:
    cause = ValueError("bad chunk")
    error, retriable = task_error(ray.exceptions.RayTaskError("add", "Traceback ...", cause))
    assert error is cause
    assert not retriable


def test_a_memory_error_in_a_task_is_retried() -> None:
    cause = MemoryError()
    assert task_error(ray.exceptions.RayTaskError("add", "Traceback ...", cause)) == (cause, True)


def test_a_lost_worker_is_retried_as_it_is() -> None:
    lost = ray.exceptions.WorkerCrashedError()
    assert task_error(lost) == (lost, True)

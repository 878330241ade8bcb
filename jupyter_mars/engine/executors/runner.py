"""The task runner both runtimes share: how a chunk task runs, and how it is stopped.

The embedded runtime's pool threads and a worker's slots run every task through one
``TaskRunner``, which keeps three things in one place:

- the tiny-task rule: a moving average of task durations (``tiny`` while it is under
  ``INLINE_BELOW_SECONDS``), below which a thread hand-off costs more than the task, so the
  embedded runtime runs on one thread and a worker runs tasks on its event loop's thread;
- the BLAS/OpenMP limit: ``max(1, n_cpu // n_slots)`` threads per BLAS call while the
  runner holds it, so that busy cores never exceed ``n_cpu``;
- interruption: ``interrupt(key)`` stops the runs of ``key`` under way, for a task nobody
  needs any more (its job was cancelled or failed).

A run is registered (``begin``) before it starts, from any thread, so an interrupt that
comes first stops it before it computes; ``run`` computes it in the calling thread and
``end`` unregisters it. An interrupt raises ``TaskInterrupted`` in the thread while it
computes, with ``PyThreadState_SetAsyncExc``: the interpreter checks for it between
bytecodes, so Python code stops within moments, and code in C (a NumPy or pandas call) when
it returns to Python. At most one exception is sent per run, only while the run computes,
and one that arrives after the computation is cleared, so it never lands in the caller.
A run that was interrupted raises ``TaskInterrupted`` even if the chunk function caught it:
its result is not kept. A kernel calling C code that calls back into Python and cannot
take an exception raised there (pandas' JSON writer crashes the process) does so inside
``uninterruptible()``: an interrupt that comes meanwhile is raised when the block ends.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.executors.blas import BLAS_LIMITS, limit_openmp_here
from jupyter_mars.engine.graph import Key, Task, TaskTimes, execute_task
from jupyter_mars.engine.tracebacks import HIDE

INLINE_BELOW_SECONDS = 200e-6
"""Tasks shorter than this on average are not worth a hand-off to another thread."""

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc


class TaskInterrupted(BaseException):
    """Raised in a task's thread to stop it: nobody needs its result any more.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that a chunk function's ``except
    Exception`` does not swallow it.
    """


_shield_lock = threading.Lock()
_shielded: dict[int, type[TaskInterrupted] | None] = {}
"""Threads inside an ``uninterruptible`` block -> the interrupt waiting for its end."""


@contextmanager
def uninterruptible() -> Iterator[None]:
    """Defers an interrupt of the task computing on this thread to the end of the block."""
    me = threading.get_ident()
    with _shield_lock:
        nested = me in _shielded
        if not nested:
            _shielded[me] = None
    if nested:
        yield
        return
    try:
        yield
    finally:
        with _shield_lock:
            pending = _shielded.pop(me)
    if pending is not None:
        raise pending("the task was interrupted")


@dataclass(eq=False)
class TaskRun:
    """One run of a task, from ``begin`` to ``end``."""

    key: Key
    thread: int | None = None
    """The thread computing it, while it computes."""
    interrupted: bool = False
    reason: type[TaskInterrupted] = TaskInterrupted
    """What the interrupt raises in it: ``TaskInterrupted`` or a subclass saying why."""
    sent: bool = False
    """Whether ``TaskInterrupted`` was raised in its thread (at most once)."""


class TaskRunner:
    """Runs chunk tasks for ``n_slots`` slots on ``n_cpu`` cores (see the module docstring)."""

    def __init__(self, n_slots: int, n_cpu: int) -> None:
        self.task_seconds = 2 * INLINE_BELOW_SECONDS
        """Moving average of the seconds tasks took."""
        self.blas_threads = max(1, n_cpu // max(n_slots, 1))
        self._blas_held = False
        self._lock = threading.Lock()
        self._runs: dict[Key, list[TaskRun]] = {}

    @property
    def tiny(self) -> bool:
        """Whether tasks take less on average than a hand-off to another thread."""
        return self.task_seconds < INLINE_BELOW_SECONDS

    # ---- runs ------------------------------------------------------------------------

    def begin(self, key: Key) -> TaskRun:
        """Register a run of ``key``: ``interrupt(key)`` reaches it from now on."""
        run = TaskRun(key)
        with self._lock:
            self._runs.setdefault(key, []).append(run)
        return run

    def end(self, run: TaskRun) -> None:
        """Unregister ``run`` (it computed, failed, was interrupted or never started)."""
        with self._lock:
            runs = self._runs.get(run.key)
            if runs is not None and run in runs:
                runs.remove(run)
                if not runs:
                    del self._runs[run.key]

    def run(self, run: TaskRun, task: Task, data: dict[Key, Any]) -> tuple[Any, TaskTimes]:
        """Compute ``task`` in this thread; its value and the seconds it took.

        Raises ``TaskInterrupted`` if ``run`` was interrupted, before or while it computed.
        """
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        times = TaskTimes()
        # before the run is open to interrupts: one must not land in the library calls
        limit_openmp_here(self.blas_threads)
        try:
            try:
                self._enter(run)
                value = execute_task(task, data, times)
            finally:
                self._leave(run)
        except TaskInterrupted:
            # it may have arrived inside _leave, before the run was marked done: the one
            # exception sent is spent, so this call completes
            self._leave(run)
            raise
        if run.interrupted:  # caught by the chunk function, or sent as it returned
            raise run.reason(f"task {task.key!r} was interrupted")
        self.task_seconds = 0.8 * self.task_seconds + 0.2 * times.total()
        return value, times

    def interrupt(self, key: Key, reason: type[TaskInterrupted] = TaskInterrupted) -> int:
        """Stop the runs of ``key`` under way, raising ``reason`` in them; how many there
        were."""
        with self._lock:
            runs = [r for r in self._runs.get(key, ()) if not r.interrupted]
            for run in runs:
                run.interrupted = True
                run.reason = reason
                if run.thread is not None:
                    with _shield_lock:
                        if run.thread in _shielded:  # raised when its block ends
                            _shielded[run.thread] = reason
                            continue
                    _set_async_exc(ctypes.c_ulong(run.thread), ctypes.py_object(reason))
                    run.sent = True
        return len(runs)

    def _enter(self, run: TaskRun) -> None:
        with self._lock:
            if run.interrupted:
                raise run.reason(f"task {run.key!r} was interrupted before it started")
            run.thread = threading.get_ident()

    def _leave(self, run: TaskRun) -> None:
        with self._lock:
            thread, run.thread = run.thread, None
            if run.sent and thread is not None:
                _set_async_exc(ctypes.c_ulong(thread), None)  # not delivered yet: cleared

    # ---- BLAS/OpenMP limit -------------------------------------------------------------

    def hold_blas_limit(self) -> None:
        """Limit BLAS calls to ``blas_threads`` threads each, until ``drop_blas_limit``."""
        if not self._blas_held:
            BLAS_LIMITS.acquire(self.blas_threads)
            self._blas_held = True

    def drop_blas_limit(self) -> None:
        if self._blas_held:
            BLAS_LIMITS.release(self.blas_threads)
            self._blas_held = False

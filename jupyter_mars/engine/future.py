"""``ExecutionFuture``: what ``execute(wait=False)`` returns.

A ``concurrent.futures.Future`` (so ``done``, ``result(timeout=)``, ``exception``,
``add_done_callback`` and ``concurrent.futures.wait`` work) that can also cancel work
that is already running, reports ``progress()`` and can be awaited.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Generator
from typing import Any

from jupyter_mars.engine.opstats import merge


class Progress:
    """Tasks done over tasks submitted, across the stages of one execution."""

    def __init__(self) -> None:
        self._jobs: list[Any] = []
        self._finished = False
        self._lock = threading.Lock()
        self.current: Any = None
        """The runtime job now running, so that it can be cancelled."""

    def add_job(self, job: Any) -> None:
        with self._lock:
            self._jobs.append(job)
            self.current = job

    def finish(self) -> None:
        self._finished = True

    def counts(self) -> tuple[int, int]:
        with self._lock:
            jobs = list(self._jobs)
        return sum(j.n_done for j in jobs), sum(j.n_tasks for j in jobs)

    def operators(self) -> dict[str, Any]:
        """Per operator, over every stage so far: chunks done and total, tasks running,
        seconds spent and state (``opstats``), and which operator reads which."""
        with self._lock:
            jobs = list(self._jobs)
        return merge(j.operators.snapshot() for j in jobs if j.operators is not None)

    def fraction(self) -> float:
        if self._finished:
            return 1.0
        done, total = self.counts()
        return min(done / total, 0.999) if total else 0.0


class ExecutionFuture(concurrent.futures.Future[Any]):
    """The pending result of an execution running in the background."""

    def __init__(self, progress: Progress, cancel_job: Callable[[Any], None]) -> None:
        super().__init__()
        self._progress = progress
        self._cancel_job = cancel_job
        self._cancel_requested = threading.Event()

    def progress(self) -> float:
        """Fraction of the chunk tasks done so far, from 0.0 to 1.0."""
        return 1.0 if self.done() and not self.cancelled() else self._progress.fraction()

    def operators(self) -> dict[str, Any]:
        """Per operator: chunks done and total, tasks running, seconds spent, state
        (``waiting``, ``running``, ``done``, ``failed``), and the edges between them."""
        return self._progress.operators()

    def cancel(self) -> bool:
        """Stop the execution, running tasks included; True unless it already ended."""
        if self.done():
            return False
        self._cancel_requested.set()
        # mark the future first, so the execution that ends because of this cancel
        # cannot settle it with a result or an error in between
        cancelled = super().cancel()
        job = self._progress.current
        if job is not None:
            self._cancel_job(job)
        return cancelled

    @property
    def cancel_event(self) -> threading.Event:
        """Set once ``cancel()`` is called; the execution checks it between stages."""
        return self._cancel_requested

    def __await__(self) -> Generator[Any, None, Any]:
        return asyncio.wrap_future(self).__await__()

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled() else "finished" if self.done() else "running"
        return f"<ExecutionFuture {state} progress={self.progress():.0%}>"

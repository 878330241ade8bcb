"""``ExecutionFuture``: what ``execute(wait=False)`` returns.

A ``concurrent.futures.Future`` (so ``done``, ``result(timeout=)``, ``exception``,
``add_done_callback`` and ``concurrent.futures.wait`` work) that can also cancel work
that is already running, reports ``progress()`` and can be awaited.

In a notebook it displays as a live widget (``jupyter_mars.widgets.FutureView``), and as
its repr text elsewhere; ipywidgets is imported only when a kernel asks for the widget.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
import time
from collections.abc import Callable, Container, Generator
from typing import Any

from jupyter_mars.engine.opstats import merge
from jupyter_mars.engine.tracebacks import HIDE


class Progress:
    """Chunk tasks done over chunk tasks planned, across the stages of one execution.

    The one measure of progress: ``future.progress()``, the text bar, the widget, the
    supervisor's REST API and stream (and so the dashboard and the Lab panel) all read
    ``counts`` or ``fraction``. A chunk task counts once, also inside a fused task or a
    subgraph, when that finishes (``OperatorStats.chunk_counts``).
    """

    def __init__(self) -> None:
        self._jobs: list[Any] = []
        self._complete = False
        """True once every task ran and the result is kept: only then is it 100%."""
        self._lock = threading.Lock()
        self.current: Any = None
        """The runtime job now running, so that it can be cancelled."""
        self._stop_job: Callable[[Any], None] | None = None

    def add_job(self, job: Any) -> None:
        with self._lock:
            self._jobs.append(job)
            self.current = job
            stop = self._stop_job
        if stop is not None:  # cancelled while this job was being submitted
            stop(job)

    def stop(self, stop_job: Callable[[Any], None]) -> None:
        """Stop the current job with ``stop_job``, and any job added from now on: a
        cancel that comes while a stage is being submitted still reaches its job."""
        with self._lock:
            self._stop_job = stop_job
            job = self.current
        if job is not None:
            stop_job(job)

    def finish(self, complete: bool) -> None:
        """The execution ended: ``complete`` when it succeeded. A failed or cancelled one
        keeps the fraction of its tasks that did run."""
        self._complete = complete

    def counts(self) -> tuple[int, int]:
        """Chunk tasks done and in all, over the stages submitted so far."""
        with self._lock:
            jobs = list(self._jobs)
        done = total = 0
        for job in jobs:
            if job.operators is not None:
                job_done, job_total = job.operators.chunk_counts()
                done, total = done + job_done, total + job_total
        return done, total

    def operators(self) -> dict[str, Any]:
        """Per operator, over every stage so far: chunks done and total, tasks running,
        seconds spent and state (``opstats``), and which operator reads which."""
        with self._lock:
            jobs = list(self._jobs)
        return merge(j.operators.snapshot() for j in jobs if j.operators is not None)

    def fraction(self) -> float:
        """``counts`` as a fraction: 1.0 only once the execution succeeded."""
        return self.reading()[2]

    def reading(self) -> tuple[int, int, float]:
        """``counts`` and ``fraction`` read at one moment, for a view showing both."""
        done, total = self.counts()
        if self._complete:
            return done, total, 1.0
        return done, total, min(done / total, 0.999) if total else 0.0


class ExecutionFuture(concurrent.futures.Future[Any]):
    """The pending result of an execution running in the background."""

    def __init__(self, progress: Progress, cancel_job: Callable[[Any], None]) -> None:
        super().__init__()
        self._progress = progress
        self._cancel_job = cancel_job
        self._cancel_requested = threading.Event()
        self._widget: Any = None
        self.name: str | None = None
        """What the execution is called where it is shown (the widget, the repr)."""
        self.session: Any = None
        """The session that holds the result (set by ``Session.execute``); None: the
        default session."""
        self.started_at = time.monotonic()
        """``time.monotonic()`` when the execution was submitted."""
        self.finished_at: float | None = None
        """``time.monotonic()`` when it ended (result, error or cancel), else None."""
        self.add_done_callback(_note_finish)

    def elapsed(self) -> float:
        """Seconds from submission to the end, or to now while it runs."""
        end = self.finished_at
        return (time.monotonic() if end is None else end) - self.started_at

    def progress(self) -> float:
        """Fraction of the chunk tasks done so far, from 0.0 to 1.0: 1.0 only once it
        succeeded (a failed or cancelled one stays at the share of tasks that ran)."""
        if self.done() and not self.cancelled() and self.exception() is None:
            return 1.0
        return self._progress.fraction()

    def chunks(self) -> tuple[int, int]:
        """Chunk tasks done and in all so far: what ``progress()`` is the fraction of."""
        return self._progress.counts()

    def operators(self) -> dict[str, Any]:
        """Per operator: chunks done and total, tasks running, seconds spent, state
        (``waiting``, ``running``, ``done``, ``failed``), and the edges between them."""
        return self._progress.operators()

    def result(self, timeout: float | None = None) -> Any:
        """The execution's result, waiting up to ``timeout`` seconds; an interrupt while
        waiting (Ctrl-C, the notebook's stop button) cancels the execution too."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        try:
            if self._widget is None or threading.current_thread() is not threading.main_thread():
                return super().result(timeout)
            return self._result_showing(timeout)
        except KeyboardInterrupt:
            self.cancel()
            raise

    def _result_showing(self, timeout: float | None) -> Any:
        """``result`` in short waits with the view refreshed between them: a cell that
        waits blocks the kernel's event loop, where the view's own updater runs, and
        the kernel's thread (this one) is the one that may send the view's changes."""
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                return super().result(VIEW_REFRESH if left is None else min(VIEW_REFRESH, left))
            except concurrent.futures.TimeoutError:
                if self.done() or (deadline is not None and time.monotonic() >= deadline):
                    raise  # its own error, or the caller's timeout
            self._widget.refresh()

    def cancel(self) -> bool:
        """Stop the execution, running tasks included; True unless it already ended."""
        if self.done():
            return False
        self._cancel_requested.set()
        # mark the future first, so the execution that ends because of this cancel
        # cannot settle it with a result or an error in between
        cancelled = super().cancel()
        self._progress.stop(self._cancel_job)
        return cancelled

    @property
    def cancel_event(self) -> threading.Event:
        """Set once ``cancel()`` is called; the execution checks it between stages."""
        return self._cancel_requested

    def __await__(self) -> Generator[Any, None, Any]:
        return asyncio.wrap_future(self).__await__()

    def widget(self) -> Any:
        """The notebook view of this execution, made on first use and then reused (so that
        every display of the future shows the same live widget). The view is whatever
        ``register_view`` was given: ``jupyter_mars.widgets`` registers its widget when it
        is imported, which ``import jupyter_mars`` does in a kernel with ipywidgets."""
        if self._widget is None:
            if _view is None:
                raise RuntimeError(
                    "no view of futures is registered: import jupyter_mars.widgets "
                    "(it needs ipywidgets, the 'jupyter' extra)"
                )
            self._widget = _view(self)
        return self._widget

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        """The registered view in a Jupyter kernel; the repr text elsewhere."""
        text = repr(self)
        if not in_kernel() or _view is None:
            return {"text/plain": text}
        bundle: dict[str, Any] = dict(self.widget()._repr_mimebundle_())
        bundle["text/plain"] = text
        return bundle

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled() else "finished" if self.done() else "running"
        name = "" if self.name is None else f" {self.name!r}"
        return f"<ExecutionFuture{name} {state} progress={self.progress():.0%}>"


VIEW_REFRESH = 0.5
"""Seconds between refreshes of a future's view while ``result()`` waits in a kernel."""

_view: Callable[[ExecutionFuture], Any] | None = None
"""Makes the notebook view of a future; set by the package that provides one."""


def register_view(make: Callable[[ExecutionFuture], Any] | None) -> None:
    """How futures display in a notebook: ``make(future)`` gives a view with
    ``_repr_mimebundle_`` and ``refresh()``, which shows the future's state now on the
    calling thread (None: futures show as their repr text). The widgets package
    calls this when it loads, so the engine never imports a display library."""
    global _view
    _view = make


def _note_finish(future: concurrent.futures.Future[Any]) -> None:
    if isinstance(future, ExecutionFuture):
        future.finished_at = time.monotonic()


def in_kernel() -> bool:
    """Whether this process is a Jupyter kernel: an IPython shell with a ``kernel``."""
    ipython = sys.modules.get("IPython")  # not imported: surely no kernel
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None

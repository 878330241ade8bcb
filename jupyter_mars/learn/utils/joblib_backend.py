"""A joblib backend, ``"mars"``, that runs joblib's batches as tasks of a session.

Under ``with joblib.parallel_backend("mars"):`` scikit-learn's own parallel loops
(``GridSearchCV(n_jobs=-1)``, ``RandomForestClassifier(n_jobs=-1)``, ...) hand each batch
of calls to ``MarsBackend.submit``, which makes it a one-task graph (a 0-d object tensor
whose only chunk is the batch's list of results) and executes it on the session in the
background: on the embedded runtime's threads, a cluster's workers (the batch travels
pickled, as any task does) or Ray. joblib is told of each batch's end by the execution's
future, and fetches its results then.

``session=`` (``joblib.parallel_backend("mars", session=s)``) picks the session, or
``service=`` a cluster's address (a session of its own is opened there, as Mars's backend
takes it); by default the default session at the time each batch is submitted.
``n_jobs=-1`` is as many batches at once as the session has cores, or ``n_parallel``
where that is given (Mars's name). Importing this module registers the backend
(``register_mars_backend``), as does importing ``jupyter_mars.learn.utils``.
"""

from __future__ import annotations

import functools
import numbers
import threading
import weakref
from collections.abc import Callable
from typing import Any

import joblib
import numpy as np
from joblib.parallel import AutoBatchingMixin, ParallelBackendBase

from jupyter_mars.engine.primitives.blockwise import Blockwise
from jupyter_mars.executable import Session, available_cpus, default_session
from jupyter_mars.session import new_session
from jupyter_mars.tensor.core import Tensor, new_tensor

__all__ = ["MarsBackend", "register_mars_backend"]

BACKEND_NAME = "mars"


def batch_tensor(batch: Callable[[], Any]) -> Tensor:
    """A 0-d object tensor whose one task calls ``batch`` (its chunk: the list of the
    calls' results). The batch is the task's function itself, so a worker that runs it
    imports what the calls need and nothing of this package beyond the engine."""
    op = Blockwise(batch, (), {}, "joblib_batch")
    return new_tensor(op, [], (), np.dtype(object), gpu=False)


def session_cores(session: Session) -> int:
    """How many tasks ``session`` runs at once: its cores (a cluster's: its workers')."""
    n_cpu = getattr(session, "n_cpu", None)
    if n_cpu:
        return int(n_cpu)
    cluster = getattr(session, "cluster", None) or {}
    workers = cluster.get("workers") or []
    cores = sum(int(w.get("n_cpu") or 0) for w in workers)
    total = (cluster.get("totals") or {}).get("n_cpu")
    return cores or int(total or 0) or available_cpus()


class BatchJob:
    """A batch submitted: the session it runs on, its tensor and the execution's future."""

    def __init__(self, session: Session, tensor: Tensor, future: Any) -> None:
        self.session = session
        self.tensor: Tensor | None = tensor
        self.future = future

    def result(self) -> Any:
        """The batch's results (its error raised), fetched once; the session then drops
        them."""
        self.future.result()
        tensor, self.tensor = self.tensor, None
        if tensor is None:
            raise RuntimeError("the results of this batch were already taken")
        return self.session.fetch(tensor)


def _notify(callback: Callable[[Any], Any], job: BatchJob, _future: Any) -> None:
    callback(job)


class MarsBackend(AutoBatchingMixin, ParallelBackendBase):  # type: ignore[misc]
    """joblib's batches as tasks of ``session`` (the default session when None)."""

    supports_retrieve_callback = True
    supports_sharedmem = False
    uses_threads = False
    default_n_jobs = -1
    MIN_IDEAL_BATCH_DURATION = 0.2
    MAX_IDEAL_BATCH_DURATION = 1.0

    def __init__(
        self,
        service: str | None = None,
        session: Session | None = None,
        n_parallel: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if service is not None and session is not None:
            raise ValueError("give the backend a service address or a session, not both")
        if n_parallel is not None and (
            isinstance(n_parallel, bool)
            or not isinstance(n_parallel, numbers.Integral)
            or n_parallel < 1
        ):
            raise ValueError(f"n_parallel must be a positive int, got {n_parallel!r}")
        if service is not None:
            if not isinstance(service, str):
                raise TypeError(f"service must be a cluster's address (str), got {service!r}")
            session = new_session(service, default=False)
            weakref.finalize(self, session.close)
        self.session = session
        self.n_parallel = None if n_parallel is None else int(n_parallel)
        self._pending: set[BatchJob] = set()
        self._lock = threading.Lock()

    def __reduce__(self) -> Any:
        # a batch that reaches a worker carries a nested backend, never this one; if it
        # does, it travels without its session, and means the worker's default
        return (MarsBackend, ())

    def _session(self) -> Session:
        return default_session(self.session)

    def effective_n_jobs(self, n_jobs: int | None) -> int:
        """``n_jobs`` batches at once; negative: ``n_parallel`` (by default the session's
        cores) plus one plus it."""
        if n_jobs == 0:
            raise ValueError("n_jobs == 0 in Parallel has no meaning")
        if n_jobs is None:
            return 1
        if n_jobs < 0:
            cores = self.n_parallel or session_cores(self._session())
            return max(cores + 1 + n_jobs, 1)
        return int(n_jobs)

    def submit(self, func: Callable[[], Any], callback: Callable[[Any], Any] | None = None) -> Any:
        """Run ``func`` (a batch) in a task of the session, in the background."""
        session = self._session()
        tensor = batch_tensor(func)
        future = session.execute(tensor, wait=False, show_progress=False, name="joblib batch")
        job = BatchJob(session, tensor, future)
        with self._lock:
            self._pending.add(job)
        future.add_done_callback(functools.partial(self._forget, job))
        if callback is not None:
            future.add_done_callback(functools.partial(_notify, callback, job))
        return job

    def _forget(self, job: BatchJob, _future: Any) -> None:
        with self._lock:
            self._pending.discard(job)

    def retrieve_result_callback(self, out: BatchJob) -> Any:
        """The results of a finished batch (joblib calls this when it ends)."""
        return out.result()

    def abort_everything(self, ensure_ready: bool = True) -> None:
        """Cancel the batches still running (one call of the loop failed)."""
        with self._lock:
            pending = list(self._pending)
            self._pending.clear()
        for job in pending:
            job.future.cancel()


def register_mars_backend() -> None:
    """Make ``"mars"`` a joblib backend name (``joblib.parallel_backend("mars")``)."""
    joblib.register_parallel_backend(BACKEND_NAME, MarsBackend)


register_mars_backend()

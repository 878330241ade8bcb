"""Process-wide limits on BLAS/OpenMP thread pools while the runtime computes.

A runtime with ``t`` threads and a budget of ``n_cpu`` cores lets each BLAS call use
``max(1, n_cpu // t)`` threads, so busy cores never exceed ``n_cpu``. The pools' sizes are
process-wide, so the limit is held only while jobs run and lifted when the runtime is idle,
so that the user's own NumPy code keeps every core.

OpenBLAS (pthreads build) does not reliably take a new thread count from a thread other
than the one that changed it last, so every change is made from one dedicated thread.
A controller knows the pools loaded when it was made: a new one is made when modules
were imported since (scikit-learn, LightGBM and XGBoost bring OpenMP pools of their own).
OpenMP's thread count is a setting of each thread, not of the process: the thread that
runs a task sets its own (``limit_openmp_here``).
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from threadpoolctl import ThreadpoolController


class BlasLimiter:
    """Reference-counted limits, applied and lifted from a single control thread."""

    def __init__(self) -> None:
        self._requests: list[int] = []
        self._lock = threading.Lock()
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._controller: ThreadpoolController | None = None
        self._active: Any = None
        self._applied: int | None = None
        self._modules = 0
        """How many modules were imported when the controller was made."""

    def acquire(self, limit: int) -> None:
        """Hold a limit of ``limit`` threads per BLAS call until ``release``."""
        with self._lock:
            self._requests.append(limit)
            wanted = min(self._requests)
        self._run(lambda: self._apply(wanted))

    def release(self, limit: int) -> None:
        with self._lock:
            self._requests.remove(limit)
            wanted = min(self._requests) if self._requests else None
        self._run(lambda: self._apply(wanted))

    def _apply(self, wanted: int | None) -> None:
        stale = self._modules != len(sys.modules)
        if wanted == self._applied and (wanted is None or not stale):
            return
        if self._active is not None:
            self._active.restore_original_limits()
            self._active = None
        if wanted is not None:
            if self._controller is None or stale:
                self._modules = len(sys.modules)
                self._controller = ThreadpoolController()
            self._active = self._controller.limit(limits=wanted)
        self._applied = wanted

    def _run(self, call: Callable[[], Any]) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name="mars-blas-limits", daemon=True
                )
                self._thread.start()
        done: Future[Any] = Future()
        self._calls.put((call, done))
        done.result()

    def _serve(self) -> None:
        while True:
            call, done = self._calls.get()
            try:
                done.set_result(call())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                done.set_exception(exc)


BLAS_LIMITS = BlasLimiter()

_thread = threading.local()


def limit_openmp_here(limit: int) -> None:
    """Limit the OpenMP pools to ``limit`` threads for the calling thread (one that runs
    tasks, never the user's: the setting stays with the thread), where it was not yet
    limited so, or modules were imported since."""
    wanted = (limit, len(sys.modules))
    if getattr(_thread, "openmp", None) != wanted:
        ThreadpoolController().select(user_api="openmp").limit(limits=limit)
        _thread.openmp = wanted

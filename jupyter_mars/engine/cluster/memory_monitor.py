"""A worker's memory monitor: samples the process's resident size and enforces its limits.

Theory of operation. A daemon thread samples the resident set size (RSS) every
``interval`` seconds (0.1 by default: a task allocating a gigabyte a second passes the
gap between the limits, 15 % of the worker's memory, in about that time on a small worker).

- Above the soft limit (``storage/limits.py``) it has the store spill about the excess of
  the chunks it holds in memory, on a thread of its own so that sampling goes on during
  the disk IO, and then gives the freed memory back to the system (``storage/heap.py``).
  Admission (``ChunkStore.can_admit``, against the same soft limit) starts no new task
  meanwhile.
- Past the hard limit it stops one task: among those running on the slot threads
  (``run_watched``), the one that has seen the most growth since it started. The stop is
  an exception raised in that thread (``PyThreadState_SetAsyncExc``), which Python
  delivers at the task's next bytecode (a long NumPy call ends first);
  ``run_watched`` turns it into a ``MemoryError`` naming the task, its operator and the
  limit, and the monitor logs it. One task is stopped at a time: once it ended, and what it
  held was collected and given back (``STOP_GRACE``), a sample decides whether another
  must be.

State: ``_watched`` (slot thread id -> ``_Watched``: the task, the RSS when it started,
whether it was told to stop), guarded by ``_lock``; ``rss`` (last sample);
``stopped`` (tasks stopped so far).
"""

from __future__ import annotations

import ctypes
import gc
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from jupyter_mars.engine.cluster.storage import ChunkStore, heap
from jupyter_mars.engine.cluster.storage.admission import process_rss
from jupyter_mars.engine.cluster.storage.limits import MemoryLimits, mib
from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.node import op_name_of

logger = logging.getLogger(__name__)
T = TypeVar("T")

INTERVAL = 0.1
"""Seconds between two samples of the resident size."""
RELIEF_TARGET = 0.9
"""Above the soft limit, spill down to this share of it, so as not to spill again at once."""
TRIM_EVERY = 1.0
"""Seconds between two heap trims while above the soft limit (a trim walks the heap)."""
STOP_GRACE = 1.0
"""Seconds after a stopped task ended during which no other is stopped: what it held goes
back to the system once the error that stopped it is sent and collected."""


class HardLimitPassed(BaseException):
    """Raised inside a task's thread to stop it; a ``BaseException`` so that a kernel's
    ``except Exception`` does not swallow it. ``run_watched`` replaces it."""


@dataclass
class _Watched:
    key: Key
    """The task running on the thread."""
    thread_id: int
    """``threading.get_ident()`` of the slot thread running it."""
    rss_at_start: int
    """The resident size when it started."""
    stopped_at: int = 0
    """The resident size when it was told to stop (0: it was not)."""


def _raise_in(thread_id: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in the thread at its next bytecode; None cancels a pending one."""
    target = None if exception is None else ctypes.py_object(exception)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), target)


class MemoryMonitor:
    def __init__(self, limits: MemoryLimits, store: ChunkStore, interval: float = INTERVAL) -> None:
        self.limits = limits
        self.store = store
        self.interval = interval
        self.where = ""
        """The worker's address, for messages (set once it listens)."""
        self.rss = 0
        self.stopped = 0
        self._lock = threading.Lock()
        self._watched: dict[int, _Watched] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mars-memory-monitor", daemon=True)
        self._spiller = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mars-memory-spill")
        self._relief: Future[None] | None = None
        self._above_soft = False
        self._trimmed = 0.0
        self._warned_idle = False
        self._stop_ended = -STOP_GRACE
        self._collected = True

    def start(self) -> None:
        heap.return_freed_memory_promptly()
        self.rss = process_rss()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5 * self.interval + 1)
        self._spiller.shutdown(wait=False, cancel_futures=True)

    def figures(self) -> dict[str, Any]:
        """For the heartbeat and the dashboard."""
        return {
            "rss": self.rss,
            "memory": self.limits.memory,
            "soft_limit": self.limits.soft,
            "hard_limit": self.limits.hard,
            "above_soft_limit": self._above_soft,
            "tasks_stopped": self.stopped,
        }

    # ---- the slot threads ---------------------------------------------------------------

    def run_watched(self, key: Key, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on this thread, stopped with a ``MemoryError`` naming
        ``key`` if the monitor finds the process past the hard limit meanwhile."""
        entry = _Watched(key, threading.get_ident(), self.rss)
        with self._lock:
            self._watched[entry.thread_id] = entry
        try:
            try:
                return function(*args)
            finally:
                with self._lock:
                    self._watched.pop(entry.thread_id, None)
                    if entry.stopped_at:
                        _raise_in(entry.thread_id, None)  # not delivered yet: never will be
        except HardLimitPassed:
            with self._lock:
                self._watched.pop(entry.thread_id, None)
                self._stop_ended = time.monotonic()
            raise MemoryError(self._stop_message(entry)) from None

    def _stop_message(self, entry: _Watched) -> str:
        return (
            f"task {entry.key!r} (operator {op_name_of(entry.key)!r}) was stopped on worker "
            f"{self.where}: it grew the worker's memory to {mib(entry.stopped_at)}, past its "
            f"hard limit of {self.limits.describe_hard()}"
        )

    # ---- the monitor thread ---------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.check(process_rss())
            except Exception:  # noqa: BLE001 - the monitor must outlive any one sample
                logger.exception("memory monitor: a sample failed")

    def check(self, rss: int) -> None:
        """Act on one sample of the resident size."""
        self.rss = rss
        if rss > self.limits.hard:
            self._stop_growing_task(rss)
        above = rss > self.limits.soft
        if above and not self._above_soft:
            logger.info(
                "memory %s is above the soft limit of %s: spilling, and starting no new task",
                mib(rss),
                self.limits.describe_soft(),
            )
        elif self._above_soft and not above:
            logger.debug("memory %s is back under the soft limit", mib(rss))
            self._warned_idle = False
        self._above_soft = above
        if above:
            self._relieve(rss)

    def _relieve(self, rss: int) -> None:
        """Spill about the excess over the soft limit, unless a spill is under way."""
        if self._relief is not None and not self._relief.done():
            return
        excess = rss - int(self.limits.soft * RELIEF_TARGET)
        self._relief = self._spiller.submit(self._spill, excess)

    def _spill(self, nbytes: int) -> None:
        spilled = self.store.spill_memory(nbytes)
        now = time.monotonic()
        if spilled or now - self._trimmed > TRIM_EVERY:
            heap.trim()
            self._trimmed = now

    def _stop_growing_task(self, rss: int) -> None:
        with self._lock:
            if any(w.stopped_at for w in self._watched.values()):
                return  # one at a time: the one told to stop is giving its memory back
            recently = time.monotonic() - self._stop_ended < STOP_GRACE
        if recently:
            if not self._collected:
                # the stopped task's frames may be held in reference cycles until collected
                self._collected = True
                gc.collect()
                heap.trim()
            return
        with self._lock:
            running = list(self._watched.values())
            if not running:
                if not self._warned_idle:
                    self._warned_idle = True
                    logger.warning(
                        "memory %s is past the hard limit of %s with no task running: the "
                        "chunks held here take it (spill directories let them go to disk)",
                        mib(rss),
                        self.limits.describe_hard(),
                    )
                return
            culprit = min(running, key=lambda w: w.rss_at_start)  # has seen the most growth
            culprit.stopped_at = rss
            self.stopped += 1
            self._collected = False
            _raise_in(culprit.thread_id, HardLimitPassed)
        logger.error("%s", self._stop_message(culprit))

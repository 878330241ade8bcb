"""The latest executions of an engine session, for views that show progress from outside
the code that started them (the Ray session's HTTP API, read by the Lab panel).

Each ``EngineSession.run`` adds an ``ExecutionRecord`` (its ``Progress``, name, start and
end, outcome) and marks it ended; the history keeps the latest ``limit`` records. A
record can be cancelled from another thread, as a future's cancel button does. An ended
record keeps its final figures only, not its ``Progress``: the jobs behind that hold
per-task tables and the failure with its traceback, which a history must not keep alive.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.future import Progress

_ids = itertools.count(1)


@dataclass
class ExecutionRecord:
    """One execution of an engine session, as a progress view shows it."""

    progress: Progress | None
    """The live figures while it runs; None once it ended (``final`` holds them)."""
    name: str | None
    """What it computes, as the future was named (None for a plain ``.execute()``)."""
    cancelled: threading.Event
    """Set to stop it: the engine checks it between stages."""
    id: str = field(default_factory=lambda: f"e{next(_ids)}")
    started: float = field(default_factory=time.time)
    """Seconds since the epoch when it started."""
    ended: float | None = None
    state: str = "running"
    """``running``, ``cancelling``, ``succeeded``, ``failed`` or ``cancelled``."""
    error: str | None = None
    """The failure's type and message, for a failed execution."""
    final: tuple[tuple[int, int, float], dict[str, Any]] | None = None
    """``Progress.reading()`` and ``Progress.operators()`` as they were when it ended."""

    def reading(self) -> tuple[int, int, float]:
        """Chunks done, in all, and the fraction (``Progress.reading``)."""
        if self.final is not None:
            return self.final[0]
        return self.progress.reading() if self.progress is not None else (0, 0, 0.0)

    def operators(self) -> dict[str, Any]:
        """Per operator figures (``Progress.operators``)."""
        if self.final is not None:
            return self.final[1]
        return self.progress.operators() if self.progress is not None else {}

    def elapsed(self) -> float:
        return (self.ended or time.time()) - self.started

    def cancel(self, stop_job: Callable[[Any], None]) -> bool:
        """Stop it (its running job through ``stop_job``); False when it had ended."""
        progress = self.progress
        if self.ended is not None or progress is None:
            return False
        self.state = "cancelling"
        self.cancelled.set()
        progress.stop(stop_job)
        return True

    def end(self, error: BaseException | None) -> None:
        if self.cancelled.is_set():
            self.state = "cancelled"
        elif error is not None:
            self.state = "failed"
            self.error = f"{type(error).__name__}: {error}"
        else:
            self.state = "succeeded"
        if self.progress is not None:
            self.final = (self.progress.reading(), self.progress.operators())
        self.progress = None
        self.ended = time.time()


class ExecutionHistory:
    """The latest ``limit`` executions, oldest first; safe to read from any thread."""

    def __init__(self, limit: int = 50) -> None:
        self._records: deque[ExecutionRecord] = deque(maxlen=limit)
        self._lock = threading.Lock()
        self.count = 0
        """Executions recorded in all, older ones included."""

    def add(self, record: ExecutionRecord) -> ExecutionRecord:
        with self._lock:
            self._records.append(record)
            self.count += 1
        return record

    def latest(self) -> list[ExecutionRecord]:
        with self._lock:
            return list(self._records)

    def find(self, execution_id: str) -> ExecutionRecord | None:
        return next((r for r in self.latest() if r.id == execution_id), None)

"""What an engine session needs of a runtime: the embedded one and the cluster's alike."""

from __future__ import annotations

import threading
from typing import Any, Protocol

from jupyter_mars.engine.graph import Key, Task
from jupyter_mars.engine.opstats import OperatorStats

_serving = threading.local()


def serve(runtime: Any) -> None:
    """Mark this thread as one of ``runtime``'s pool threads, for good."""
    _serving.runtime = runtime


def served_by(runtime: Any) -> bool:
    """Whether this thread is one of ``runtime``'s pool threads: code running in a task
    there that waited for the same runtime would wait for its own thread."""
    return getattr(_serving, "runtime", None) is runtime


class JobHandle:
    """One submitted graph: counts its tasks and signals when it ends."""

    def __init__(self, job_id: str, n_tasks: int) -> None:
        self.job_id = job_id
        self.n_tasks = n_tasks
        self.n_done = 0
        self.error: BaseException | None = None
        self.failed_key: Key | None = None
        self.done = threading.Event()
        self.operators: OperatorStats | None = None
        """Chunks done, running and time spent per operator, when the runtime keeps them."""

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)


class Runtime(Protocol):
    shapes: dict[Key, tuple[int, ...]]
    """Shapes of the chunks computed so far, by key."""

    @property
    def n_cpu(self) -> int:
        """Cores the runtime runs tasks on now; tiling sizes its tasks for them."""
        ...

    def submit(
        self, graph: dict[Key, Task], outputs: tuple[Key, ...], priorities: dict[Key, int]
    ) -> JobHandle: ...

    def cancel(self, job: JobHandle) -> None: ...

    def release_keys(self, keys: tuple[Key, ...]) -> None: ...

    def get(self, key: Key) -> Any: ...

    def close(self) -> None: ...

"""What an engine session needs of a runtime: the embedded one and the cluster's alike."""

from __future__ import annotations

from typing import Any, Protocol

from jupyter_mars.engine.executors.threads import JobHandle
from jupyter_mars.engine.graph import Key, Task


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

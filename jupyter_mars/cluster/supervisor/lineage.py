"""The supervisor's lineage: the tasks that recompute data lost with a worker.

The scheduler core forgets a key's task once its result is in memory; when the worker
holding that result dies, the core needs the key's deps, and those of every ancestor it
no longer knows, to compute it again (``KeysLost.lineage``). ``Lineage`` keeps the
``Task`` of every key the core knows and of their ancestors, so that a result held for
the client can be recomputed from scratch. A task is dropped once the core forgets its
key and no kept task reads it, so the lineage grows with the live graph, not with
history.

The core's view is passed in as ``forgotten(key) -> bool`` rather than the core itself:
this module needs nothing of the scheduler, and a test can drive it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from jupyter_mars.engine.graph import Key, Task

__all__ = ["Lineage"]


class Lineage:
    """The tasks that recompute lost data: those the core knows and their ancestors."""

    def __init__(self) -> None:
        self.tasks: dict[Key, Task] = {}
        """Kept key -> its task (the first submitted for the key)."""
        self._readers: dict[Key, int] = {}
        """Key -> how many kept tasks read it (it stays while any does)."""

    def __len__(self) -> int:
        return len(self.tasks)

    def add(self, task: Task) -> None:
        """Keep ``task`` unless a task of its key is kept already (the same computation)."""
        if task.key in self.tasks:
            return
        self.tasks[task.key] = task
        readers = self._readers
        for dep in task.dependencies:
            readers[dep] = readers.get(dep, 0) + 1

    def of(
        self, keys: Iterable[Key], forgotten: Callable[[Key], bool]
    ) -> dict[Key, tuple[Key, ...]]:
        """``KeysLost.lineage`` for ``keys``: their deps and those of each ancestor that is
        ``forgotten`` by the core, walking back until keys it knows."""
        out: dict[Key, tuple[Key, ...]] = {}
        lost = set(keys)
        stack = list(lost)
        while stack:
            key = stack.pop()
            task = self.tasks.get(key)
            if key in out or task is None:
                continue  # a missing task: the core names it when it needs it
            deps = out[key] = tuple(task.dependencies)
            stack.extend(d for d in deps if d not in out and (d in lost or forgotten(d)))
        return out

    def prune(self, keys: Iterable[Key], forgotten: Callable[[Key], bool]) -> list[Key]:
        """Drop the tasks of ``keys`` that the core has ``forgotten`` and no kept task
        reads, then, transitively, their deps; return the dropped keys."""
        dropped: list[Key] = []
        readers = self._readers
        stack = list(keys)
        while stack:
            key = stack.pop()
            task = self.tasks.get(key)
            if task is None or key in readers or not forgotten(key):
                continue
            del self.tasks[key]
            dropped.append(key)
            for dep in task.dependencies:
                n = readers[dep] - 1
                if n:
                    readers[dep] = n
                else:
                    del readers[dep]
                    stack.append(dep)
        return dropped

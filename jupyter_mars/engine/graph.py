"""Chunk graphs as plain data: ``dict[Key, Task]``.

A ``Task`` is a function applied to arguments; an argument that is a ``Ref`` names the
result of another task, and an argument that is itself a ``Task`` is computed inline (that
is how fused chains are represented). Lists, tuples and dicts in arguments are searched
for both.

>>> import operator
>>> g = {"a": Task("a", operator.add, (1, 2)), "b": Task("b", operator.mul, (Ref("a"), 10))}
>>> toposort(g)
['a', 'b']
>>> get_sync(g, ["b"])
[30]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Hashable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from jupyter_mars.engine.tracebacks import HIDE

Key = Hashable


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to the result of the task ``key``."""

    key: Key


class Task:
    """``func(*args, **kwargs)`` once every ``Ref`` in the arguments is resolved.

    A plain slotted class rather than a dataclass: graphs hold one per chunk, and building
    them is on the per-chunk hot path. Treat instances as immutable.
    """

    __slots__ = ("key", "func", "args", "kwargs", "blockwise", "dependencies", "device")

    key: Key
    """The key the result is stored under."""
    func: Callable[..., Any]
    """The kernel; it never knows where it runs."""
    args: tuple[Any, ...]
    """Positional arguments; may contain ``Ref`` and nested ``Task`` objects."""
    kwargs: Mapping[str, Any]
    """Keyword arguments; may contain ``Ref`` and nested ``Task`` objects."""
    blockwise: bool
    """True when the task maps its input chunks to one output chunk without changing the
    number of chunks; inputs read only by such a task may be computed inline (fused)."""
    dependencies: frozenset[Key]
    """Keys of the ``Ref`` arguments, nested tasks included."""
    device: str | None
    """Where the task runs: None on a CPU slot, ``"gpu"`` on a GPU slot (its result is a
    chunk in that GPU's memory)."""

    def __init__(
        self,
        key: Key,
        func: Callable[..., Any],
        args: tuple[Any, ...] = (),
        kwargs: Mapping[str, Any] | None = None,
        blockwise: bool = False,
        dependencies: frozenset[Key] | None = None,
        device: str | None = None,
    ) -> None:
        self.key = key
        self.func = func
        self.args = args
        self.kwargs = kwargs if kwargs is not None else _NO_KWARGS
        self.blockwise = blockwise
        if dependencies is None:
            deps: set[Key] = set()
            _collect_refs(args, deps)
            if kwargs:
                _collect_refs(tuple(kwargs.values()), deps)
            dependencies = frozenset(deps)
        self.dependencies = dependencies
        self.device = device

    def __repr__(self) -> str:
        name = getattr(self.func, "__name__", type(self.func).__name__)
        return f"Task({self.key!r}, {name}, deps={sorted(map(repr, self.dependencies))})"

    def __reduce__(self) -> tuple[Any, ...]:
        # the shared empty kwargs mapping is a read-only proxy, which pickle cannot store
        kwargs = dict(self.kwargs) if self.kwargs else None
        return (
            Task,
            (
                self.key,
                self.func,
                self.args,
                kwargs,
                self.blockwise,
                self.dependencies,
                self.device,
            ),
        )


_NO_KWARGS: Mapping[str, Any] = MappingProxyType({})


Graph = dict[Key, Task]


def _collect_refs(args: tuple[Any, ...] | list[Any], out: set[Key]) -> None:
    for arg in args:
        cls = type(arg)
        if cls is Ref:
            out.add(arg.key)
        elif cls is Task:
            out.update(arg.dependencies)
        elif cls is list or cls is tuple:
            _collect_refs(arg, out)
        elif cls is dict:
            _collect_refs(tuple(arg.values()), out)


FAILED_KEY = "mars_failed_key"
"""Attribute set on an exception raised by a task inlined into another (fused, or part of
a subgraph): the key of that inner task, which names the operator that failed."""


def failed_key(error: BaseException, outer: Key | None) -> Key | None:
    """The key of the task that raised ``error`` in the task ``outer``."""
    return getattr(error, FAILED_KEY, outer)


def group_of(key: Key) -> str:
    """The operator step a chunk key belongs to: the name part of ``(name, *index)``."""
    return str(key[0]) if isinstance(key, tuple) and key else str(key)


class TaskTimes:
    """Seconds spent per operator group (``group_of``) by a task and the tasks nested in
    it, each counted apart: a fused chain's steps are timed one by one."""

    __slots__ = ("seconds", "_nested")

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._nested = [0.0]
        """Per open task, the seconds its nested tasks took so far."""

    def total(self) -> float:
        """Seconds the task took, nested tasks included."""
        return sum(self.seconds.values())

    def _open(self) -> float:
        self._nested.append(0.0)
        return time.perf_counter()

    def _close(self, key: Key, start: float) -> None:
        elapsed = time.perf_counter() - start
        inner = self._nested.pop()
        self._nested[-1] += elapsed
        group = group_of(key)
        self.seconds[group] = self.seconds.get(group, 0.0) + elapsed - inner


def _resolve(arg: Any, data: Mapping[Key, Any], times: TaskTimes | None = None) -> Any:
    __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
    cls = type(arg)
    if cls is Ref:
        return data[arg.key]
    if cls is Task:
        try:
            return execute_task(arg, data, times)
        except Exception as exc:
            # the innermost inlined task that raised is the one to name
            if not hasattr(exc, FAILED_KEY):
                setattr(exc, FAILED_KEY, arg.key)
            raise
    if cls is list:
        return [_resolve(a, data, times) for a in arg]
    if cls is tuple:
        return tuple(_resolve(a, data, times) for a in arg)
    if cls is dict:
        return {k: _resolve(v, data, times) for k, v in arg.items()}
    return arg


def execute_task(task: Task, data: Mapping[Key, Any], times: TaskTimes | None = None) -> Any:
    """Run one task, reading its dependencies from ``data``; with ``times``, note the
    seconds it and each nested task took."""
    __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
    if times is None:
        return _call(task, data, None)
    start = times._open()
    try:
        return _call(task, data, times)
    finally:
        times._close(task.key, start)


def _call(task: Task, data: Mapping[Key, Any], times: TaskTimes | None) -> Any:
    __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
    # a loop, not a comprehension: on Python 3.11 that would be a frame of its own, shown
    # between the user's function and the cell
    args = []
    for a in task.args:
        args.append(_resolve(a, data, times))
    if task.kwargs:
        kwargs = {k: _resolve(v, data, times) for k, v in task.kwargs.items()}
        return task.func(*args, **kwargs)
    return task.func(*args)


def dependents(graph: Mapping[Key, Task]) -> dict[Key, set[Key]]:
    """Map each key to the keys of the tasks in ``graph`` that read it."""
    out: dict[Key, set[Key]] = {k: set() for k in graph}
    for key, task in graph.items():
        for dep in task.dependencies:
            out.setdefault(dep, set()).add(key)
    return out


def toposort(graph: Mapping[Key, Task], keys: Iterable[Key] | None = None) -> list[Key]:
    """Keys of ``graph`` ordered so that each comes after its dependencies.

    With ``keys``, only those and what they need, in depth-first order from them, which
    keeps few intermediate results alive when run in this order.
    Dependencies missing from ``graph`` are skipped (they are already computed).
    """
    roots = list(graph) if keys is None else list(keys)
    order: list[Key] = []
    seen: set[Key] = set()
    for root in roots:
        if root in seen or root not in graph:
            continue
        stack: list[tuple[Key, bool]] = [(root, False)]
        while stack:
            key, expanded = stack.pop()
            if expanded:
                order.append(key)
                continue
            if key in seen:
                continue
            seen.add(key)
            stack.append((key, True))
            for dep in graph[key].dependencies:
                if dep in graph and dep not in seen:
                    stack.append((dep, False))
    return order


def cull(
    graph: Mapping[Key, Task], keys: Iterable[Key], held: Container[Key] = frozenset()
) -> Graph:
    """The part of ``graph`` needed to compute ``keys``, given the keys ``held`` already
    (neither computed nor followed further).

    >>> g = {"a": Task("a", int), "b": Task("b", int, (Ref("a"),)), "c": Task("c", int)}
    >>> sorted(cull(g, ["b"])), sorted(cull(g, ["b"], held={"a"}))
    (['a', 'b'], ['b'])
    """
    out: Graph = {}
    stack = [k for k in keys if k in graph and k not in held]
    while stack:
        key = stack.pop()
        if key in out:
            continue
        task = graph[key]
        out[key] = task
        stack.extend(d for d in task.dependencies if d in graph and d not in out and d not in held)
    return out


def get_sync(
    graph: Mapping[Key, Task], keys: Iterable[Key], data: Mapping[Key, Any] | None = None
) -> list[Any]:
    """Compute ``keys`` in this thread, one task at a time (handy under pdb)."""
    wanted = list(keys)
    store: dict[Key, Any] = dict(data or {})
    for key in toposort(graph, wanted):
        if key not in store:
            store[key] = execute_task(graph[key], store)
    return [store[k] for k in wanted]

"""What each operator of a running job has done: chunks done over total, time, state.

A job's graph is grouped by operator: the first element of a chunk key (``"sum-1a4…"``,
``"sum-1a4…-chunk"``) names the operator step that made it. Tasks nested in others,
fused by the planner or inlined into a cluster subgraph, count for their own operator,
so the figures do not depend on how the graph was cut into tasks. Edges join an operator
to those that read its chunks.

``OperatorStats`` is fed by a runtime (``started``, ``finished``, ``stopped``) from its
own thread or loop, and read by the web service and widgets (``snapshot``) from others:
one lock guards it. ``merge`` joins the snapshots of an execution's stages.

>>> from jupyter_mars.engine.graph import Ref, Task
>>> g = {
...     ("a-x1", 0): Task(("a-x1", 0), int, (1,)),
...     ("b-x2", 0): Task(("b-x2", 0), abs, (Ref(("a-x1", 0)),)),
... }
>>> stats = OperatorStats(g)
>>> stats.finished(("a-x1", 0), {"a-x1": 0.5})
>>> [(op["id"], op["done"], op["total"], op["state"]) for op in stats.snapshot()["operators"]]
[('a-x1', 1, 1, 'done'), ('b-x2', 0, 1, 'waiting')]
>>> stats.snapshot()["edges"]
[['a-x1', 'b-x2']]
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from jupyter_mars.engine.graph import Key, Ref, Task, group_of


def describe(group: str) -> tuple[str, str]:
    """``(operator name, step)`` of a group: ``"sum-1a4f-chunk"`` -> ``("sum", "chunk")``."""
    parts = group.split("-", 2)
    return parts[0], parts[2] if len(parts) > 2 else ""


def _walk(task: Task, edges: set[tuple[str, str]]) -> str | Counter[str]:
    """The groups of ``task`` and of the tasks nested in it, with their counts (just the
    group when there is no nested task, the common case); notes who reads whom."""
    group = group_of(task.key)
    nested: list[Task] = []
    _scan(group, task.args, edges, nested)
    if task.kwargs:
        _scan(group, task.kwargs.values(), edges, nested)
    if not nested:
        return group
    members: Counter[str] = Counter({group: 1})
    while nested:
        inner = nested.pop()
        inner_group = group_of(inner.key)
        members[inner_group] += 1
        _scan(inner_group, inner.args, edges, nested)
        if inner.kwargs:
            _scan(inner_group, inner.kwargs.values(), edges, nested)
    return members


def _scan(group: str, args: Iterable[Any], edges: set[tuple[str, str]], nested: list[Task]) -> None:
    """Note the edges into ``group`` from the references and tasks in ``args``; collect
    the nested tasks. On the submit path, once per task: kept to plain loops."""
    for arg in args:
        cls = type(arg)
        if cls is Ref or cls is Task:
            key = arg.key
            source = str(key[0]) if type(key) is tuple and key else str(key)
            if source != group:
                edges.add((source, group))
            if cls is Task:
                nested.append(arg)
        elif cls is list or cls is tuple:
            _scan(group, arg, edges, nested)
        elif cls is dict:
            _scan(group, arg.values(), edges, nested)


class OperatorStats:
    """Per operator of one job: tasks total, done, running, failed, and seconds spent."""

    def __init__(self, graph: Mapping[Key, Task]) -> None:
        self._lock = threading.Lock()
        self._members: dict[Key, str | Counter[str]] = {}
        """Task key -> how many tasks of each group it runs (itself and nested ones), or
        just its group when it runs no nested task."""
        self.total: Counter[str] = Counter()
        self.done: Counter[str] = Counter()
        self.running: Counter[str] = Counter()
        self.seconds: dict[str, float] = {}
        self.failed: set[str] = set()
        self._running_keys: set[Key] = set()
        edges: set[tuple[str, str]] = set()
        total = self.total
        for key, task in graph.items():
            members = self._members[key] = _walk(task, edges)
            if isinstance(members, str):
                total[members] += 1
            else:
                total.update(members)
        self.edges = sorted(edges)
        self.order = list(total)

    def _add(self, counter: Counter[str], key: Key, sign: int = 1) -> None:
        members = self._members.get(key, group_of(key))
        if isinstance(members, str):
            counter[members] += sign
        else:
            for group, count in members.items():
                counter[group] += sign * count

    def started(self, key: Key) -> None:
        with self._lock:
            if key not in self._running_keys:
                self._running_keys.add(key)
                self._add(self.running, key)

    def stopped(self, key: Key) -> None:
        """``key`` no longer runs and did not finish (its worker died, it is retried)."""
        with self._lock:
            self._stop(key)

    def _stop(self, key: Key) -> None:
        if key in self._running_keys:
            self._running_keys.discard(key)
            self._add(self.running, key, -1)

    def finished(self, key: Key, seconds: Mapping[str, float] | float) -> None:
        """``key`` ran: ``seconds`` it took, per group when it ran nested tasks."""
        with self._lock:
            self._stop(key)
            self._add(self.done, key)
            if isinstance(seconds, Mapping):
                for group, spent in seconds.items():
                    self.seconds[group] = self.seconds.get(group, 0.0) + spent
            else:
                group = group_of(key)
                self.seconds[group] = self.seconds.get(group, 0.0) + seconds

    def failed_task(self, key: Key, nested: Key | None = None) -> None:
        with self._lock:
            self._stop(key)
            self.failed.add(group_of(nested if nested is not None else key))

    def ended(self) -> None:
        """The job is over: nothing of it runs any more, and its task table can go."""
        with self._lock:
            self._running_keys.clear()
            self.running.clear()
            self._members = {}

    def chunk_counts(self) -> tuple[int, int]:
        """Chunk tasks done and in all: each task of the submitted graph once, a fused
        task or a subgraph counting every chunk task it runs, once it finished."""
        with self._lock:
            done = sum(min(self.done[group], n) for group, n in self.total.items())
            return done, sum(self.total.values())

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            operators = [self._model(group) for group in self.order]
        return {"operators": operators, "edges": [list(e) for e in self.edges]}

    def _model(self, group: str) -> dict[str, Any]:
        op, step = describe(group)
        total, done, running = self.total[group], self.done[group], max(self.running[group], 0)
        return {
            "id": group,
            "op": op,
            "step": step,
            "total": total,
            "done": min(done, total),
            "running": running,
            "seconds": round(self.seconds.get(group, 0.0), 6),
            "state": _state(group in self.failed, done, total, running),
        }


def _state(failed: bool, done: int, total: int, running: int) -> str:
    if failed:
        return "failed"
    if done >= total:
        return "done"
    return "running" if running or done else "waiting"


def merge(snapshots: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One execution's operators from the snapshots of its stages, in order.

    An operator seen in several stages adds up; its state is the worst one running.
    """
    merged: dict[str, dict[str, Any]] = {}
    edges: dict[tuple[str, str], None] = {}
    for snap in snapshots:
        for op in snap["operators"]:
            seen = merged.get(op["id"])
            if seen is None:
                merged[op["id"]] = dict(op)
                continue
            for field in ("total", "done", "running", "seconds"):
                seen[field] += op[field]
            seen["seconds"] = round(seen["seconds"], 6)
            seen["state"] = _state(
                "failed" in (seen["state"], op["state"]),
                seen["done"],
                seen["total"],
                seen["running"],
            )
        for source, target in snap["edges"]:
            edges[(source, target)] = None
    known = [e for e in edges if e[0] in merged and e[1] in merged]
    return {"operators": list(merged.values()), "edges": [list(e) for e in known]}

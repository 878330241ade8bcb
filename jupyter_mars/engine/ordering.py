"""The order a stage's tasks are preferred in: depth first, a chunk's last reader right
after the chunk's other readers, and a chunk's readers right after it where they can all
run then.

A depth-first order from the outputs computes each output's inputs just before the
output needs them. With several outputs that read the same chunks (``x.sum()`` and
``x.mean(axis=0)`` in one ``execute``), the first output's walk computes every chunk of
``x`` and the second output's readers come only after all of them: every chunk of ``x``
is held at once. Moving a reader up to where its inputs are all computed, when it is
the last reader of one of them, lets that input go at once instead.

>>> from jupyter_mars.engine.graph import Ref, Task
>>> g = {
...     "x0": Task("x0", int), "x1": Task("x1", int),
...     "s0": Task("s0", int, (Ref("x0"),)), "s1": Task("s1", int, (Ref("x1"),)),
...     "m0": Task("m0", int, (Ref("x0"),)), "m1": Task("m1", int, (Ref("x1"),)),
...     "s": Task("s", int, (Ref("s0"), Ref("s1"))), "m": Task("m", int, (Ref("m0"), Ref("m1"))),
... }
>>> run_order(g, ["s", "m"])  # each x read by both reductions before the next is made
['x0', 's0', 'm0', 'x1', 's1', 's', 'm1', 'm']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jupyter_mars.engine.graph import Key, Task, toposort


def run_order(graph: Mapping[Key, Task], outputs: Sequence[Key]) -> list[Key]:
    """The keys of ``graph`` needed for ``outputs``, each after its dependencies."""
    depth_first = toposort(graph, outputs)
    readers: dict[Key, list[Key]] = {}
    waiting: dict[Key, int] = {}
    """Per key: dependencies not placed yet."""
    for key in depth_first:
        deps = [d for d in dict.fromkeys(graph[key].dependencies) if d in graph]
        waiting[key] = len(deps)
        for dep in deps:
            readers.setdefault(dep, []).append(key)
    unread = {key: len(found) for key, found in readers.items()}
    """Per key: readers not placed yet."""
    order: list[Key] = []
    placed: set[Key] = set()

    def place(first: Key) -> None:
        todo = [first]
        while todo:
            key = todo.pop()
            if key in placed:
                continue
            placed.add(key)
            order.append(key)
            mine = readers.get(key, ())
            for reader in mine:
                waiting[reader] -= 1
                if waiting[reader] == 0 and any(
                    unread.get(d) == 1 for d in graph[reader].dependencies
                ):
                    todo.append(reader)  # ready, and the last reader of an input
            for dep in dict.fromkeys(graph[key].dependencies):
                if dep not in unread:
                    continue
                unread[dep] -= 1
                if unread[dep] != 1:
                    continue
                # one reader left: run it now if it can run, and ``dep`` can go
                (last,) = [r for r in readers[dep] if r not in placed]
                if waiting[last] == 0:
                    todo.append(last)
            if mine and all(waiting[r] == 0 for r in mine):
                # every reader can run now: run them first (on top of the stack), and
                # ``key`` can go at once
                todo.extend(r for r in reversed(mine) if r not in placed)

    for key in depth_first:
        place(key)
    return order

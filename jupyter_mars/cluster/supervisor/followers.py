"""Followers: tasks a worker runs right after the one task they read, at no round trip.

A task that reads exactly one other task, and is that task's only reader in its graph,
would run on the worker holding its input anyway (placement follows the bytes). So the
supervisor sends it along with its input's task, and the worker runs both in a row: the
transposed blocks of a symmetric product, the last step of a reduction whose partial
result is an output too. The follower's result is then already there when the scheduler
core decides to run it.

>>> from jupyter_mars.engine.graph import Ref, Task
>>> g = {
...     "a": Task("a", int, (1,)),
...     "b": Task("b", abs, (Ref("a"),)),
...     "c": Task("c", max, (Ref("a"), Ref("b"))),
...     "d": Task("d", abs, (Ref("c"),)),
... }
>>> followers(g, known=set())
{'c': 'd'}
"""

from __future__ import annotations

from collections.abc import Collection

from jupyter_mars.engine.graph import Graph, Key, dependents


def followers(graph: Graph, known: Collection[Key]) -> dict[Key, Key]:
    """Task -> its follower: its only reader in ``graph``, which reads nothing else.

    ``known`` keys (the scheduler has them from another graph already) neither lead nor
    follow: their state is not this graph's to decide.
    """
    out: dict[Key, Key] = {}
    for key, reading in dependents(graph).items():
        if len(reading) != 1 or key not in graph or key in known:
            continue
        (follower,) = reading
        if follower not in known and len(graph[follower].dependencies) == 1:
            out[key] = follower
    return out

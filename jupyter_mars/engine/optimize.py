"""Graph optimisations that run before scheduling: fusion of single-consumer inputs.

A task whose result is read by exactly one other task, and which is not an output, can be
computed inline inside that consumer: the consumer's ``Ref`` to it is replaced by the task
itself. The intermediate result then never reaches the store, and one thread hand-off is
saved. This is done when the consumer reads only that input (a linear chain) or when the
consumer is blockwise (element-wise chains, per-chunk steps of reductions), because both
keep the number of tasks that can run in parallel. Fan-in consumers (tree-reduction
combines, concatenations) are not fused into, so their inputs still run in parallel.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from jupyter_mars.engine.graph import Graph, Key, Ref, Task, toposort


def _inline(arg: Any, key: Key, task: Task) -> Any:
    cls = type(arg)
    if cls is Ref:
        return task if arg.key == key else arg
    if cls is Task:
        return _replace_ref(arg, key, task)
    if cls is list:
        return [_inline(a, key, task) for a in arg]
    if cls is tuple:
        return tuple(_inline(a, key, task) for a in arg)
    if cls is dict:
        return {k: _inline(v, key, task) for k, v in arg.items()}
    return arg


def _replace_ref(consumer: Task, key: Key, producer: Task) -> Task:
    args = tuple([_inline(a, key, producer) for a in consumer.args])
    kwargs = (
        {k: _inline(v, key, producer) for k, v in consumer.kwargs.items()}
        if consumer.kwargs
        else None
    )
    deps = (consumer.dependencies - {key}) | producer.dependencies
    return Task(consumer.key, consumer.func, args, kwargs, consumer.blockwise, deps)


def fuse(graph: Graph, keep: Collection[Key], order: list[Key] | None = None) -> Graph:
    """Fuse single-consumer producers into their consumers; ``keep`` keys stay tasks.

    ``order`` is a topological order of ``graph`` when the caller has one already.
    """
    consumers: dict[Key, list[Key]] = {}
    for key, task in graph.items():
        for dep in task.dependencies:
            consumers.setdefault(dep, []).append(key)
    out = dict(graph)
    # producers before consumers, so a chain a -> b -> c becomes c(b(a)) step by step
    for key in toposort(graph) if order is None else order:
        readers = consumers.get(key)
        if key in keep or readers is None or len(readers) != 1:
            continue
        target = readers[0]
        consumer = out[target]
        if not (consumer.blockwise or len(consumer.dependencies) == 1):
            continue
        producer = out.pop(key)
        fused = _replace_ref(consumer, key, producer)
        out[target] = fused
        # the producer's own inputs are now read by the consumer instead
        for dep in producer.dependencies:
            readers_of_dep = consumers.get(dep)
            if readers_of_dep is not None:
                consumers[dep] = [target if r == key else r for r in readers_of_dep]
    return out

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

from collections.abc import Callable, Collection
from typing import Any, TypeVar

from jupyter_mars.engine.graph import Graph, Key, Ref, Task, toposort


def _inline(arg: Any, built: dict[Key, Task]) -> Any:
    cls = type(arg)
    if cls is Ref:
        return built.get(arg.key, arg)
    if cls is Task:
        return _substitute(arg, built)
    if cls is list:
        return [_inline(a, built) for a in arg]
    if cls is tuple:
        return tuple(_inline(a, built) for a in arg)
    if cls is dict:
        return {k: _inline(v, built) for k, v in arg.items()}
    return arg


def _substitute(consumer: Task, built: dict[Key, Task]) -> Task:
    """``consumer`` with its ``Ref`` to each key of ``built`` replaced by that task."""
    args = tuple([_inline(a, built) for a in consumer.args])
    kwargs = {k: _inline(v, built) for k, v in consumer.kwargs.items()} if consumer.kwargs else None
    deps = set(consumer.dependencies)
    # walk the smaller side: a reader of many keys may absorb few, and the other way round
    hits = [k for k in deps if k in built] if len(deps) < len(built) else list(built)
    for key in hits:
        if key in deps:
            deps.discard(key)
            deps.update(built[key].dependencies)
    return Task(
        consumer.key,
        consumer.func,
        args,
        kwargs,
        consumer.blockwise,
        frozenset(deps),
        consumer.device,  # inlined producers run where their reader does
    )


def fuse(graph: Graph, keep: Collection[Key], order: list[Key] | None = None) -> Graph:
    """Fuse single-consumer producers into their consumers; ``keep`` keys stay tasks.

    ``order`` is a topological order of ``graph`` when the caller has one already.
    """

    def parallel_kept(consumer: Key, producer: Key) -> bool:
        task = graph[consumer]
        return task.blockwise or len(task.dependencies) == 1

    return _inline_single_readers(graph, keep, parallel_kept, order)


_PINNED: set[Callable[..., Any]] = set()
F = TypeVar("F", bound=Callable[..., Any])


def pinned_to_input(func: F) -> F:
    """Mark a kernel whose tasks ``coarsen`` never inlines into their reader.

    For a task that takes a small piece of a large input (one part of a shuffle's split):
    kept as a task of its own, it runs where the input lies and only the piece travels.
    """
    _PINNED.add(func)
    return func


SUBGRAPHS_PER_CORE = 8
"""Subgraphs ``coarsen`` splits a graph into at least, per core, for load balance."""


MAX_NESTING = 32
"""Deepest a subgraph nests: a long chain of fan-in tasks (a scan, say) is cut into
several subgraphs, since running and pickling a nested task recurse once per level."""


def subgraph_cap(n_tasks: int, n_cores: int) -> int:
    """Largest subgraph (in tasks) for a graph of ``n_tasks`` run on ``n_cores`` cores.

    >>> subgraph_cap(13336, 2), subgraph_cap(10, 2), subgraph_cap(100, 0)
    (833, 1, 12)
    """
    return max(1, n_tasks // (SUBGRAPHS_PER_CORE * max(1, n_cores)))


def coarsen(
    graph: Graph,
    keep: Collection[Key],
    max_tasks: int,
    locate: Callable[[Key], tuple[str, int] | None] | None = None,
    max_held: int = 64 << 20,
) -> tuple[Graph, dict[Key, int]]:
    """Inline every single-reader task into its reader, up to ``max_tasks`` tasks a subgraph.

    For runtimes where each task costs a round trip: a cluster's supervisor spends a few
    hundred microseconds on every task it places (an RPC, pickling, the scheduler core),
    far more than a small chunk takes. Fan-in readers are inlined into too, unlike
    ``fuse``: the per-chunk steps of a reduction go with their combine subtree, the chunks
    of a panel with its concatenation. The worker that gets such a subgraph runs it
    depth-first in one slot, each intermediate freed as soon as its reader has it, and the
    supervisor's work scales with subgraphs, not chunks. The cap keeps enough subgraphs to
    occupy every core (``subgraph_cap``).

    ``locate`` says where each chunk computed before (read by ``graph``, not in it) is
    held, and its bytes. Subgraphs then read held chunks of one place only: a subgraph
    reading chunks of several workers would move all but one of them (64 MB each, say) to
    save an RPC, so the per-chunk steps of a reduction over a held tensor run where its
    chunks are, and only their small results travel. And they read at most ``max_held``
    bytes of them (or one chunk, if larger): a worker reads a subgraph's inputs before it
    runs it, so a subgraph over many held chunks would bring them all into memory at once,
    spilled ones included.

    Returns the coarse graph (a subgraph keeps the key of its root, the task whose result
    leaves it) and, for each of its keys, how many tasks of ``graph`` it stands for.

    >>> import operator
    >>> g = {
    ...     "a": Task("a", int, (1,)),
    ...     "b": Task("b", int, (2,)),
    ...     "c": Task("c", operator.add, (Ref("a"), Ref("b"))),
    ... }
    >>> coarse, weights = coarsen(g, keep={"c"}, max_tasks=3)
    >>> sorted(coarse), weights
    (['c'], {'c': 3})
    >>> coarsen(g, keep={"c"}, max_tasks=2)[1]
    {'b': 1, 'c': 2}
    >>> g = {
    ...     "a": Task("a", abs, (Ref("x"),)),
    ...     "b": Task("b", abs, (Ref("y"),)),
    ...     "c": Task("c", operator.add, (Ref("a"), Ref("b"))),
    ... }
    >>> coarsen(g, keep={"c"}, max_tasks=3, locate={"x": ("w1", 8), "y": ("w2", 8)}.get)[1]
    {'b': 1, 'c': 2}
    """
    weights = dict.fromkeys(graph, 1)
    depths: dict[Key, int] = {}
    """Key -> how deep its subgraph nests (running it recurses once per level)."""
    if max_tasks <= 1:
        return graph, weights
    shared_readers = _readers_of_shared(graph, keep)
    """Subgraphs that read a chunk other tasks read too, one not held anyway."""
    homes: dict[Key, tuple[object, int]] = {}
    """Key -> where the held chunks its subgraph reads are (None: it reads none, a place,
    or ``_SEVERAL``) and their bytes."""

    def home(key: Key) -> tuple[object, int]:
        if key not in homes:
            assert locate is not None
            held = [locate(dep) for dep in set(graph[key].dependencies) if dep not in graph]
            places = {h[0] for h in held if h is not None}
            where = places.pop() if len(places) == 1 else _SEVERAL if places else None
            homes[key] = (where, sum(h[1] for h in held if h is not None))
        return homes[key]

    def fits(consumer: Key, producer: Key) -> bool:
        if graph[producer].func in _PINNED:
            return False
        if weights[consumer] + weights[producer] > max_tasks:
            return False
        if depths.get(producer, 0) >= MAX_NESTING:
            return False
        if producer in shared_readers and len(graph[consumer].dependencies) > 1:
            # A fan-in subgraph waits for all its inputs: one that read shared chunks
            # (the per-chunk steps of two reductions of the same data) would keep every
            # such chunk in memory until the last of them is computed. Left a task of its
            # own, the step runs as soon as its chunk exists, which is then freed.
            return False
        if locate is not None:
            (here, held), (there, more) = home(consumer), home(producer)
            if here is not None and there is not None:
                if here != there or here is _SEVERAL or held + more > max_held:
                    return False
            homes[consumer] = (there if here is None else here, held + more)
            homes.pop(producer)
        weights[consumer] += weights.pop(producer)
        depths[consumer] = max(depths.get(consumer, 0), depths.pop(producer, 0) + 1)
        if producer in shared_readers:
            shared_readers.add(consumer)
        return True

    return _inline_single_readers(graph, keep, fits), weights


def _readers_of_shared(graph: Graph, keep: Collection[Key]) -> set[Key]:
    """The tasks reading a key that several tasks read and that is not in ``keep``."""
    counts: dict[Key, int] = {}
    for task in graph.values():
        for dep in task.dependencies:
            counts[dep] = counts.get(dep, 0) + 1
    shared = {k for k, n in counts.items() if n > 1 and k in graph and k not in keep}
    return {key for key, task in graph.items() if not shared.isdisjoint(task.dependencies)}


_SEVERAL = object()
"""A subgraph reads held chunks of several places."""


def _inline_single_readers(
    graph: Graph,
    keep: Collection[Key],
    accept: Callable[[Key, Key], bool],
    order: list[Key] | None = None,
) -> Graph:
    """Inline each producer read by one task only, when ``accept(reader, producer)`` and
    both run on the same kind of slot (``Task.device``).

    First decides, then builds each remaining task once with what it absorbed nested in
    it: rebuilding a reader at every step would cost quadratic time on large subgraphs.
    Each decision is constant work and each task is built once, so the whole costs time
    linear in the graph's size (its tasks, their arguments and dependencies) besides the
    topological sort.
    """
    readers: dict[Key, Key | None] = {}
    """Producer -> its only reader in ``graph``, or None when it has several."""
    for key, task in graph.items():
        for dep in task.dependencies:
            readers[dep] = key if dep not in readers else None
    absorbed: dict[Key, list[Key]] = {}
    """Task -> the producers inlined straight into it (it holds their ``Ref``)."""
    inlined: set[Key] = set()
    # Producers before readers, so a chain a -> b -> c becomes c(b(a)). A producer's
    # ``Ref`` stays in the task of its only reader, inlined or not, so that task absorbs
    # it; a reader is decided after its producers, so ``accept`` sees it still a task.
    for key in toposort(graph) if order is None else order:
        reader = readers.get(key)
        if reader is None or key in keep:
            continue
        if graph[reader].device != graph[key].device or not accept(reader, key):
            # a GPU task runs on a GPU slot and a CPU task on a CPU slot: never one inside
            # the other
            continue
        inlined.add(key)
        absorbed.setdefault(reader, []).append(key)

    def build(key: Key) -> Task:
        children = absorbed.get(key)
        if not children:
            return graph[key]
        return _substitute(graph[key], {child: build(child) for child in children})

    return {key: build(key) for key in graph if key not in inlined}

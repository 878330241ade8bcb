"""What the supervisor makes of a submitted chunk graph before the scheduler core sees it.

Coarsening (``optimize.coarsen``), the per-operator figures and the followers are pure
functions of the graph, the keys the core knows already and the cluster's cores. Their
cost grows with the graph (81,000 tasks for a sort of 200 chunks), so the runtime runs
them on a thread of its own: the event loop keeps answering heartbeats, RPCs and HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from jupyter_mars.cluster.supervisor.followers import followers
from jupyter_mars.engine.graph import Graph, Key
from jupyter_mars.engine.opstats import OperatorStats
from jupyter_mars.engine.optimize import coarsen, subgraph_cap

MAX_HELD_BYTES = 64 << 20
"""Bytes of held chunks one subgraph reads at most, or a quarter of the smallest worker
cache (``held_cap``), whichever is less."""


def held_cap(caches: Iterable[int | None]) -> int:
    """The bytes of held chunks a subgraph may read, for workers of these caches.

    >>> held_cap([2 << 30, 8 << 20]) == 2 << 20, held_cap([]) == MAX_HELD_BYTES
    (True, True)
    """
    known = [cache for cache in caches if cache]
    return min([MAX_HELD_BYTES, *(cache // 4 for cache in known)])


@dataclass(frozen=True)
class PlannedJob:
    graph: Graph
    """Subgraphs instead of chunk tasks (each keeps the key of the task it computes)."""
    weights: dict[Key, int]
    """Key -> how many chunk tasks of the submitted graph it stands for."""
    operators: OperatorStats
    followers: dict[Key, Key]


def plan_job(
    graph: Graph,
    outputs: Collection[Key],
    known: Collection[Key],
    n_cores: int,
    locate: Callable[[Key], tuple[str, int] | None] | None = None,
    max_held: int = MAX_HELD_BYTES,
) -> PlannedJob:
    """Coarsen ``graph`` for ``n_cores`` cores. A ``known`` key (another job's) stays a
    task of its own, since other tasks may read it, and neither leads nor follows.
    ``locate`` says which worker holds a chunk computed before, and its bytes: no
    subgraph reads chunks of two workers, nor more than ``max_held`` bytes of them."""
    cap = subgraph_cap(len(graph), n_cores)
    coarse, weights = coarsen(graph, {*outputs, *known}, cap, locate, max_held)
    return PlannedJob(coarse, weights, OperatorStats(coarse), followers(coarse, known))

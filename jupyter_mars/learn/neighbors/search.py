"""Brute-force neighbour search over pairs of chunks: the operator and its kernels.

A search compares each block of query rows with each block of fitted rows, one task per
pair: the task computes the block of distances (scikit-learn's ``pairwise_distances`` on
the two blocks) and keeps only what the search wants of it: the ``k`` nearest of the
fitted block for each query row (``n_neighbors``), or those within ``radius``. The pairs
of one query block are then merged, ``combine_size`` at a time by a tree, and a last task
per query block finishes the result. So no task ever holds more distances than one pair
of blocks does, and a merge holds only what the pairs kept.

Order and ties, as scikit-learn's brute force: neighbours come nearest first; of equal
distances the lower index comes first, and is the one kept when only some fit in ``k``
(each pair keeps its best in that order, and the merges take the pairs in index order).
Radius results list each row's neighbours in index order, or by distance with
``sort_results``. Euclidean searches rank squared distances and report their roots.

Excluding the query rows themselves (``kneighbors()`` without ``X``): a row's own index
is dropped from its ``k + 1`` nearest; where duplicates crowd it out, the nearest is
dropped instead, as scikit-learn does.

One search gives several results (distances, indices, a graph, counts), each a node of
its own ``part``; the tasks of the search are keyed by its ``token``, so executing the
parts together computes the search once.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse as sp
from sklearn.metrics import pairwise_distances

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import combine_tree
from jupyter_mars.learn.metrics.pairwise import BOOLEAN_METRICS
from jupyter_mars.learn.utils.blocks import whole_columns
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.selection import topk_chunk, topk_merge

PARTS = ("distances", "indices", "counts", "connectivity", "distance")
"""What a search node computes: neighbour distances and indices (a row each for ``k``;
flat, row after row, for a radius), neighbours per row (radius), or the graph with
entries 1 (``connectivity``) or distances (``distance``)."""


@dataclass(frozen=True, eq=False)
class Query:
    """What one search looks for."""

    metric: str | Callable[..., Any]
    """The effective metric (``'euclidean'`` ranks squared distances)."""
    params: dict[str, Any] = field(default_factory=dict)
    """The metric's keywords."""
    n_neighbors: int | None = None
    """How many nearest are searched (one more than reported with ``exclude_self``);
    None for all those within ``radius``."""
    radius: float | None = None
    exclude_self: bool = False
    """The query rows are the fitted rows: each row's own index is dropped."""
    sort_results: bool = False
    """Radius results sorted by distance in each row."""


@dataclass(frozen=True, eq=False)
class NeighborSearch(Op):
    """One result (``part``) of the search ``query`` shared under ``token``."""

    token: str
    query: Query
    part: str

    def label(self) -> str:
        return "kneighbors" if self.query.n_neighbors is not None else "radius_neighbors"


_TOKEN_PREFIX = os.urandom(4).hex()
_tokens = itertools.count()


def search(
    query_rows: Tensor, fitted: Tensor, query: Query, parts: tuple[str, ...]
) -> list[Tensor]:
    """The lazy results ``parts`` of searching ``fitted`` for the neighbours of each row
    of ``query_rows``, computed by one set of tasks when executed together."""
    name = "kneighbors" if query.n_neighbors is not None else "radius_neighbors"
    token = f"{name}-{_TOKEN_PREFIX}{next(_tokens):x}"
    rows, n_fit = query_rows.shape[0], fitted.shape[0]
    k = (query.n_neighbors or 0) - query.exclude_self
    results = []
    for part in parts:
        op = NeighborSearch(token, query, part)
        if part in ("connectivity", "distance"):
            results.append(
                new_tensor(op, [query_rows, fitted], (rows, n_fit), np.float64, sparse=True)
            )
        elif query.n_neighbors is not None:
            dtype = np.intp if part == "indices" else np.float64
            results.append(new_tensor(op, [query_rows, fitted], (rows, k), dtype))
        elif part == "counts":
            results.append(new_tensor(op, [query_rows, fitted], (rows,), np.intp))
        else:
            dtype = np.intp if part == "indices" else np.float64
            results.append(new_tensor(op, [query_rows, fitted], (math.nan,), dtype))
    return results


# ---- kernels ---------------------------------------------------------------------------------


def block_distances(q: np.ndarray, f: np.ndarray, start: int, query: Query) -> np.ndarray:
    """Distances between a block of query rows and a block of fitted rows (starting at
    fitted row ``start``); squared for the euclidean metric."""
    metric = query.metric
    if isinstance(metric, str) and metric == "precomputed":
        return np.asarray(q[:, start : start + f.shape[0]], dtype=np.float64)
    if isinstance(metric, str) and metric in BOOLEAN_METRICS:
        q, f = q.astype(bool), f.astype(bool)
    params = dict(query.params)
    if isinstance(metric, str) and metric == "euclidean":
        params["squared"] = True
    nan = isinstance(metric, str) and metric == "nan_euclidean"
    d = pairwise_distances(
        q, f, metric=metric, ensure_all_finite="allow-nan" if nan else True, **params
    )
    return np.asarray(d, dtype=np.float64)


def _reported(distances: np.ndarray, query: Query) -> np.ndarray:
    """Distances as reported: the roots of the squared euclidean ones."""
    return np.sqrt(distances) if query.metric == "euclidean" else distances


def nearest_pair(q: np.ndarray, f: np.ndarray, start: int, query: Query) -> tuple[Any, Any]:
    """The ``k`` nearest fitted rows of the block for each query row, nearest first:
    distances and global indices."""
    d = block_distances(q, f, start, query)
    assert query.n_neighbors is not None
    return topk_chunk(d, query.n_neighbors, 1, False, None, start)


def nearest_merge(query: Query, *parts: tuple[Any, Any]) -> tuple[Any, Any]:
    """The ``k`` nearest of the candidates of consecutive fitted blocks."""
    assert query.n_neighbors is not None
    return topk_merge(query.n_neighbors, 1, False, None, *parts)


def within_pair(q: np.ndarray, f: np.ndarray, start: int, query: Query) -> tuple[Any, Any, Any]:
    """The fitted rows of the block within the radius of each query row: counts per row,
    then the global indices and distances, row after row, in index order."""
    d = block_distances(q, f, start, query)
    assert query.radius is not None
    limit = query.radius**2 if query.metric == "euclidean" else query.radius
    rows, columns = np.nonzero(d <= limit)
    counts = np.bincount(rows, minlength=q.shape[0]).astype(np.intp)
    return counts, (columns + start).astype(np.intp), d[rows, columns]


def within_merge(query: Query, *parts: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """The neighbours of consecutive fitted blocks together, each row's in index order."""
    n = len(parts[0][0])
    rows = np.concatenate([np.repeat(np.arange(n), p[0]) for p in parts])
    order = np.argsort(rows, kind="stable")
    counts = np.sum([p[0] for p in parts], axis=0).astype(np.intp)
    indices = np.concatenate([p[1] for p in parts])[order]
    distances = np.concatenate([p[2] for p in parts])[order]
    return counts, indices, distances


def _graph(indptr: Any, indices: Any, data: Any, rows: int, n_fit: int) -> Any:
    return sp.csr_matrix((data, indices, indptr), shape=(rows, n_fit))


def finish_nearest(
    query: Query, part: str, first_row: int, n_fit: int, merged: tuple[Any, Any]
) -> Any:
    """A query block's ``part`` of a ``k`` nearest search."""
    distances, indices = merged
    rows, k = indices.shape
    if query.exclude_self:
        keep = indices != np.arange(first_row, first_row + rows)[:, None]
        # duplicates crowded the row itself out: drop the nearest instead
        keep[keep.all(axis=1), 0] = False
        k -= 1
        indices = indices[keep].reshape(rows, k)
        distances = distances[keep].reshape(rows, k)
    if part == "indices":
        return np.ascontiguousarray(indices, dtype=np.intp)
    distances = _reported(distances, query)
    if part == "distances":
        return np.ascontiguousarray(distances)
    data = np.ones(rows * k) if part == "connectivity" else distances.ravel()
    return _graph(np.arange(0, rows * k + 1, k), indices.ravel(), data, rows, n_fit)


def finish_within(
    query: Query, part: str, first_row: int, n_fit: int, merged: tuple[Any, Any, Any]
) -> Any:
    """A query block's ``part`` of a radius search."""
    counts, indices, distances = merged
    rows = len(counts)
    row_of = np.repeat(np.arange(rows), counts)
    if query.exclude_self:
        keep = indices != row_of + first_row
        row_of, indices, distances = row_of[keep], indices[keep], distances[keep]
        counts = np.bincount(row_of, minlength=rows).astype(np.intp)
    if query.sort_results:
        order = np.lexsort((distances, row_of))
        indices, distances = indices[order], distances[order]
    if part == "counts":
        return counts
    if part == "indices":
        return indices
    distances = _reported(distances, query)
    if part == "distances":
        return distances
    indptr = np.concatenate([[0], np.cumsum(counts)])
    data = np.ones(len(indices)) if part == "connectivity" else distances
    return _graph(indptr, indices, data, rows, n_fit)


# ---- tiling ----------------------------------------------------------------------------------


@tile_rule(NeighborSearch)
def _tile_search(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, NeighborSearch)
    query, token = op.query, op.token
    q_in, f_in = node.inputs
    ctx.require_known(*inputs)
    q = whole_columns(f"{token}-query", inputs[0], q_in.dtype, ctx)
    f = whole_columns(f"{token}-fitted", inputs[1], f_in.dtype, ctx)
    nearest = query.n_neighbors is not None
    pair, merge = (nearest_pair, nearest_merge) if nearest else (within_pair, within_merge)
    finish = finish_nearest if nearest else finish_within
    q_starts = offsets(q.nsplits[0])
    f_starts = offsets(f.nsplits[0])
    n_fit = int(sum(f.nsplits[0]))
    n_blocks = len(q.nsplits[0])
    graph_part = op.part in ("connectivity", "distance")
    flat = not nearest and op.part in ("indices", "distances")
    grid = key_grid(node.key, (n_blocks, 1) if nearest or graph_part else (n_blocks,))
    for i in range(n_blocks):
        pairs: list[Key] = []
        for j in range(len(f.nsplits[0])):
            key = (f"{token}-pair", i, j)
            ctx.new_task(
                key,
                functools.partial(pair, query=query),
                Ref(q.keys[i, 0]),
                Ref(f.keys[j, 0]),
                int(f_starts[j]),
            )
            pairs.append(key)
        pairs = combine_tree(ctx, token, pairs, options.combine_size, merge, (query,), (i,))
        merged: Key = pairs[0]
        if len(pairs) > 1:
            merged = (f"{token}-merged", i)
            ctx.new_task(merged, merge, query, *(Ref(p) for p in pairs))
        out = grid[(i, 0)] if grid.ndim == 2 else grid[i]
        ctx.new_task(out, finish, query, op.part, int(q_starts[i]), n_fit, Ref(merged))
    rows = q.nsplits[0]
    if graph_part:
        return Tiled((rows, (n_fit,)), grid)
    if nearest:
        return Tiled((rows, (node.shape[1],)), grid)
    if flat:
        return Tiled(((math.nan,) * n_blocks,), grid)
    return Tiled((rows,), grid)

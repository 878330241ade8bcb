"""Elkan's k-means: Lloyd's iterations, with per-row bounds that skip most distances.

Each row keeps an upper bound on the distance to its centre and a lower bound on the
distance to every centre, in one tensor of rows ``[label, upper, lower_0 ... lower_k-1]``
kept in the session from one iteration to the next (``map_rows`` gives each block of
rows its new bounds). An iteration first moves the bounds by how far each centre moved
(the upper bound grows by its centre's shift, each lower bound shrinks by that centre's),
then, for the rows whose upper bound exceeds half the distance from their centre to the
nearest other one, tries each other centre ``j`` that the bounds do not rule out
(``upper > lower_j`` and ``upper > d(c_label, c_j) / 2``): the exact distances computed
tighten the bounds, and a nearer centre takes the row. The labels are those Lloyd's
iterations give, as the bounds only skip centres that cannot be nearer.

Each block's kernel works centre by centre over the rows still in question, so its
NumPy work shrinks with the bounds.
"""

from __future__ import annotations

import functools

import numpy as np

from jupyter_mars.learn.cluster.lloyd import Totals, block_totals
from jupyter_mars.learn.cluster.samples import Samples
from jupyter_mars.learn.utils.blocks import map_rows, per_block
from jupyter_mars.learn.utils.chunks import without_history
from jupyter_mars.tensor.core import Tensor


def _distances(rows: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """Euclidean distances from each row to one centre, or to its own row of
    ``centers``, computed exactly as ``sqrt(sum((x - c)²))``."""
    gap = rows.astype(np.float64) - centers
    distances: np.ndarray = np.sqrt(np.einsum("ij,ij->i", gap, gap))
    return distances


def start_bounds(x: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """The bounds of a block of rows from their distances to every centre: each row's
    label is its nearest centre (the first of equal ones)."""
    distances = np.column_stack([_distances(x, c[None, :]) for c in centers])
    labels = np.argmin(distances, axis=1)
    upper = distances[np.arange(len(x)), labels]
    return np.column_stack([labels, upper, distances])


def update_bounds(
    x: np.ndarray,
    bounds: np.ndarray,
    centers: np.ndarray,
    half_gaps: np.ndarray,
    next_half_gap: np.ndarray,
    shift: np.ndarray,
) -> np.ndarray:
    """One Elkan assignment of a block of rows to ``centers``, which moved by ``shift``
    since ``bounds`` were found. ``half_gaps`` is half the distance between each pair of
    centres, ``next_half_gap`` its smallest for each centre and another."""
    labels = bounds[:, 0].astype(np.intp)
    upper = bounds[:, 1] + shift[labels]
    lower = np.maximum(bounds[:, 2:] - shift[None, :], 0.0)
    tight = np.zeros(len(x), dtype=bool)
    open_rows = np.flatnonzero(upper > next_half_gap[labels])
    for j in range(len(centers)):
        rows = open_rows[
            (labels[open_rows] != j)
            & (upper[open_rows] > lower[open_rows, j])
            & (upper[open_rows] > half_gaps[labels[open_rows], j])
        ]
        loose = rows[~tight[rows]]
        if len(loose):
            # the upper bound of these rows becomes their exact distance
            own = _distances(x[loose], centers[labels[loose]])
            upper[loose], lower[loose, labels[loose]], tight[loose] = own, own, True
            rows = rows[(upper[rows] > lower[rows, j]) & (upper[rows] > half_gaps[labels[rows], j])]
        if not len(rows):
            continue
        gaps = _distances(x[rows], centers[j][None, :])
        lower[rows, j] = gaps
        nearer = rows[gaps < upper[rows]]
        labels[nearer], upper[nearer] = j, lower[nearer, j]
    return np.column_stack([labels, upper, lower])


def bounds_totals(
    x: np.ndarray, bounds: np.ndarray, *rest: np.ndarray, n_clusters: int, weighted: bool
) -> Totals:
    """A block's ``Totals`` from its new bounds, its weights (if ``weighted``) and its
    previous bounds (if given after them)."""
    labels = bounds[:, 0].astype(np.intp)
    weights = rest[0] if weighted else None
    previous = rest[1 if weighted else 0] if len(rest) > int(weighted) else None
    sums, total = block_totals(x, labels, weights, n_clusters)
    changed = -1 if previous is None else int(np.count_nonzero(labels != previous[:, 0]))
    return Totals(sums, total, changed)


class ElkanAssignment:
    """The labels of each iteration by Elkan's bounds, kept between iterations."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples
        self.bounds: Tensor | None = None

    def step(self, centers: np.ndarray, shift: np.ndarray) -> tuple[Tensor, list[Tensor], Tensor]:
        """Lazy labels of the rows for ``centers`` (moved by ``shift`` since the last
        call), the tensors to compute and hold with them, and the blocks' ``Totals``."""
        k = len(centers)
        x = self.samples.x
        previous = self.bounds
        if previous is None:
            start = functools.partial(start_bounds, centers=centers)
            bounds = map_rows(start, x, trailing=(k + 2,), name="elkan_start")
        else:
            gaps = np.sqrt(((centers[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2))
            half_gaps = gaps.astype(np.float64) / 2
            next_half_gap = np.partition(half_gaps, 1, axis=0)[1]
            update = functools.partial(
                update_bounds,
                centers=centers,
                half_gaps=half_gaps,
                next_half_gap=next_half_gap,
                shift=shift.astype(np.float64),
            )
            bounds = map_rows(update, x, without_history(previous), trailing=(k + 2,), name="elkan")
        self.bounds = bounds
        labels: Tensor = bounds[:, 0].astype(np.int32)
        weights = self.samples.weights
        inputs = [x, bounds, *([weights] if weights is not None else [])]
        if previous is not None:
            inputs.append(without_history(previous))
        count = functools.partial(bounds_totals, n_clusters=k, weighted=weights is not None)
        totals = per_block(count, *inputs, name="elkan_totals")
        # the previous bounds are read (through their stand-in) until these are computed
        return labels, [bounds] if previous is None else [bounds, previous], totals

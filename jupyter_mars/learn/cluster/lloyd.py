"""Lloyd's iterations: one task per block of rows and iteration, which reads its rows once.

A compiled loop (``kernels.lloyd_rows``) scores every centre by ``||c||² - 2 x·c``
for each row, labels the row with its best centre (the first of equal ones, as
scikit-learn ranks them), and adds the row to its cluster's sums and its weight to the
cluster's weight. The block's result, a ``BlockState``, stays in the
session: the next iteration compares its labels with the new ones, and the run's labels
are read from the last one. The driver fetches only each block's ``Totals``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from jupyter_mars.learn.cluster import kernels
from jupyter_mars.learn.cluster.samples import Samples
from jupyter_mars.learn.utils.blocks import map_rows, per_block
from jupyter_mars.learn.utils.chunks import without_history
from jupyter_mars.tensor.core import Tensor

_NO_WEIGHTS = np.empty(0)
"""The weights the kernel is given where every row weighs 1."""


@dataclass(frozen=True)
class Totals:
    """What one block adds to an iteration: its clusters' sums and weights, and how
    many of its labels changed (-1 on a first iteration, with nothing to compare)."""

    sums: np.ndarray
    weights: np.ndarray
    changed: int


@dataclass(frozen=True)
class BlockState:
    """One block's labels and totals after an iteration."""

    labels: np.ndarray
    totals: Totals


def add_up(items: np.ndarray) -> Totals:
    """The totals of every block, added in block order."""
    totals = list(items)
    changed = sum(t.changed for t in totals)
    return Totals(
        functools.reduce(np.add, (t.sums for t in totals)),
        functools.reduce(np.add, (t.weights for t in totals)),
        -1 if any(t.changed < 0 for t in totals) else changed,
    )


def block_totals(
    x: np.ndarray, labels: np.ndarray, weights: np.ndarray | None, n_clusters: int
) -> tuple[np.ndarray, np.ndarray]:
    """The sums of the (weighted) rows of ``x`` per label, and the labels' weights."""
    member = (labels[:, None] == np.arange(n_clusters)[None, :]).astype(x.dtype)
    if weights is not None:
        member *= weights[:, None]
    return member.T @ x, member.sum(axis=0)


def assign_block(
    x: np.ndarray,
    *rest: object,
    centers: np.ndarray,
    weighted: bool,
    compare: bool,
) -> BlockState:
    """Lloyd's step over one block of rows: after ``x``, the block's weights (if
    ``weighted``) and its previous state (if ``compare``)."""
    weights = rest[0] if weighted else None
    previous = rest[-1] if compare else None
    assert weights is None or isinstance(weights, np.ndarray)
    assert previous is None or isinstance(previous, BlockState)
    k, dtype = len(centers), x.dtype
    labels = np.empty(len(x), dtype=np.int32)
    sums = np.zeros((k, x.shape[1]), dtype=dtype)
    total = np.zeros(k, dtype=dtype)
    kernels.lloyd_rows(
        x,
        np.asarray(centers, dtype=dtype),
        (centers * centers).sum(axis=1).astype(dtype),
        _NO_WEIGHTS.astype(dtype) if weights is None else weights,
        labels,
        sums,
        total,
    )
    changed = -1 if previous is None else int(np.count_nonzero(labels != previous.labels))
    return BlockState(labels, Totals(sums, total, changed))


def nearest_gaps(
    x: np.ndarray, norms: np.ndarray, points: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each row of a block: the index of its nearest point and the squared distance
    to it (``||x||² - 2 x·p + ||p||²``, at least 0). With no points, every row is
    infinitely far, at index 0."""
    points = np.asarray(points, dtype=x.dtype)
    if not len(points):
        return np.zeros(len(x), dtype=np.intp), np.full(len(x), np.inf, dtype=x.dtype)
    index = np.empty(len(x), dtype=np.intp)
    gaps = np.empty(len(x), dtype=x.dtype)
    kernels.nearest_rows(x, norms, points, (points * points).sum(axis=1), index, gaps)
    return index, gaps


def state_totals(x: np.ndarray, state: BlockState) -> Totals:
    return state.totals


def state_labels(x: np.ndarray, state: BlockState) -> np.ndarray:
    return state.labels


class LloydAssignment:
    """Each row's nearest centre, computed afresh, with its cluster's sums."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples
        self.state: Tensor | None = None

    def step(self, centers: np.ndarray, shift: np.ndarray) -> tuple[Tensor, list[Tensor], Tensor]:
        """Lazy labels for ``centers``, the tensors to compute and hold with them, and
        the blocks' ``Totals`` (a small object tensor)."""
        samples = self.samples
        previous = self.state
        inputs: list[Tensor] = [samples.x]
        if samples.weights is not None:
            inputs.append(samples.weights)
        if previous is not None:
            inputs.append(without_history(previous))
        kernel = functools.partial(
            assign_block,
            centers=centers,
            weighted=samples.weights is not None,
            compare=previous is not None,
        )
        paired = (len(inputs) - 1,) if previous is not None else ()
        state = per_block(kernel, *inputs, name="lloyd", paired=paired)
        self.state = state
        totals = per_block(state_totals, samples.x, state, name="lloyd_totals", paired=(1,))
        labels = map_rows(
            state_labels, samples.x, state, dtype=np.int32, name="lloyd_labels", paired=(1,)
        )
        # the previous states are read (through their stand-in) until these are computed
        return labels, [state] if previous is None else [state, previous], totals

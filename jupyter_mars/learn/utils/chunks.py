"""What the estimators need to know of a tensor's chunks and rows before they compute.

``chunk_lengths`` is the chunking tiling gives a tensor, found without running anything;
``tall_and_skinny`` and ``same_row_chunks`` rechunk by it (TSQR wants row chunks at least
as long as the matrix is wide; sums over two tensors chunked alike add the same rows in
the same order). ``with_known_rows`` computes a tensor whose length depends on its data
(rows a frame filtered, say) and ``row_count`` counts its rows lazily instead.
``without_history`` lets an iterative fit update a tensor kept from the iteration before
without holding on to every earlier one.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import Held
from jupyter_mars.engine.plan import tile_without_running
from jupyter_mars.executable import Session, default_cpus
from jupyter_mars.learn.utils.validation import execute_all
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "chunk_lengths",
    "row_count",
    "same_row_chunks",
    "tall_and_skinny",
    "with_known_rows",
    "without_history",
]


def chunk_lengths(t: Tensor) -> tuple[tuple[float, ...], ...] | None:
    """The lengths of ``t``'s chunks along each axis (its ``nsplits``) as tiling on the
    default session's cores gives them, without running anything; None where they depend
    on data not computed yet (or the tiling fails: the error then shows at execute)."""
    try:
        tiled = tile_without_running(t.node, default_cpus())
    except Exception:  # noqa: BLE001 - a question about layout never raises
        return None
    return None if tiled is None else tuple(tuple(axis) for axis in tiled.nsplits)


def tall_and_skinny(x: Tensor) -> Tensor:
    """``x`` with row chunks of at least ``n_features`` rows where it has more rows than
    that: TSQR (``mt.linalg.svd``) factors each row chunk on its own, and gathers the
    whole matrix into one chunk when the chunks are shorter than they are wide."""
    rows, cols = x.shape
    lengths = chunk_lengths(x)
    if lengths is None or rows <= cols or any(math.isnan(n) for n in lengths[0]):
        return x
    row_lengths = [int(n) for n in lengths[0]]
    if len(row_lengths) > 1 and min(row_lengths) < cols:
        rechunked: Tensor = x.rechunk({0: max(cols, max(row_lengths))})
        return rechunked
    return x


def same_row_chunks(t: Tensor, like: Tensor) -> Tensor:
    """``t`` cut into the row chunks of ``like`` (where both lengths are known), so that
    sums over both add the same samples in the same order: a count of ``y_true`` and the
    same count of ``y_pred`` then agree to the last bit."""
    if t.ndim == 0 or like.ndim == 0 or np.isnan(t.shape[0]) or t.shape[0] != like.shape[0]:
        return t
    lengths = chunk_lengths(like)
    if lengths is None:
        return t
    rechunked: Tensor = t.rechunk({0: lengths[0]})
    return rechunked


def with_known_rows(
    data: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> Any:
    """``data`` (a tensor or frame) with its number of rows known: one whose length
    depends on its data is executed first, and kept, on ``session``."""
    if math.isnan(data.shape[0]):
        execute_all(data, session=session, run_kwargs=run_kwargs)
    return data


def _ones(block: np.ndarray) -> np.ndarray:
    return np.ones(block.shape, dtype=np.int64)


def row_count(t: Tensor) -> Any:
    """The number of rows of ``t``: an int where known, else a lazy count (of its first
    column's items), to be computed with whatever else is wanted of ``t``."""
    n = t.shape[0]
    if not math.isnan(n):
        return int(n)
    first = t if t.ndim == 1 else t[:, 0]
    return mt.elemwise(_ones, first, dtype=np.int64, name="count_rows").sum()


def without_history(t: Tensor) -> Tensor:
    """A stand-in for the executed tensor ``t``: the same chunks, read where the
    session holds them, but none of the expressions ``t`` was computed from.

    An iteration that updates a tensor kept from the one before (Elkan's bounds, the
    distances of k-means++) builds on this stand-in, so each result does not keep every
    earlier one alive through its inputs; the session holds ``t``'s chunks while ``t``
    itself is referenced, which the caller does until the next result is computed.
    Fits that start each iteration from small arrays in the driver (L-BFGS's
    coefficients, label propagation's distributions) need none: they read the data they
    executed once (``execute_all``), and no iteration's result feeds the next graph."""
    node = copy.copy(t.node)  # same class, key, shape and dtype
    node.op, node.inputs = Held(), ()
    return Tensor(node)

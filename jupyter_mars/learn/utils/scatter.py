"""The mean and scatter matrix (``(x - mean)ᵀ (x - mean)``) of a tensor's rows, or the
mean and variance of its columns, in one pass over its row blocks.

Each block's task centres its rows on the block's own mean, a slice at a time, and adds
up the slices' products; the driver merges the blocks' counts, means and scatters by the
pairwise update of Chan, Golub and LeVeque (each block's mean offset from the overall
one adds ``n_b (m_b - m)(m_b - m)ᵀ``, or its diagonal for the variances). The data is
read by one task per block and never written out centred, and rows far from the origin
keep their precision, as centring them first does.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.blocks import per_block
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "block_moments",
    "block_scatter",
    "mean_and_scatter",
    "mean_and_variance",
    "merge_scatters",
]

SLICE_ROWS = 16384
"""Rows centred and multiplied at once."""

Scatter = tuple[int, np.ndarray, np.ndarray]
"""Rows, their mean, their scatter matrix (or only its diagonal: the columns' sums of
squared deviations)."""


def block_scatter(x: np.ndarray) -> Scatter:
    """The count, mean and scatter matrix of a block of rows."""
    n = len(x)
    mean = x.mean(axis=0) if n else np.zeros(x.shape[1], dtype=x.dtype)
    scatter = np.zeros((x.shape[1], x.shape[1]), dtype=x.dtype)
    for start in range(0, n, SLICE_ROWS):
        centred = x[start : start + SLICE_ROWS] - mean
        scatter += centred.T @ centred
    return n, mean, scatter


def block_moments(x: np.ndarray) -> Scatter:
    """The count, mean and sums of squared deviations of the columns of a block of rows."""
    n = len(x)
    mean = x.mean(axis=0) if n else np.zeros(x.shape[1], dtype=x.dtype)
    squares = np.zeros(x.shape[1], dtype=x.dtype)
    for start in range(0, n, SLICE_ROWS):
        centred = x[start : start + SLICE_ROWS] - mean
        squares += np.einsum("ij,ij->j", centred, centred)
    return n, mean, squares


def merge_scatters(blocks: list[Scatter]) -> Scatter:
    """The count, mean and scatter matrix (or its diagonal) of the blocks' rows
    together."""
    held = [b for b in blocks if b[0] > 0]
    if not held:
        return blocks[0]
    n = sum(b[0] for b in held)
    mean = functools.reduce(np.add, (b[1] * (b[0] / n) for b in held))
    scatter = functools.reduce(np.add, (b[2] for b in held))
    for count, block_mean, block in held:
        offset = block_mean - mean
        spread = np.outer(offset, offset) if block.ndim == 2 else offset * offset
        scatter = scatter + count * spread
    return n, mean.astype(held[0][1].dtype), scatter


def mean_and_scatter(
    x: Tensor, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The column means of the 2-d tensor ``x`` and its scatter matrix, computed."""
    (parts,) = fetch_all(
        per_block(block_scatter, x, name="scatter"), session=session, run_kwargs=run_kwargs
    )
    _, mean, scatter = merge_scatters(list(parts))
    return mean, scatter


def mean_and_variance(
    x: Tensor,
    keep: Sequence[Tensor] = (),
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The means and (population) variances of the columns of the 2-d tensor ``x``,
    computed; ``keep`` is computed in the same graph and held in the session."""
    (parts,) = fetch_all(
        per_block(block_moments, x, name="moments"),
        keep=keep,
        session=session,
        run_kwargs=run_kwargs,
    )
    n, mean, squares = merge_scatters(list(parts))
    return mean, squares / max(n, 1)

"""``histogramdd`` and ``histogram2d``, as NumPy computes them: each coordinate's bin
found by ``searchsorted`` in its edges (values on the last edge go to the last bin, those
outside to two outlier bins), the bins of a sample joined into one flat index by
``ravel_multi_index``, and the flat indices counted by ``histogram`` with one bin per
index (chunk by chunk, summed by a tree); the outlier bins are then cut off.

Edges are found at the call when the bins are arrays or a range is given; otherwise from
the data's lazy minimum and maximum per dimension.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import where
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.numpy_extras.index_builders import ravel_multi_index
from jupyter_mars.tensor.reduction import max as max_
from jupyter_mars.tensor.reduction import min as min_
from jupyter_mars.tensor.reduction import sum as sum_
from jupyter_mars.tensor.routines import diff
from jupyter_mars.tensor.shape import concatenate, reshape, stack
from jupyter_mars.tensor.sorting import searchsorted
from jupyter_mars.tensor.statistics import histogram
from jupyter_mars.tensor.ufuncs import equal  # type: ignore[attr-defined]


def _samples(sample: Any) -> Tensor:
    """The samples as an (N, D) tensor, as NumPy reads ``sample``."""
    if isinstance(sample, (list, tuple)):
        return stack([asarray(s) for s in sample], axis=1)
    t = asarray(sample)
    if t.ndim == 1:
        return reshape(t, (-1, 1)) if not math.isnan(t.shape[0]) else stack([t], axis=1)
    if t.ndim != 2:
        raise ValueError(f"histogramdd(): sample must be (N, D) or D sequences, got {t.ndim}-d")
    return t


def _outer_edges(column: Tensor, span: Any) -> tuple[Any, Any]:
    """The first and last edge: the range given, or the data's min and max (widened by
    0.5 each way when equal)."""
    if span is not None:
        first, last = span
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
        if first == last:
            return first - 0.5, last + 0.5
        return first, last
    first, last = min_(column), max_(column)
    same = equal(first, last)
    return where(same, first - 0.5, first), where(same, last + 0.5, last)


def _even_edges(first: Any, last: Any, count: int, dtype: np.dtype[Any]) -> Any:
    """NumPy's ``linspace(first, last, count + 1)``, lazily when the ends are tensors."""
    if not isinstance(first, Tensor) and not isinstance(last, Tensor):
        return np.linspace(first, last, count + 1, dtype=dtype)
    step = (last - first) / count
    inner = arange(count, dtype=dtype) * step + first
    return concatenate([inner, reshape(last, (1,)).astype(dtype)])


def _edges(samples: Tensor, bins: Any, range: Any) -> list[Any]:
    d = samples.shape[1]
    try:
        per_dim = len(bins)
        if per_dim != d:
            raise ValueError(
                "The dimension of bins must be equal to the dimension of the sample x."
            )
    except TypeError:
        bins = [bins] * d
    spans = [None] * d if range is None else list(range)
    if len(spans) != d:
        raise ValueError("range argument must have one entry per dimension")
    dtype = (
        np.result_type(samples.dtype, np.float64) if samples.dtype.kind in "iub" else samples.dtype
    )
    edges: list[Any] = []
    for i, (b, span) in enumerate(zip(bins, spans)):
        if np.ndim(b) == 0:
            if int(b) < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            first, last = _outer_edges(samples[:, i], span)
            edges.append(_even_edges(first, last, int(b), np.dtype(dtype)))
        elif np.ndim(b) == 1:
            given = b if isinstance(b, Tensor) else np.asarray(b)
            if not isinstance(given, Tensor) and (np.diff(given) < 0).any():
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(given)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    return edges


def histogramdd(
    sample: Any, bins: Any = 10, range: Any = None, density: Any = None, weights: Any = None
) -> tuple[Tensor, list[Any]]:
    """The multidimensional histogram of ``sample`` and the edges of each dimension."""
    samples = _samples(sample)
    d = int(samples.shape[1])
    edges = _edges(samples, bins, range)
    counts = [int(e.shape[0]) + 1 for e in edges]  # the bins plus an outlier bin each side
    indices = []
    for i, e in enumerate(edges):
        column = samples[:, i]
        index = searchsorted(e, column, side="right")
        on_last_edge = equal(column, e[-1])
        indices.append(where(on_last_edge, index - 1, index))
    flat = ravel_multi_index(indices, counts)
    total = math.prod(counts)
    hist, _ = histogram(flat, bins=total, range=(-0.5, total - 0.5), weights=weights)
    hist = reshape(hist.astype(float), tuple(counts))
    hist = hist[(slice(1, -1),) * d]
    if density:
        whole = sum_(hist)
        for i, e in enumerate(edges):
            widths = diff(asarray(e)).astype(float)
            shape = tuple(-1 if j == i else 1 for j, _ in enumerate(edges))
            hist = hist / reshape(widths, shape)
        hist = hist / whole
    return hist, [asarray(e) for e in edges]


def histogram2d(
    x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None, weights: Any = None
) -> tuple[Tensor, Tensor, Tensor]:
    """The 2-d histogram of the points ``(x, y)`` and the edges along ``x`` and ``y``."""
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        bins = [bins, bins]  # one array of edges for both
    hist, (xedges, yedges) = histogramdd([x, y], bins, range, density, weights)
    return hist, xedges, yedges


__all__ = ["histogram2d", "histogramdd"]

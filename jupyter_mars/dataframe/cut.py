"""``cut`` and ``qcut``: bin values into intervals, as pandas.

The bins must be known when the call returns, since the result's dtype (a categorical
whose categories are the intervals) depends on them. Given as edges, they are; otherwise
they come from the data and are computed now, in the default session, in parallel:

- ``cut(x, bins=n)``: the minimum and maximum of ``x`` (two tree reductions, run
  together); pandas then spreads ``n`` bins over that range exactly as for the whole.
- ``qcut(x, q)``: the quantiles of ``x``. The values without NaN are sorted by the
  parallel range-partitioned sort; only the few values at the ranks that the quantiles
  fall between are fetched, and each quantile is interpolated between its two
  neighbours as NumPy's ``quantile`` (linear) does, so the bins are pandas' bit for bit.

Then each chunk is binned by pandas with those edges, one task per chunk. ``labels=False``
gives integer codes, or floats when some value falls in no bin (NaN): that too depends on
the whole input, and is checked in the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe.filters  # noqa: F401 - Series.dropna
import jupyter_mars.dataframe.loc  # noqa: F401 - Series.iloc
import jupyter_mars.dataframe.reduction  # noqa: F401 - Series.min / max / any
import jupyter_mars.dataframe.sort  # noqa: F401 - Series.sort_values
from jupyter_mars.dataframe.core import DataFrame, Index, Series
from jupyter_mars.dataframe.datasource import from_tensor
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.session import execute
from jupyter_mars.tensor.core import Tensor

__all__ = ["cut", "qcut"]


def _as_vector(x: Any) -> Any:
    """``x`` as a lazy Series or Index; None when it is not lazy (pandas bins it)."""
    if isinstance(x, Tensor):
        if x.ndim != 1:
            raise ValueError("Input array must be 1 dimensional")
        return Series(from_tensor(x, "series", None, None, None, None, None))
    if isinstance(x, DataFrame):
        raise ValueError("Input array must be 1 dimensional")
    if isinstance(x, (Series, Index)):
        return x
    return None


def cut_chunk(chunk: Any, bins: Any, kwargs: dict[str, Any]) -> Any:
    out = pd.cut(chunk, bins, **kwargs)
    if isinstance(chunk, pd.Index):
        return pd.Index(out, name=chunk.name)
    return out


def _bin(x: Any, bins: Any, kwargs: dict[str, Any], retbins: bool, tensor: bool) -> Any:
    """Each chunk of ``x`` binned by pandas with the known ``bins``."""
    meta_out, edges = pd.cut(x.meta, bins, retbins=True, **kwargs)  # pandas' errors here
    if isinstance(x, Index):
        meta_out = pd.Index(meta_out, name=x.meta.name)
    codes = kwargs.get("labels") is False
    if codes:  # the dtype depends on whether some value falls outside the bins
        floats = {**kwargs, "labels": False}
        binned = map_chunks(
            cut_chunk, [x], (Slot(0), bins, floats), empty_like(meta_out.astype("float64")),
            name="cut",
        ).astype("float64")  # fmt: skip
        missing = binned.isna().any().execute()
        result = binned if missing.fetch() else binned.astype(np.dtype(np.intp))
        if tensor:
            result = result.to_tensor()
    else:
        result = map_chunks(
            cut_chunk, [x], (Slot(0), bins, kwargs), empty_like(meta_out), name="cut"
        )
    return (result, edges) if retbins else result


def _range_bins(x: Any, nbins: int, right: bool) -> Any:
    """pandas' ``nbins`` equal-width edges over the range of ``x``'s values."""
    low, high = x.min(), x.max()
    execute(low, high)
    ends = pd.Series([low.fetch(), high.fetch()], dtype=x.meta.dtype)
    _, edges = pd.cut(ends, nbins, right=right, retbins=True)
    return edges


def cut(
    x: Any,
    bins: Any,
    right: bool = True,
    labels: Any = None,
    retbins: bool = False,
    precision: int = 3,
    include_lowest: bool = False,
    duplicates: str = "raise",
    ordered: bool = True,
) -> Any:
    """``pandas.cut`` of a lazy Series, Index or 1-d tensor, or of in-memory values.

    A lazy Series gives a lazy Series, a lazy Index a lazy Index (pandas gives a
    Categorical for an Index or an array), a tensor a lazy Series (a tensor for
    ``labels=False``). With ``retbins``: ``(result, bins)``, the bins in memory.
    """
    kwargs: dict[str, Any] = dict(
        right=right, labels=labels, precision=precision, include_lowest=include_lowest,
        duplicates=duplicates, ordered=ordered,
    )  # fmt: skip
    vector = _as_vector(x)
    if vector is None:
        return pd.cut(x, bins, retbins=retbins, **kwargs)
    if pd.api.types.is_scalar(bins) and not isinstance(bins, pd.IntervalIndex):
        if not pd.api.types.is_integer(bins):
            raise TypeError(
                f"bins must be an int, a sequence of edges or an IntervalIndex, got {bins!r}"
            )
        if bins < 1:
            raise ValueError("`bins` should be a positive integer.")
        bins = _range_bins(vector, int(bins), right)
    return _bin(vector, bins, kwargs, retbins, isinstance(x, Tensor))


def _lerp(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], t: np.ndarray[Any, Any]) -> Any:
    """NumPy's linear interpolation between neighbours, the same operations in the same
    order (so the same rounding)."""
    diff = b - a
    out = np.add(a, diff * t)
    np.subtract(b, diff * (1 - t), out=out, where=t >= 0.5, casting="unsafe")
    return out


def sorted_quantiles(x: Any, quantiles: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """NumPy's (linear) quantiles of ``x``'s values without NaN, from a parallel sort and
    the values at the ranks around each quantile."""
    ordered = x.dropna().sort_values()
    ordered.execute()
    n = int(ordered.shape[0])
    if n == 0:
        return np.full(len(quantiles), np.nan)
    virtual = (n - 1) * np.asarray(quantiles, dtype=np.float64)
    before = np.floor(virtual)
    after = before + 1
    above = virtual >= n - 1
    before[above] = n - 1
    after[above] = n - 1
    below = virtual < 0
    before[below] = 0
    after[below] = 0
    ranks = np.unique(np.concatenate([before, after]).astype(np.intp))
    picked = ordered.iloc[list(ranks)].execute()
    values = np.asarray(picked.fetch())
    lookup = {int(r): i for i, r in enumerate(ranks)}
    a = values[[lookup[int(r)] for r in before]]
    b = values[[lookup[int(r)] for r in after]]
    gamma = np.asarray(virtual - before, dtype=np.result_type(values.dtype, np.float64))
    return np.asarray(_lerp(a, b, gamma))


def _quantile_points(q: Any) -> np.ndarray[Any, Any]:
    if pd.api.types.is_integer(q):
        if q < 1:
            raise ValueError("`q` should be a positive integer.")
        points = np.linspace(0, 1, q + 1)
        # as pandas: round up the points not representable in base 2
        np.putmask(points, q * points != np.arange(q + 1), np.nextafter(points, 1))
        return points
    if pd.api.types.is_list_like(q):
        return np.asarray(q, dtype=np.float64)
    raise ValueError("`q` should be a positive integer or list-like of quantiles.")


def qcut(
    x: Any,
    q: Any,
    labels: Any = None,
    retbins: bool = False,
    precision: int = 3,
    duplicates: str = "raise",
) -> Any:
    """``pandas.qcut``: bins of equal counts, from the quantiles of ``x`` computed in
    parallel (see the module docstring); results as ``cut``."""
    vector = _as_vector(x)
    if vector is None:
        return pd.qcut(
            x, q, labels=labels, retbins=retbins, precision=precision, duplicates=duplicates
        )
    points = _quantile_points(q)
    dtype = vector.meta.dtype
    if not (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)):
        raise NotImplementedError(f"qcut: only numeric values are supported, got {dtype}")
    bins = pd.Index(sorted_quantiles(vector, points))
    kwargs: dict[str, Any] = dict(
        labels=labels, precision=precision, include_lowest=True, duplicates=duplicates
    )
    return _bin(vector, bins, kwargs, retbins, isinstance(x, Tensor))

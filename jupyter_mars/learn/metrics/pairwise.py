"""Distances and kernels between rows, as scikit-learn's ``sklearn.metrics.pairwise``.

Every result is a lazy tensor chunked as the rows of ``X`` by the rows of ``Y``: block
``(i, j)`` holds the values for row chunk ``i`` of ``X`` and row chunk ``j`` of ``Y``, and
no task holds the whole matrix. How each is computed:

- ``euclidean_distances`` (with ``rbf_kernel`` and ``nan_euclidean_distances`` on top):
  ``||x||² - 2 x·y + ||y||²`` as scikit-learn computes it, ``mt.dot`` summing the
  products over the feature chunks; float32 inputs are computed in float64 and the result
  cast back, as scikit-learn does;
- ``cosine_similarity`` and ``cosine_distances``: dot products of rows scaled to unit
  length (a row of zeros stays zeros);
- ``manhattan_distances`` and SciPy's metrics: ``mt.spatial.distance.cdist``, one task per
  pair of blocks of rows;
- ``haversine_distances``: the formula on the two columns, broadcast row against row.

Where ``Y`` is None (or ``X`` itself) the diagonal of a distance is exactly 0, as
scikit-learn sets it. Inputs are checked at the call as ``check_pairwise_arrays`` checks
them; NaN and infinity in a tensor are found when it is computed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.exceptions import DataConversionWarning

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import ExecutableTuple
from jupyter_mars.learn.utils.validation import check_array, to_tensor
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.spatial.distance import cdist

__all__ = [
    "check_pairwise_arrays",
    "cosine_distances",
    "cosine_similarity",
    "euclidean_distances",
    "haversine_distances",
    "linear_kernel",
    "manhattan_distances",
    "nan_euclidean_distances",
    "pairwise_distances",
    "pairwise_distances_argmin",
    "pairwise_distances_argmin_min",
    "rbf_kernel",
]

SCIPY_METRICS = (
    "braycurtis",
    "canberra",
    "chebyshev",
    "correlation",
    "dice",
    "hamming",
    "jaccard",
    "mahalanobis",
    "matching",
    "minkowski",
    "rogerstanimoto",
    "russellrao",
    "seuclidean",
    "sokalsneath",
    "sqeuclidean",
    "yule",
    "wminkowski",
)
"""The metrics of SciPy's ``cdist`` that scikit-learn's ``pairwise_distances`` accepts."""
BOOLEAN_METRICS = ("dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule")
"""SciPy's metrics of booleans: their inputs are converted to bool first."""


# ---- input checks -----------------------------------------------------------------------------


def _dtype_of(data: Any) -> np.dtype[Any]:
    """The dtype ``data`` has as a tensor, found without copying it."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, FrameBase):
        return to_tensor(data).dtype
    dtype = np.asarray(data).dtype
    return np.dtype(np.float64) if dtype.kind == "O" else dtype


def check_pairwise_arrays(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any,  # noqa: N803
    *,
    precomputed: bool = False,
    dtype: Any = "infer_float",
    ensure_all_finite: bool | str = True,
    ensure_2d: bool = True,
) -> tuple[Tensor, Tensor]:
    """``X`` and ``Y`` as checked 2-d tensors of one float dtype (float32 where both are,
    float64 otherwise), with as many columns; ``Y`` None (or ``X`` itself) gives ``X``
    twice, the same tensor. ``precomputed``: ``X`` is a distance matrix to ``Y``'s rows."""
    same = Y is None or Y is X
    if isinstance(dtype, str) and dtype == "infer_float":
        kinds = {_dtype_of(X)} if same else {_dtype_of(X), _dtype_of(Y)}
        dtype = np.float32 if kinds == {np.dtype(np.float32)} else np.float64
    checks: dict[str, Any] = {
        "dtype": dtype,
        "ensure_all_finite": ensure_all_finite,
        "ensure_2d": ensure_2d,
    }
    x = check_array(X, input_name="X", **checks)
    y = x if same else check_array(Y, input_name="Y", **checks)
    if precomputed:
        if x.shape[1] != y.shape[0]:
            raise ValueError(
                "Precomputed metric requires shape (n_queries, n_indexed). Got "
                f"({x.shape[0]}, {x.shape[1]}) for {y.shape[0]} indexed."
            )
    elif ensure_2d and x.shape[1] != y.shape[1]:
        raise ValueError(
            "Incompatible dimension for X and Y matrices: "
            f"X.shape[1] == {x.shape[1]} while Y.shape[1] == {y.shape[1]}"
        )
    return x, y


def _given_norms(norms: Any, t: Tensor, name: str) -> Tensor | None:
    """``X_norm_squared`` as a column (``name`` X) or ``Y_norm_squared`` as a row, each
    accepted in either orientation or flat, as scikit-learn accepts them."""
    if norms is None:
        return None
    given = check_array(norms, ensure_2d=False, input_name=f"{name}_norm_squared")
    rows = t.shape[0]
    column = name == "X"
    shaped = given
    if given.shape == (rows,):
        shaped = given.reshape(-1, 1) if column else given.reshape(1, -1)
    elif given.shape == ((1, rows) if column else (rows, 1)):
        shaped = given.T
    if shaped.shape != ((rows, 1) if column else (1, rows)):
        raise ValueError(
            f"Incompatible dimensions for {name} of shape {tuple(t.shape)} and "
            f"{name}_norm_squared of shape {tuple(given.shape)}."
        )
    return shaped.astype(np.float64) if shaped.dtype != np.float64 else shaped


def _zero_diagonal(d: Tensor) -> Tensor:
    """``d`` with its diagonal set to exactly 0 (compared index by index, chunk by
    chunk: no diagonal matrix is built)."""
    rows = mt.arange(d.shape[0])[:, None]
    columns = mt.arange(d.shape[1])[None, :]
    zeroed: Tensor = mt.where(rows == columns, d.dtype.type(0), d)
    return zeroed


def _float64(t: Tensor) -> Tensor:
    return t if t.dtype == np.float64 else t.astype(np.float64)


# ---- distances --------------------------------------------------------------------------------


def euclidean_distances(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any = None,  # noqa: N803
    *,
    Y_norm_squared: Any = None,  # noqa: N803
    squared: bool = False,
    X_norm_squared: Any = None,  # noqa: N803
) -> Tensor:
    """Euclidean distances between the rows of ``X`` and ``Y`` (of ``X`` and itself when
    ``Y`` is None); their squares with ``squared``. Squared row norms, if given, are
    used rather than computed."""
    x, y = check_pairwise_arrays(X, Y)
    xx = _given_norms(X_norm_squared, x, "X")
    yy = None if y is x else _given_norms(Y_norm_squared, y, "Y")
    return euclidean(x, y, xx, yy, squared=squared)


def euclidean(
    x: Tensor,
    y: Tensor,
    xx: Tensor | None = None,
    yy: Tensor | None = None,
    *,
    squared: bool = False,
) -> Tensor:
    """``euclidean_distances`` of checked tensors (``y is x`` for the distances within
    ``x``), with their squared norms as a column and a row if known."""
    same = y is x
    x64 = _float64(x)
    y64 = x64 if same else _float64(y)
    if xx is None:
        xx = (x64 * x64).sum(axis=1)[:, None]
    if yy is None:
        yy = xx.T if same else (y64 * y64).sum(axis=1)[None, :]
    d: Tensor = mt.maximum(mt.dot(x64, y64.T) * -2 + xx + yy, 0.0)
    if same:
        d = _zero_diagonal(d)
    if not squared:
        d = mt.sqrt(d)
    return d if x.dtype == np.float64 else d.astype(x.dtype)


def _unit_rows(x: Tensor) -> Tensor:
    """The rows of ``x`` scaled to length 1; a row of zeros stays zeros."""
    norms = mt.sqrt((x * x).sum(axis=1))
    norms = mt.where(norms == 0, norms.dtype.type(1), norms)
    unit: Tensor = x / norms[:, None]
    return unit


def cosine_similarity(X: Any, Y: Any = None, dense_output: bool = True) -> Tensor:  # noqa: N803
    """Cosine similarity between the rows of ``X`` and ``Y``: the dot products of the
    rows scaled to unit length. ``dense_output`` is accepted (the inputs are dense)."""
    x, y = check_pairwise_arrays(X, Y)
    unit_x = _unit_rows(x)
    unit_y = unit_x if y is x else _unit_rows(y)
    similarity: Tensor = mt.dot(unit_x, unit_y.T)
    return similarity


def cosine_distances(X: Any, Y: Any = None) -> Tensor:  # noqa: N803
    """One minus the cosine similarity, clipped to ``[0, 2]``."""
    x, y = check_pairwise_arrays(X, Y)
    unit_x = _unit_rows(x)
    unit_y = unit_x if y is x else _unit_rows(y)
    d: Tensor = mt.clip(mt.subtract(1, mt.dot(unit_x, unit_y.T)), 0.0, 2.0)
    return _zero_diagonal(d) if y is x else d


def manhattan_distances(X: Any, Y: Any = None) -> Tensor:  # noqa: N803
    """L1 distances between the rows of ``X`` and ``Y`` (SciPy's ``cityblock``, one task
    per pair of blocks of rows)."""
    x, y = check_pairwise_arrays(X, Y)
    return cdist(x, y, "cityblock")


def haversine_distances(X: Any, Y: Any = None) -> Tensor:  # noqa: N803
    """Great-circle distances, in radians, between points given as (latitude,
    longitude) in radians."""
    x, y = check_pairwise_arrays(X, Y)
    if x.shape[1] != 2 or y.shape[1] != 2:
        raise ValueError("Haversine distance only valid in 2 dimensions")
    lat_x, lon_x = x[:, 0][:, None], x[:, 1][:, None]
    lat_y, lon_y = y[:, 0][None, :], y[:, 1][None, :]
    half = mt.sin(0.5 * (lat_x - lat_y)) ** 2 + mt.cos(lat_x) * mt.cos(lat_y) * (
        mt.sin(0.5 * (lon_x - lon_y)) ** 2
    )
    angle: Tensor = mt.arcsin(mt.sqrt(half)) * 2
    return angle


def nan_euclidean_distances(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any = None,  # noqa: N803
    *,
    squared: bool = False,
    missing_values: Any = np.nan,
    copy: bool = True,
) -> Tensor:
    """Euclidean distances that skip the coordinates missing in either row, scaled up
    by the share of coordinates present (scikit-learn's ``nan_euclidean_distances``);
    NaN for a pair of rows with no coordinate present in both."""
    x, y = check_pairwise_arrays(X, Y, ensure_all_finite="allow-nan")
    same = y is x

    def missing(t: Tensor) -> Tensor:
        found: Tensor = mt.isnan(t) if missing_values != missing_values else t == missing_values
        return found

    missing_x = missing(x)
    missing_y = missing_x if same else missing(y)
    x0 = mt.where(missing_x, x.dtype.type(0), x)
    y0 = x0 if same else mt.where(missing_y, y.dtype.type(0), y)
    d = euclidean(x0, y0, squared=True)
    d = d - mt.dot(x0 * x0, missing_y.T.astype(d.dtype))
    d = d - mt.dot(missing_x.astype(d.dtype), (y0 * y0).T)
    d = mt.maximum(d, d.dtype.type(0))
    if same:
        d = _zero_diagonal(d)
    present_x = mt.logical_not(missing_x).astype(d.dtype)
    present_y = present_x if same else mt.logical_not(missing_y).astype(d.dtype)
    present = mt.dot(present_x, present_y.T)
    scaled = mt.where(mt.equal(present, 0), np.nan, d / mt.maximum(present, 1) * x.shape[1])
    result: Tensor = scaled if squared else mt.sqrt(scaled)
    return result


# ---- kernels -----------------------------------------------------------------------------------


def linear_kernel(X: Any, Y: Any = None, dense_output: bool = True) -> Tensor:  # noqa: N803
    """Dot products between the rows of ``X`` and ``Y``."""
    x, y = check_pairwise_arrays(X, Y)
    products: Tensor = mt.dot(x, y.T)
    return products


def rbf_kernel(X: Any, Y: Any = None, gamma: float | None = None) -> Tensor:  # noqa: N803
    """``exp(-gamma ||x - y||²)``; ``gamma`` defaults to ``1 / n_features``."""
    x, y = check_pairwise_arrays(X, Y)
    if gamma is None:
        gamma = 1.0 / x.shape[1]
    kernel: Tensor = mt.exp(euclidean(x, y, squared=True) * -gamma)
    return kernel


# ---- any metric -------------------------------------------------------------------------------

_OWN: dict[str, Callable[..., Tensor]] = {
    "cityblock": manhattan_distances,
    "cosine": cosine_distances,
    "euclidean": euclidean_distances,
    "haversine": haversine_distances,
    "l2": euclidean_distances,
    "l1": manhattan_distances,
    "manhattan": manhattan_distances,
    "nan_euclidean": nan_euclidean_distances,
}
"""scikit-learn's own distance functions, by the names ``pairwise_distances`` takes."""


def _scipy_distances(X: Any, Y: Any, metric: str, ensure_all_finite: Any, kwds: Any) -> Tensor:
    boolean = metric in BOOLEAN_METRICS
    if boolean and (_dtype_of(X) != np.bool_ or (Y is not None and _dtype_of(Y) != np.bool_)):
        warnings.warn(
            f"Data was converted to boolean for metric {metric}",
            DataConversionWarning,
            stacklevel=3,
        )
    x, y = check_pairwise_arrays(
        X, Y, dtype=bool if boolean else "infer_float", ensure_all_finite=ensure_all_finite
    )
    same = y is x
    kwds = dict(kwds)
    for name, needed in (("V", "seuclidean"), ("VI", "mahalanobis")):
        if metric != needed or name in kwds:
            continue
        if not same:
            raise ValueError(
                f"The '{name}' parameter is required for the {metric} metric when Y is passed."
            )
        as_float = _float64(x)
        kwds[name] = (
            mt.var(as_float, axis=0, ddof=1) if name == "V" else mt.linalg.inv(mt.cov(as_float.T)).T
        )
    d = cdist(x, y, metric, **kwds)
    return _zero_diagonal(d) if same else d


def pairwise_distances(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any = None,  # noqa: N803
    metric: str | Callable[..., Any] = "euclidean",
    *,
    n_jobs: int | None = None,
    ensure_all_finite: bool | str = True,
    **kwds: Any,
) -> Tensor:
    """Distances between the rows of ``X`` and ``Y`` (of ``X`` and itself when ``Y`` is
    None) by any metric scikit-learn's ``pairwise_distances`` takes: its own (above),
    SciPy's (through ``cdist``), a callable called on each pair of rows, or
    ``'precomputed'`` (``X`` is already the distances, checked non-negative when it is
    computed). ``kwds`` go to the metric; ``n_jobs`` is accepted and unused (the chunks
    run in parallel on the session's runtime)."""
    if isinstance(metric, str) and metric == "precomputed":
        x, _ = check_pairwise_arrays(X, Y, precomputed=True, ensure_all_finite=ensure_all_finite)
        return mt.elemwise(_non_negative, x, dtype=x.dtype, name="check_non_negative")
    if isinstance(metric, str) and metric in _OWN:
        return _OWN[metric](X, Y, **kwds)
    if callable(metric):
        x, y = check_pairwise_arrays(X, Y, dtype=None, ensure_all_finite=ensure_all_finite)
        return cdist(x, y, metric, **kwds)
    if isinstance(metric, str) and metric in SCIPY_METRICS:
        return _scipy_distances(X, Y, metric, ensure_all_finite, kwds)
    valid = sorted([*_OWN, *SCIPY_METRICS])
    raise ValueError(
        f"Unknown metric {metric}. Valid metrics are {valid}, or 'precomputed', or a callable"
    )


def _non_negative(block: np.ndarray) -> np.ndarray:
    """The block itself, or scikit-learn's error for a negative precomputed distance."""
    if block.size and np.nanmin(block) < 0:
        raise ValueError(
            "Negative values in data passed to `pairwise_distances`. Precomputed distance "
            " need to have non-negative values."
        )
    return block


def pairwise_distances_argmin_min(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any,  # noqa: N803
    *,
    axis: int = 1,
    metric: str | Callable[..., Any] = "euclidean",
    metric_kwargs: dict[str, Any] | None = None,
) -> ExecutableTuple:
    """For each row of ``X`` (``axis=1``; of ``Y`` with ``axis=0``), the index of the
    closest row of the other and the distance to it: two lazy 1-d tensors, reduced over
    the chunks of the distances (the first of equal distances wins)."""
    if axis not in (0, 1):
        raise ValueError(f"The 'axis' parameter must be 0 or 1. Got {axis!r} instead.")
    if axis == 0:
        X, Y = Y, X  # noqa: N806
    d = pairwise_distances(X, Y, metric=metric, **(metric_kwargs or {}))
    return ExecutableTuple((mt.argmin(d, axis=1), mt.min(d, axis=1)))


def pairwise_distances_argmin(
    X: Any,  # noqa: N803 - scikit-learn's names
    Y: Any,  # noqa: N803
    *,
    axis: int = 1,
    metric: str | Callable[..., Any] = "euclidean",
    metric_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The index part of ``pairwise_distances_argmin_min``."""
    indices: Tensor = pairwise_distances_argmin_min(
        X, Y, axis=axis, metric=metric, metric_kwargs=metric_kwargs
    )[0]
    return indices

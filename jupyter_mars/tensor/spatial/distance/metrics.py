"""The metrics ``cdist`` and ``pdist`` know, the keywords each takes, and their checks.

One table serves every metric: its canonical name, its aliases and the keywords SciPy
accepts for it. The checks that need only shapes run here, at the user's call; those that
need the data (negative weights, say) are SciPy's own, in the chunk kernels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg import inv
from jupyter_mars.tensor.reduction import var
from jupyter_mars.tensor.statistics import cov

_WEIGHTED = frozenset({"w"})


@dataclass(frozen=True)
class Metric:
    name: str
    aliases: frozenset[str]
    keywords: frozenset[str] = _WEIGHTED


def _metric(name: str, *aliases: str, keywords: frozenset[str] = _WEIGHTED) -> Metric:
    return Metric(name, frozenset({name, *aliases}), keywords)


METRICS = [
    _metric("braycurtis"),
    _metric("canberra"),
    _metric("chebyshev", "chebychev", "cheby", "cheb", "ch"),
    _metric("cityblock", "cblock", "cb", "c"),
    _metric("correlation", "co"),
    _metric("cosine", "cos"),
    _metric("dice"),
    _metric("euclidean", "euclid", "eu", "e"),
    _metric("hamming", "matching", "hamm", "ha", "h"),
    _metric("jaccard", "jacc", "ja", "j"),
    _metric("jensenshannon", "js", keywords=frozenset()),
    _metric("mahalanobis", "mahal", "mah", keywords=frozenset({"VI"})),
    # Mars's "wminkowski" is SciPy's minkowski with weights (SciPy removed the name)
    _metric("minkowski", "mi", "m", "pnorm", "wminkowski", keywords=frozenset({"p", "w"})),
    _metric("rogerstanimoto"),
    _metric("russellrao"),
    _metric("seuclidean", "se", "s", keywords=frozenset({"V"})),
    _metric("sokalsneath"),
    _metric("sqeuclidean", "sqe", "sqeuclid"),
    _metric("yule"),
]
_BY_ALIAS = {alias: m for m in METRICS for alias in m.aliases}

ARRAY_KEYWORDS = ("w", "V", "VI")
"""Keywords whose values are arrays: they become inputs of the distance operator."""


def resolve_metric(metric: Any) -> str | Callable[..., Any]:
    """The canonical name of a metric string, or the callable itself."""
    if callable(metric):
        return metric  # type: ignore[no-any-return]
    if isinstance(metric, bytes):
        metric = metric.decode()
    if not isinstance(metric, str):
        raise TypeError("2nd argument metric must be a string identifier or a function.")
    found = _BY_ALIAS.get(metric.lower())
    if found is None:
        raise ValueError(f"Unknown Distance Metric: {metric.lower()}")
    return found.name


def check_keywords(metric: str | Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """SciPy's TypeError for a keyword the metric does not take (a callable takes any)."""
    if callable(metric):
        return
    allowed = _BY_ALIAS[metric].keywords
    for name in kwargs:
        if name not in allowed:
            raise TypeError(f"{metric}() got an unexpected keyword argument '{name}'")
    if metric == "minkowski" and "p" in kwargs and kwargs["p"] <= 0:
        raise ValueError("p must be greater than 0")


def array_keywords(
    metric: str | Callable[..., Any], kwargs: dict[str, Any], n_features: int
) -> dict[str, Tensor]:
    """The array keywords as tensors, their shapes checked as SciPy checks them."""
    arrays: dict[str, Tensor] = {}
    for name in ARRAY_KEYWORDS:
        if name not in kwargs or kwargs[name] is None:
            continue
        value = astensor(kwargs[name])
        if callable(metric):
            arrays[name] = value
            continue
        if name == "w" and (value.ndim != 1 or value.shape[0] != n_features):
            size = value.shape[0] if value.ndim else value.size
            raise ValueError(
                f"Weights must have same size as input vector. {size} vs. {n_features}."
            )
        if name == "V":
            if value.ndim != 1:
                raise ValueError("Variance vector V must be one-dimensional.")
            if value.shape[0] != n_features:
                raise ValueError(
                    "Variance vector V must be of the same dimension as the vectors on "
                    "which the distances are computed."
                )
        arrays[name] = value.astype(np.float64) if name != "w" else value
    return arrays


def default_arrays(
    metric: str | Callable[..., Any], observations: Callable[[], Tensor]
) -> dict[str, Tensor]:
    """``V`` (seuclidean) or ``VI`` (mahalanobis) that SciPy derives from all the
    ``observations()`` when they are not given, computed lazily over their chunks."""
    if metric not in ("seuclidean", "mahalanobis"):
        return {}
    data = observations()
    n_obs, n_features = data.shape
    as_float = data.astype(np.float64)
    if metric == "seuclidean":
        return {"V": var(as_float, axis=0, ddof=1)}
    if metric == "mahalanobis":
        # a number of rows unknown until executed is checked by the inverse itself
        if not math.isnan(n_obs) and n_obs <= n_features:
            raise ValueError(
                f"The number of observations ({n_obs}) is too small; the covariance matrix "
                f"is singular. For observations with {n_features} dimensions, at least "
                f"{n_features + 1} observations are required."
            )
        covariance = cov(as_float.T)
        if covariance.ndim < 2:
            covariance = covariance.reshape(1, 1)
        return {"VI": inv(covariance).T}
    return {}

"""``NearestNeighbors``: scikit-learn's unsupervised neighbour searches, by brute force
over pairs of chunks (``search.py``).

``fit`` checks and computes the data and keeps it, chunked, in the session (as
``_fit_X``); every search then reads its chunks. ``kneighbors`` and the graphs are lazy
tensors; ``radius_neighbors`` gives NumPy arrays of arrays, as scikit-learn does, since a
tensor holds no arrays of varying length: it computes the search at the call.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.neighbors import VALID_METRICS
from sklearn.utils import check_scalar

from jupyter_mars.executable import ExecutableTuple, Session
from jupyter_mars.learn.neighbors.search import Query, search
from jupyter_mars.learn.utils.blocks import as_object
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    execute_all,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

ALGORITHMS = ("auto", "ball_tree", "kd_tree", "brute")
"""scikit-learn's choices; every one searches by brute force here, with the same results."""
GRAPH_MODES = ("connectivity", "distance")


def _effective_metric(
    metric: str | Callable[..., Any], p: float | None, metric_params: dict[str, Any] | None
) -> tuple[str | Callable[..., Any], dict[str, Any]]:
    """The metric as searched and its keywords: Minkowski's ``p`` of 1, 2 and infinity
    without weights is the manhattan, euclidean and chebyshev metric."""
    params = dict(metric_params or {})
    if not (isinstance(metric, str) and metric == "minkowski"):
        return metric, params
    power = params.pop("p", p)
    weights = params.pop("w", None)
    if weights is None:
        named = {1: "manhattan", 2: "euclidean", np.inf: "chebyshev"}.get(power)
        if named is not None:
            return named, params
    return "minkowski", {**params, "p": power, "w": weights}


class NearestNeighbors(BaseEstimator):  # type: ignore[misc]
    """Unsupervised learner of neighbour searches, as scikit-learn's
    ``NearestNeighbors``; see the module docstring for how it computes.

    ``algorithm`` and ``leaf_size`` are checked and kept; the search is always brute
    force (``_fit_method`` is ``'brute'``), whose results the trees would give too.
    ``n_jobs`` is accepted and unused: the chunks run in parallel on the session's
    runtime.
    """

    def __init__(
        self,
        *,
        n_neighbors: int = 5,
        radius: float = 1.0,
        algorithm: str = "auto",
        leaf_size: int = 30,
        metric: str | Callable[..., Any] = "minkowski",
        p: float = 2,
        metric_params: dict[str, Any] | None = None,
        n_jobs: int | None = None,
    ) -> None:
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    # ---- fitting --------------------------------------------------------------------------

    def _check_params(self) -> None:
        if self.n_neighbors is not None:
            check_scalar(self.n_neighbors, "n_neighbors", numbers.Integral, min_val=1)
        if self.radius is not None:
            check_scalar(self.radius, "radius", numbers.Real, min_val=0)
        if self.algorithm not in ALGORITHMS:
            raise ValueError(
                f"The 'algorithm' parameter of {type(self).__name__} must be one of "
                f"{ALGORITHMS}. Got {self.algorithm!r} instead."
            )
        check_scalar(self.leaf_size, "leaf_size", numbers.Integral, min_val=1)
        if self.p is not None:
            check_scalar(self.p, "p", numbers.Real, min_val=0, include_boundaries="neither")
        if self.metric_params is not None and not isinstance(self.metric_params, dict):
            raise ValueError(
                f"The 'metric_params' parameter of {type(self).__name__} must be a dict or "
                f"None. Got {self.metric_params!r} instead."
            )
        if not callable(self.metric) and self.metric not in VALID_METRICS["brute"]:
            raise ValueError(
                f"Metric '{self.metric}' not valid. Use sorted(sklearn.neighbors."
                "VALID_METRICS['brute']) to get valid options. Metric can also be a "
                "callable function."
            )
        if self.metric_params and "p" in self.metric_params and self.p is not None:
            warnings.warn(
                "Parameter p is found in metric_params. The corresponding parameter from "
                "__init__ is ignored.",
                SyntaxWarning,
                stacklevel=3,
            )

    def _finite(self) -> bool | str:
        return "allow-nan" if self.metric == "nan_euclidean" else True

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's names
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> NearestNeighbors:
        """Check ``X``, compute it on the session's runtime and keep it for the
        searches; ``y`` is ignored."""
        self._check_params()
        x = check_array(X, ensure_all_finite=self._finite(), input_name="X")
        if self.metric == "precomputed" and x.shape[0] != x.shape[1]:
            raise ValueError(
                f"Precomputed matrix must be square. Input is a {x.shape[0]}x{x.shape[1]} matrix."
            )
        metric, params = _effective_metric(self.metric, self.p, self.metric_params)
        if metric in ("seuclidean", "mahalanobis") and not ({"V", "VI"} & set(params)):
            name = "V" if metric == "seuclidean" else "VI"
            raise ValueError(f"The {metric} metric needs {name} in metric_params.")
        execute_all(x, session=session, run_kwargs=run_kwargs)
        if x.shape[0] == 0:
            raise ValueError("n_samples must be greater than 0")
        self._fit_X = x
        self.n_samples_fit_ = int(x.shape[0])
        record_features(self, X, x)
        self.effective_metric_ = metric
        self.effective_metric_params_ = params
        self._fit_method = "brute"
        return self

    # ---- searches -------------------------------------------------------------------------

    def _queries(self, X: Any) -> Tensor | None:  # noqa: N803
        """``X`` checked as the fitted data was, or None for the fitted rows themselves."""
        check_is_fitted(self)
        if X is None:
            return None
        x = check_array(X, ensure_all_finite=self._finite(), input_name="X")
        if self.metric == "precomputed":
            if x.shape[1] != self.n_samples_fit_:
                raise ValueError(
                    "Precomputed metric requires shape (n_queries, n_indexed). Got "
                    f"({x.shape[0]}, {x.shape[1]}) for {self.n_samples_fit_} indexed."
                )
        else:
            check_features(self, X, x)
        return x

    def _query(self, **kwargs: Any) -> Query:
        return Query(self.effective_metric_, self.effective_metric_params_, **kwargs)

    def _nearest(self, X: Any, n_neighbors: Any, parts: tuple[str, ...]) -> list[Tensor]:  # noqa: N803
        x = self._queries(X)
        if n_neighbors is None:
            n_neighbors = self.n_neighbors
        elif not isinstance(n_neighbors, numbers.Integral):
            raise TypeError(
                f"n_neighbors does not take {type(n_neighbors)} value, enter integer value"
            )
        elif n_neighbors <= 0:
            raise ValueError(f"Expected n_neighbors > 0. Got {n_neighbors}")
        n_fit = self.n_samples_fit_
        searched = n_neighbors + (x is None)
        if searched > n_fit:
            inequality = (
                "n_neighbors < n_samples_fit" if x is None else "n_neighbors <= n_samples_fit"
            )
            n_queries = n_fit if x is None else x.shape[0]
            raise ValueError(
                f"Expected {inequality}, but n_neighbors = {n_neighbors}, "
                f"n_samples_fit = {n_fit}, n_samples = {n_queries}"
            )
        query = self._query(n_neighbors=int(searched), exclude_self=x is None)
        return search(self._fit_X if x is None else x, self._fit_X, query, parts)

    def kneighbors(
        self,
        X: Any = None,  # noqa: N803 - scikit-learn's names
        n_neighbors: int | None = None,
        return_distance: bool = True,
    ) -> Any:
        """The ``n_neighbors`` nearest fitted rows of each row of ``X``, nearest first:
        lazy ``(distances, indices)`` (an ``ExecutableTuple``), or the indices alone
        without ``return_distance``. Without ``X``, the neighbours of each fitted row
        other than itself."""
        if not return_distance:
            (indices,) = self._nearest(X, n_neighbors, ("indices",))
            return indices
        distances, indices = self._nearest(X, n_neighbors, ("distances", "indices"))
        return ExecutableTuple((distances, indices))

    def kneighbors_graph(
        self,
        X: Any = None,  # noqa: N803 - scikit-learn's names
        n_neighbors: int | None = None,
        mode: str = "connectivity",
    ) -> Tensor:
        """The graph of ``kneighbors`` as a lazy sparse tensor of shape ``(n_queries,
        n_samples_fit)`` (a SciPy CSR matrix once fetched): 1 (``connectivity``) or the
        distance (``distance``) at each neighbour."""
        if mode not in GRAPH_MODES:
            raise ValueError(
                'Unsupported mode, must be one of "connectivity", or "distance" but got '
                f'"{mode}" instead'
            )
        (graph,) = self._nearest(X, n_neighbors, (mode,))
        return graph

    def _within(
        self,
        X: Any,
        radius: Any,
        sort_results: bool,
        parts: tuple[str, ...],  # noqa: N803
    ) -> list[Tensor]:
        x = self._queries(X)
        if radius is None:
            radius = self.radius
        query = self._query(
            radius=float(radius), exclude_self=x is None, sort_results=bool(sort_results)
        )
        return search(self._fit_X if x is None else x, self._fit_X, query, parts)

    def radius_neighbors(
        self,
        X: Any = None,  # noqa: N803 - scikit-learn's names
        radius: float | None = None,
        return_distance: bool = True,
        sort_results: bool = False,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> Any:
        """The fitted rows within ``radius`` of each row of ``X`` (of each fitted row,
        itself excluded, without ``X``): NumPy object arrays of per-row arrays of
        distances and indices, as scikit-learn gives them, computed at the call on
        ``session``; in index order, or nearest first with ``sort_results``."""
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        parts = ("counts", "indices", "distances") if return_distance else ("counts", "indices")
        found = fetch_all(
            *self._within(X, radius, sort_results, parts), session=session, run_kwargs=run_kwargs
        )
        bounds = np.cumsum(found[0])[:-1]
        split = [as_object(np.split(values, bounds)) for values in found[1:]]
        if not return_distance:
            return split[0]
        return split[1], split[0]

    def radius_neighbors_graph(
        self,
        X: Any = None,  # noqa: N803 - scikit-learn's names
        radius: float | None = None,
        mode: str = "connectivity",
        sort_results: bool = False,
    ) -> Tensor:
        """The graph of ``radius_neighbors`` as a lazy sparse tensor (a SciPy CSR matrix
        once fetched), as ``kneighbors_graph``."""
        if mode not in GRAPH_MODES:
            raise ValueError(
                'Unsupported mode, must be one of "connectivity", or "distance" but got '
                f'"{mode}" instead'
            )
        (graph,) = self._within(X, radius, sort_results, (mode,))
        return graph

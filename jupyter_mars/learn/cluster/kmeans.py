"""``KMeans`` and ``k_means``: scikit-learn's k-means, over the chunks of rows.

``fit`` checks the data, centres it and keeps it in the session (``samples.py``), then
makes ``n_init`` runs, each from its initial centres (``init.py``) by Lloyd's or Elkan's
iterations (``iterations.py``, ``elkan.py``); the run of lowest inertia is kept, as
scikit-learn keeps it. The fitted attributes are NumPy arrays and numbers; ``predict``
and ``transform`` give lazy tensors.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    ClusterMixin,
    TransformerMixin,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_scalar

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.cluster import init as initial
from jupyter_mars.learn.cluster.elkan import ElkanAssignment
from jupyter_mars.learn.cluster.iterations import Assignment, Run, run
from jupyter_mars.learn.cluster.lloyd import LloydAssignment
from jupyter_mars.learn.cluster.samples import Samples, check_samples, inertia, nearest_centers
from jupyter_mars.learn.metrics.pairwise import euclidean
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import (
    check_is_fitted,
    check_random_state,
    check_sample_weight,
    fetch_all,
    float_input,
)
from jupyter_mars.tensor.core import Tensor

INITS = ("k-means||", "k-means++", "random")
ALGORITHMS = ("lloyd", "elkan", "auto", "full")
"""scikit-learn's names, and Mars's older ones: ``'full'`` is Lloyd's iterations, and
``'auto'`` runs them too (scikit-learn's choice since it found Elkan's seldom faster)."""


def _given(init: Any) -> bool:
    """Whether ``init`` is an array of centres (not a method's name or a callable)."""
    return not isinstance(init, str) and not callable(init)


def check_fitted_input(estimator: Any, X: Any) -> Tensor:  # noqa: N803 - scikit-learn's names
    """``X`` checked for ``predict``, ``transform`` and ``score``: float, with the fitted
    number of features."""
    check_is_fitted(estimator)
    x = float_input(X)
    check_features(estimator, X, x)
    return x


class ClusterCenters(  # scikit-learn's classes are untyped: Any to mypy
    ClassNamePrefixFeaturesOutMixin,  # type: ignore[misc]
    TransformerMixin,  # type: ignore[misc]
    ClusterMixin,  # type: ignore[misc]
    BaseEstimator,  # type: ignore[misc]
):
    """What k-means estimators share once fitted: labels, distances and score from
    ``cluster_centers_``."""

    cluster_centers_: np.ndarray
    n_features_in_: int

    def predict(self, X: Any) -> Tensor:  # noqa: N803 - scikit-learn's names
        """The nearest centre of each row of ``X``, as a lazy int32 tensor."""
        x = check_fitted_input(self, X)
        return nearest_centers(x, self.cluster_centers_.astype(x.dtype))

    def transform(self, X: Any) -> Tensor:  # noqa: N803
        """The distance of each row of ``X`` to each centre, as a lazy tensor."""
        x = check_fitted_input(self, X)
        return euclidean(x, mt.tensor(self.cluster_centers_.astype(x.dtype)))

    def score(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """Minus the inertia of ``X`` to the centres (computed at the call)."""
        x = check_fitted_input(self, X)
        centers = self.cluster_centers_.astype(x.dtype)
        weights = check_sample_weight(sample_weight, x.shape[0], x.dtype)
        total = inertia(x, weights, centers, nearest_centers(x, centers))
        (value,) = fetch_all(total, session=session, run_kwargs=run_kwargs)
        return -float(value)

    def fit_predict(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> Tensor:
        """Fit, and give ``labels_`` as a tensor."""
        fit = self.fit(X, sample_weight=sample_weight, session=session, run_kwargs=run_kwargs)
        return mt.tensor(fit.labels_)

    def fit_transform(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> Tensor:
        """Fit, then ``transform(X)``."""
        self.fit(X, sample_weight=sample_weight, session=session, run_kwargs=run_kwargs)
        return self.transform(X)

    @property
    def _n_features_out(self) -> int:
        return int(self.cluster_centers_.shape[0])


class KMeans(ClusterCenters):
    """K-means clustering, as scikit-learn's ``KMeans``; see the module docstring.

    ``init`` is ``'k-means||'`` (the default, as Mars's: scalable over the chunks, with
    ``oversampling_factor`` and ``init_iter``), ``'k-means++'``, ``'random'``, an array of
    centres, or a callable given the centred rows (a tensor), ``n_clusters`` and
    ``random_state``. ``n_init='auto'`` runs once, ten times for ``'random'`` and a
    callable. ``copy_x`` is accepted: the input is never modified. ``algorithm`` takes
    Mars's ``'auto'`` and ``'full'`` as well (Lloyd's iterations).
    """

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        init: Any = "k-means||",
        n_init: str | int = "auto",
        max_iter: int = 300,
        tol: float = 1e-4,
        verbose: int = 0,
        random_state: Any = None,
        copy_x: bool = True,
        algorithm: str = "lloyd",
        oversampling_factor: float = 2,
        init_iter: int = 5,
    ) -> None:
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm
        self.oversampling_factor = oversampling_factor
        self.init_iter = init_iter

    def _check_params(self) -> int:
        """Check the parameters as scikit-learn does at ``fit``; the number of runs."""
        check_scalar(self.n_clusters, "n_clusters", numbers.Integral, min_val=1)
        if isinstance(self.init, str) and self.init not in INITS:
            raise ValueError(
                f"The 'init' parameter of {type(self).__name__} must be one of {INITS}, a "
                f"callable or an array-like. Got {self.init!r} instead."
            )
        if not (isinstance(self.n_init, str) and self.n_init == "auto"):
            if isinstance(self.n_init, str):
                raise ValueError(
                    f"The 'n_init' parameter of {type(self).__name__} must be 'auto' or an "
                    f"int in the range [1, inf). Got {self.n_init!r} instead."
                )
            check_scalar(self.n_init, "n_init", numbers.Integral, min_val=1)
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_scalar(self.tol, "tol", numbers.Real, min_val=0)
        if self.algorithm not in ALGORITHMS:
            raise ValueError(
                f"The 'algorithm' parameter of {type(self).__name__} must be one of "
                f"{ALGORITHMS}. Got {self.algorithm!r} instead."
            )
        check_scalar(
            self.oversampling_factor,
            "oversampling_factor",
            numbers.Real,
            min_val=0,
            include_boundaries="neither",
        )
        check_scalar(self.init_iter, "init_iter", numbers.Integral, min_val=1)
        if self.n_init != "auto":
            n_init = int(self.n_init)
        else:
            random = isinstance(self.init, str) and self.init == "random"
            n_init = 10 if random or callable(self.init) else 1
        if _given(self.init) and n_init != 1:
            warnings.warn(
                "Explicit initial center position passed: performing only one init in "
                f"{type(self).__name__} instead of n_init={n_init}.",
                RuntimeWarning,
                stacklevel=3,
            )
            n_init = 1
        return n_init

    def _initial_centers(self, samples: Samples, rng: np.random.RandomState) -> np.ndarray:
        """The centres one run starts from, in the centred coordinates."""
        k, n_features, dtype = self.n_clusters, int(samples.x.shape[1]), samples.x.dtype
        if isinstance(self.init, str) and self.init == "k-means||":
            centers = initial.scalable(samples, k, rng, self.oversampling_factor, self.init_iter)
        elif isinstance(self.init, str) and self.init == "k-means++":
            centers = initial.plusplus(samples, k, rng)
        elif isinstance(self.init, str):
            centers = initial.distinct_rows(samples, rng, k)
        elif callable(self.init):
            made = self.init(samples.x, k, random_state=rng)
            centers = initial.check_given(made, k, n_features, dtype)
        else:
            centers = initial.check_given(self.init, k, n_features, dtype) - samples.mean
        return np.asarray(centers, dtype=dtype)

    def _assignment(self, samples: Samples) -> Assignment:
        if self.algorithm == "elkan" and self.n_clusters > 1:
            return ElkanAssignment(samples)
        return LloydAssignment(samples)

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's names
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> KMeans:
        """Compute the clustering on the session's runtime; ``y`` is ignored."""
        n_init = self._check_params()
        if self.algorithm == "elkan" and self.n_clusters == 1:
            warnings.warn(
                "algorithm='elkan' doesn't make sense for a single cluster. Using 'lloyd' instead.",
                RuntimeWarning,
                stacklevel=2,
            )
        samples, variance = check_samples(X, sample_weight, self.n_clusters, session, run_kwargs)
        rng = check_random_state(self.random_state)
        best: Run | None = None
        for attempt in range(n_init):
            centers = self._initial_centers(samples, rng)
            found = run(
                samples, centers, self._assignment(samples), self.max_iter, variance * self.tol
            )
            if self.verbose:
                print(f"Run {attempt + 1}: inertia {found.inertia}, {found.n_iter} iterations.")
            if best is None or (
                found.inertia < best.inertia
                and not same_clustering(samples, found.labels, best.labels, self.n_clusters)
            ):
                best = found
        assert best is not None
        (labels,) = samples.compute(wanted=[best.labels])
        self.cluster_centers_ = (best.centers + samples.mean).astype(samples.x.dtype)
        self.labels_ = np.asarray(labels, dtype=np.int32)
        self.inertia_ = best.inertia
        self.n_iter_ = best.n_iter
        record_features(self, X, samples.x)
        distinct = len(np.unique(self.labels_))
        if distinct < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({distinct}) found smaller than n_clusters "
                f"({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self


def same_clustering(samples: Samples, first: Tensor, second: Tensor, n_clusters: int) -> bool:
    """Whether two labellings are one up to the names of the clusters (each cluster of
    ``first`` within one of ``second``), counted over the chunks."""
    pairs = mt.bincount(first.astype(np.int64) * n_clusters + second, minlength=n_clusters**2)
    (counts,) = samples.compute(wanted=[pairs])
    table = np.asarray(counts).reshape(n_clusters, n_clusters) > 0
    return bool((table.sum(axis=1) <= 1).all())


def k_means(
    X: Any,  # noqa: N803 - scikit-learn's names
    n_clusters: int,
    *,
    sample_weight: Any = None,
    init: Any = "k-means||",
    n_init: str | int = "auto",
    max_iter: int = 300,
    verbose: bool = False,
    tol: float = 1e-4,
    random_state: Any = None,
    copy_x: bool = True,
    algorithm: str = "lloyd",
    oversampling_factor: float = 2,
    init_iter: int = 5,
    return_n_iter: bool = False,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> tuple[Any, ...]:
    """``KMeans(...).fit(X)`` as a function: ``(centers, labels, inertia)``, with the
    number of iterations last if ``return_n_iter``."""
    estimator = KMeans(
        n_clusters,
        init=init,
        n_init=n_init,
        max_iter=max_iter,
        tol=tol,
        verbose=verbose,
        random_state=random_state,
        copy_x=copy_x,
        algorithm=algorithm,
        oversampling_factor=oversampling_factor,
        init_iter=init_iter,
    ).fit(X, sample_weight=sample_weight, session=session, run_kwargs=run_kwargs)
    found = (estimator.cluster_centers_, estimator.labels_, estimator.inertia_)
    return (*found, estimator.n_iter_) if return_n_iter else found

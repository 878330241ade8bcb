"""``LabelPropagation``: labels spread to unlabeled samples along a similarity graph.

The graph is a chunked tensor of ``n_samples²``: an RBF kernel ``exp(-gamma |x - x'|²)``,
or the ``n_neighbors`` nearest samples of each (itself included, as scikit-learn's
``kneighbors_graph`` of the training set), each row divided by its sum. It is computed
once and held by the session. Each iteration multiplies it by the label distributions
(``n_samples × n_classes``, in the driver) as a chunked tensor product, then, as
scikit-learn does, divides each row by its sum and puts the given labels back; it stops
once the distributions change by less than ``tol`` in all (``n_iter_`` is then the number
of products made) or after ``max_iter`` products, with a ``ConvergenceWarning``.

Predictions weigh the training samples' distributions by the same kernel between the new
samples and the training ones (the ``n_neighbors`` nearest for ``'knn'``), one row block
of new samples at a time.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin
from jupyter_mars.learn.metrics.pairwise import euclidean_distances
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.chunks import chunk_lengths
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.multiclass import decode_labels
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    check_X_y,
    execute_all,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["LabelPropagation"]


def nearest_rows(n_neighbors: int, distances: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Indices of the ``n_neighbors`` smallest distances of each row, nearest first."""
    k = min(n_neighbors, distances.shape[1])
    part = np.argpartition(distances, k - 1, axis=1)[:, :k]
    order = np.argsort(np.take_along_axis(distances, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def knn_connectivity(n_neighbors: int, distances: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A block of the k-nearest-neighbours graph: 1 at each row's nearest columns."""
    graph = np.zeros(distances.shape)
    np.put_along_axis(graph, nearest_rows(n_neighbors, distances), 1.0, axis=1)
    return graph


def knn_proba(
    n_neighbors: int, distributions: np.ndarray[Any, Any], distances: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The summed distributions of each new sample's nearest training samples, each row
    divided by its sum (NaN where all are 0, as scikit-learn's)."""
    summed = distributions[nearest_rows(n_neighbors, distances)].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        result: np.ndarray[Any, Any] = summed / summed.sum(axis=1, keepdims=True)
    return result


def _row_chunks(x: Tensor, n_classes: int) -> tuple[Any, ...] | None:
    """Chunks for a matrix of distributions, one row per row of ``x``: ``x``'s row chunks
    and all the classes in one column chunk, so that products with ``x``'s kernel pair
    chunk with chunk."""
    lengths = chunk_lengths(x)
    return None if lengths is None else (lengths[0], (n_classes,))


def normalize_rows(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Each row divided by its sum (rows summing to 0 left as they are)."""
    sums = values.sum(axis=1)[:, None]
    sums[sums == 0] = 1
    result: np.ndarray[Any, Any] = values / sums
    return result


class LabelPropagation(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Scikit-learn's ``LabelPropagation`` on tensors and frames: unlabeled samples are
    marked -1 in ``y``; ``transduction_`` holds the labels found for every sample.

    ``X_`` is the training data as a tensor, held by the session for predictions (not
    fetched); ``label_distributions_``, ``transduction_``, ``classes_`` are arrays.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "kernel": [StrOptions({"knn", "rbf"})],
        "gamma": [Interval(numbers.Real, 0, None, closed="left")],
        "n_neighbors": [Interval(numbers.Integral, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="neither")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        kernel: str = "rbf",
        *,
        gamma: float = 20,
        n_neighbors: int = 7,
        max_iter: int = 1000,
        tol: float = 1e-3,
    ) -> None:
        self.kernel = kernel
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.max_iter = max_iter
        self.tol = tol

    def _graph(self, x: Tensor, n_samples: int) -> Tensor:
        """The row-normalised similarity graph of the training samples."""
        distances = euclidean_distances(x, squared=True)  # exactly 0 on the diagonal
        if self.kernel == "rbf":
            affinity = mt.exp(distances * -self.gamma)
        else:
            kernel = functools.partial(knn_connectivity, self.n_neighbors)
            affinity = map_rows(kernel, distances, trailing=(n_samples,), name="knn_graph")
        graph: Tensor = affinity / affinity.sum(axis=1)[:, None]
        return graph

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LabelPropagation:
        """Propagate the labels of ``y`` (-1: unlabeled) over the graph of ``X``."""
        self._validate_params()
        x, t = check_X_y(X, y, estimator=self)
        execute_all(x, session=session, run_kwargs=run_kwargs)  # held as X_, read below
        (labels,) = fetch_all(t, session=session, run_kwargs=run_kwargs)
        check_classification_targets(labels)
        classes = np.unique(labels)
        classes = classes[classes != -1]
        self.classes_ = classes
        self.X_ = x
        record_features(self, X, x)
        n_samples = len(labels)
        unlabeled = (labels == -1)[:, None]
        distributions = (labels[:, None] == classes[None, :]).astype(np.float64)
        static = np.where(unlabeled, 0.0, distributions)
        graph = self._graph(x, n_samples)
        execute_all(graph, session=session, run_kwargs=run_kwargs)
        chunks = _row_chunks(x, len(classes))
        previous = np.zeros_like(distributions)
        n_iter = 0
        for n_iter in range(self.max_iter):  # noqa: B007 - n_iter_ is where it stopped
            if np.abs(distributions - previous).sum() < self.tol:
                break
            previous = distributions
            product = graph @ mt.tensor(distributions, chunk_size=chunks)
            (spread,) = fetch_all(product, session=session, run_kwargs=run_kwargs)
            distributions = np.where(unlabeled, normalize_rows(spread), static)
        else:
            warnings.warn(
                f"max_iter={self.max_iter} was reached without convergence.",
                category=ConvergenceWarning,
                stacklevel=2,
            )
            n_iter = self.max_iter
        self.n_iter_ = n_iter
        del graph  # the session drops the n_samples² graph with it
        self.label_distributions_ = normalize_rows(distributions)
        self.transduction_ = classes[np.argmax(self.label_distributions_, axis=1)].ravel()
        return self

    def predict_proba(self, X: Any) -> Tensor:  # noqa: N803
        """Each class's probability for each sample, from the training samples' label
        distributions weighed by the kernel (a lazy tensor)."""
        check_is_fitted(self, "label_distributions_")
        x = check_array(X, estimator=self)
        check_features(self, X, x)
        distances = euclidean_distances(x, self.X_, squared=True)
        n_classes = len(self.classes_)
        if self.kernel == "knn":
            kernel = functools.partial(knn_proba, self.n_neighbors, self.label_distributions_)
            return map_rows(kernel, distances, trailing=(n_classes,), name="knn_proba")
        chunks = _row_chunks(self.X_, n_classes)
        weights = mt.exp(distances * -self.gamma)
        spread = weights @ mt.tensor(self.label_distributions_, chunk_size=chunks)
        with np.errstate(invalid="ignore", divide="ignore"):  # NaN rows, as scikit-learn's
            proba: Tensor = spread / spread.sum(axis=1)[:, None]
        return proba

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The most probable class of each sample (a lazy tensor)."""
        return decode_labels(mt.argmax(self.predict_proba(X), axis=1), self.classes_)

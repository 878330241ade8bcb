"""The data k-means runs on, and the chunk-wise steps its algorithms share.

``Samples`` holds the checked rows centred on their mean (the distances of centred rows
lose less to rounding; scikit-learn centres them too), their squared norms and the
sample weights, computed once and kept in the session for the iterations. The helpers
build lazy tensors over the chunks of rows; ``Samples.compute`` runs one graph: the
tensors it keeps (labels, bounds) stay in the session for the next iteration, and what
it fetches is small (centres, per-cluster sums and weights, scalars).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.cluster import kernels
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.scatter import mean_and_variance
from jupyter_mars.learn.utils.validation import (
    check_sample_weight,
    fetch_all,
    float_input,
)
from jupyter_mars.tensor.core import Tensor


@dataclass
class Samples:
    """Centred rows and what every iteration reads of them."""

    x: Tensor
    """The rows, centred on ``mean``."""
    mean: np.ndarray
    squared_norms: Tensor
    """``||x||²`` of each centred row."""
    weights: Tensor | None
    """The sample weights; None where every sample weighs 1."""
    n_samples: int
    session: Session | None = None
    run_kwargs: dict[str, Any] = field(default_factory=dict)
    _cumulative: Tensor | None = None

    def compute(self, keep: Sequence[Tensor] = (), wanted: Sequence[Tensor] = ()) -> list[Any]:
        """Execute ``keep`` and ``wanted`` in one graph; ``keep`` stays in the session
        (while referenced), and the data of ``wanted`` is returned."""
        return fetch_all(*wanted, keep=keep, session=self.session, run_kwargs=self.run_kwargs)

    def weighted(self, t: Tensor) -> Tensor:
        """``t`` (one value per row, or a row of values per row) times the weights."""
        if self.weights is None:
            return t
        scaled: Tensor = t * (self.weights if t.ndim == 1 else self.weights[:, None])
        return scaled

    def total_weight(self, t: Tensor) -> Tensor:
        """The weighted sum of ``t`` over the rows (per column for a 2-d ``t``)."""
        total: Tensor = self.weighted(t).sum(axis=0)
        return total

    def draw(self, uniforms: np.ndarray) -> Tensor | np.ndarray:
        """Rows drawn with probability proportional to their weight, one per value of
        ``uniforms`` in ``[0, 1)``, as NumPy's ``choice`` draws them: their indices."""
        if self.weights is None:
            return np.minimum((uniforms * self.n_samples).astype(np.intp), self.n_samples - 1)
        if self._cumulative is None:
            self._cumulative = mt.cumsum(self.weights)
            self.compute(keep=[self._cumulative])
        total = self._cumulative[-1]
        drawn: Tensor = mt.minimum(
            mt.searchsorted(self._cumulative, total * uniforms, side="right"), self.n_samples - 1
        )
        return drawn


def _check_count(n_samples: float, n_clusters: int) -> None:
    if not np.isnan(n_samples) and n_samples < n_clusters:
        raise ValueError(f"n_samples={int(n_samples)} should be >= n_clusters={n_clusters}.")


def check_samples(
    X: Any,  # noqa: N803 - scikit-learn's names
    sample_weight: Any,
    n_clusters: int,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
    centre: bool = True,
) -> tuple[Samples, float]:
    """``X`` checked (float64 or float32, at least ``n_clusters`` rows), computed once
    with its column means and variances, centred (unless not ``centre``) and kept; with
    the mean of the variances (what ``tol`` scales)."""
    x = float_input(X)
    _check_count(x.shape[0], n_clusters)
    # x is kept while this function runs: the centred rows are computed from it
    mean, variances = mean_and_variance(x, keep=[x], session=session, run_kwargs=run_kwargs)
    n_samples = int(x.shape[0])
    _check_count(n_samples, n_clusters)
    weights = check_sample_weight(sample_weight, n_samples, x.dtype)
    if not centre:
        mean = np.zeros_like(mean)
    centred = x - mean.astype(x.dtype) if centre else x
    norms = map_rows(squared_norms, centred, dtype=x.dtype, name="kmeans_norms")
    samples = Samples(centred, mean, norms, weights, n_samples, session, dict(run_kwargs or {}))
    samples.compute(keep=[centred, norms, *([weights] if weights is not None else [])])
    return samples, float(np.mean(variances))


def squared_norms(x: np.ndarray) -> np.ndarray:
    """``||x||²`` of each row of a block."""
    out: np.ndarray = np.einsum("ij,ij->i", x, x)
    return out


def squared_distances(samples: Samples, centers: Any, center_norms: Any = None) -> Tensor:
    """Squared distances of every row to each of ``centers`` (an array or a small
    tensor), ``||x||² - 2 x·c + ||c||²`` clipped at 0: rows by centres."""
    c = mt.tensor(centers) if not isinstance(centers, Tensor) else centers
    if center_norms is None:
        center_norms = (c * c).sum(axis=1)
    d: Tensor = mt.maximum(
        mt.dot(samples.x, c.T) * -2 + samples.squared_norms[:, None] + center_norms[None, :], 0
    )
    return d


def nearest_centers(x: Tensor, centers: np.ndarray) -> Tensor:
    """The label of each row of ``x``: its nearest centre (the first of equal ones), by
    ``||c||² - 2 x·c`` as scikit-learn ranks them."""
    scores = mt.dot(x, mt.tensor(centers).T) * -2 + (centers * centers).sum(axis=1)
    labels: Tensor = mt.argmin(scores, axis=1).astype(np.int32)
    return labels


def squared_gaps(
    x: np.ndarray, labels: np.ndarray, *weights: np.ndarray, centers: np.ndarray
) -> np.ndarray:
    """Each row's (weighted) squared distance to its centre, ``sum((x - c)²)``."""
    out = np.empty(len(x), dtype=x.dtype)
    kernels.row_gaps(x, labels, centers, out)
    if weights:
        out *= weights[0]
    return out


def inertia(x: Tensor, weights: Tensor | None, centers: np.ndarray, labels: Tensor) -> Tensor:
    """The weighted sum of squared distances of the rows of ``x`` to their centres,
    computed exactly (``(x - c)²``, not through the norms), block by block."""
    gaps = functools.partial(squared_gaps, centers=np.asarray(centers, dtype=x.dtype))
    given = () if weights is None else (weights,)
    total: Tensor = map_rows(gaps, x, labels, *given, dtype=x.dtype, name="inertia").sum()
    return total


def new_centers(
    samples: Samples,
    centers: np.ndarray,
    labels: Tensor,
    sums: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """The mean of each cluster. An empty cluster takes the row farthest from its
    centre (one more graph: only then), which leaves its own cluster; as scikit-learn
    does, nothing moves where every row sits on its centre."""
    sums, weights = sums.copy(), weights.copy()
    empty = np.flatnonzero(weights == 0)
    if len(empty):
        gap = samples.x - mt.tensor(centers)[labels]
        far = mt.argtopk((gap * gap).sum(axis=1), len(empty))
        wanted = [far, mt.max((gap * gap).sum(axis=1)), samples.x[far], labels[far]]
        if samples.weights is not None:
            wanted.append(samples.weights[far])
        found = samples.compute(wanted=wanted)
        if found[1] > 0:
            moved_weights = found[4] if samples.weights is not None else np.ones(len(empty))
            for cluster, row, old, weight in zip(empty, found[2], found[3], moved_weights):
                sums[old] -= row * weight
                weights[old] -= weight
                sums[cluster] = row * weight
                weights[cluster] = weight
    out = sums.copy()
    filled = weights > 0
    out[filled] /= weights[filled][:, None]
    return out.astype(centers.dtype, copy=False)

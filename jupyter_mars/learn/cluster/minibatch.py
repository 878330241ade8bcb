"""``MiniBatchKMeans``: scikit-learn's mini-batch k-means, its batches drawn from the
chunks.

The rows stay in the session, chunked; what the driver holds is small. The initial
centres are found, as scikit-learn finds them, on a random sample of ``init_size`` rows
fetched from the chunks (k-means++ or ``random`` in memory), the best of ``n_init``
judged on another sample. Each step then draws ``batch_size`` rows (with probability
proportional to their weight), moves each centre towards the mean of its rows in the
batch by a rate that falls with the rows it has seen, and now and then gives the
centres that see too few rows a new place (``reassignment_ratio``). The batches of
several steps are drawn and fetched in one graph (a few MiB at a time); each step runs
in memory. The steps stop after ``max_iter`` passes over the data, when the centres move
by at most ``tol``, or when a smoothed batch inertia has not improved for
``max_no_improvement`` steps. ``labels_`` and ``inertia_`` then come from one pass over
the chunks (``compute_labels``).

The random numbers are drawn as scikit-learn draws them, so a ``random_state`` gives its
initial centres and batches; as the batches of several steps are drawn at once, the
steps after a centre is given a new place (which draws random numbers too) differ.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np
from sklearn.utils import check_scalar

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.cluster import init as initial
from jupyter_mars.learn.cluster.kmeans import ClusterCenters
from jupyter_mars.learn.cluster.lloyd import LloydAssignment, add_up
from jupyter_mars.learn.cluster.samples import Samples, check_samples, inertia, nearest_centers
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import check_random_state

BATCH_FETCH_BYTES = 16 * 2**20
"""About how many bytes of batches one graph fetches."""
MAX_BATCHES_PER_FETCH = 16


def _batch_inertia(
    rows: np.ndarray, centers: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Each row's nearest centre (by ``||c||² - 2 x·c``), and the (weighted) sum of
    their squared distances, computed exactly."""
    labels = np.argmin((centers * centers).sum(axis=1) - 2 * rows @ centers.T, axis=1)
    gaps = ((rows - centers[labels]) ** 2).sum(axis=1)
    return labels, float(gaps.sum() if weights is None else gaps @ weights)


def _moved(
    centers: np.ndarray, counts: np.ndarray, sums: np.ndarray, hits: np.ndarray
) -> np.ndarray:
    """The centres (as float64) moved by one batch, whose rows (or weights) ``hits``
    each centre's cluster got with the (weighted) ``sums``; ``counts``, the weight each
    centre has seen, is updated in place."""
    updated = centers.astype(np.float64)
    seen = hits > 0
    updated[seen] = (updated[seen] * counts[seen, None] + sums[seen]) / (counts[seen] + hits[seen])[
        :, None
    ]
    counts += hits
    return updated


def _reassigned(
    counts: np.ndarray, n_rows: int, ratio: float, rng: np.random.RandomState
) -> tuple[np.ndarray, np.ndarray | None]:
    """The centres that saw too few rows to keep their place (at most half a batch of
    ``n_rows``: the fewest-seen ones), and the rows of the batch drawn as their new
    places (None when there is none)."""
    few = np.zeros(len(counts), dtype=bool)
    if ratio <= 0:
        return few, None
    few = counts < ratio * counts.max()
    if few.sum() > 0.5 * n_rows:
        few[np.argsort(counts)[int(0.5 * n_rows) :]] = False
    if not few.any():
        return few, None
    return few, rng.choice(n_rows, replace=False, size=int(few.sum()))


class MiniBatchKMeans(ClusterCenters):
    """Mini-batch k-means, as scikit-learn's ``MiniBatchKMeans``; see the module
    docstring. ``init`` is ``'k-means++'``, ``'random'``, an array of centres or a
    callable given the init sample (a NumPy array), ``n_clusters`` and
    ``random_state``."""

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        init: Any = "k-means++",
        max_iter: int = 100,
        batch_size: int = 1024,
        verbose: int = 0,
        compute_labels: bool = True,
        random_state: Any = None,
        tol: float = 0.0,
        max_no_improvement: int | None = 10,
        init_size: int | None = None,
        n_init: str | int = "auto",
        reassignment_ratio: float = 0.01,
    ) -> None:
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose
        self.compute_labels = compute_labels
        self.random_state = random_state
        self.tol = tol
        self.max_no_improvement = max_no_improvement
        self.init_size = init_size
        self.n_init = n_init
        self.reassignment_ratio = reassignment_ratio

    # ---- checks ---------------------------------------------------------------------------

    def _check_params(self) -> int:
        """Check the parameters as scikit-learn does at ``fit``; the number of inits."""
        check_scalar(self.n_clusters, "n_clusters", numbers.Integral, min_val=1)
        if isinstance(self.init, str) and self.init not in ("k-means++", "random"):
            raise ValueError(
                f"The 'init' parameter of {type(self).__name__} must be one of "
                f"('k-means++', 'random'), a callable or an array-like. Got {self.init!r} "
                "instead."
            )
        check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1)
        check_scalar(self.batch_size, "batch_size", numbers.Integral, min_val=1)
        check_scalar(self.tol, "tol", numbers.Real, min_val=0)
        if self.max_no_improvement is not None:
            check_scalar(self.max_no_improvement, "max_no_improvement", numbers.Integral, min_val=0)
        if self.init_size is not None:
            check_scalar(self.init_size, "init_size", numbers.Integral, min_val=1)
        check_scalar(self.reassignment_ratio, "reassignment_ratio", numbers.Real, min_val=0)
        if isinstance(self.n_init, str):
            if self.n_init != "auto":
                raise ValueError(
                    f"The 'n_init' parameter of {type(self).__name__} must be 'auto' or an "
                    f"int in the range [1, inf). Got {self.n_init!r} instead."
                )
            given = not isinstance(self.init, str) and not callable(self.init)
            plusplus = isinstance(self.init, str) and self.init == "k-means++"
            return 1 if plusplus or given else 3
        check_scalar(self.n_init, "n_init", numbers.Integral, min_val=1)
        if not isinstance(self.init, str) and not callable(self.init) and self.n_init != 1:
            warnings.warn(
                "Explicit initial center position passed: performing only one init in "
                f"{type(self).__name__} instead of n_init={self.n_init}.",
                RuntimeWarning,
                stacklevel=3,
            )
            return 1
        return int(self.n_init)

    def _init_size(self, n_samples: int, batch_size: int) -> int:
        size = self.init_size
        if size is None:
            size = 3 * batch_size
            if size < self.n_clusters:
                size = 3 * self.n_clusters
        elif size < self.n_clusters:
            warnings.warn(
                f"init_size={size} should be larger than n_clusters={self.n_clusters}. "
                "Setting it to min(3*n_clusters, n_samples)",
                RuntimeWarning,
                stacklevel=3,
            )
            size = 3 * self.n_clusters
        return min(size, n_samples)

    # ---- fitting --------------------------------------------------------------------------

    def _sample(
        self, samples: Samples, indices: np.ndarray | slice
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``indices`` and their weights, fetched from the chunks."""
        wanted = [samples.x[indices]]
        if samples.weights is not None:
            wanted.append(samples.weights[indices])
        found = samples.compute(wanted=wanted)
        rows = np.asarray(found[0])
        weights = found[1] if len(found) > 1 else np.ones(len(rows), dtype=samples.x.dtype)
        return rows, np.asarray(weights)

    def _initial_centers(
        self, samples: Samples, rng: np.random.RandomState, init_size: int
    ) -> np.ndarray:
        n_samples = samples.n_samples
        chosen = rng.randint(0, n_samples, init_size) if init_size < n_samples else slice(None)
        rows, weights = self._sample(samples, chosen)
        k, dtype = self.n_clusters, samples.x.dtype
        if isinstance(self.init, str) and self.init == "k-means++":
            centers = initial.plusplus_in_memory(rows, weights, k, rng)
        elif isinstance(self.init, str):
            chosen = rng.choice(len(rows), size=k, replace=False, p=weights / weights.sum())
            centers = rows[chosen]
        elif callable(self.init):
            centers = self.init(rows, k, random_state=rng)
        else:
            centers = self.init
        return initial.check_given(centers, k, rows.shape[1], dtype)

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's names
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> MiniBatchKMeans:
        """Compute the clustering on the session's runtime; ``y`` is ignored."""
        n_init = self._check_params()
        # the steps work on the rows as given (not centred), as scikit-learn's do
        samples, variance = check_samples(
            X, sample_weight, self.n_clusters, session, run_kwargs, centre=False
        )
        n_samples = samples.n_samples
        batch_size = min(self.batch_size, n_samples)
        rng = check_random_state(self.random_state)
        init_size = self._init_size(n_samples, batch_size)
        valid_rows, valid_weights = self._sample(samples, rng.randint(0, n_samples, init_size))
        best, best_inertia = None, math.inf
        for _ in range(n_init):
            centers = self._initial_centers(samples, rng, init_size)
            _, found = _batch_inertia(valid_rows, centers, valid_weights)
            if best is None or found < best_inertia:
                best, best_inertia = centers, found
        assert best is not None
        centers, steps = self._steps(samples, best, rng, batch_size, variance * self.tol)
        self.cluster_centers_ = centers.astype(samples.x.dtype)
        record_features(self, X, samples.x)
        self.n_steps_ = steps
        self.n_iter_ = int(np.ceil(steps * batch_size / n_samples))
        if self.compute_labels:
            self._label(samples)
        else:
            (weight,) = samples.compute(wanted=[samples.total_weight(mt.ones(n_samples))])
            self.inertia_ = float((self._ewa_inertia or 0.0) * weight)
        return self

    def _steps(
        self,
        samples: Samples,
        centers: np.ndarray,
        rng: np.random.RandomState,
        batch_size: int,
        tol: float,
    ) -> tuple[np.ndarray, int]:
        """Run the mini-batch steps from ``centers``: the final centres and the number
        of steps."""
        n_samples, n_features = samples.n_samples, int(samples.x.shape[1])
        n_steps = (self.max_iter * n_samples) // batch_size
        counts = np.zeros(self.n_clusters, dtype=np.float64)
        self._ewa_inertia: float | None = None
        self._ewa_inertia_min: float | None = None
        self._no_improvement = 0
        seen = 0
        per_fetch = max(1, BATCH_FETCH_BYTES // (batch_size * n_features * 8))
        per_fetch = min(per_fetch, MAX_BATCHES_PER_FETCH)
        batches: list[np.ndarray] = []
        step = 0
        for step in range(1, n_steps + 1):  # noqa: B007 - read after the loop
            if not batches:
                count = min(per_fetch, n_steps - step + 1)
                drawn = samples.draw(rng.random_sample(count * batch_size))
                (rows,) = samples.compute(wanted=[samples.x[drawn]])
                batches = list(np.split(np.asarray(rows, dtype=np.float64), count))
            batch = batches.pop(0)
            seen += batch_size
            reassign = (counts == 0).any() or seen >= 10 * self.n_clusters
            if reassign:
                seen = 0
            updated, batch_inertia = self._step(batch, centers, counts, rng, reassign)
            moved = float(((updated - centers) ** 2).sum()) if tol > 0 else 0.0
            centers = updated
            if self._converged(step, n_samples, batch_size, moved, tol, batch_inertia):
                break
        self._counts, self._n_since_last_reassign = counts, seen
        return centers, step

    def partial_fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's names
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> MiniBatchKMeans:
        """One mini-batch step on all of ``X``, as scikit-learn's ``partial_fit``: the
        first call (on an estimator not fitted) also finds the initial centres, on
        ``init_size`` rows of ``X``. The step's labels and sums are computed over the
        chunks of ``X``, so a batch may be larger than memory; ``y`` is ignored."""
        fitted = hasattr(self, "cluster_centers_")
        if not fitted:
            self._check_params()
        samples, _ = check_samples(
            X, sample_weight, 0 if fitted else self.n_clusters, session, run_kwargs, centre=False
        )
        if fitted:
            check_features(self, X, samples.x)
        n_samples = samples.n_samples
        rng = self._random_state = getattr(
            self, "_random_state", check_random_state(self.random_state)
        )
        self.n_steps_ = getattr(self, "n_steps_", 0)
        if not fitted:
            self._batch_size = min(self.batch_size, n_samples)
            init_size = self._init_size(n_samples, self._batch_size)
            self.cluster_centers_ = self._initial_centers(samples, rng, init_size)
            record_features(self, X, samples.x)
            self._counts = np.zeros(self.n_clusters, dtype=np.float64)
            self._n_since_last_reassign = 0
        counts, centers = self._counts, self.cluster_centers_
        self._n_since_last_reassign += getattr(self, "_batch_size", self.batch_size)
        reassign = (counts == 0).any() or self._n_since_last_reassign >= 10 * self.n_clusters
        if reassign:
            self._n_since_last_reassign = 0
        _, keep, totals = LloydAssignment(samples).step(centers, np.zeros(len(centers)))
        (items,) = samples.compute(keep=keep, wanted=[totals])
        found = add_up(items)
        updated = _moved(centers, counts, found.sums, found.weights.astype(np.float64))
        if reassign:
            few, chosen = _reassigned(counts, n_samples, self.reassignment_ratio, rng)
            if chosen is not None:
                (rows,) = samples.compute(wanted=[samples.x[chosen]])
                updated[few] = rows
                counts[few] = np.min(counts[~few])
        self.cluster_centers_ = updated.astype(samples.x.dtype)
        if self.compute_labels:
            self._label(samples)
        self.n_steps_ += 1
        return self

    def _label(self, samples: Samples) -> None:
        """``labels_`` and ``inertia_`` of the rows of ``samples`` to the centres."""
        labels_tensor = nearest_centers(samples.x, self.cluster_centers_)
        total = inertia(samples.x, samples.weights, self.cluster_centers_, labels_tensor)
        labels, value = samples.compute(wanted=[labels_tensor, total])
        self.labels_ = np.asarray(labels, dtype=np.int32)
        self.inertia_ = float(value)

    def _step(
        self,
        batch: np.ndarray,
        centers: np.ndarray,
        counts: np.ndarray,
        rng: np.random.RandomState,
        reassign: bool,
    ) -> tuple[np.ndarray, float]:
        """One mini-batch step (``counts`` is updated in place): the new centres, and the
        batch's inertia to the old ones."""
        labels, batch_inertia = _batch_inertia(batch, centers)
        hits = np.bincount(labels, minlength=len(centers)).astype(np.float64)
        sums = np.zeros_like(centers, dtype=np.float64)
        np.add.at(sums, labels, batch)
        updated = _moved(centers, counts, sums, hits)
        if reassign:
            few, chosen = _reassigned(counts, len(batch), self.reassignment_ratio, rng)
            if chosen is not None:
                updated[few] = batch[chosen]
                counts[few] = np.min(counts[~few])
        return updated.astype(centers.dtype), batch_inertia

    def _converged(
        self,
        step: int,
        n_samples: int,
        batch_size: int,
        moved: float,
        tol: float,
        batch_inertia: float,
    ) -> bool:
        """Early stopping as scikit-learn's: centres that moved by at most ``tol``, or an
        exponentially weighted average of the batch inertia that stopped improving."""
        batch_inertia /= batch_size
        if step == 1:
            return False  # the first batch's inertia is the initial centres'
        if self._ewa_inertia is None:
            self._ewa_inertia = batch_inertia
        else:
            alpha = min(batch_size * 2.0 / (n_samples + 1), 1.0)
            self._ewa_inertia = self._ewa_inertia * (1 - alpha) + batch_inertia * alpha
        if self.verbose:
            print(f"Minibatch step {step}: batch inertia {batch_inertia}, {self._ewa_inertia}")
        if tol > 0.0 and moved <= tol:
            return True
        if self._ewa_inertia_min is None or self._ewa_inertia < self._ewa_inertia_min:
            self._no_improvement = 0
            self._ewa_inertia_min = self._ewa_inertia
        else:
            self._no_improvement += 1
        return (
            self.max_no_improvement is not None and self._no_improvement >= self.max_no_improvement
        )

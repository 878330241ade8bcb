"""``IsolationForest``: anomaly scores from the depth at which random trees isolate a sample.

Each tree is a scikit-learn ``ExtraTreeRegressor`` (one random feature and threshold per
split, depth at most log2 of its sample size) fitted in a task of its own on
``max_samples`` rows drawn where the data lie (``sampling.py``), against random targets,
as scikit-learn's forest fits it. A sample's path length in a tree is the depth of its
leaf plus the average path length of an unbuilt tree over the leaf's training samples,
``c(n) = 2 (ln(n - 1) + γ) - 2 (n - 1) / n``; its score is ``-2 ** (-mean length /
c(max_samples))``, computed one task per row block. ``offset_`` is -0.5 for
``contamination='auto'``, else the ``contamination`` quantile of the training scores.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.tree import ExtraTreeRegressor
from sklearn.utils._param_validation import Interval, RealNotInt, StrOptions

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.ensemble.bagging import draw_features, n_features_to_draw
from jupyter_mars.learn.ensemble.sampling import MAX_INT, fit_on_samples, set_random_states
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    check_random_state,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["IsolationForest", "average_path_length"]


def average_path_length(n_samples: Any) -> np.ndarray[Any, Any]:
    """``c(n)``: the average path length of an unsuccessful search in a binary search
    tree of ``n`` samples (0 for one sample or none, 1 for two)."""
    n = np.asarray(n_samples, dtype=np.float64)
    out = np.zeros(n.shape)
    out[n == 2] = 1.0
    big = n > 2
    out[big] = 2.0 * (np.log(n[big] - 1.0) + np.euler_gamma) - 2.0 * (n[big] - 1.0) / n[big]
    return out


def node_depths(tree: Any) -> np.ndarray[Any, Any]:
    """The depth of every node of a fitted tree, the root's 1."""
    structure = tree.tree_
    depths = np.zeros(structure.node_count, dtype=np.float64)
    depths[0] = 1.0
    for node in range(structure.node_count):  # children always come after their parent
        for child in (structure.children_left[node], structure.children_right[node]):
            if child >= 0:
                depths[child] = depths[node] + 1.0
    return depths


def fit_tree(
    member: tuple[Any, Any, int], x: np.ndarray[Any, Any], y: None
) -> tuple[Any, np.ndarray[Any, Any]]:
    """A tree fitted on the sample against uniform random targets, and the path length
    each of its nodes gives a sample ending there."""
    tree, features, seed = member
    rows = x if features is None else x[:, features]
    targets = np.random.RandomState(seed).uniform(size=len(rows))
    tree.fit(rows, targets)
    lengths = node_depths(tree) + average_path_length(tree.tree_.n_node_samples) - 1.0
    return tree, lengths


def forest_scores(
    trees: list[Any],
    features: list[Any],
    lengths: list[np.ndarray[Any, Any]],
    max_samples: int,
    x: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """``score_samples`` of a block: minus 2 to the minus mean normalised path length."""
    depths = np.zeros(len(x))
    for tree, cols, length in zip(trees, features, lengths):
        rows = x if cols is None else x[:, cols]
        depths += length[tree.apply(rows)]
    denominator = len(trees) * float(average_path_length(max_samples))
    if denominator == 0:
        return -np.ones(len(x))
    result: np.ndarray[Any, Any] = -(2.0 ** (-depths / denominator))
    return result


class IsolationForest(OutlierMixin, BaseEstimator):  # type: ignore[misc]
    """Scikit-learn's ``IsolationForest`` on tensors and frames: the trees fitted where
    the data lie, on samples drawn block by block; ``predict`` (1 inlier, -1 outlier),
    ``decision_function`` and ``score_samples`` return lazy tensors."""

    _parameter_constraints: dict[str, list[Any]] = {
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_samples": [
            StrOptions({"auto"}),
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "contamination": [StrOptions({"auto"}), Interval(numbers.Real, 0, 0.5, closed="right")],
        "max_features": [numbers.Integral, Interval(numbers.Real, 0, 1, closed="right")],
        "bootstrap": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_samples: Any = "auto",
        contamination: Any = "auto",
        max_features: Any = 1.0,
        bootstrap: bool = False,
        random_state: Any = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.contamination = contamination
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _samples_per_tree(self, n_samples: int) -> int:
        if self.max_samples == "auto":
            return min(256, n_samples)
        if isinstance(self.max_samples, numbers.Integral):
            if int(self.max_samples) > n_samples:
                warnings.warn(
                    f"max_samples ({self.max_samples}) is greater than the total number of "
                    f"samples ({n_samples}). max_samples will be set to n_samples for "
                    "estimation.",
                    stacklevel=3,
                )
                return n_samples
            return int(self.max_samples)
        return int(self.max_samples * n_samples)

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> IsolationForest:
        """Fit the trees, each on its sample, in tasks of the session's runtime."""
        self._validate_params()
        x = check_array(X, dtype=np.float32, ensure_all_finite=False, estimator=self)
        x = with_known_rows(x, session, run_kwargs)
        n_samples, n_features = (int(n) for n in x.shape)
        draws = self._samples_per_tree(n_samples)
        n_drawn_features = n_features_to_draw(n_features, self.max_features)
        max_depth = int(np.ceil(np.log2(max(draws, 2))))
        seeds = (
            check_random_state(self.random_state).randint(MAX_INT, size=self.n_estimators).tolist()
        )
        subset = n_drawn_features != n_features
        features, members = [], []
        for seed in seeds:
            cols = draw_features(int(seed), False, n_features, n_drawn_features)
            features.append(cols)
            tree = ExtraTreeRegressor(max_features=1, splitter="random", max_depth=max_depth)
            members.append((set_random_states(tree, int(seed)), cols if subset else None, seed))
        fitted = fit_on_samples(fit_tree, members, x, None, draws, self.bootstrap, seeds)
        (results,) = fetch_all(fitted, session=session, run_kwargs=run_kwargs)
        self.estimators_ = [tree for tree, _ in results]
        self.estimators_features_ = features
        self._path_lengths = [lengths for _, lengths in results]
        self._subset = subset
        self.max_samples_ = draws
        record_features(self, X, x)
        if self.contamination == "auto":
            self.offset_ = -0.5
            return self
        quantile = mt.percentile(self._scores(x), 100.0 * self.contamination)
        (offset,) = fetch_all(quantile, session=session, run_kwargs=run_kwargs)
        self.offset_ = float(offset)
        return self

    def _scores(self, x: Tensor) -> Tensor:
        features = self.estimators_features_ if self._subset else [None] * len(self.estimators_)
        kernel = functools.partial(
            forest_scores, self.estimators_, features, self._path_lengths, self.max_samples_
        )
        return map_rows(kernel, x, name="isolation_scores")

    def _checked(self, X: Any) -> Tensor:  # noqa: N803
        check_is_fitted(self, "estimators_")
        x = check_array(X, dtype=np.float32, ensure_all_finite=False, estimator=self)
        check_features(self, X, x)
        return x

    def score_samples(self, X: Any) -> Tensor:  # noqa: N803
        """Minus the anomaly score of each sample (lower: more abnormal), a lazy tensor."""
        return self._scores(self._checked(X))

    def decision_function(self, X: Any) -> Tensor:  # noqa: N803
        """``score_samples - offset_``: negative for outliers, a lazy tensor."""
        result: Tensor = self.score_samples(X) - self.offset_
        return result

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """1 for inliers, -1 for outliers (a lazy tensor)."""
        labels: Tensor = mt.where(mt.less(self.decision_function(X), 0), -1, 1)
        return labels

    def fit_predict(self, X: Any, y: Any = None, **kwargs: Any) -> Tensor:  # noqa: N803
        """``fit`` then ``predict`` on the same data (a lazy tensor)."""
        return self.fit(X, **kwargs).predict(X)

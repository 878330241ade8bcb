"""``BaggingClassifier`` and ``BaggingRegressor``: scikit-learn estimators fitted on
random samples of the rows (and of the features), their predictions averaged.

Each member is a scikit-learn estimator fitted in a task of its own on its sample, drawn
block by block where the data lie (``sampling.py``); the fitted members come back to the
driver as ``estimators_``. Predictions run one task per row block, each applying every
member to its block, and come back as lazy tensors.

The features of each member are drawn from its seed as scikit-learn draws them, so
``estimators_features_`` equals scikit-learn's for the same ``random_state``; the rows
are drawn differently (within blocks), so the members differ, but not the quality.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils._param_validation import HasMethods, Interval, RealNotInt
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.random import sample_without_replacement

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin, RegressorMixin
from jupyter_mars.learn.ensemble.sampling import MAX_INT, fit_on_samples, set_random_states
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.multiclass import encode_labels, label_tensor
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    check_random_state,
    check_X_y,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["BaggingClassifier", "BaggingRegressor"]


def n_samples_to_draw(n_samples: int, max_samples: Any, bootstrap: bool) -> int:
    """``max_samples`` as a number of rows, as scikit-learn's bagging reads it."""
    if max_samples is None:
        draws = n_samples
    elif isinstance(max_samples, numbers.Integral):
        draws = int(max_samples)
    else:
        draws = max(int(max_samples * n_samples), 1)
        if draws < max(10, n_samples ** (1 / 3)):
            warnings.warn(
                f"Using the fractional value max_samples={max_samples} when the number of "
                f"samples is {n_samples} results in a low number ({draws}) of bootstrap "
                "samples. We recommend passing `max_samples` as an integer instead.",
                stacklevel=3,
            )
    if not bootstrap and draws > n_samples:
        raise ValueError(
            f"Effective max_samples={draws} must be <= n_samples={n_samples} to be able to "
            "sample without replacement."
        )
    return draws


def n_features_to_draw(n_features: int, max_features: Any) -> int:
    """``max_features`` as a number of features, as scikit-learn's bagging reads it."""
    if isinstance(max_features, numbers.Integral):
        count = int(max_features)
    else:
        count = int(max_features * n_features)
    if count > n_features:
        raise ValueError("max_features must be <= n_features")
    return max(1, count)


def draw_features(seed: int, bootstrap: bool, n_features: int, count: int) -> np.ndarray[Any, Any]:
    """The features of the member seeded ``seed``: scikit-learn's first draw from it."""
    rng = np.random.RandomState(seed)
    if bootstrap:
        return rng.randint(0, n_features, count)
    return np.asarray(sample_without_replacement(n_features, count, random_state=rng))


def fit_member(member: tuple[Any, Any], x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> Any:
    """The member's estimator fitted on its sample (its features of it)."""
    estimator, features = member
    return estimator.fit(x if features is None else x[:, features], y)


def _columns(x: np.ndarray[Any, Any], features: Any) -> np.ndarray[Any, Any]:
    return x if features is None else x[:, features]


def bagged_proba(
    estimators: list[Any], features: list[Any], n_classes: int, x: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The members' mean class probabilities (votes, for members without
    ``predict_proba``), over the classes they were fitted on, as scikit-learn's."""
    proba = np.zeros((len(x), n_classes))
    for estimator, cols in zip(estimators, features):
        rows = _columns(x, cols)
        if hasattr(estimator, "predict_proba"):
            member = estimator.predict_proba(rows)
            if len(estimator.classes_) == n_classes:
                proba += member
            else:
                proba[:, estimator.classes_] += member[:, range(len(estimator.classes_))]
        else:
            proba[np.arange(len(x)), estimator.predict(rows)] += 1
    return proba / len(estimators)


def bagged_class(
    estimators: list[Any], features: list[Any], classes: np.ndarray[Any, Any], x: Any
) -> np.ndarray[Any, Any]:
    """The class of the highest mean probability."""
    proba = bagged_proba(estimators, features, len(classes), x)
    return np.asarray(classes.take(np.argmax(proba, axis=1), axis=0))


def bagged_log_proba(
    estimators: list[Any], features: list[Any], n_classes: int, x: Any
) -> np.ndarray[Any, Any]:
    with np.errstate(divide="ignore"):
        return np.asarray(np.log(bagged_proba(estimators, features, n_classes, x)))


def bagged_method(
    method: str, estimators: list[Any], features: list[Any], x: Any
) -> np.ndarray[Any, Any]:
    """The members' mean of ``method`` (``predict`` of a regressor, a
    ``decision_function``)."""
    total = sum(getattr(e, method)(_columns(x, f)) for e, f in zip(estimators, features))
    return np.asarray(total) / len(estimators)


def _member_has(name: str) -> Any:
    """For ``available_if``: the members (or the estimator to be fitted) have ``name``."""

    def check(self: Any) -> bool:
        if hasattr(self, "estimators_"):
            return hasattr(self.estimators_[0], name)
        return hasattr(self._base_estimator(), name)

    return check


class BaseBagging(BaseEstimator):  # type: ignore[misc]
    """What the bagging classifier and regressor share: the sampling and the fit."""

    _parameter_constraints: dict[str, list[Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_samples": [
            None,
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "max_features": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "bootstrap": ["boolean"],
        "bootstrap_features": ["boolean"],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
    }
    _default: type[BaseEstimator] = DecisionTreeRegressor

    def __init__(
        self,
        estimator: Any = None,
        n_estimators: int = 10,
        *,
        max_samples: Any = None,
        max_features: Any = 1.0,
        bootstrap: bool = True,
        bootstrap_features: bool = False,
        warm_start: bool = False,
        random_state: Any = None,
    ) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.warm_start = warm_start
        self.random_state = random_state

    def _base_estimator(self) -> Any:
        return self._default() if self.estimator is None else self.estimator

    def _targets(self, y: Tensor, session: Session | None, run_kwargs: Any) -> Tensor:
        """The targets the members are fitted on (the class indices, for a classifier)."""
        return y

    def _fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        session: Session | None,
        run_kwargs: dict[str, Any] | None,
    ) -> Any:
        self._validate_params()
        x, t = check_X_y(
            X,
            y if y is None else label_tensor(y),
            dtype=None,
            ensure_all_finite=False,
            multi_output=True,
            estimator=self,
        )
        if t.ndim == 2 and t.shape[1] == 1:
            t = t.ravel()
        x = with_known_rows(x, session, run_kwargs)
        n_samples, n_features = (int(n) for n in x.shape)
        targets = self._targets(t, session, run_kwargs)
        draws = n_samples_to_draw(n_samples, self.max_samples, self.bootstrap)
        n_drawn_features = n_features_to_draw(n_features, self.max_features)
        rng = check_random_state(self.random_state)
        if not self.warm_start or not hasattr(self, "estimators_"):
            self.estimators_: list[Any] = []
            self.estimators_features_: list[np.ndarray[Any, Any]] = []
        n_more = self.n_estimators - len(self.estimators_)
        if n_more < 0:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be larger or equal to "
                f"len(estimators_)={len(self.estimators_)} when warm_start==True"
            )
        if n_more == 0:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators does not fit new trees.",
                stacklevel=3,
            )
            return self
        if self.estimators_:
            rng.randint(MAX_INT, size=len(self.estimators_))  # skip the seeds already used
        seeds = rng.randint(MAX_INT, size=n_more).tolist()
        self.estimator_ = self._base_estimator()
        record_features(self, X, x)
        self._output_shape = tuple(int(n) for n in t.shape[1:])
        subset = self.bootstrap_features or n_drawn_features != n_features
        features: list[np.ndarray[Any, Any]] = []
        members: list[tuple[Any, Any]] = []
        for seed in seeds:
            cols = draw_features(int(seed), self.bootstrap_features, n_features, n_drawn_features)
            features.append(cols)
            members.append((set_random_states(clone(self.estimator_), int(seed)), cols))
        if not subset:  # every feature, in order: the members read X as it is
            members = [(estimator, None) for estimator, _ in members]
        fitted = fit_on_samples(fit_member, members, x, targets, draws, self.bootstrap, seeds)
        (models,) = fetch_all(fitted, session=session, run_kwargs=run_kwargs)
        self.estimators_ += list(models)
        self.estimators_features_ += features
        self._subset = subset
        self._max_samples = draws
        self._max_features = n_drawn_features
        return self

    def _checked(self, X: Any) -> Tensor:  # noqa: N803
        check_is_fitted(self, "estimators_")
        x = check_array(X, dtype=None, ensure_all_finite=False, estimator=self)
        check_features(self, X, x)
        return x

    def _member_features(self) -> list[Any]:
        return list(self.estimators_features_) if self._subset else [None] * len(self.estimators_)


class BaggingClassifier(ClassifierMixin, BaseBagging):
    """Scikit-learn's ``BaggingClassifier`` on tensors and frames: members fitted where
    the data lie, soft voting (mean probabilities; votes for members without
    ``predict_proba``) as scikit-learn's. The default member is a decision tree."""

    _default = DecisionTreeClassifier

    def _targets(self, y: Tensor, session: Session | None, run_kwargs: Any) -> Tensor:
        if y.ndim != 1:
            raise ValueError(
                f"y should be a 1d array, got an array of shape {tuple(y.shape)} instead."
            )
        (classes,) = fetch_all(mt.unique(y), session=session, run_kwargs=run_kwargs)
        check_classification_targets(classes)
        self.classes_ = classes
        self.n_classes_ = len(classes)
        return encode_labels(y, classes)

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> BaggingClassifier:
        """Fit the members, each on its sample, in tasks of the session's runtime."""
        self._fit(X, y, session, run_kwargs)
        return self

    def predict_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The members' mean class probabilities (a lazy tensor, one column per class)."""
        x = self._checked(X)
        kernel = functools.partial(
            bagged_proba, self.estimators_, self._member_features(), self.n_classes_
        )
        return map_rows(kernel, x, trailing=(self.n_classes_,), name="bagging_proba")

    def predict_log_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The log of ``predict_proba`` (a lazy tensor)."""
        x = self._checked(X)
        kernel = functools.partial(
            bagged_log_proba, self.estimators_, self._member_features(), self.n_classes_
        )
        return map_rows(kernel, x, trailing=(self.n_classes_,), name="bagging_log_proba")

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The class of the highest mean probability (a lazy tensor)."""
        x = self._checked(X)
        kernel = functools.partial(
            bagged_class, self.estimators_, self._member_features(), self.classes_
        )
        return map_rows(kernel, x, dtype=self.classes_.dtype, name="bagging_predict")

    @available_if(_member_has("decision_function"))  # type: ignore[untyped-decorator]
    def decision_function(self, X: Any) -> Tensor:  # noqa: N803
        """The members' mean decision function (a lazy tensor: one column per class, or
        one value per sample for two classes)."""
        x = self._checked(X)
        kernel = functools.partial(
            bagged_method, "decision_function", self.estimators_, self._member_features()
        )
        trailing = () if self.n_classes_ == 2 else (self.n_classes_,)
        return map_rows(kernel, x, trailing=trailing, name="bagging_decision")


class BaggingRegressor(RegressorMixin, BaseBagging):
    """Scikit-learn's ``BaggingRegressor`` on tensors and frames: members fitted where
    the data lie, their predictions averaged. The default member is a decision tree."""

    _default = DecisionTreeRegressor

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> BaggingRegressor:
        """Fit the members, each on its sample, in tasks of the session's runtime."""
        self._fit(X, y, session, run_kwargs)
        return self

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The members' mean prediction (a lazy tensor)."""
        x = self._checked(X)
        kernel = functools.partial(
            bagged_method, "predict", self.estimators_, self._member_features()
        )
        return map_rows(kernel, x, trailing=self._output_shape, name="bagging_predict")

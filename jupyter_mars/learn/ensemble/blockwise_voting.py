"""``BlockwiseVotingClassifier`` and ``BlockwiseVotingRegressor``: one copy of a
scikit-learn estimator fitted on each block of rows, as dask-ml's and Mars's.

``fit`` runs one task per row block of ``X`` (with the same rows of ``y``), each fitting
a clone of the estimator on its block; ``estimators_`` holds them, in block order.
Predictions run one task per row block of the new data, each asking every fitted copy:
the classifier takes the most frequent class (``voting='hard'``, ties to the first of
``classes_``) or the class of the highest mean probability (``'soft'``); the regressor
averages.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin, RegressorMixin
from jupyter_mars.learn.utils.blocks import map_rows, per_block
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.multiclass import label_tensor
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    check_X_y,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["BlockwiseVotingClassifier", "BlockwiseVotingRegressor"]


def fit_block(estimator: Any, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> Any:
    """A clone of ``estimator`` fitted on one block."""
    return clone(estimator).fit(x, y)


def hard_vote(
    estimators: list[Any], classes: np.ndarray[Any, Any], x: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The class most copies predict for each row (the first of ``classes`` on a tie)."""
    votes = np.zeros((len(x), len(classes)), dtype=np.int64)
    rows = np.arange(len(x))
    for estimator in estimators:
        votes[rows, np.searchsorted(classes, estimator.predict(x))] += 1
    return np.asarray(classes.take(np.argmax(votes, axis=1)))


def mean_proba(
    estimators: list[Any], classes: np.ndarray[Any, Any], x: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The copies' mean class probabilities, each copy's columns put at its classes."""
    proba = np.zeros((len(x), len(classes)))
    for estimator in estimators:
        columns = np.searchsorted(classes, estimator.classes_)
        proba[:, columns] += estimator.predict_proba(x)
    return proba / len(estimators)


def soft_vote(
    estimators: list[Any], classes: np.ndarray[Any, Any], x: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """The class of the highest mean probability."""
    return np.asarray(classes.take(np.argmax(mean_proba(estimators, classes, x), axis=1)))


def mean_prediction(estimators: list[Any], x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The copies' mean prediction."""
    return np.asarray(sum(e.predict(x) for e in estimators)) / len(estimators)


class BlockwiseBase(BaseEstimator):  # type: ignore[misc]
    """The fit both share: one clone of ``estimator`` per row block."""

    def __init__(self, estimator: Any) -> None:
        self.estimator = estimator

    def _fit_blocks(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        x: Tensor,
        t: Tensor,
        session: Session | None,
        run_kwargs: Any,
    ) -> None:
        """Fit the copies on the blocks of ``x`` (checked from ``X``) and ``t``."""
        fitted = per_block(functools.partial(fit_block, self.estimator), x, t, name="fit_block")
        (estimators,) = fetch_all(fitted, session=session, run_kwargs=run_kwargs)
        self.estimators_ = list(estimators)
        record_features(self, X, x)

    def _checked(self, X: Any) -> Tensor:  # noqa: N803
        check_is_fitted(self, "estimators_")
        x = check_array(X, dtype=None, estimator=self)
        check_features(self, X, x)
        return x


class BlockwiseVotingClassifier(ClassifierMixin, BlockwiseBase):
    """A copy of ``estimator`` per row block, predictions by vote.

    ``classes``: every class ``y`` may hold (found from ``y`` when None). ``voting``:
    ``'hard'``, the class most copies predict, or ``'soft'``, the class of the highest
    mean ``predict_proba`` (the copies must have it).
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "estimator": [HasMethods(["fit", "predict"])],
        "voting": [StrOptions({"hard", "soft"})],
        "classes": ["array-like", None],
    }

    def __init__(self, estimator: Any, voting: str = "hard", classes: Any = None) -> None:
        super().__init__(estimator)
        self.voting = voting
        self.classes = classes

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> BlockwiseVotingClassifier:
        """Fit one copy of ``estimator`` per row block of ``X``, in tasks."""
        self._validate_params()
        if self.voting == "soft" and not hasattr(self.estimator, "predict_proba"):
            raise ValueError(
                f"voting='soft' needs an estimator with predict_proba; "
                f"{type(self.estimator).__name__} has none"
            )
        x, t = check_X_y(X, y if y is None else label_tensor(y), dtype=None, estimator=self)
        if self.classes is None:
            (classes,) = fetch_all(mt.unique(t), session=session, run_kwargs=run_kwargs)
        else:
            classes = np.unique(np.asarray(self.classes))
        check_classification_targets(classes)
        self.classes_ = classes
        self._fit_blocks(X, x, t, session, run_kwargs)
        return self

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The voted class of each row (a lazy tensor)."""
        x = self._checked(X)
        vote = hard_vote if self.voting == "hard" else soft_vote
        kernel = functools.partial(vote, self.estimators_, self.classes_)
        return map_rows(kernel, x, dtype=self.classes_.dtype, name=f"{self.voting}_vote")

    def _soft(self) -> bool:
        return self.voting == "soft"

    @available_if(_soft)  # type: ignore[untyped-decorator]
    def predict_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The copies' mean class probabilities (``voting='soft'`` only; a lazy tensor)."""
        x = self._checked(X)
        kernel = functools.partial(mean_proba, self.estimators_, self.classes_)
        return map_rows(kernel, x, trailing=(len(self.classes_),), name="mean_proba")


class BlockwiseVotingRegressor(RegressorMixin, BlockwiseBase):
    """A copy of ``estimator`` per row block, predictions averaged."""

    _parameter_constraints: dict[str, list[Any]] = {
        "estimator": [HasMethods(["fit", "predict"])],
    }

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> BlockwiseVotingRegressor:
        """Fit one copy of ``estimator`` per row block of ``X``, in tasks."""
        self._validate_params()
        x, t = check_X_y(X, y if y is None else label_tensor(y), dtype=None, estimator=self)
        self._fit_blocks(X, x, t, session, run_kwargs)
        return self

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The copies' mean prediction for each row (a lazy tensor)."""
        x = self._checked(X)
        kernel = functools.partial(mean_prediction, self.estimators_)
        return map_rows(kernel, x, name="mean_prediction")

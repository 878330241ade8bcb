"""Scores of predictions by name, as scikit-learn's scorers give them (greater is better):
what the estimators' ``score`` methods and ``ParallelPostFit(scoring=...)`` compute.

``score_predictions(name, y, predictions, sample_weight)`` computes the scorer ``name``
(a key of ``SCORERS``, as ``sklearn.metrics.get_scorer`` names them) where the data lie
and returns it as a float: ``"accuracy"`` and ``"r2"`` by this package's
``accuracy_score`` and ``r2_score``, the error scorers by a mean over the chunks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.classification import accuracy_score
from jupyter_mars.learn.metrics.regression import r2_score
from jupyter_mars.learn.utils.multiclass import label_tensor
from jupyter_mars.learn.utils.validation import (
    check_consistent_length,
    execute_all,
    fetch_all,
    to_tensor,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["SCORERS", "score_predictions"]

Run = dict[str, Any] | None


def _accuracy(
    y: Any, pred: Tensor, weights: Any, session: Session | None, run_kwargs: Run
) -> Tensor:
    # the predictions are read twice (their labels are checked first): computed once
    execute_all(pred, session=session, run_kwargs=run_kwargs)
    return accuracy_score(y, pred, sample_weight=weights, session=session, run_kwargs=run_kwargs)


def _r2(y: Any, pred: Tensor, weights: Any, session: Session | None, run_kwargs: Run) -> Tensor:
    return r2_score(y, pred, sample_weight=weights, session=session, run_kwargs=run_kwargs)


def _mean_error(errors: Tensor, weights: Any) -> Tensor:
    """The (weighted) mean of ``errors`` over the samples, per output."""
    if weights is None:
        mean: Tensor = errors.mean(axis=0)
        return mean
    w = to_tensor(weights).astype(np.float64)
    total: Tensor = (errors * (w[:, None] if errors.ndim == 2 else w)).sum(axis=0) / w.sum()
    return total


def _errors(y: Any, pred: Tensor, square: bool) -> Tensor:
    truth = to_tensor(y).astype(np.float64)
    if truth.ndim == 2 and truth.shape[1] == 1 and pred.ndim == 1:
        truth = truth.ravel()
    gap = truth - pred
    errors: Tensor = gap * gap if square else abs(gap)
    return errors


def _squared(
    y: Any, pred: Tensor, weights: Any, session: Session | None, run_kwargs: Run
) -> Tensor:
    return _mean_error(_errors(y, pred, square=True), weights)


def _absolute(
    y: Any, pred: Tensor, weights: Any, session: Session | None, run_kwargs: Run
) -> Tensor:
    return _mean_error(_errors(y, pred, square=False), weights)


def _value(score: Any) -> float:
    return float(score)


def _negative_mean(errors: Any) -> float:
    return -float(np.mean(errors))


def _negative_root_mean(errors: Any) -> float:
    return -float(np.mean(np.sqrt(errors)))


Score = Callable[[Any, Tensor, Any, Session | None, Run], Tensor]
SCORERS: dict[str, tuple[Score, Callable[[Any], float]]] = {
    "accuracy": (_accuracy, _value),
    "r2": (_r2, _value),
    "neg_mean_squared_error": (_squared, _negative_mean),
    "neg_root_mean_squared_error": (_squared, _negative_root_mean),
    "neg_mean_absolute_error": (_absolute, _negative_mean),
}
"""Scorer name -> (the lazy tensor it computes, the float made of its data)."""


def score_predictions(
    name: str,
    y: Any,
    predictions: Any,
    sample_weight: Any = None,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> float:
    """The scorer ``name`` of ``predictions`` against the targets ``y`` (greater is
    better, as scikit-learn's scorers), computed where the data lie."""
    if name not in SCORERS:
        raise ValueError(f"scoring={name!r} is not computed chunk-wise; use one of {list(SCORERS)}")
    score, value = SCORERS[name]
    pred = label_tensor(predictions)
    check_consistent_length(y, pred, sample_weight)
    tensor = score(y, pred, sample_weight, session, run_kwargs)
    (data,) = fetch_all(tensor, session=session, run_kwargs=run_kwargs)
    return value(data)

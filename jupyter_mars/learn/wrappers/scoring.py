"""Scores of predictions computed chunk-wise: scikit-learn's ``accuracy``, ``r2`` and
error scorers as tensor reductions, so that ``score`` never gathers its data.

``score_predictions(name, y, predictions, sample_weight)`` computes the scorer ``name``
(a key of ``SCORERS``, as ``sklearn.metrics.get_scorer`` names them) and returns it as a
float; the ``score`` methods of the estimators here call it with ``"accuracy"`` (a
classifier) or ``"r2"`` (a regressor), as scikit-learn's mixins do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.multiclass import label_tensor
from jupyter_mars.learn.utils.validation import check_consistent_length, fetch_all, to_tensor
from jupyter_mars.tensor.core import Tensor

__all__ = ["SCORERS", "score_predictions"]


def _per_output(values: Tensor, weights: Tensor | None) -> Tensor:
    """The mean of ``values`` over samples (per column for 2-d targets), weighted by
    ``weights`` where given."""
    if weights is None:
        mean: Tensor = values.mean(axis=0)
        return mean
    w = weights[:, None] if values.ndim == 2 else weights
    total: Tensor = (values * w).sum(axis=0) / weights.sum()
    return total


def _accuracy(y: Tensor, pred: Tensor, w: Tensor | None) -> tuple[Tensor, ...]:
    same = mt.equal(y, pred)
    right = same if y.ndim == 1 else same.all(axis=1)
    if w is None:
        return (right.astype(np.float64).mean(),)
    return ((w * right).sum() / w.sum(),)


def _accuracy_value(parts: list[Any]) -> float:
    return float(parts[0])


def _r2(y: Tensor, pred: Tensor, w: Tensor | None) -> tuple[Tensor, ...]:
    yf = y.astype(np.float64)
    mean = _per_output(yf, w)
    return (_per_output((yf - pred) ** 2, w), _per_output((yf - mean) ** 2, w))


def _r2_value(parts: list[Any]) -> float:
    """Scikit-learn's ``r2_score`` from the mean squared residuals and deviations per
    output: 1 where both are 0, 0 where only the deviations are (``force_finite``)."""
    residual, deviation = (np.atleast_1d(np.asarray(p, dtype=np.float64)) for p in parts)
    scores = np.ones_like(residual)
    nonzero = deviation != 0
    scores[nonzero] = 1 - residual[nonzero] / deviation[nonzero]
    scores[~nonzero & (residual != 0)] = 0.0
    return float(scores.mean())


def _squared(y: Tensor, pred: Tensor, w: Tensor | None) -> tuple[Tensor, ...]:
    return (_per_output((y.astype(np.float64) - pred) ** 2, w),)


def _absolute(y: Tensor, pred: Tensor, w: Tensor | None) -> tuple[Tensor, ...]:
    return (_per_output(abs(y.astype(np.float64) - pred), w),)


def _negative_mean(parts: list[Any]) -> float:
    return -float(np.mean(parts[0]))


def _negative_root_mean(parts: list[Any]) -> float:
    return -float(np.mean(np.sqrt(parts[0])))


Parts = Callable[[Tensor, Tensor, Tensor | None], tuple[Tensor, ...]]
SCORERS: dict[str, tuple[Parts, Callable[[list[Any]], float]]] = {
    "accuracy": (_accuracy, _accuracy_value),
    "r2": (_r2, _r2_value),
    "neg_mean_squared_error": (_squared, _negative_mean),
    "neg_root_mean_squared_error": (_squared, _negative_root_mean),
    "neg_mean_absolute_error": (_absolute, _negative_mean),
}
"""Scorer name -> (the small tensors it needs, the float made of their data)."""


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
    parts, value = SCORERS[name]
    y_t, pred = label_tensor(y), label_tensor(predictions)
    weights = None if sample_weight is None else to_tensor(sample_weight).astype(np.float64)
    check_consistent_length(y_t, pred, weights)
    if y_t.ndim == 2 and y_t.shape[1] == 1 and pred.ndim == 1:
        y_t = y_t.ravel()
    return value(fetch_all(*parts(y_t, pred, weights), session=session, run_kwargs=run_kwargs))

"""The regressors' ``score``: R² as a lazy 0-d tensor, from reductions over the chunks."""

from __future__ import annotations

from typing import Any

import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import check_consistent_length, to_tensor
from jupyter_mars.tensor.core import Tensor


def r2_score(y_true: Any, y_pred: Any, sample_weight: Any = None) -> Tensor:
    """The coefficient of determination, averaged uniformly over the outputs, with
    scikit-learn's finite values where ``y_true`` is constant: 1.0 for a perfect
    prediction, else 0.0. A lazy 0-d tensor."""
    truth, predicted = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(truth, predicted, sample_weight)
    if truth.ndim == 1:
        truth = truth[:, None]
    if predicted.ndim == 1:
        predicted = predicted[:, None]
    if sample_weight is None:
        weights: Any = 1.0
        mean = truth.mean(axis=0)
    else:
        weights = to_tensor(sample_weight)[:, None]
        mean = (truth * weights).sum(axis=0) / weights.sum()
    residual = ((truth - predicted) ** 2 * weights).sum(axis=0)
    spread = ((truth - mean) ** 2 * weights).sum(axis=0)
    safe = mt.where(spread != 0, spread, 1.0)
    per_output = mt.where(spread != 0, 1.0 - residual / safe, mt.where(residual == 0, 1.0, 0.0))
    score: Tensor = per_output.mean()
    return score

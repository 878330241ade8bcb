"""``r2_score``, the coefficient of determination, as scikit-learn's, chunk-wise.

Its inputs are checked as scikit-learn's ``_check_reg_targets`` checks them, from their
shapes and dtypes, at the user's line; the score is a lazy tensor (two column sums of
squares, reduced chunk by chunk). What needs the values, NaN in a tensor or weights that
are all zero, is checked when the score is computed, still a ``ValueError``; for arrays
in memory it is checked at once.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.utils.validation import (
    all_zero,
    check_array,
    check_consistent_length,
    check_sample_weight,
    fetch_all,
    is_lazy,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["r2_score"]

_MULTIOUTPUT = ("raw_values", "uniform_average", "variance_weighted")


def _float_dtype(*arrays: Any) -> np.dtype[Any]:
    """float32 where every input that has a dtype is float32, else float64 (as
    scikit-learn's ``_find_matching_floating_dtype``)."""
    dtypes = [np.asarray(a).dtype if not hasattr(a, "dtype") else a.dtype for a in arrays]
    floats = [d for d in dtypes if d.kind == "f"]
    if floats and all(d == np.float32 for d in floats):
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _raise_if_all_zero(weights: np.ndarray, none: np.ndarray) -> np.ndarray:
    """The block of weights, once ``raise_if_all_zero`` passed them."""
    raise_if_all_zero(none)
    return weights


def _output_weights(
    multioutput: Any, outputs: int, session: Session | None, run_kwargs: dict[str, Any] | None
) -> Any:
    """``multioutput`` checked: one of the names, or one weight per output (an array)."""
    if isinstance(multioutput, str):
        if multioutput not in _MULTIOUTPUT:
            raise ValueError(
                f"Allowed 'multioutput' string values are {_MULTIOUTPUT}. You provided "
                f"multioutput={multioutput!r}"
            )
        return multioutput
    weights = check_array(multioutput, ensure_2d=False, input_name="multioutput")
    if outputs == 1:
        raise ValueError("Custom weights are useful only in multi-output cases.")
    if weights.shape[0] != outputs:
        raise ValueError(
            f"There must be equally many custom weights ({weights.shape[0]}) as outputs "
            f"({outputs})."
        )
    (values,) = fetch_all(weights, session=session, run_kwargs=run_kwargs)
    if not np.sum(values):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return values


@computed
def r2_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """:math:`R^2`: one minus the (weighted) residual sum of squares over the total sum
    of squares about the mean, per output, as scikit-learn's.

    ``multioutput``: ``'uniform_average'`` (the mean over outputs), ``'raw_values'`` (one
    score per output), ``'variance_weighted'`` (weighed by each output's variance), or an
    array of weights. With ``force_finite`` a constant ``y_true`` scores 1.0 if predicted
    exactly and 0.0 otherwise, rather than NaN or minus infinity.

    Returns a lazy tensor: 0-d, or one score per output for ``'raw_values'``. With fewer
    than two samples it is NaN, with an ``UndefinedMetricWarning``.
    """
    dtype = _float_dtype(y_true, y_pred, *([] if sample_weight is None else [sample_weight]))
    check_consistent_length(y_true, y_pred, sample_weight)
    true = check_array(y_true, ensure_2d=False, dtype=dtype)
    pred = check_array(y_pred, ensure_2d=False, dtype=dtype)
    rows = true.shape[0]
    weight = check_sample_weight(sample_weight, rows, dtype)
    true = true if true.ndim == 2 else true[:, None]
    pred = pred if pred.ndim == 2 else pred[:, None]
    if true.shape[1] != pred.shape[1]:
        raise ValueError(
            "y_true and y_pred have different number of output "
            f"({int(true.shape[1])}!={int(pred.shape[1])})"
        )
    outputs = int(true.shape[1])
    averaging = _output_weights(multioutput, outputs, session, run_kwargs)
    if not np.isnan(rows) and rows < 2:
        warnings.warn(
            "R^2 score is not well-defined with less than two samples.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return mt.tensor(np.float64(np.nan))
    if weight is not None and is_lazy(sample_weight):
        # every use of the weights waits for their check: no sum divides by zero first
        weight = mt.elemwise(
            _raise_if_all_zero, weight, all_zero(weight), dtype=weight.dtype, name="check_weights"
        )
    if weight is None:
        column: Any = 1.0
        mean = true.mean(axis=0)
    else:
        # the weights are summed as the weighted values are, chunk for chunk, so that a
        # constant column's mean is that constant
        column = weight[:, None]
        mean = (column * true).sum(axis=0) / (column * mt.ones_like(true)).sum(axis=0)
    numerator = (column * (true - pred) ** 2).sum(axis=0)
    denominator = (column * (true - mean) ** 2).sum(axis=0)
    scores = _fraction_explained(numerator, denominator, force_finite)
    if isinstance(averaging, str) and averaging == "raw_values":
        result = scores
    elif isinstance(averaging, str) and averaging == "uniform_average":
        result = scores.mean()
    elif isinstance(averaging, str):
        # weighed by the outputs' variances, unless all are constant: then uniformly
        total = denominator.sum()
        weighted = (scores * denominator).sum() / mt.where(mt.equal(total, 0), 1.0, total)
        result = mt.where(mt.any(mt.not_equal(denominator, 0)), weighted, scores.mean())
    else:
        result = (scores * averaging.astype(dtype)).sum() / averaging.sum()
    out: Tensor = result.astype(dtype, copy=False)
    return out


def _fraction_explained(numerator: Tensor, denominator: Tensor, force_finite: bool) -> Tensor:
    """``1 - numerator / denominator``; with ``force_finite``, 1.0 where the numerator
    is zero and 0.0 where only the denominator is."""
    if not force_finite:
        out: Tensor = mt.subtract(1, numerator / denominator)
        return out
    defined = mt.logical_and(mt.not_equal(numerator, 0), mt.not_equal(denominator, 0))
    ratio = mt.subtract(1, numerator / mt.where(defined, denominator, 1.0))
    fallback = mt.where(mt.not_equal(numerator, 0), 0.0, 1.0).astype(numerator.dtype)
    out = mt.where(defined, ratio, fallback)
    return out

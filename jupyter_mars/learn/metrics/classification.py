"""``accuracy_score`` and ``log_loss``, as scikit-learn's, returning lazy 0-d tensors.

Both check their inputs when called, as scikit-learn does: what the checks need of the
data (the targets' labels and types; for ``log_loss`` also the probabilities' range and
row sums) is computed then, in one round trip of small results on ``session``. The
score itself is a lazy 0-d float tensor, computed chunk by chunk when executed:
``float(score.execute().fetch())`` is scikit-learn's number.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.metrics.targets import check_targets
from jupyter_mars.learn.utils.multiclass import (
    encode_labels,
    label_tensor,
    summarize,
    summary_of,
    type_of_target,
    union_labels,
)
from jupyter_mars.learn.utils.validation import (
    FLOAT_DTYPES,
    all_zero,
    check_array,
    check_consistent_length,
    check_sample_weight,
    fetch_all,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["accuracy_score", "log_loss"]


def weighted_average(score: Tensor, weight: Tensor | None, normalize: bool = True) -> Tensor:
    """The mean of ``score`` (weighed by ``weight``), or its (weighted) sum when not
    ``normalize``: scikit-learn's ``_average`` of a 1-d score, in the float dtype of the
    score and weights (float64 for neither)."""
    floats = [t.dtype for t in (score, weight) if t is not None and t.dtype.kind == "f"]
    dtype = np.result_type(*floats) if floats else np.dtype(np.float64)
    values = score.astype(dtype)
    if weight is None:
        out: Tensor = values.mean() if normalize else values.sum()
        return out
    weights = weight.astype(dtype)
    total = (values * weights).sum()
    out = total / weights.sum() if normalize else total
    return out


@computed
def accuracy_score(
    y_true: Any,
    y_pred: Any,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The fraction (or with ``normalize=False`` the number, or weight) of samples whose
    label is predicted right; for multilabel targets, whose whole set of labels is.

    Returns a lazy 0-d float tensor. The targets are checked when called: one computation
    of their distinct labels on ``session`` (``run_kwargs`` go to its ``execute``).
    """
    targets = check_targets(y_true, y_pred, sample_weight, session=session, run_kwargs=run_kwargs)
    if targets.y_type == "multilabel-indicator":
        right = mt.all(mt.equal(targets.y_true, targets.y_pred), axis=1)
    else:
        right = mt.equal(
            encode_labels(targets.y_true, targets.labels),
            encode_labels(targets.y_pred, targets.labels),
        )
    return weighted_average(right, targets.weight, normalize)


def _as_columns(y_proba: Tensor) -> Tensor:
    """The probabilities as one column per class: a 1-d (or one-column) ``y_proba`` is
    the greater class's, beside which the other's is ``1 - y_proba``."""
    columns = y_proba if y_proba.ndim == 2 else y_proba[:, None]
    if columns.shape[1] == 1:
        columns = mt.concatenate([mt.subtract(1, columns), columns], axis=1)
    return columns


def _declared_classes(labels: Any, present: np.ndarray) -> np.ndarray:
    """The sorted classes of ``labels``, warning where they were not given in that order
    and refusing labels of ``y_true`` they do not hold."""
    given = np.asarray(labels)
    classes = np.unique(given)
    if classes.shape != given.shape or not np.all(classes == given):
        warnings.warn(
            f"Labels passed were {labels}. But this function assumes labels are ordered "
            f"lexicographically. Pass the ordered labels={classes.tolist()} and ensure that "
            "the columns of y_prob correspond to this ordering.",
            UserWarning,
            stacklevel=3,
        )
    missing = np.setdiff1d(present, classes)
    if missing.size:
        raise ValueError(
            f"y_true contains values {set(missing.tolist())} not belonging to the passed "
            f"labels {labels}."
        )
    return classes


@computed
def log_loss(
    y_true: Any,
    y_proba: Any = None,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The mean (or with ``normalize=False`` the total) negative log-likelihood of the
    true labels under the predicted probabilities ``y_proba``, as scikit-learn 1.9's:
    probabilities are clipped to ``[eps, 1 - eps]`` of their float dtype, rows that do
    not sum to one draw a ``UserWarning``, and values outside ``[0, 1]`` a
    ``ValueError``. A 1-d ``y_proba`` holds the probability of the greater class.

    Returns a lazy 0-d float tensor; the checks (of the labels, the probabilities' range
    and row sums) are computed when called, on ``session``.
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError(
                "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use "
                "`y_proba` instead."
            )
        warnings.warn(
            "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. "
            "Use `y_proba` instead.",
            FutureWarning,
            stacklevel=2,
        )
        y_proba = y_pred
    proba = check_array(
        y_proba, ensure_2d=False, dtype=[np.float64, np.float32, np.float16], input_name="y_proba"
    )
    true = label_tensor(y_true)
    check_consistent_length(proba, true, sample_weight)
    weight = check_sample_weight(
        sample_weight, proba.shape[0], FLOAT_DTYPES, allow_all_zero_weights=True
    )
    columns = _as_columns(proba)
    eps = float(np.finfo(proba.dtype).eps)
    row_sums = mt.isclose(columns.sum(axis=1), 1.0, rtol=np.sqrt(eps), atol=1e-8)
    wanted = [proba.max(), proba.min(), mt.all(row_sums), summarize(true)]
    if weight is not None:
        wanted.append(all_zero(weight))
    fetched = fetch_all(*wanted, session=session, run_kwargs=run_kwargs)
    largest, smallest, sums_to_one, summary = (
        fetched[0],
        fetched[1],
        fetched[2],
        summary_of(fetched[3]),
    )
    if largest > 1:
        raise ValueError(f"y_prob contains values greater than 1: {largest}")
    if smallest < 0:
        raise ValueError(f"y_prob contains values lower than 0: {smallest}")
    rows = proba.shape[0]
    if not np.isnan(rows) and summary.rows != rows:
        shown = [int(rows), summary.rows]
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {shown}")
    if weight is not None:
        raise_if_all_zero(fetched[4])
    y_type = type_of_target(true, "y_true", summary=summary)
    if labels is not None:
        classes = _declared_classes(labels, union_labels(summary))
    else:
        if "multioutput" in y_type:
            raise ValueError("Multioutput target data is not supported with label binarization")
        if summary.rows == 0:
            raise ValueError(f"y has 0 samples: {y_true!r}")
        if y_type == "multilabel-indicator":
            classes = np.arange(int(true.shape[1]))
        elif y_type in ("binary", "multiclass"):
            classes = union_labels(summary)
        else:
            raise ValueError(f"Unknown label type: {y_type}")
    if len(classes) == 1:
        if labels is None:
            raise ValueError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all "
                "expected class labels explicitly through the labels argument."
            )
        raise ValueError(f"The labels array needs to contain at least two labels, got {classes}.")
    if y_type == "multilabel-indicator":
        onehot = mt.not_equal(true, 0).astype(proba.dtype)
    else:
        codes = encode_labels(true if true.ndim == 1 else true.ravel(), classes)
        onehot = mt.equal(codes[:, None], mt.arange(len(classes))[None, :]).astype(proba.dtype)
    if not sums_to_one:
        warnings.warn(
            "The y_prob values do not sum to one. Make sure to pass probabilities.",
            UserWarning,
            stacklevel=2,
        )
    if len(classes) != columns.shape[1]:
        if labels is None:
            raise ValueError(
                "y_true and y_prob contain different number of classes: "
                f"{len(classes)} vs {int(columns.shape[1])}. Please provide the true labels "
                f"explicitly through the labels argument. Classes found in y_true: {classes}"
            )
        raise ValueError(
            "The number of classes in labels is different from that in y_prob. Classes "
            f"found in labels: {classes}"
        )
    clipped = mt.clip(columns, eps, 1 - eps)
    loss = -(onehot * mt.log(clipped)).sum(axis=1)
    return weighted_average(loss, weight, normalize)

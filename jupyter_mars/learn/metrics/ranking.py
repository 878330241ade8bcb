"""``roc_curve`` and ``auc``, as scikit-learn's, on tensors.

A ROC curve is computed chunk-wise: the scores are sorted (``mt.argsort``), the true and
false positives accumulated (``mt.cumsum``) and read at the last sample of each distinct
score. Corners are found by comparing each step with the next, so the curve keeps the
points scikit-learn keeps with ``drop_intermediate``. The curve's length depends on the
data: it is ``nan`` until computed. The checks (the target's labels, finite scores, the
totals of positives and negatives that decide scikit-learn's warnings) are computed when
the function is called, in one round trip of small results on ``session``.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.utils.multiclass import (
    label_tensor,
    summarize,
    summary_of,
    type_of_target,
)
from jupyter_mars.learn.utils.validation import (
    FLOAT_DTYPES,
    all_zero,
    check_consistent_length,
    check_sample_weight,
    column_or_1d,
    fetch_all,
    raise_if_all_zero,
    to_tensor,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["auc", "roc_curve"]


# ---- labels -------------------------------------------------------------------------------------


def _equal_block(block: np.ndarray, label: Any) -> np.ndarray:
    if (block.dtype.kind in "OUS") != isinstance(label, str):
        if block.dtype.kind != "O":
            return np.zeros(block.shape, dtype=bool)
    return np.asarray(block == label, dtype=bool).reshape(block.shape)


def equals_label(y: Tensor, label: Any) -> Tensor:
    """Where ``y`` holds ``label``: False throughout where one is a string and the other
    not, as NumPy compares them."""
    return mt.elemwise(
        functools.partial(_equal_block, label=label), y, dtype=np.dtype(bool), name="is_label"
    )


# ---- the lazy curve -----------------------------------------------------------------------------


def _is_corner(values: Tensor) -> Tensor:
    """Where a sequence changes slope: its ends, and each point whose step in differs from
    its step out (``diff(values, 2) != 0`` at the inner points, for any length)."""
    steps = mt.diff(values)
    nan = mt.tensor(np.array([np.nan]))
    corner: Tensor = mt.not_equal(mt.concatenate([nan, steps]), mt.concatenate([steps, nan]))
    return corner


def curve_counts(
    positive: Tensor, score: Tensor, weight: Tensor | None, drop_intermediate: bool
) -> tuple[Tensor, Tensor, Tensor]:
    """False and true positives (weighted) at each distinct score, highest first, and
    those scores: scikit-learn's ``confusion_matrix_at_thresholds``, with the points
    between collinear neighbours dropped if ``drop_intermediate``. ``positive`` holds 1.0
    for a positive sample and 0.0 for a negative one; zero-weighted samples are left out."""
    if weight is not None:
        kept = mt.not_equal(weight, 0)
        positive, score, weight = positive[kept], score[kept], weight[kept]
    order = mt.argsort(-score)
    score, positive = score[order], positive[order]
    negative = mt.subtract(1.0, positive)
    if weight is not None:
        weight = weight[order]
        positive, negative = positive * weight, negative * weight
    last = mt.concatenate([mt.not_equal(mt.diff(score), 0), mt.tensor(np.array([True]))])
    fps, tps, thresholds = mt.cumsum(negative)[last], mt.cumsum(positive)[last], score[last]
    if drop_intermediate:
        corner = mt.logical_or(_is_corner(fps), _is_corner(tps))
        fps, tps, thresholds = fps[corner], tps[corner], thresholds[corner]
    return fps, tps, thresholds


def rates(counts: Tensor) -> Tensor:
    """Counts from zero, as fractions of the last (the total); NaN if the total is not
    positive (a curve without negatives, or without positives)."""
    counts = mt.concatenate([mt.tensor(np.array([0.0])), counts])
    total = counts[-1]
    out: Tensor = mt.where(total > 0, counts / mt.where(total > 0, total, 1.0), np.nan)
    return out


def trapezoid_area(x: Tensor, y: Tensor) -> Tensor:
    """The area under the polyline through ``(x, y)``, by the trapezoidal rule, as
    NumPy's ``trapezoid`` sums it; any length, known or not."""
    out: Tensor = (mt.diff(x) * (y[1:] + y[:-1]) / 2.0).sum()
    return out


def score_tensor(y_score: Any) -> Tensor:
    """The scores as a 1-d tensor (a column is raveled)."""
    return column_or_1d(to_tensor(y_score))


def finite_flags(score: Tensor) -> list[Tensor]:
    """Whether ``score`` holds NaN, and infinity: the checks ``raise_if_not_finite``
    makes once fetched."""
    if score.dtype.kind not in "fc":
        return [mt.tensor(False), mt.tensor(False)]
    return [mt.any(mt.isnan(score)), mt.any(mt.isinf(score))]


def raise_if_not_finite(has_nan: Any, has_inf: Any, dtype: np.dtype[Any]) -> None:
    if bool(has_nan):
        raise ValueError("Input contains NaN.")
    if bool(has_inf):
        raise ValueError(f"Input contains infinity or a value too large for {dtype!r}.")


def warn_if_one_sided(negatives: float, positives: float) -> None:
    """scikit-learn's warnings for a curve without negative or positive samples."""
    if negatives <= 0:
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    if positives <= 0:
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=3,
        )


# ---- the functions ------------------------------------------------------------------------------


def _positive_label(pos_label: Any, classes: np.ndarray | None) -> Any:
    """``pos_label``, or 1 where the labels are {0, 1}, {-1, 1} or one of them; else
    scikit-learn's ``ValueError``."""
    if pos_label is not None:
        return pos_label
    values = [] if classes is None else classes.tolist()
    allowed = ([0, 1], [-1, 1], [0], [-1], [1])
    if classes is None or classes.dtype.kind in "OUS" or values not in allowed:
        shown = ", ".join(repr(v) for v in values)
        raise ValueError(
            f"y_true takes value in {{{shown}}} and pos_label is not specified: either make "
            "y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


@computed
def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """The receiver operating characteristic of a binary classifier's scores, as
    scikit-learn's: ``(fpr, tpr, thresholds)``, one point per distinct score from the
    highest, after a first point ``(0, 0)`` whose threshold is ``inf``. ``pos_label`` is
    the positive class (1 by default, for labels {0, 1} or {-1, 1}).

    Returns three lazy 1-d tensors whose length is known once computed. The checks are
    computed when called, on ``session``, and warn (``UndefinedMetricWarning``) where
    ``y_true`` has no negative or no positive samples: those rates are then NaN.
    """
    true = label_tensor(y_true)
    score = score_tensor(y_score)
    check_consistent_length(true, score, sample_weight)
    rows = true.shape[0] if true.ndim else np.nan
    weight = check_sample_weight(sample_weight, rows, FLOAT_DTYPES, allow_all_zero_weights=True)
    flat = true.ndim == 1 or (true.ndim == 2 and true.shape[1] == 1)
    guess = 1 if pos_label is None else pos_label
    positive = equals_label(true.ravel() if flat else true[:, 0], guess).astype(np.float64)
    weights: Any = 1.0 if weight is None else weight.astype(np.float64)
    wanted = [
        summarize(true),
        *finite_flags(score),
        (positive * weights).sum(),
        (mt.subtract(1.0, positive) * weights).sum(),
    ]
    if weight is not None:
        wanted.append(all_zero(weight))
    fetched = fetch_all(*wanted, session=session, run_kwargs=run_kwargs)
    summary = summary_of(fetched[0])
    y_type = type_of_target(true, "y_true", summary=summary)
    if not (y_type == "binary" or (y_type == "multiclass" and pos_label is not None)):
        raise ValueError(f"{y_type} format is not supported")
    _positive_label(pos_label, summary.values)
    if not np.isnan(score.shape[0]) and summary.rows != score.shape[0]:
        shown = [summary.rows, int(score.shape[0])]
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {shown}")
    true = column_or_1d(true)
    raise_if_not_finite(fetched[1], fetched[2], score.dtype)
    if weight is not None:
        raise_if_all_zero(fetched[5])
    warn_if_one_sided(float(fetched[4]), float(fetched[3]))
    fps, tps, thresholds = curve_counts(
        positive, score.astype(np.float64), weight, drop_intermediate
    )
    first = mt.tensor(np.array([np.inf]))
    return rates(fps), rates(tps), mt.concatenate([first, thresholds])


@computed
def auc(
    x: Any,
    y: Any,
    *,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The area under the curve through the points ``(x, y)``, by the trapezoidal rule,
    as scikit-learn's: ``x`` must be increasing or decreasing (the area is positive
    either way). Returns a lazy 0-d tensor; the direction of ``x`` is checked when
    called, on ``session``."""
    check_consistent_length(x, y)
    xs, ys = column_or_1d(to_tensor(x)), column_or_1d(to_tensor(y))
    steps = mt.diff(xs)
    count, falls, never_rises = fetch_all(
        mt.ones_like(xs, dtype=np.int64).sum(),
        mt.any(steps < 0),
        mt.all(steps <= 0),
        session=session,
        run_kwargs=run_kwargs,
    )
    if count < 2:
        raise ValueError(
            f"At least 2 points are needed to compute area under curve, but x.shape = {int(count)}"
        )
    direction = 1.0
    if falls:
        if not never_rises:
            (shown,) = fetch_all(xs, session=session, run_kwargs=run_kwargs)
            raise ValueError(f"x is neither increasing nor decreasing : {shown}.")
        direction = -1.0
    area: Tensor = trapezoid_area(xs, ys) * direction
    return area

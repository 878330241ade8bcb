"""Precision, recall and F-scores: ``precision_recall_fscore_support`` and the scores
built on it (``precision_score``, ``recall_score``, ``fbeta_score``, ``f1_score``).

The confusion counts per label are reductions (``confusion.class_sums``). Unlike the other
metrics, these are computed when the function is called: scikit-learn warns
(``UndefinedMetricWarning``) where a ratio divides by zero, which only the counts tell. The
counts are small (one per label; for ``average='samples'``, per-sample ratios are reduced
to their sums before they are fetched), so the division and averaging are done in the
driver with NumPy, and the results returned as tensors, as Mars returned them.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.metrics.confusion import ClassSums, class_sums
from jupyter_mars.learn.metrics.targets import check_targets
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "f1_score",
    "fbeta_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")
_WARN_FOR = ("precision", "recall", "f-score")


def _zero_division_value(zero_division: Any) -> float:
    """The value a ratio dividing by zero takes; a ``ValueError`` for a bad choice."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        if math.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(
        "The 'zero_division' parameter must be a float among {0.0, 1.0, nan} or a str among "
        f"{{'warn'}}. Got {zero_division!r} instead."
    )


def _check_parameters(beta: Any, average: Any, zero_division: Any) -> float:
    if average not in _AVERAGES and average != "binary":
        raise ValueError(f"average has to be one of {_AVERAGES}; got average={average!r}")
    if not isinstance(beta, numbers.Real) or isinstance(beta, bool) or not float(beta) >= 0:
        raise ValueError(
            f"The 'beta' parameter must be a float in the range [0.0, inf). Got {beta!r} instead."
        )
    return _zero_division_value(zero_division)


def _warn_undefined(average: Any, modifier: str, metric: str, size: int) -> None:
    """scikit-learn's ``UndefinedMetricWarning`` for a ratio set where it divides by zero."""
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no {modifier} "
        f"{axis0}s. Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def _divide(numerator: Any, denominator: Any, zero: float) -> Any:
    """``numerator / denominator``, ``zero`` where the denominator is 0 (arrays or
    tensors alike)."""
    where = mt.where if isinstance(denominator, Tensor) else np.where
    empty = denominator == 0
    ratio = numerator / where(empty, 1.0, denominator)
    return where(empty, zero, ratio)


_MODIFIERS = {"precision": "predicted", "recall": "true", "f-score": "true nor predicted"}


def _ratios(tp: Any, pred: Any, true: Any, beta: float, zero: float) -> dict[str, tuple[Any, Any]]:
    """Each metric's values and denominators, from the counts."""
    tp, pred, true = (x.astype(np.float64) for x in (tp, pred, true))
    out = {"precision": (_divide(tp, pred, zero), pred), "recall": (_divide(tp, true, zero), true)}
    if math.isinf(beta):
        out["f-score"] = out["recall"]
    elif beta == 0:
        out["f-score"] = out["precision"]
    else:
        beta2 = beta**2
        denominator = beta2 * true + pred
        out["f-score"] = (_divide((1 + beta2) * tp, denominator, zero), denominator)
    return out


def _warned(warn_for: Sequence[str], zero_division: Any, beta: float) -> list[str]:
    """The metrics whose division by zero warns: those in ``warn_for`` when
    ``zero_division='warn'``; the F-score only where it is not precision or recall
    itself (``beta`` 0 or infinite)."""
    if not (isinstance(zero_division, str) and zero_division == "warn"):
        return []
    metrics = ["precision", "recall"]
    if not (math.isinf(beta) or beta == 0):
        metrics.append("f-score")
    return [m for m in metrics if m in warn_for]


def _nanaverage(values: np.ndarray, weights: np.ndarray | None) -> float:
    """The (weighted) mean of the values that are not NaN; unweighted where their
    weights sum to zero; NaN where there are none."""
    keep = ~np.isnan(values)
    if not keep.any():
        return math.nan
    if weights is None or not np.sum(weights[keep]):
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=weights[keep]))


def _classwise(
    sums: ClassSums,
    beta: float,
    average: Any,
    warn_for: Sequence[str],
    zero_division: Any,
    zero: float,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
) -> tuple[Any, ...]:
    tp, pred, true = fetch_all(
        sums.tp, sums.pred, sums.true, session=session, run_kwargs=run_kwargs
    )
    if average == "micro":
        tp, pred, true = (np.asarray([x.sum()]) for x in (tp, pred, true))
    ratios = _ratios(tp, pred, true, beta, zero)
    for metric in _warned(warn_for, zero_division, beta):
        _, denominator = ratios[metric]
        if np.any(denominator == 0):
            _warn_undefined(average, _MODIFIERS[metric], metric, len(denominator))
    scores = [ratios[m][0] for m in ("precision", "recall", "f-score")]
    if average is None:
        return (*(mt.tensor(s) for s in scores), mt.tensor(true))
    weights = true if average == "weighted" else None
    averaged = [mt.tensor(np.float64(_nanaverage(s, weights))) for s in scores]
    return (*averaged, None)


def _samplewise(
    sums: ClassSums,
    weight: Tensor | None,
    rows: int,
    beta: float,
    warn_for: Sequence[str],
    zero_division: Any,
    zero: float,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
) -> tuple[Any, ...]:
    """``average='samples'``: per-sample ratios, reduced chunk-wise to what their
    NaN-skipping (weighted) means and the warnings need."""
    ratios = _ratios(sums.tp, sums.pred, sums.true, beta, zero)
    wanted: list[Tensor] = []
    for metric in ("precision", "recall", "f-score"):
        values, denominator = ratios[metric]
        valid = ~mt.isnan(values)
        wanted += [mt.any(denominator == 0), valid.sum(), mt.where(valid, values, 0.0).sum()]
        if weight is not None:
            weights = weight.astype(np.float64)
            wanted += [
                mt.where(valid, weights, 0.0).sum(),
                mt.where(valid, weights * values, 0.0).sum(),
            ]
    fetched = fetch_all(*wanted, session=session, run_kwargs=run_kwargs)
    step = 3 if weight is None else 5
    averaged = []
    for i, metric in enumerate(("precision", "recall", "f-score")):
        part = fetched[i * step : (i + 1) * step]
        undefined, count, total = bool(part[0]), int(part[1]), float(part[2])
        if undefined and metric in _warned(warn_for, zero_division, beta):
            _warn_undefined("samples", _MODIFIERS[metric], metric, rows)
        if count == 0:
            value = math.nan
        elif weight is not None and float(part[3]):
            value = float(part[4]) / float(part[3])
        else:
            value = total / count
        averaged.append(mt.tensor(np.float64(value)))
    return (*averaged, None)


def _set_wise_labels(
    y_type: str, present: np.ndarray, average: Any, labels: Any, pos_label: Any
) -> Any:
    """The labels to count, as scikit-learn's ``_check_set_wise_labels`` decides them."""
    if average == "binary":
        if y_type == "binary":
            if pos_label not in present.tolist() and len(present) >= 2:
                raise ValueError(
                    f"pos_label={pos_label} is not a valid label. It should be one of {present}"
                )
            return [pos_label]
        options = list(_AVERAGES)
        if y_type == "multiclass":
            options.remove("samples")
        raise ValueError(
            f"Target is {y_type} but average='binary'. Please choose another average "
            f"setting, one of {options}."
        )
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive "
            "class.",
            UserWarning,
            stacklevel=3,
        )
    return labels


@computed
def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: Sequence[str] = _WARN_FOR,
    sample_weight: Any = None,
    zero_division: Any = "warn",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> tuple[Any, ...]:
    """Precision, recall, F-beta score and support per label, or averaged, as
    scikit-learn's.

    ``average``: None (per label, in the order of ``labels`` or else sorted), ``'binary'``
    (the ``pos_label`` class only), ``'micro'`` (from the counts summed over labels),
    ``'macro'``, ``'weighted'`` (by support) or ``'samples'`` (per sample, multilabel
    targets). Where a ratio divides by zero it takes ``zero_division`` (0, 1 or NaN), and
    with ``'warn'`` (0) an ``UndefinedMetricWarning`` names it.

    Returns ``(precision, recall, fbeta, support)``: tensors of one value per label
    (support: counts, or weights with ``sample_weight``), or 0-d tensors and None when
    averaged. They are computed when called, on ``session``: their warnings depend on them.
    """
    zero = _check_parameters(beta, average, zero_division)
    targets = check_targets(y_true, y_pred, sample_weight, session=session, run_kwargs=run_kwargs)
    labels = _set_wise_labels(targets.y_type, targets.labels, average, labels, pos_label)
    samplewise = average == "samples"
    sums, _ = class_sums(targets, labels, samplewise)
    beta = float(beta)
    if samplewise:
        return _samplewise(
            sums,
            targets.weight,
            targets.rows,
            beta,
            warn_for,
            zero_division,
            zero,
            session,
            run_kwargs,
        )
    return _classwise(sums, beta, average, warn_for, zero_division, zero, session, run_kwargs)


@computed
def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The F-beta score: the weighted harmonic mean of precision and recall, recall
    counting ``beta`` times as much (see ``precision_recall_fscore_support``). A 0-d
    tensor, or one value per label with ``average=None``."""
    _, _, score, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
        session=session,
        run_kwargs=run_kwargs,
    )
    result: Tensor = score
    return result


@computed
def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The F1 score, the harmonic mean of precision and recall (``fbeta_score`` with
    ``beta=1``)."""
    return fbeta_score(
        y_true,
        y_pred,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
        session=session,
        run_kwargs=run_kwargs,
    )


@computed
def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The precision ``tp / (tp + fp)``: how many of the predicted positives are right
    (see ``precision_recall_fscore_support``)."""
    score, _, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
        session=session,
        run_kwargs=run_kwargs,
    )
    result: Tensor = score
    return result


@computed
def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The recall ``tp / (tp + fn)``: how many of the actual positives are found (see
    ``precision_recall_fscore_support``)."""
    _, score, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
        session=session,
        run_kwargs=run_kwargs,
    )
    result: Tensor = score
    return result

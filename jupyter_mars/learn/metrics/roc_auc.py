"""``roc_auc_score``: the area under the ROC curve, as scikit-learn's, on tensors.

Binary targets score one curve (the greater label positive), multilabel targets one per
column, multiclass targets one per class against the rest (``multi_class='ovr'``) or one
per pair of classes (``'ovo'``, Hand and Till's measure); the areas are averaged as
``average`` says. Each curve is ``ranking.curve_counts``, built lazily; the checks, and the
counts of each class that decide scikit-learn's warnings, are computed when called, in
one round trip on ``session`` (two with ``sample_weight``).
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.metrics.ranking import (
    curve_counts,
    finite_flags,
    raise_if_not_finite,
    rates,
    trapezoid_area,
    warn_if_one_sided,
)
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
    column_or_1d,
    fetch_all,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["roc_auc_score"]

_NAN = np.float64(np.nan)


def _binary_area(positive: Tensor, score: Tensor, weight: Tensor | None, max_fpr: Any) -> Tensor:
    """The area under one ROC curve (McClish-standardised up to ``max_fpr``)."""
    fps, tps, _ = curve_counts(positive, score.astype(np.float64), weight, True)
    fpr, tpr = rates(fps), rates(tps)
    if max_fpr is None or max_fpr == 1:
        return trapezoid_area(fpr, tpr)
    # the curve up to max_fpr, closed by the point interpolated at max_fpr between the
    # last point before it and the first after (the rates only grow along the curve)
    before = fpr <= max_fpr
    x_before, y_before = fpr[before], tpr[before]
    x0, y0 = x_before.max(), y_before.max()
    x1, y1 = fpr[~before].min(), tpr[~before].min()
    y_at = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
    partial = trapezoid_area(x_before, y_before) + (max_fpr - x0) * (y0 + y_at) / 2.0
    low, high = 0.5 * max_fpr**2, max_fpr
    out: Tensor = 0.5 * (1 + (partial - low) / (high - low))
    return out


def _warn_one_class() -> None:
    warnings.warn(
        "Only one class is present in y_true. ROC AUC score is not defined in that case.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def _scored(
    one_class: list[bool], weighted: tuple[np.ndarray, float] | None, build: Any
) -> list[Tensor]:
    """Each curve's area, ``build(i)``, or NaN (with scikit-learn's warnings) for a curve
    whose target holds one class only (``one_class``); ``weighted``: each curve's weight
    of positives and the total weight, for the warnings of curves weighted to one side."""
    areas = []
    for i, alone in enumerate(one_class):
        if alone:
            _warn_one_class()
            areas.append(mt.tensor(_NAN))
            continue
        if weighted is not None:
            positive_weight, total = weighted[0][i], weighted[1]
            warn_if_one_sided(total - positive_weight, positive_weight)
        areas.append(build(i))
    return areas


def _averaged(areas: list[Tensor], average: Any, support: Tensor | None) -> Tensor:
    """The areas as one tensor (``average=None``), their mean, or their mean weighted by
    ``support``, in which a class of no support counts zero (and all none, zero)."""
    stacked = mt.stack(areas)
    if average is None:
        return stacked
    if average == "weighted":
        assert support is not None
        total = support.sum()
        scores = mt.where(mt.equal(support, 0), 0.0, stacked)
        mean = (scores * support).sum() / mt.where(mt.equal(total, 0), 1.0, total)
        out: Tensor = mt.where(mt.isclose(total, 0.0), 0.0, mean)
        return out
    out = stacked.mean()
    return out


def _one_vs_one(codes: Tensor, score: Tensor, present: np.ndarray, average: Any) -> Tensor:
    """Hand and Till's measure: the mean over pairs of classes of the mean of both
    one-vs-one areas, weighted by the pair's prevalence for ``'weighted'``."""
    pairs, prevalence = [], []
    for a, b in itertools.combinations(present.tolist(), 2):
        in_pair = mt.logical_or(codes == a, codes == b)
        pair_codes = codes[in_pair]
        first = _binary_area((pair_codes == a).astype(np.float64), score[in_pair, a], None, None)
        second = _binary_area((pair_codes == b).astype(np.float64), score[in_pair, b], None, None)
        pairs.append((first + second) / 2)
        prevalence.append(in_pair.astype(np.float64).mean())
    scores = mt.stack(pairs)
    if average != "weighted":
        out: Tensor = scores.mean()
        return out
    weights = mt.stack(prevalence)
    out = (scores * weights).sum() / weights.sum()
    return out


def _multiclass_classes(labels: Any, present: np.ndarray, columns: int) -> np.ndarray:
    if labels is None:
        if len(present) != columns:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
        return present
    given = np.asarray(labels)
    if given.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {given.shape} instead.")
    classes = np.unique(given)
    if len(classes) != len(given):
        raise ValueError("Parameter 'labels' must be unique")
    if not np.array_equal(classes, given):
        raise ValueError("Parameter 'labels' must be ordered")
    if len(classes) != columns:
        raise ValueError(
            f"Number of given labels, {len(classes)}, not equal to the number of columns in "
            f"'y_score', {columns}"
        )
    if len(np.setdiff1d(present, classes)):
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes


def _check_average(average: Any, multiclass: bool, multi_class: str) -> None:
    if multiclass:
        options: tuple[Any, ...] = ("macro", "weighted", None)
        if multi_class == "ovr":
            options = ("micro", *options)
        if average not in options:
            raise ValueError(f"average must be one of {options} for multiclass problems")
        return
    options = (None, "micro", "macro", "weighted", "samples")
    if average not in options:
        raise ValueError(f"average has to be one of {options}")
    if average == "samples":
        raise NotImplementedError("average='samples' is not implemented for roc_auc_score")


@computed
def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """The area under the ROC curve, as scikit-learn's.

    Binary ``y_true``: the curve of the 1-d ``y_score`` for the greater label, partial up
    to ``max_fpr`` (McClish-standardised) if given. Multilabel ``y_true``: one curve per
    column of ``y_score``, averaged (``average``: ``'macro'``, ``'weighted'`` by support,
    ``'micro'`` over all entries, or None for each). Multiclass ``y_true``: ``y_score``
    holds each class's probability (rows summing to one); ``multi_class='ovr'`` scores
    each class against the rest (averaged as above), ``'ovo'`` each pair of classes
    (``'macro'`` or ``'weighted'`` by prevalence). ``'samples'`` averaging is not done.

    Returns a lazy tensor, 0-d (one value per class with ``average=None``). A curve whose
    target has one class only is NaN, with scikit-learn's ``UndefinedMetricWarning``.
    """
    true = label_tensor(y_true)
    score = check_array(y_score, ensure_2d=False, input_name="y_score")
    check_consistent_length(true, score, sample_weight)
    rows = true.shape[0] if true.ndim else np.nan
    weight = check_sample_weight(sample_weight, rows, FLOAT_DTYPES, allow_all_zero_weights=True)
    wanted: list[Any] = [summarize(true), *finite_flags(score)]
    if score.ndim == 2:
        wanted.append(mt.all(mt.isclose(1.0, score.sum(axis=1))))
    if true.ndim == 2:
        wanted.append(mt.not_equal(true, 0).sum(axis=0))
    if weight is not None:
        wanted.append(all_zero(weight))
    fetched = fetch_all(*wanted, session=session, run_kwargs=run_kwargs)
    summary = summary_of(fetched[0])
    rest = fetched[3:]
    sums_to_one = bool(rest.pop(0)) if score.ndim == 2 else True
    column_positives = rest.pop(0) if true.ndim == 2 else None
    y_type = type_of_target(true, "y_true", summary=summary)
    raise_if_not_finite(fetched[1], fetched[2], score.dtype)
    if weight is not None:
        raise_if_all_zero(rest.pop(0))
    columns = int(score.shape[1]) if score.ndim == 2 else 1
    multiclass = y_type == "multiclass" or (y_type == "binary" and columns > 2)
    if multiclass:
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must "
                f"be set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
    if max_fpr is not None and not 0 < max_fpr <= 1:
        raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    if multiclass:
        return _multiclass(
            true,
            score,
            weight,
            summary.rows,
            union_labels(summary),
            labels,
            multi_class,
            average,
            sums_to_one,
            session,
            run_kwargs,
        )
    _check_average(average, False, multi_class)
    if y_type == "binary":
        return _binary(true, score, weight, summary, max_fpr, session, run_kwargs)
    if y_type != "multilabel-indicator":
        raise ValueError(f"{y_type} format is not supported")
    return _multilabel(
        true,
        score,
        weight,
        summary.rows,
        column_positives,
        average,
        max_fpr,
        session,
        run_kwargs,
    )


def _weighted_positives(
    positive: Tensor, weight: Tensor | None, session: Session | None, run_kwargs: Any
) -> tuple[np.ndarray, float] | None:
    """Each curve's weight of positives (``positive``: one column per curve) and the
    total weight, which decide the warnings of curves weighted to one side."""
    if weight is None:
        return None
    weights = weight.astype(np.float64)
    per_curve, total = fetch_all(
        (positive * weights[:, None]).sum(axis=0),
        weights.sum(),
        session=session,
        run_kwargs=run_kwargs,
    )
    return np.asarray(per_curve), float(total)


def _binary(
    true: Tensor,
    score: Tensor,
    weight: Tensor | None,
    summary: Any,
    max_fpr: Any,
    session: Session | None,
    run_kwargs: Any,
) -> Tensor:
    classes = union_labels(summary)
    if len(classes) != 2:
        _warn_one_class()
        return mt.tensor(_NAN)
    scores = column_or_1d(score)
    positive = encode_labels(column_or_1d(true), classes).astype(np.float64)
    weighted = _weighted_positives(positive[:, None], weight, session, run_kwargs)
    if weighted is not None:
        warn_if_one_sided(weighted[1] - weighted[0][0], weighted[0][0])
    return _binary_area(positive, scores, weight, max_fpr)


def _multilabel(
    true: Tensor,
    score: Tensor,
    weight: Tensor | None,
    rows: int,
    positives: Any,
    average: Any,
    max_fpr: Any,
    session: Session | None,
    run_kwargs: Any,
) -> Tensor:
    if score.ndim != 2 or score.shape[1] != true.shape[1]:
        raise ValueError(f"y_true and y_score have different shapes: {true.shape}, {score.shape}")
    indicator = mt.not_equal(true, 0).astype(np.float64)
    positives = np.asarray(positives)
    if average == "micro":
        cells = rows * len(positives)
        alone = positives.sum() in (0, cells)
        return _micro(indicator, score, weight, max_fpr, alone, session, run_kwargs)
    weighted = _weighted_positives(indicator, weight, session, run_kwargs)
    areas = _scored(
        [count in (0, rows) for count in positives.tolist()],
        weighted,
        lambda c: _binary_area(indicator[:, c], score[:, c], weight, max_fpr),
    )
    support = None
    if average == "weighted":
        column: Any = 1.0 if weight is None else weight.astype(np.float64)[:, None]
        support = (true.astype(np.float64) * column).sum(axis=0)
    return _averaged(areas, average, support)


def _micro(
    indicator: Tensor,
    score: Tensor,
    weight: Tensor | None,
    max_fpr: Any,
    alone: bool,
    session: Session | None,
    run_kwargs: Any,
) -> Tensor:
    """One curve over every (sample, class) entry; ``alone``: whether they are all
    positive or all negative."""
    flat_weight = None if weight is None else mt.repeat(weight, indicator.shape[1])
    flat = indicator.ravel()
    areas = _scored(
        [alone],
        _weighted_positives(flat[:, None], flat_weight, session, run_kwargs),
        lambda _: _binary_area(flat, score.ravel(), flat_weight, max_fpr),
    )
    return areas[0]


def _multiclass(
    true: Tensor,
    score: Tensor,
    weight: Tensor | None,
    rows: int,
    present: np.ndarray,
    labels: Any,
    multi_class: str,
    average: Any,
    sums_to_one: bool,
    session: Session | None,
    run_kwargs: Any,
) -> Tensor:
    if score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={score.shape}`."
        )
    if not sums_to_one:
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should "
            "sum up to 1.0 over classes"
        )
    _check_average(average, True, multi_class)
    if multi_class not in ("ovo", "ovr"):
        raise ValueError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, "
            "multi_class must be in ('ovo', 'ovr')"
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = _multiclass_classes(labels, present, int(score.shape[1]))
    codes = encode_labels(column_or_1d(true), classes)
    if multi_class == "ovo":
        if weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case."
            )
        return _one_vs_one(codes, score, np.searchsorted(classes, present), average)
    indicator = mt.equal(codes[:, None], mt.arange(len(classes))[None, :]).astype(np.float64)
    if average == "micro":
        return _micro(indicator, score, weight, None, False, session, run_kwargs)
    # a class is alone in its one-vs-rest target where it is absent, or the only one present
    alone = [c not in present.tolist() or present.tolist() == [c] for c in classes.tolist()]
    weighted = _weighted_positives(indicator, weight, session, run_kwargs)
    areas = _scored(
        alone,
        weighted,
        lambda c: _binary_area(indicator[:, c], score[:, c], weight, None),
    )
    support = None
    if average == "weighted":
        column: Any = 1.0 if weight is None else weight.astype(np.float64)[:, None]
        support = (indicator * column).sum(axis=0)
    return _averaged(areas, average, support)

"""``multilabel_confusion_matrix``: a 2x2 confusion matrix per label (or per sample).

The counts behind it (true positives, predicted and true totals) are reductions: for
binary and multiclass targets, histograms of the labels' integer codes, chunk by chunk;
for multilabel targets, column (or row) sums of the indicator matrices. The precision
and recall family is computed from the same sums (``class_sums``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.computed import computed
from jupyter_mars.learn.metrics.targets import Targets, check_targets
from jupyter_mars.learn.utils.multiclass import (
    encode_labels,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["ClassSums", "class_sums", "multilabel_confusion_matrix"]


@dataclass(frozen=True)
class ClassSums:
    """The counts of a confusion matrix per label (or per sample), as lazy tensors."""

    tp: Tensor
    """True positives."""
    pred: Tensor
    """Predicted positives (true and false)."""
    true: Tensor
    """Actual positives (true positives and false negatives)."""
    total: Any
    """What ``tp + fp + fn + tn`` is: the number (or weight) of samples, or of labels
    per sample (weighted per sample) when counted sample-wise."""


def _histogram(codes: Tensor, classes: int, weight: Tensor | None) -> Tensor:
    """How many codes (or how much weight) fall on each of ``0 .. classes - 1``; codes
    outside are not counted. The length is known: ``classes``."""
    # equal bins over a range: NumPy adds the weights in order (``bincount``), as
    # scikit-learn does, rather than differencing their cumulative sums
    counts, _ = mt.histogram(codes, bins=classes, range=(0, classes), weights=weight)
    return counts


def _label_sums(targets: Targets, labels: np.ndarray, selected: int | None) -> ClassSums:
    """Sums per label of a binary or multiclass target; ``labels[:selected]`` are kept,
    in that order."""
    classes = np.unique(labels)
    true, pred = encode_labels(targets.y_true, classes), encode_labels(targets.y_pred, classes)
    weight = None if targets.weight is None else targets.weight.astype(np.float64)
    hit = mt.equal(true, pred)
    if weight is None:
        tp = _histogram(mt.where(hit, true, -1), len(classes), None)
        total: Any = targets.rows
    else:
        tp = _histogram(true, len(classes), mt.where(hit, weight, 0.0))
        total = targets.weight.sum() if targets.weight is not None else None
    pred_sum = _histogram(pred, len(classes), weight)
    true_sum = _histogram(true, len(classes), weight)
    order = np.searchsorted(classes, labels[:selected])
    if not np.array_equal(order, np.arange(len(classes))):
        tp, pred_sum, true_sum = (mt.take(s, order) for s in (tp, pred_sum, true_sum))
    return ClassSums(tp, pred_sum, true_sum, total)


def _indicator_sums(
    targets: Targets, labels: np.ndarray, selected: int | None, samplewise: bool
) -> ClassSums:
    """Sums per column (or per row, ``samplewise``) of multilabel indicator targets."""
    present = targets.labels
    if labels.shape != present.shape or np.any(labels != present):
        if labels.max() > present.max():
            raise ValueError(
                "All labels must be in [0, n labels) for multilabel targets. "
                f"Got {labels.max()} > {present.max()}"
            )
        if labels.min() < 0:
            raise ValueError(
                "All labels must be in [0, n labels) for multilabel targets. "
                f"Got {labels.min()} < 0"
            )
    true, pred = mt.not_equal(targets.y_true, 0), mt.not_equal(targets.y_pred, 0)
    columns = int(true.shape[1])
    if selected is not None:
        true, pred = true[:, labels[:selected]], pred[:, labels[:selected]]
        columns = selected
    both = mt.logical_and(true, pred)
    axis = 1 if samplewise else 0
    weight = targets.weight
    if weight is None:
        sums = [x.sum(axis=axis) for x in (both, pred, true)]
        total: Any = columns if samplewise else targets.rows
    else:
        column = weight[:, None]
        sums = [mt.where(x, column, 0.0).sum(axis=axis) for x in (both, pred, true)]
        total = weight * columns if samplewise else weight.sum()
    return ClassSums(sums[0], sums[1], sums[2], total)


def class_sums(
    targets: Targets, labels: Any = None, samplewise: bool = False
) -> tuple[ClassSums, np.ndarray]:
    """The confusion counts per label (in the order of ``labels`` if given, else sorted)
    or per sample, and the labels counted."""
    present = targets.labels
    if labels is None:
        chosen, selected = present, None
    else:
        given = np.asarray(labels)
        selected = len(given)
        chosen = np.concatenate([given, np.setdiff1d(present, given, assume_unique=True)])
    if targets.y_type == "multilabel-indicator":
        return _indicator_sums(targets, chosen, selected, samplewise), chosen[:selected]
    if samplewise:
        raise ValueError(
            "Samplewise metrics are not available outside of multilabel classification."
        )
    return _label_sums(targets, chosen, selected), chosen[:selected]


def confusion_matrices(sums: ClassSums) -> Tensor:
    """``(n, 2, 2)``: ``[[tn, fp], [fn, tp]]`` for each label (or sample)."""
    fp = sums.pred - sums.tp
    fn = sums.true - sums.tp
    tn = sums.total - sums.tp - fp - fn
    top = mt.stack([tn, fp], axis=1)
    bottom = mt.stack([fn, sums.tp], axis=1)
    return mt.stack([top, bottom], axis=1)


@computed
def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Tensor:
    """A confusion matrix per label, one-vs-rest, as scikit-learn's.

    Returns a lazy tensor of shape ``(n_labels, 2, 2)`` (``(n_samples, 2, 2)`` with
    ``samplewise``, multilabel targets only): ``[[tn, fp], [fn, tp]]`` for each label, in
    the order of ``labels`` or else sorted. Counts are integers, or floats weighed by
    ``sample_weight``. The targets are checked when called (one computation of their
    distinct labels on ``session``); the counts are computed when the result is executed.
    """
    targets = check_targets(y_true, y_pred, sample_weight, session=session, run_kwargs=run_kwargs)
    sums, _ = class_sums(targets, labels, samplewise)
    return confusion_matrices(sums)

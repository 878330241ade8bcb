"""What the classification metrics check of their targets, as scikit-learn's
``_check_targets`` does, on tensors.

``check_targets`` fetches the label summaries of ``y_true`` and ``y_pred``
(``jupyter_mars.learn.utils.multiclass``) and the weights' all-zero flag in one round
trip, then decides in the driver, raising scikit-learn's errors at the user's line. The
metric's value is then built from the tensors and the labels found, usually as integer
codes (``encode_labels``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.chunks import same_row_chunks
from jupyter_mars.learn.utils.multiclass import (
    label_tensor,
    summarize,
    summary_of,
    type_of_target,
    union_labels,
)
from jupyter_mars.learn.utils.validation import (
    FLOAT_DTYPES,
    all_zero,
    check_consistent_length,
    check_sample_weight,
    column_or_1d,
    fetch_all,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["Targets", "check_targets"]


@dataclass(frozen=True)
class Targets:
    """``y_true`` and ``y_pred`` once checked, as ``check_targets`` returns them."""

    y_type: str
    """``"binary"``, ``"multiclass"`` or ``"multilabel-indicator"``."""
    labels: np.ndarray
    """The sorted labels of both targets (column indices for a multilabel target)."""
    y_true: Tensor
    """1-d for binary and multiclass targets, 2-d for multilabel ones."""
    y_pred: Tensor
    weight: Tensor | None
    rows: int
    """How many samples."""


def check_targets(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> Targets:
    """scikit-learn's ``_check_targets``: both targets of one classification task, of
    the same length, binary, multiclass or multilabel, labels all strings or all numbers."""
    true, pred = label_tensor(y_true), label_tensor(y_pred)
    check_consistent_length(true, pred, sample_weight)
    rows = true.shape[0] if true.ndim else np.nan
    weight = check_sample_weight(sample_weight, rows, FLOAT_DTYPES, allow_all_zero_weights=True)
    pred = same_row_chunks(pred, true)
    weight = None if weight is None else same_row_chunks(weight, true)
    wanted: list[Any] = [summarize(true), summarize(pred)]
    if weight is not None:
        wanted.append(all_zero(weight))
    fetched = fetch_all(*wanted, session=session, run_kwargs=run_kwargs)
    true_summary, pred_summary = summary_of(fetched[0]), summary_of(fetched[1])
    if true_summary.rows != pred_summary.rows or (
        weight is not None
        and not np.isnan(weight.shape[0])
        and weight.shape[0] != true_summary.rows
    ):
        shown = [true_summary.rows, pred_summary.rows]
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {shown}")
    type_true = type_of_target(true, "y_true", summary=true_summary)
    type_pred = type_of_target(pred, "y_pred", summary=pred_summary)
    if true_summary.rows < 1:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 "
            "sample is required."
        )
    if weight is not None:
        raise_if_all_zero(fetched[2])
    types = {type_true, type_pred}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets"
        )
    y_type = types.pop()
    if y_type not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{y_type} is not supported")
    if y_type == "multilabel-indicator":
        if true.shape[1] != pred.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        labels = np.arange(int(true.shape[1]))
    else:
        true, pred = column_or_1d(true), column_or_1d(pred)
        labels = union_labels(true_summary, pred_summary)
        if y_type == "binary" and len(labels) > 2:
            y_type = "multiclass"
    return Targets(y_type, labels, true, pred, weight, true_summary.rows)

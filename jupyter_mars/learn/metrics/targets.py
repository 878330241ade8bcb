"""What the classification metrics check of their targets, as scikit-learn's
``type_of_target``, ``unique_labels`` and ``_check_targets`` do, on tensors.

Telling a target's type needs its values: how many distinct labels, whether floats are
whole numbers, whether strings and numbers mix. ``summarize`` gathers that in one tree
reduction per target (``LabelSummary``: the distinct labels, which are few, and a handful
of flags); ``check_targets`` fetches the summaries of ``y_true`` and ``y_pred`` (and the
caller's other small checks) in one round trip, then decides in the driver, raising
scikit-learn's errors at the user's line. The metric's value is then built from the
tensors and the labels found, usually as integer codes (``labels.encode``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.labels import (
    label_tensor,
)
from jupyter_mars.learn.utils.chunks import same_row_chunks
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

__all__ = [
    "LabelSummary",
    "Targets",
    "check_targets",
    "summarize",
    "summary_of",
    "target_type",
    "union_labels",
]


@dataclass(frozen=True)
class LabelSummary:
    """What the target checks need of one target's values."""

    values: np.ndarray | None
    """The distinct values, sorted; None where a float is not a whole number (the target
    is continuous, and its values are not kept)."""
    rows: int
    """How many samples (the first axis's length)."""
    has_nan: bool = False
    has_inf: bool = False
    has_strings: bool = False
    """Some value is a string (a string dtype, or a ``str`` in an object block)."""
    has_numbers: bool = False
    """Some value is not a string."""


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


# ---- the summary reduction ----------------------------------------------------------------------


def _distinct(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values; strings and numbers mixed sort by their text."""
    try:
        return np.unique(values)
    except TypeError:
        return np.array(sorted(set(values.tolist()), key=str), dtype=object)


def _summarize_block(block: np.ndarray, axis: Any = None, keepdims: bool = False) -> LabelSummary:
    block = np.asarray(block)
    rows = int(block.shape[0]) if block.ndim else 1
    kind = block.dtype.kind
    if kind == "f":
        finite = np.isfinite(block)
        has_nan = bool(np.isnan(block).any())
        has_inf = bool((~finite & ~np.isnan(block)).any())
        whole = bool(np.all(block[finite] == block[finite].astype(np.int64)))
        if has_nan or has_inf or not whole:
            return LabelSummary(None, rows, has_nan, has_inf, has_numbers=bool(block.size))
        return LabelSummary(np.unique(block), rows, has_numbers=bool(block.size))
    if kind == "O":
        items = block.ravel().tolist()
        strings = sum(isinstance(v, str) for v in items)
        values = _distinct(np.asarray(items, dtype=object))
        if strings == len(items):
            values = values.astype(str)
        return LabelSummary(values, rows, has_strings=strings > 0, has_numbers=strings < len(items))
    is_string = kind in "US"
    return LabelSummary(
        np.unique(block),
        rows,
        has_strings=is_string and bool(block.size),
        has_numbers=not is_string and bool(block.size),
    )


def _union(values: list[np.ndarray | None]) -> np.ndarray | None:
    if any(v is None for v in values):
        return None
    present = [v for v in values if v is not None and v.size]
    if not present:
        return values[0]
    try:
        return _distinct(np.concatenate(present))
    except TypeError:
        return _distinct(np.concatenate([v.astype(object) for v in present]))


def _combine(parts: list[LabelSummary], axis: Any = None) -> LabelSummary:
    return LabelSummary(
        _union([p.values for p in parts]),
        sum(p.rows for p in parts),
        any(p.has_nan for p in parts),
        any(p.has_inf for p in parts),
        any(p.has_strings for p in parts),
        any(p.has_numbers for p in parts),
    )


def _chunk(
    block: np.ndarray, axis: Any, keepdims: bool, offset: tuple[int, ...] = (), **_: Any
) -> LabelSummary:
    summary = _summarize_block(block)
    if len(offset) == 2 and offset[1] != 0:
        # a 2-d target's rows are counted by the chunks of its first columns only
        return LabelSummary(
            summary.values,
            0,
            summary.has_nan,
            summary.has_inf,
            summary.has_strings,
            summary.has_numbers,
        )
    return summary


def _aggregate(part: LabelSummary, axis: Any, keepdims: bool) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = part
    return out


def summarize(y: Tensor) -> Tensor:
    """A 0-d tensor whose data is ``y``'s ``LabelSummary``."""
    return mt.reduce(
        y,
        "label_summary",
        _chunk,
        _combine,
        _aggregate,
        None,
        False,
        np.dtype(object),
        with_offsets=True,
    )


def summary_of(data: Any) -> LabelSummary:
    """The ``LabelSummary`` in a fetched ``summarize`` result."""
    summary = np.asarray(data, dtype=object)[()]
    assert isinstance(summary, LabelSummary)
    return summary


# ---- types --------------------------------------------------------------------------------------


def target_type(summary: LabelSummary, y: Tensor, input_name: str = "") -> str:
    """scikit-learn's ``type_of_target`` of ``y``, from its summary."""
    dtype = y.dtype
    columns = int(y.shape[1]) if y.ndim == 2 else 1
    values = summary.values
    integral_float = dtype.kind == "f" and values is not None
    if (
        y.ndim == 2
        and columns > 1
        and values is not None
        and len(values) < 3
        and (dtype.kind in "biu" or integral_float)
    ):
        return "multilabel-indicator"
    if y.ndim not in (1, 2):
        return "unknown"
    if summary.rows == 0 or columns == 0:
        return "binary" if y.ndim == 1 else "unknown"
    if dtype.kind == "O" and not summary.has_strings:
        return "unknown"
    suffix = "-multioutput" if y.ndim == 2 and columns > 1 else ""
    if dtype.kind == "f" and values is None:
        name = f"Input {input_name} " if input_name else "Input "
        if summary.has_nan:
            raise ValueError(f"{name}contains NaN.")
        if summary.has_inf:
            raise ValueError(f"{name}contains infinity or a value too large for {dtype!r}.")
        return "continuous" + suffix
    assert values is not None
    if len(values) > 2 or (y.ndim == 2 and columns > 1):
        return "multiclass" + suffix
    return "binary"


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
    weight = check_sample_weight(
        sample_weight,
        true.shape[0] if true.ndim else np.nan,
        FLOAT_DTYPES,
        allow_all_zero_weights=True,
    )
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
    type_true = target_type(true_summary, true, "y_true")
    type_pred = target_type(pred_summary, pred, "y_pred")
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


def union_labels(*summaries: LabelSummary) -> np.ndarray:
    """The sorted labels of all the summaries, which must not mix strings and numbers."""
    if any(s.has_strings for s in summaries) and any(s.has_numbers for s in summaries):
        shown = " and ".join(str(s.values) for s in summaries)
        raise ValueError(f"Mix of label input types (string and number); Got {shown}.")
    values = _union([s.values for s in summaries])
    assert values is not None
    return values

"""Class labels on tensors, as scikit-learn's ``sklearn.utils.multiclass``: labels as
tensors, ``type_of_target`` and ``unique_labels``, and labels turned into integer codes
and back chunk by chunk.

Telling a target's type needs its values: how many distinct labels, whether floats are
whole numbers, whether strings and numbers mix. ``summarize`` gathers that in one tree
reduction per target (``LabelSummary``: the distinct labels, which are few, and a handful
of flags); the decisions are then made in the driver, raising scikit-learn's errors at
the user's line. A caller with other small results to compute (the metrics' checks)
fetches the summaries with them, in one round trip, and passes them on.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "LabelSummary",
    "decode_labels",
    "encode_labels",
    "label_tensor",
    "summarize",
    "summary_of",
    "type_of_target",
    "union_labels",
    "unique_labels",
]


# ---- labels as tensors --------------------------------------------------------------------------


def _homogeneous(array: np.ndarray) -> np.ndarray:
    """An object array of labels as strings or numbers (tensors hold no objects)."""
    items = array.ravel().tolist()
    strings = [isinstance(v, str) for v in items]
    if all(strings):
        return array.astype(str)
    if any(strings):
        raise ValueError(
            "Mix of label input types (string and number); "
            f"Got {np.array(sorted(set(map(str, items))))}."
        )
    if any(isinstance(v, bytes) for v in items):
        raise TypeError(
            "Support for labels represented as bytes is not supported. Convert the labels "
            "to a string or integer format."
        )
    return np.asarray(items).reshape(array.shape)


def label_tensor(y: Any) -> Tensor:
    """``y`` (labels: numbers, booleans or strings) as a tensor: a tensor as it is, a frame
    or series by its values, anything else through ``np.asarray``."""
    if isinstance(y, Tensor):
        return y
    if isinstance(y, FrameBase):
        values: Tensor = y.to_tensor()  # type: ignore[attr-defined]
        return values
    if isinstance(y, pd.DataFrame | pd.Series):
        y = y.to_numpy()
    elif isinstance(y, str) or not (isinstance(y, Sequence) or hasattr(y, "__array__")):
        raise ValueError(f"Expected array-like (array or non-string sequence), got {y!r}")
    try:
        array = np.asarray(y)
    except ValueError as exc:  # ragged: sequences of label sequences
        raise ValueError(
            "You appear to be using a legacy multi-label data representation. Sequence of "
            "sequences are no longer supported; use a binary array or sparse matrix "
            "instead - the MultiLabelBinarizer transformer can convert to this format."
        ) from exc
    if array.dtype.kind == "O":
        array = _homogeneous(array)
    if array.dtype.kind == "S":
        raise TypeError(
            "Support for labels represented as bytes is not supported. Convert the labels "
            "to a string or integer format."
        )
    return mt.tensor(array)


def _encode_block(block: np.ndarray, classes: np.ndarray) -> np.ndarray:
    if block.dtype.kind == "O" and classes.dtype.kind == "U":
        block = block.astype(str)
    return np.searchsorted(classes, block).astype(np.intp, copy=False)


def encode_labels(y: Tensor, classes: np.ndarray) -> Tensor:
    """``y``'s labels as their positions in ``classes`` (sorted, and holding them all),
    chunk by chunk."""
    return mt.elemwise(
        functools.partial(_encode_block, classes=classes),
        y,
        dtype=np.dtype(np.intp),
        name="encode_labels",
    )


def _decode_block(codes: np.ndarray, classes: np.ndarray) -> np.ndarray:
    labels: np.ndarray = classes[codes]
    return labels


def decode_labels(codes: Tensor, classes: np.ndarray) -> Tensor:
    """The classes at the positions ``codes``: ``encode_labels`` undone."""
    return mt.elemwise(
        functools.partial(_decode_block, classes=classes),
        codes,
        dtype=classes.dtype,
        name="decode_labels",
    )


# ---- the summary reduction ----------------------------------------------------------------------


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


# ---- types and labels ---------------------------------------------------------------------------


def type_of_target(
    y: Any,
    input_name: str = "",
    *,
    summary: LabelSummary | None = None,
    session: Session | None = None,
    run_kwargs: dict[str, Any] | None = None,
) -> str:
    """scikit-learn's ``type_of_target`` of the labels ``y`` (as ``label_tensor`` makes
    them): ``"binary"``, ``"multiclass"``, ``"multilabel-indicator"`` or ``"continuous"``
    (``-multioutput`` for several columns of classes or numbers), or ``"unknown"``. The
    summary of ``y`` is computed on ``session`` unless given (fetched already, with other
    small results); NaN or infinity in a continuous target is scikit-learn's error."""
    y = label_tensor(y)
    if y.ndim not in (1, 2):
        return "unknown"
    if summary is None:
        (data,) = fetch_all(summarize(y), session=session, run_kwargs=run_kwargs)
        summary = summary_of(data)
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


def union_labels(*summaries: LabelSummary) -> np.ndarray:
    """The sorted labels of all the summaries (of targets of classes), which must not mix
    strings and numbers: ``unique_labels`` once the types are checked."""
    if any(s.has_strings for s in summaries) and any(s.has_numbers for s in summaries):
        shown = " and ".join(str(s.values) for s in summaries)
        raise ValueError(f"Mix of label input types (string and number); Got {shown}.")
    values = _union([s.values for s in summaries])
    assert values is not None
    return values


def unique_labels(
    *ys: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> np.ndarray:
    """scikit-learn's ``unique_labels``: the sorted labels of the targets ``ys`` together
    (the column indices of multilabel indicators), which must be of one type (binary and
    multiclass mix) and not mix strings and numbers. Their summaries are computed in one
    round trip on ``session``."""
    if not ys:
        raise ValueError("No argument has been passed.")
    tensors = [label_tensor(y) for y in ys]
    shaped = [t for t in tensors if t.ndim in (1, 2)]  # any other is of unknown type
    fetched = fetch_all(*(summarize(t) for t in shaped), session=session, run_kwargs=run_kwargs)
    summaries = [summary_of(data) for data in fetched]
    types = {type_of_target(t, summary=s) for t, s in zip(shaped, summaries)}
    if len(shaped) < len(tensors):
        types.add("unknown")
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(f"Mix type of y not allowed, got types {types}")
    (kind,) = types
    if kind == "multilabel-indicator":
        widths = {int(t.shape[1]) for t in tensors}
        if len(widths) > 1:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        return np.arange(widths.pop())
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"Unknown label type: {kind}")
    return union_labels(*summaries)

"""Label inputs for the label encoders: their values as tensors, their distinct values,
and the kind of target they are, as scikit-learn's ``type_of_target`` says.

Labels may be numbers or strings (pandas' and our frames' string columns become object
tensors, arrays of Python strings NumPy strings); the encoders' own conversion refuses a
mix of the two with their ``TypeError``, and takes bytes as ``LabelEncoder`` does. Data
in memory is given to scikit-learn's ``type_of_target`` as it is; for a tensor or frame
the kind comes from its label summary, computed chunk-wise and fetched
(``jupyter_mars.learn.utils.multiclass``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import type_of_target, unique_labels

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.multiclass import summarize, summary_of
from jupyter_mars.learn.utils.multiclass import type_of_target as type_of_tensor
from jupyter_mars.learn.utils.validation import column_or_1d, fetch_all, is_lazy
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "isin_sorted",
    "label_array",
    "label_tensor",
    "target_kind",
    "unseen_labels",
]


def label_array(y: Any) -> np.ndarray[Any, Any]:
    """Labels held in memory as a NumPy array: strings as NumPy strings, numbers as
    numbers; a mix of the two is scikit-learn's ``TypeError``."""
    array = np.asarray(y.to_numpy() if isinstance(y, pd.Series | pd.DataFrame) else y)
    if array.dtype.kind != "O":
        return array
    kinds = {type(v).__name__ for v in array.ravel()}
    if all(isinstance(v, str) for v in array.ravel()):
        return array.astype(str)
    if not any(isinstance(v, str) for v in array.ravel()):
        return np.array(array.tolist())
    raise TypeError(
        "Encoders require their input argument must be uniformly strings or numbers. "
        f"Got {sorted(kinds)}"
    )


def label_tensor(y: Any, one_d: bool = True) -> Tensor:
    """Labels as a tensor (1-d with ``one_d``: a column is raveled, as ``column_or_1d``)."""
    if isinstance(y, FrameBase):
        t: Tensor = y.to_tensor()  # type: ignore[attr-defined]
    elif isinstance(y, Tensor):
        t = y
    else:
        t = mt.tensor(label_array(y))
    return column_or_1d(t) if one_d else t


def target_kind(
    y: Any, session: Session | None = None, run_kwargs: Any = None
) -> tuple[str, np.ndarray[Any, Any], int]:
    """The kind of target ``y`` is (``"binary"``, ``"multiclass"``,
    ``"multilabel-indicator"``, ``"continuous"``, ...), its classes (scikit-learn's
    ``unique_labels`` where it has any) and its number of samples."""
    if not is_lazy(y):
        array = label_array(y)
        kind = type_of_target(array, input_name="y")
        classes = unique_labels(array) if _has_classes(kind) and len(array) else np.unique(array)
        return kind, classes, len(array)
    values = label_tensor(y, one_d=False)
    if values.ndim > 2:
        return "unknown", np.empty(0), int(values.shape[0])
    (data,) = fetch_all(summarize(values), session=session, run_kwargs=run_kwargs)
    summary = summary_of(data)
    kind = type_of_tensor(values, "y", summary=summary)
    if kind == "multilabel-indicator":
        classes = np.arange(int(values.shape[1]))
    else:  # a continuous target keeps no values: it has no classes
        classes = np.empty(0) if summary.values is None else summary.values
    return kind, classes, summary.rows


def _has_classes(kind: str) -> bool:
    return kind in ("binary", "multiclass", "multilabel-indicator")


def unseen_labels(values: np.ndarray[Any, Any], known: np.ndarray[Any, Any]) -> list[Any]:
    """The distinct ``values`` not among the sorted ``known`` labels, as Python objects."""
    distinct = np.unique(values)
    return [v.item() if hasattr(v, "item") else v for v in distinct[~isin_sorted(distinct, known)]]


def isin_sorted(values: np.ndarray[Any, Any], known: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Which ``values`` are among the sorted ``known`` labels (none where the two cannot
    be compared: strings against numbers)."""
    if len(known) == 0 or values.size == 0:
        return np.zeros(values.shape, dtype=bool)
    try:
        places = np.clip(np.searchsorted(known, values), 0, len(known) - 1)
    except TypeError:
        return np.zeros(values.shape, dtype=bool)
    found: np.ndarray[Any, Any] = known[places] == values
    return found

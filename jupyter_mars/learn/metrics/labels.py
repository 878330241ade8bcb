"""Labels and sample weights as tensors, for the metrics: conversion (strings and
numbers, never objects), the checks of ``sample_weight`` as scikit-learn makes them, and
labels turned into integer codes or positive/negative flags chunk by chunk.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.validation import check_array
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "all_zero",
    "check_weights",
    "encode",
    "equals_label",
    "label_tensor",
    "raise_if_all_zero",
    "same_rows",
]


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


def check_weights(sample_weight: Any, rows: float) -> Tensor | None:
    """``sample_weight`` as a 1-d float tensor of ``rows`` items (or None), with
    scikit-learn's ``_check_sample_weight`` errors; its all-zero check needs the values
    and is the caller's (``all_zero``)."""
    if sample_weight is None:
        return None
    weight = check_array(
        sample_weight,
        ensure_2d=False,
        dtype=[np.float64, np.float32],
        input_name="sample_weight",
    )
    if weight.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {weight.ndim}D array. Expected "
            f"either a scalar value or a 1D array of length {_int(rows)}."
        )
    if not np.isnan(weight.shape[0]) and not np.isnan(rows) and weight.shape[0] != rows:
        raise ValueError(
            f"sample_weight.shape == ({_int(weight.shape[0])},), expected ({_int(rows)},)!"
        )
    return weight


def same_rows(t: Tensor, like: Tensor) -> Tensor:
    """``t`` cut into the row chunks of ``like`` (where both lengths are known), so that
    sums over both add the same samples in the same order: a count of ``y_true`` and the
    same count of ``y_pred`` then agree to the last bit."""
    if t.ndim == 0 or like.ndim == 0 or np.isnan(t.shape[0]) or t.shape[0] != like.shape[0]:
        return t
    layout = like._layout()
    if layout is None:
        return t
    rechunked: Tensor = t.rechunk({0: tuple(layout[0])})
    return rechunked


def all_zero(weight: Tensor) -> Tensor:
    """Whether every weight is zero, which scikit-learn refuses."""
    return mt.all(mt.equal(weight, 0))


def raise_if_all_zero(flag: Any) -> None:
    if bool(flag):
        raise ValueError("Sample weights must contain at least one non-zero number.")


def _int(n: float) -> Any:
    return "unknown" if np.isnan(n) else int(n)


# ---- encoding -----------------------------------------------------------------------------------


def _encode_block(block: np.ndarray, classes: np.ndarray) -> np.ndarray:
    if block.dtype.kind == "O" and classes.dtype.kind == "U":
        block = block.astype(str)
    return np.searchsorted(classes, block).astype(np.intp, copy=False)


def encode(y: Tensor, classes: np.ndarray) -> Tensor:
    """``y``'s labels as their positions in ``classes`` (sorted, and holding them all)."""
    return mt.elemwise(
        functools.partial(_encode_block, classes=classes),
        y,
        dtype=np.dtype(np.intp),
        name="encode_labels",
    )


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

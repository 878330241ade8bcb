"""Labels as tensors, for the metrics: conversion (strings and numbers, never objects),
and labels turned into integer codes or positive/negative flags chunk by chunk.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.tensor.core import Tensor

__all__ = ["encode", "equals_label", "label_tensor"]


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

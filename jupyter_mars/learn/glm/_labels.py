"""Class labels on tensors: the target as a 1-d tensor, its sorted classes, each sample's
class index (and back), and the weight each class gets from ``class_weight``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.utils.class_weight import compute_class_weight

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils import check_array, column_or_1d, to_tensor
from jupyter_mars.tensor.core import Tensor


def label_tensor(y: Any) -> Tensor:
    """``y`` as a 1-d tensor of labels: numbers, or strings (an object array of strings,
    as pandas gives them, becomes a string array)."""
    if y is None:
        raise ValueError("LogisticRegression requires y to be passed, but the target y is None")
    if not isinstance(y, Tensor | FrameBase):
        values = np.asarray(y.to_numpy() if isinstance(y, pd.Series | pd.DataFrame) else y)
        if values.dtype == object and all(isinstance(v, str) for v in values.ravel()):
            values = values.astype(str)
        y = values
    labels = column_or_1d(to_tensor(y))
    if labels.dtype.kind in "fc":
        labels = check_array(labels, ensure_2d=False, dtype=None, input_name="y")
    return labels


def _codes_block(block: np.ndarray, classes: np.ndarray) -> np.ndarray:
    codes: np.ndarray = np.searchsorted(classes, block).astype(np.intp)
    return codes


def encode(labels: Tensor, classes: np.ndarray) -> Tensor:
    """Each label's index in the sorted ``classes`` (every label being one of them)."""
    return mt.elemwise(_codes_block, labels, dtype=np.intp, name="encode", classes=classes)


def _labels_block(codes: np.ndarray, classes: np.ndarray) -> np.ndarray:
    labels: np.ndarray = classes[codes]
    return labels


def decode(codes: Tensor, classes: np.ndarray) -> Tensor:
    """The classes at the indices ``codes``."""
    return mt.elemwise(_labels_block, codes, dtype=classes.dtype, name="decode", classes=classes)


def _weights_block(codes: np.ndarray, per_class: np.ndarray) -> np.ndarray:
    weights: np.ndarray = per_class[codes]
    return weights


def class_weights_of(codes: Tensor, per_class: np.ndarray) -> Tensor:
    """Each sample's class weight."""
    return mt.elemwise(
        _weights_block, codes, dtype=per_class.dtype, name="class_weight", per_class=per_class
    )


def weights_per_class(
    class_weight: Any, classes: np.ndarray, weighted_counts: np.ndarray | None
) -> np.ndarray:
    """The weight of each class: ``'balanced'`` from the (sample-weighted) count of each
    class, ``sum / (n_classes * count)``; a dict by scikit-learn's rules (classes it does
    not name weigh 1, and naming a class not in the data is an error)."""
    if isinstance(class_weight, str):
        assert weighted_counts is not None
        balanced: np.ndarray = weighted_counts.sum() / (len(classes) * weighted_counts)
        return balanced
    # with a dict, scikit-learn's function reads only the classes, not y
    per_class: np.ndarray = compute_class_weight(class_weight, classes=classes, y=classes)
    return per_class

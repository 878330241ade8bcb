"""The weight each class gets from ``class_weight``, and each sample's weight by its
class."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.class_weight import compute_class_weight

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.core import Tensor


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

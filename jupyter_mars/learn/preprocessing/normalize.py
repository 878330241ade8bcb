"""``normalize``: each sample (or feature) scaled to unit norm, as scikit-learn's.

Lazy: the norms are a reduction along the rows (``axis=1``) or the columns
(``axis=0``), and the division broadcasts them back. Norms too small to divide by
(under ten epsilons of the dtype: all-zero vectors) are taken as 1, as scikit-learn
does, and ``return_norm`` returns them so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.learn.preprocessing.inputs import SCALER_DTYPES
from jupyter_mars.learn.utils.validation import check_array
from jupyter_mars.tensor.core import Tensor

__all__ = ["normalize"]

_NORMS = ("l1", "l2", "max")


def normalize(
    X: Any,  # noqa: N803
    norm: str = "l2",
    *,
    axis: int = 1,
    copy: bool = True,
    return_norm: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """``X`` with each sample (``axis=1``) or feature (``axis=0``) divided by its
    ``norm`` (``"l1"``, ``"l2"`` or ``"max"``): a lazy tensor, and the lazy norms with
    ``return_norm``."""
    if norm not in _NORMS:
        raise ValueError(f"'{norm}' is not a supported norm")
    if isinstance(axis, bool) or axis not in (0, 1):
        raise ValueError(f"'{axis}' is not a supported axis")
    data = check_array(X, dtype=SCALER_DTYPES, estimator="the normalize function")
    magnitude = mt.abs(data)
    if norm == "l1":
        norms = magnitude.sum(axis=axis)
    elif norm == "l2":
        norms = mt.sqrt((data * data).sum(axis=axis))
    else:
        norms = magnitude.max(axis=axis)
    norms = mt.where(norms < 10 * np.finfo(data.dtype).eps, 1.0, norms).astype(data.dtype)
    scaled = data / mt.expand_dims(norms, axis)  # each norm along the axis it reduced
    return (scaled, norms) if return_norm else scaled

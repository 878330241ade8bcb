"""What the scalers make of their input, as scikit-learn makes it.

Inputs become float tensors (float64, unless float32 or float16 already) where NaN is
allowed: the scalers ignore it when they fit and keep it when they transform. Their
features are recorded and checked by ``jupyter_mars.learn.utils.features``, their flags
by ``jupyter_mars.learn.utils.params``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.learn.utils.validation import FLOAT_DTYPES, float_input
from jupyter_mars.tensor.core import Tensor

__all__ = ["SCALER_DTYPES", "scaler_input"]

SCALER_DTYPES = (*FLOAT_DTYPES, np.float16)
"""The float dtypes a scaler keeps (float16 too); any other input is cast to the first."""


def scaler_input(X: Any, estimator: Any = None) -> Tensor:  # noqa: N803
    """``X`` as a 2-d float tensor of ``SCALER_DTYPES``, NaN allowed, infinity not."""
    return float_input(X, estimator, dtype=SCALER_DTYPES, ensure_all_finite="allow-nan")

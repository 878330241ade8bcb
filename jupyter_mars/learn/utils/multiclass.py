"""Class labels on tensors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.validation import to_tensor
from jupyter_mars.tensor.core import Tensor


def to_labels(y: Any) -> Tensor:
    """Targets as a tensor, as ``to_tensor`` makes it, except that in-memory labels which
    are not numbers (strings in an object array, a pandas string column) become a tensor
    of strings rather than an error."""
    if isinstance(y, Tensor | FrameBase):
        return to_tensor(y)
    values = y.to_numpy() if isinstance(y, pd.Series | pd.DataFrame) else np.asarray(y)
    if values.dtype.kind == "O":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            values = values.astype(str)
    return to_tensor(values)

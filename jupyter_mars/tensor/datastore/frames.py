"""``from_dataframe``: a DataFrame's (or Series') values as a tensor, as in Mars.

The frames package builds on tensors, so this module does not import it: a frame of this
project converts itself (its ``to_tensor``, chunked by the same rows), a pandas object
becomes an in-memory tensor.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import tensor


def from_dataframe(df: Any, dtype: Any = None) -> Tensor:
    """The values of a DataFrame or Series (``df.values``): rows chunked as the frame's."""
    if isinstance(df, (pd.DataFrame, pd.Series)):
        return tensor(df.to_numpy(), dtype=dtype)
    to_tensor = getattr(df, "to_tensor", None)
    if to_tensor is None or isinstance(df, Tensor):
        raise TypeError(f"df must be a DataFrame or a Series, got {type(df).__name__}")
    out: Tensor = to_tensor()
    return out if dtype is None else out.astype(dtype)

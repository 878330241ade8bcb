"""Mars's ``dataframe_from_tensor`` and ``series_from_tensor``: frames over a tensor's
rows, chunked as the tensor is (``md.DataFrame(tensor)`` under its Mars name)."""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.datasource import from_tensor
from jupyter_mars.tensor.core import Tensor

__all__ = ["dataframe_from_tensor", "series_from_tensor"]


def _check(tensor: Any, gpu: Any, sparse: Any) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"tensor must be a lazy tensor, got {type(tensor).__name__}")
    if gpu:
        raise NotImplementedError("gpu=True: frames live in host memory")
    if sparse:
        raise NotImplementedError("sparse=True: frames are dense")


def dataframe_from_tensor(
    tensor: Tensor,
    index: Any = None,
    columns: Any = None,
    gpu: Any = None,
    sparse: bool = False,
) -> DataFrame:
    """A lazy DataFrame of a 1-d or 2-d tensor's values (one column per tensor column)."""
    _check(tensor, gpu, sparse)
    return DataFrame(from_tensor(tensor, "frame", index, columns, None, None, None))


def series_from_tensor(
    tensor: Tensor,
    index: Any = None,
    name: Any = None,
    dtype: Any = None,
    gpu: Any = None,
    sparse: bool = False,
) -> Series:
    """A lazy Series of a 1-d tensor's values."""
    _check(tensor, gpu, sparse)
    return Series(from_tensor(tensor, "series", index, None, dtype, name, None))

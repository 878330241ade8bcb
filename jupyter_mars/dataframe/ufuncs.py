"""NumPy ufuncs on lazy frames: ``np.sqrt(df)``, ``np.add(s, 1)``, ``np.log(s)``.

``DataFrame.__array_ufunc__`` and ``Series.__array_ufunc__`` come here. An element-wise
ufunc is one call per row chunk, pandas applying it to each chunk (so labels, dtypes and
names follow pandas); frames with different indexes are aligned on their labels as in
arithmetic. NumPy arrays of the frame's number of rows are split at its chunk offsets
(by position, as pandas does); other NumPy values (scalars, a row of per-column values)
go to every chunk as they are. Reductions (``np.add.reduce``), ``out=`` and ufuncs with
several outputs are not supported: each raises NotImplementedError naming what to use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.filters import rows_like
from jupyter_mars.dataframe.map_chunks import aligned, map_chunks, meta_of, slot_args
from jupyter_mars.dataframe.node import empty_like


def apply_ufunc(ufunc: np.ufunc, *args: Any, **kwargs: Any) -> Any:
    return ufunc(*args, **kwargs)


def _lazy_input(x: Any, like: FrameBase) -> Any:
    if isinstance(x, pd.DataFrame):
        return DataFrame(x)
    if isinstance(x, pd.Series):
        return Series(x)
    if isinstance(x, np.ndarray) and x.ndim >= 1 and x.ndim == like.meta.ndim:
        columns = like.meta.columns if isinstance(like, DataFrame) else None
        return rows_like(like, x, name=getattr(like.meta, "name", None), columns=columns)
    return x


def array_ufunc(ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """``ufunc(*inputs, **kwargs)`` with at least one lazy frame among ``inputs``."""
    name = ufunc.__name__
    if method != "__call__":
        raise NotImplementedError(
            f"np.{name}.{method} on a lazy frame is not supported: use the frame's own "
            "methods (sum, prod, min, max, cumsum, ...)"
        )
    if kwargs.get("out") is not None:
        raise NotImplementedError(f"np.{name}: out= is not supported, frames are immutable")
    if ufunc.nout != 1:
        raise NotImplementedError(f"np.{name} has {ufunc.nout} outputs, which is not supported")
    like = next(x for x in inputs if isinstance(x, FrameBase))
    args = [_lazy_input(x, like) for x in inputs]
    lazy = [x for x in args if isinstance(x, FrameBase)]
    if any(isinstance(x, DataFrame) for x in lazy) and any(isinstance(x, Series) for x in lazy):
        raise NotImplementedError(
            f"np.{name} of a DataFrame and a Series: use the frame's methods (df.add(s), ...)"
        )
    meta = empty_like(ufunc(*(meta_of(x) for x in args), **kwargs))
    frames = aligned(lazy)
    slots = slot_args(args)
    same = frames[0] is lazy[0]
    return map_chunks(apply_ufunc, frames, (ufunc, *slots), meta, kwargs, name, keeps_rows=same)


# NumPy's ufuncs on a lazy frame (np.exp(df)) build lazy frames, attached here as the
# dataframe package attaches its methods
def _array_ufunc_method(
    self: FrameBase, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any
) -> Any:
    return array_ufunc(ufunc, method, *inputs, **kwargs)


setattr(FrameBase, "__array_ufunc__", _array_ufunc_method)  # noqa: B010

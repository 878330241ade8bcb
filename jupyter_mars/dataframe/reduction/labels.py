"""``idxmax`` and ``idxmin`` of DataFrame and Series: the label of the first extreme.

Down the rows it is a tree reduction carrying ``(value, label)`` per column (see
``_labels``); across the columns (``axis=1``) each row chunk is reduced by pandas.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.map_chunks import map_chunks
from jupyter_mars.dataframe.reduction._labels import LabelSpec, labels_rows
from jupyter_mars.dataframe.reduction.args import (
    check_flag,
    is_numeric,
    probe_frame,
)
from jupyter_mars.dataframe.reduction.build import reduction_op
from jupyter_mars.engine.node import Node
from jupyter_mars.engine.primitives.blockwise import Blockwise, Slot
from jupyter_mars.tensor.core import Tensor


def frame_labels(df: DataFrame, how: str, axis: Any, skipna: Any, numeric_only: Any) -> Any:
    """``df.idxmax``/``df.idxmin`` (``how`` is ``"max"``/``"min"``) as a lazy Series."""
    ax = axis_number(df.meta, axis)
    skip = check_flag(skipna, "skipna")
    only = check_flag(numeric_only, "numeric_only")
    meta: pd.DataFrame = df.meta
    keep = [i for i, t in enumerate(meta.dtypes) if not only or is_numeric(t)]
    kept = meta.iloc[:, keep]
    probe = probe_frame(kept)
    if ax == 1:
        out_meta = getattr(probe, f"idx{how}")(axis=1).iloc[:0]
        op = Blockwise(labels_rows, (Slot(0), how, skip), name=f"idx{how}")
        source = df if not only else _columns(df, keep)
        return new_frame(op, [source], df.node.shape[0], out_meta)
    getattr(probe, f"idx{how}")()  # TypeError for columns pandas cannot compare
    index_dtype = meta.index.dtype
    out_meta = pd.Series(meta.index[:0], index=kept.columns[:0], dtype=index_dtype)
    spec = LabelSpec(how, skip, tuple(keep), kept.columns, index_dtype)
    return new_frame(reduction_op(spec, len(keep), f"idx{spec.how}"), [df], len(keep), out_meta)


def select_positions(chunk: pd.DataFrame, positions: list[int]) -> pd.DataFrame:
    return chunk.iloc[:, positions]


def _columns(df: DataFrame, positions: list[int]) -> Any:
    meta = df.meta.iloc[:, positions]
    return map_chunks(select_positions, [df], (Slot(0), positions), meta, name="columns")


def series_labels(s: Series, how: str, axis: Any, skipna: Any) -> Tensor:
    """``s.idxmax``/``s.idxmin`` as a lazy 0-d tensor holding the label."""
    axis_number(s.meta, axis)
    skip = check_flag(skipna, "skipna")
    meta: pd.Series = s.meta
    probe = probe_frame(meta.to_frame()).iloc[:, 0]
    getattr(probe, f"idx{how}")()  # TypeError for values pandas cannot compare
    spec = LabelSpec(how, skip, None)
    dtype = meta.index.dtype if isinstance(meta.index.dtype, np.dtype) else np.dtype(object)
    out = Tensor(Node(reduction_op(spec, None, f"idx{spec.how}"), [s.node], (), dtype))
    if options.eager_mode:
        out.execute()
    return out


def frame_idxmax(
    df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """The label of the first maximum of each column (``axis=1``: of each row)."""
    return frame_labels(df, "max", axis, skipna, numeric_only)


def frame_idxmin(
    df: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False
) -> Any:
    """The label of the first minimum of each column (``axis=1``: of each row)."""
    return frame_labels(df, "min", axis, skipna, numeric_only)


def series_idxmax(s: Series, axis: Any = 0, skipna: bool = True) -> Tensor:
    """The label of the first maximum."""
    return series_labels(s, "max", axis, skipna)


def series_idxmin(s: Series, axis: Any = 0, skipna: bool = True) -> Tensor:
    """The label of the first minimum."""
    return series_labels(s, "min", axis, skipna)

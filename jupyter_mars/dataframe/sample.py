"""``sample``: random rows (or columns), the same ones pandas picks.

pandas draws positions with ``random_state`` (a seed, a NumPy ``RandomState`` or
``Generator``) from the number of rows and the weights alone. When both are known
before any data is read (the length is known and ``weights`` is None or a list), the
positions are drawn here, at the call, by pandas itself on a stand-in of that length,
and the rows are taken by position (``take_rows``): so a seed gives pandas' rows for
any chunking, and a generator passed in advances as it does in pandas. When the
weights are a column or a lazy Series, or the length depends on data, the frame is
sampled by pandas as one chunk (a seed still gives pandas' rows). Columns
(``axis=1``) are drawn on the meta.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.brackets import getitem
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.neighbours import call
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.dataframe.selection import take_rows


def sample(
    frame: FrameBase,
    n: int | None = None,
    frac: float | None = None,
    replace: bool = False,
    weights: Any = None,
    random_state: Any = None,
    axis: Any = None,
    ignore_index: bool = False,
) -> Any:
    """Random rows (``axis=1``: columns): ``n`` of them or a fraction ``frac``."""
    kwargs: dict[str, Any] = {"n": n, "frac": frac, "replace": replace, "axis": axis}
    by_columns = axis_number(frame.meta, axis, default=0) == 1  # ValueError for a Series
    if by_columns and isinstance(frame, DataFrame):
        # columns are known: draw them on the meta, as pandas would on the data
        meta = frame.meta.sample(weights=weights, random_state=random_state, **kwargs)
        return getitem(frame, list(meta.columns))
    lazy_weights = isinstance(weights, (str, FrameBase, pd.Series))
    node = frame.node
    assert isinstance(node, FrameNode)
    nrows = node.shape[0]
    if lazy_weights or math.isnan(nrows):
        if isinstance(weights, FrameBase):
            raise NotImplementedError("sample: weights as a lazy Series; pass a list or column")
        empty_like(frame.meta.sample(n=0, weights=None if lazy_weights else weights))
        kwargs.update(weights=weights, random_state=random_state, ignore_index=ignore_index)
        return map_chunks(
            call,
            [one_chunk(frame)],
            ("sample", (), kwargs, Slot(0)),
            frame.meta if not ignore_index else frame.meta.reset_index(drop=True),
            name="sample",
            keeps_rows=False,
        )
    stand_in = pd.Series(np.arange(int(nrows)))
    positions = stand_in.sample(weights=weights, random_state=random_state, **kwargs)
    out = take_rows(frame, positions.to_numpy())
    return renumber(out) if ignore_index else out


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.sample = sample  # type: ignore[union-attr]


_attach()

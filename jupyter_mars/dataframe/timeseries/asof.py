"""``asof(where)``: the last row without NaN at or before each label of ``where``.

On a sorted index, the answer for a label is the last chunk's own answer that is not
NaN: each chunk answers for every label (``chunk_asof``, rows numbered by the label's
position in ``where``), and one task keeps, per position, the answer of the last chunk
that had one (``latest_answers``). A single label gives the row (a DataFrame) or the
value (a Series), fetched as pandas gives them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like


def _answered(answers: Any, subset: Any) -> Any:
    """Which answers hold a row: no NaN (in ``subset``, for a DataFrame)."""
    if isinstance(answers, pd.Series):
        return answers.notna()
    columns = answers if subset is None else answers[list(subset)]
    return columns.notna().all(axis=1)


def chunk_asof(chunk: Any, where: pd.Index, subset: Any, meta: Any) -> Any:
    """This chunk's answers, numbered by position in ``where``; NaN where it has none."""
    if not len(chunk):
        return meta
    if isinstance(chunk, pd.Series):
        answers = chunk.asof(where)
    else:
        answers = chunk.asof(where, subset=subset)
    return answers.set_axis(pd.RangeIndex(len(where)), axis=0)


def latest_answers(chunks: Any, where: pd.Index, subset: Any, meta: Any) -> Any:
    """Per position, the answer of the last chunk that had one, labelled by ``where``."""
    found = chunks[_answered(chunks, subset).to_numpy()]
    latest = found[~found.index.duplicated(keep="last")]
    out = latest.reindex(pd.RangeIndex(len(where))).set_axis(where, axis=0)
    return out.astype(meta.dtypes if isinstance(meta, pd.DataFrame) else meta.dtype)


def asof(frame: FrameBase, where: Any, subset: Any = None) -> Any:
    """The last row without NaN (in ``subset``) at or before each label of ``where``."""
    scalar = np.ndim(where) == 0
    labels = pd.Index([where] if scalar else where)
    extra = {} if isinstance(frame, Series) else {"subset": subset}
    sample = frame.meta.reindex(labels[:1]).asof(labels[:0], **extra)  # checks subset
    meta = empty_like(sample.astype("float64") if isinstance(frame, Series) else sample)
    if isinstance(meta, pd.DataFrame):
        meta = meta.astype(dict.fromkeys(meta.columns[meta.dtypes.map(_int_like)], "float64"))
    partial = empty_like(meta.set_axis(pd.RangeIndex(0), axis=0))
    answers = map_chunks(
        chunk_asof,
        [frame],
        (Slot(0), labels, subset, partial),
        partial,
        name="asof",
        keeps_rows=False,
    )
    out = map_chunks(
        latest_answers,
        [one_chunk(answers)],
        (Slot(0), labels, subset, meta),
        meta.set_axis(labels[:0], axis=0),
        name="asof",
        keeps_rows=False,
    )
    if not scalar:
        return out
    value = out.to_pandas()
    return value.iloc[0]


def _int_like(dtype: Any) -> bool:
    """Integer and boolean columns turn float: a label before every row gives NaN."""
    return bool(pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_bool_dtype(dtype))


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.asof = asof  # type: ignore[union-attr]


_attach()

"""Row chunks of a frame put together into one pandas object, copied on several threads.

``pd.concat`` copies every column on the calling thread. Where every chunk has the same
columns of plain NumPy dtypes (numbers, bools, datetimes: values NumPy copies without
the GIL), the result's columns are allocated once and each chunk's rows are copied into
place by ``engine.copies``, on the cores the session runs tasks on. The index is
``pd.concat``'s (a RangeIndex stays one).

A frame whose columns all share one dtype becomes one block, as ``pd.concat`` makes it;
one of mixed dtypes gets a block per column, as ``pd.DataFrame(dict, copy=False)`` does,
so only frames of a few columns take that form. Anything else is left to ``pd.concat``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.engine.copies import PARALLEL_BYTES, Copy, copy_all

MIXED_COLUMNS = 16
"""The most columns of mixed dtypes gathered a column at a time (each its own block)."""

_COPIED_KINDS = "biufcmM"


def _plain(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind in _COPIED_KINDS


def _same_layout(chunks: list[Any]) -> bool:
    first = chunks[0]
    if isinstance(first, pd.Series):
        return all(isinstance(c, pd.Series) and c.dtype == first.dtype for c in chunks)
    if not isinstance(first, pd.DataFrame):
        return False
    return all(
        isinstance(c, pd.DataFrame)
        and c.columns.equals(first.columns)
        and c.dtypes.equals(first.dtypes)
        for c in chunks
    )


def _index(chunks: list[Any]) -> pd.Index:
    """The index ``pd.concat`` gives the rows: the chunks' indexes appended."""
    first: pd.Index = chunks[0].index
    return first.append([c.index for c in chunks[1:]])


def parallel_concat(chunks: list[Any], threads: int) -> Any | None:
    """``pd.concat(chunks)`` with the copies shared out among ``threads`` threads; None
    where this way does not apply (the caller uses ``pd.concat``)."""
    if threads <= 1 or len(chunks) < 2 or not _same_layout(chunks):
        return None
    first = chunks[0]
    dtypes = [first.dtype] if isinstance(first, pd.Series) else list(first.dtypes)
    if not dtypes or not all(_plain(d) for d in dtypes):
        return None
    one_block = len(set(dtypes)) == 1
    if not one_block and len(dtypes) > MIXED_COLUMNS:
        return None
    rows = [len(c) for c in chunks]
    total = sum(rows)
    if total * sum(d.itemsize for d in dtypes) < PARALLEL_BYTES:
        return None
    starts = np.cumsum([0, *rows])
    spans = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:], strict=True)]
    index = _index(chunks)
    copies: list[Copy] = []
    if isinstance(first, pd.Series):
        out = np.empty(total, dtype=dtypes[0])
        copies = [
            (out[span], c.to_numpy(copy=False)) for span, c in zip(spans, chunks, strict=True)
        ]
        copy_all(copies, threads)
        result = pd.Series(out, index=index, name=first.name, copy=False)
    elif one_block:
        # Fortran order: each column contiguous, the layout of a pandas block
        block = np.empty((total, len(dtypes)), dtype=dtypes[0], order="F")
        copies = [
            (block[span], c.to_numpy(copy=False)) for span, c in zip(spans, chunks, strict=True)
        ]
        copy_all(copies, threads)
        result = pd.DataFrame(block, index=index, columns=first.columns, copy=False)
    else:
        arrays = [np.empty(total, dtype=d) for d in dtypes]
        for span, chunk in zip(spans, chunks, strict=True):
            for array, (_, column) in zip(arrays, chunk.items(), strict=True):
                copies.append((array[span], column.to_numpy(copy=False)))
        copy_all(copies, threads)
        result = pd.DataFrame(dict(enumerate(arrays)), index=index, copy=False)
        result.columns = first.columns
    if all(c.attrs == first.attrs for c in chunks):  # as pd.concat keeps them
        result.attrs = dict(first.attrs)
    return result

"""Row chunk lengths for frames: ``chunk_size`` as rows, ``(rows, cols)``, or a byte budget."""

from __future__ import annotations

from typing import Any

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import split_evenly


def row_splits(nrows: int, chunk_size: Any, row_bytes: int) -> tuple[int, ...]:
    """Lengths of the row chunks of ``nrows`` rows.

    ``chunk_size`` is a row count, a ``(rows, cols)`` pair as Mars takes it (``cols``
    is read by ``column_splits``), or None: as many rows as fit ``options.chunk_store_limit`` bytes.

    >>> row_splits(10, 4, 8), row_splits(10, (5, None), 8), row_splits(0, 3, 8)
    ((4, 4, 2), (5, 5), (0,))
    """
    if isinstance(chunk_size, (tuple, list)):
        if len(chunk_size) != 2:
            raise ValueError(f"chunk_size must be rows or (rows, cols), got {tuple(chunk_size)!r}")
        chunk_size = chunk_size[0]
    if chunk_size is None:
        rows = max(1, options.chunk_store_limit // max(row_bytes, 1))
    else:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
            raise TypeError(
                f"chunk_size must be an int number of rows, got {type(chunk_size).__name__}"
            )
        if chunk_size <= 0:
            raise ValueError(f"chunk_size must be a positive number of rows, got {chunk_size}")
        rows = chunk_size
    return split_evenly(nrows, rows)


def column_splits(ncols: int, chunk_size: Any) -> tuple[int, ...] | None:
    """Widths of the column chunks for a ``(rows, cols)`` ``chunk_size``, or None when the
    frame is not split by columns (no ``cols``, or one chunk holds them all).

    >>> column_splits(5, (10, 2)), column_splits(5, 10), column_splits(5, (None, 5))
    ((2, 2, 1), None, None)
    """
    if not isinstance(chunk_size, (tuple, list)) or len(chunk_size) != 2:
        return None
    cols = chunk_size[1]
    if cols is None:
        return None
    if isinstance(cols, bool) or not isinstance(cols, int):
        raise TypeError(f"chunk_size's cols must be an int number of columns, got {cols!r}")
    if cols <= 0:
        raise ValueError(f"chunk_size's cols must be a positive number of columns, got {cols}")
    return None if cols >= ncols else split_evenly(ncols, cols)

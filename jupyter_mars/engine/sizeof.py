"""How many bytes a chunk value holds, for memory accounting (runtimes and the store).

The store decides what to spill from these figures, so they must follow the memory a
value pins, not the size of its Python wrapper: ``sys.getsizeof`` of an ndarray view or
of a list of arrays is a few dozen bytes whatever the data behind it.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from jupyter_mars.engine.frame_dtypes import dtype_counts

_MAX_DEPTH = 3
"""How deep to look into tuples, lists and dicts; chunk values nest one or two levels."""


def sizeof(value: Any) -> int:
    """Bytes held by ``value``.

        NumPy arrays (and anything else with an integer ``nbytes``) report their buffer;
        SciPy sparse matrices the arrays they keep;
        pandas objects report ``memory_usage(deep=True)``; tuples, lists and dicts add up
        their items (a multi-output chunk is a tuple of arrays); anything else falls back to
        ``sys.getsizeof``.

        >>> import numpy as np

    from jupyter_mars.engine.frame_dtypes import dtype_counts
        >>> sizeof(np.zeros(10, dtype="f8"))
        80
        >>> sizeof((np.zeros(10, dtype="f8"), np.zeros(5, dtype="i1"))) > 85
        True
    """
    try:
        return _sizeof(value, _MAX_DEPTH)
    except Exception:  # noqa: BLE001 - a size is an estimate and must never fail the task
        # pandas measures a frame through its arrays and raises for some it cannot measure
        # (an object column of objects that are not arrays), even from sys.getsizeof
        return object.__sizeof__(value)


_SPARSE_PARTS = ("data", "indices", "indptr", "row", "col", "offsets")
"""The arrays a SciPy sparse matrix keeps (CSR/CSC, COO, DIA), which has no ``nbytes``."""


def _sizeof(value: Any, depth: int) -> int:
    if hasattr(value, "nnz") and hasattr(value, "tocsr"):
        sizes = (getattr(getattr(value, name, None), "nbytes", None) for name in _SPARSE_PARTS)
        return sum(n for n in sizes if isinstance(n, int))
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    fixed = _fixed_width_frame_bytes(value)
    if fixed is not None:
        return fixed
    memory_usage = getattr(value, "memory_usage", None)
    if callable(memory_usage):
        usage = _pandas_memory_usage(memory_usage)
        if usage is not None:
            return usage
    if depth > 0 and isinstance(value, tuple | list | set | frozenset):
        return sys.getsizeof(value) + sum(_sizeof(item, depth - 1) for item in value)
    if depth > 0 and isinstance(value, dict):
        return sys.getsizeof(value) + sum(
            _sizeof(k, depth - 1) + _sizeof(v, depth - 1) for k, v in value.items()
        )
    return sys.getsizeof(value)


def _fixed_width_frame_bytes(value: Any) -> int | None:
    """The bytes of a DataFrame whose columns all have fixed-width NumPy dtypes: rows
    times the widths, plus the index. ``memory_usage`` gives the same figure but builds a
    Series per column and one labelled by a string index (tens of milliseconds for a
    thousand columns, a quarter of a millisecond for two: much of a small task's time).
    None for other values."""
    # each distinct dtype once, not a Python step per column: this runs inside the
    # runtime's lock for every chunk a task gives back
    counts = dtype_counts(value)
    if counts is None or not all(isinstance(t, np.dtype) and t.kind in "biufcmM" for t in counts):
        return None
    index = value.index
    usage = getattr(index, "memory_usage", None)
    index_bytes = _pandas_memory_usage(usage) if callable(usage) else None
    if index_bytes is None:
        index_bytes = _sizeof(index, 0)
    return int(len(index) * sum(t.itemsize * n for t, n in counts.items())) + index_bytes


def _pandas_memory_usage(memory_usage: Any) -> int | None:
    """``memory_usage(deep=True)`` summed: a DataFrame answers a Series, a Series an int.

    Returns None for a ``memory_usage`` that does not take ``deep`` (not pandas).
    """
    try:
        usage = memory_usage(deep=True)
    except TypeError:
        return None
    if hasattr(usage, "sum"):
        usage = usage.sum()
    try:
        return int(usage)
    except (TypeError, ValueError):
        return None

"""Chunk layout arithmetic: ``nsplits`` is a tuple, per axis, of chunk lengths.

An unknown length (after a boolean mask, ``unique``, ``nonzero``) is ``nan`` until the
chunk has been computed.

>>> normalize_chunk_size((5, 4), 2, itemsize=8)
((2, 2, 1), (2, 2))
>>> normalize_chunk_size((5, 4), ((3, 2), None), itemsize=8)
((3, 2), (4,))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from jupyter_mars.config import options

NSplits = tuple[tuple[float, ...], ...]


def is_known(length: float) -> bool:
    return not math.isnan(length)


def nsplits_known(nsplits: NSplits) -> bool:
    return all(not math.isnan(n) for axis in nsplits for n in axis)


def split_evenly(length: int, size: int) -> tuple[int, ...]:
    """Chunks of ``size`` along an axis of ``length``, the last one shorter if needed."""
    if length == 0:
        return (0,)
    full, rest = divmod(length, size)
    return (size,) * full + ((rest,) if rest else ())


def auto_chunk_sizes(shape: Sequence[int], itemsize: int, limit: int) -> tuple[int, ...]:
    """Near-square chunk sizes whose byte size stays within ``limit``.

    Axes that fit whole are kept whole starting from the last (C order keeps rows
    contiguous); the rest share the remaining budget equally.
    """
    ndim = len(shape)
    if ndim == 0:
        return ()
    budget = max(limit // max(itemsize, 1), 1)
    sizes = [0] * ndim
    todo = [i for i in range(ndim) if shape[i] > 0]
    for i in range(ndim):
        if shape[i] == 0:
            sizes[i] = 1
    while todo:
        per_axis = max(int(budget ** (1.0 / len(todo))), 1)
        small = [i for i in todo if shape[i] <= per_axis]
        if not small:
            for i in todo:
                sizes[i] = per_axis
            break
        for i in small:
            sizes[i] = shape[i]
            budget = max(budget // shape[i], 1)
            todo.remove(i)
    return tuple(sizes)


def _check_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int,)) and not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    return int(value)


def normalize_chunk_size(
    shape: Sequence[int], chunk_size: Any, itemsize: int, limit: int | None = None
) -> tuple[tuple[int, ...], ...]:
    """Turn every accepted form of ``chunk_size`` into ``nsplits`` for ``shape``.

    Accepted: None (a byte budget, ``limit``), an int for every axis, or a tuple with one
    entry per axis, each an int, None or -1 (the whole axis), or a tuple of lengths that
    sums to the axis. Raises ValueError/TypeError naming ``chunk_size`` otherwise.
    """
    ndim = len(shape)
    if chunk_size is None:
        sizes = auto_chunk_sizes(shape, itemsize, limit or options.chunk_store_limit)
        return tuple(split_evenly(n, s) for n, s in zip(shape, sizes))
    if isinstance(chunk_size, dict):
        chunk_size = tuple(chunk_size.get(i, chunk_size.get(i - ndim)) for i in range(ndim))
    if not isinstance(chunk_size, (tuple, list)):
        size = _check_int(chunk_size, "chunk_size")
        if size == -1:
            return tuple(split_evenly(n, max(n, 1)) for n in shape)
        if size <= 0:
            raise ValueError(f"chunk_size must be a positive int, got {size}")
        return tuple(split_evenly(n, size) for n in shape)
    if len(chunk_size) != ndim:
        raise ValueError(
            f"chunk_size must have one entry per axis ({ndim} for shape {tuple(shape)}), "
            f"got {len(chunk_size)}: {tuple(chunk_size)!r}"
        )
    out = []
    for axis, (n, entry) in enumerate(zip(shape, chunk_size)):
        if entry is None or (not isinstance(entry, (tuple, list)) and entry == -1):
            out.append(split_evenly(n, max(n, 1)))
        elif isinstance(entry, (tuple, list)):
            lengths = tuple(_check_int(x, f"chunk_size[{axis}]") for x in entry)
            if any(x < 0 for x in lengths) or (n > 0 and any(x == 0 for x in lengths)):
                raise ValueError(f"chunk_size[{axis}] must hold positive lengths, got {lengths!r}")
            if sum(lengths) != n:
                raise ValueError(
                    f"chunk_size[{axis}] lengths {lengths!r} sum to {sum(lengths)}, "
                    f"but axis {axis} has length {n}"
                )
            out.append(lengths)
        else:
            size = _check_int(entry, f"chunk_size[{axis}]")
            if size <= 0:
                raise ValueError(f"chunk_size[{axis}] must be a positive int, got {size}")
            out.append(split_evenly(n, size))
    return tuple(out)


def offsets(lengths: Sequence[float]) -> list[float]:
    """Start of each chunk along an axis, plus the end: ``[0, l0, l0+l1, ...]``."""
    return [0, *itertools.accumulate(lengths)]


def chunk_slices(lengths: Sequence[int]) -> list[slice]:
    starts = offsets(lengths)
    return [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]


def rechunk_sources(old: Sequence[int], new: Sequence[int]) -> list[list[tuple[int, slice]]]:
    """For each new chunk along one axis: the old chunks it reads and the slice of each.

    >>> rechunk_sources((3, 3), (2, 4))
    [[(0, slice(0, 2, None))], [(0, slice(2, 3, None)), (1, slice(0, 3, None))]]
    """
    old_starts = offsets(old)
    out: list[list[tuple[int, slice]]] = []
    start = 0
    i = 0
    for length in new:
        stop = start + length
        parts: list[tuple[int, slice]] = []
        while i < len(old) and old_starts[i + 1] <= start and old[i] != 0:
            i += 1
        j = i
        while j < len(old) and old_starts[j] < stop:
            lo = max(start, int(old_starts[j])) - int(old_starts[j])
            hi = min(stop, int(old_starts[j + 1])) - int(old_starts[j])
            if hi > lo:
                parts.append((j, slice(lo, hi)))
            j += 1
        if not parts:
            # an empty chunk still reads an (empty) slice of some old chunk
            k = min(i, len(old) - 1)
            parts.append((k, slice(0, 0)))
        out.append(parts)
        start = stop
    return out


def shape_of(nsplits: NSplits) -> tuple[float, ...]:
    return tuple(sum(axis) if nsplits_known((axis,)) else math.nan for axis in nsplits)

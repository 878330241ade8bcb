"""Where an index falls in a chunk grid.

Per axis: which chunks a slice visits and the slice inside each (``slice_plan``), the chunk
and local position of an integer (``int_plan``). For integer arrays, element by element:
the chunk each index falls in and its local position (``locate``), grouped by chunk
(``groups``). Both the tile rules (indices known at build time) and the chunk kernels of
integer tensors (indices known when they run) use these.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.node import Tiled
from jupyter_mars.tensor.indexing.normalize import normalize_array, normalize_int


def slice_plan(lengths: Sequence[float], sl: slice) -> list[tuple[int, slice, int]]:
    """For each output chunk along one axis: (input chunk, slice inside it, output length).

    Only the input chunks the slice intersects appear, in the order the slice visits them.

    >>> slice_plan((3, 3, 2), slice(1, None, 3))
    [(0, slice(1, 3, 3), 1), (1, slice(1, 3, 3), 1), (2, slice(1, 2, 3), 1)]
    >>> slice_plan((3, 3), slice(None, None, -2))
    [(1, slice(2, None, -2), 2), (0, slice(1, None, -2), 1)]
    """
    starts = [int(s) for s in offsets(lengths)]
    start, stop, step = sl.indices(starts[-1])
    out: list[tuple[int, slice, int]] = []
    if step > 0:
        for i in range(len(lengths)):
            lo, hi = starts[i], starts[i + 1]
            first = start if start >= lo else start + -(-(lo - start) // step) * step
            end = min(stop, hi)
            if first < end:
                out.append((i, slice(first - lo, end - lo, step), -(-(end - first) // step)))
    else:
        s = -step
        for i in reversed(range(len(lengths))):
            lo, hi = starts[i], starts[i + 1]
            first = start if start <= hi - 1 else start - -(-(start - (hi - 1)) // s) * s
            bound = max(stop, lo - 1)
            if first > bound:
                local_stop = bound - lo
                out.append(
                    (
                        i,
                        slice(first - lo, local_stop if local_stop >= 0 else None, step),
                        -(-(first - bound) // s),
                    )
                )
    if not out:
        out.append((0, slice(0, 0, 1), 0))
    return out


def int_plan(lengths: Sequence[float], i: int, axis: int) -> tuple[int, int]:
    """The chunk integer ``i`` falls in along an axis of chunk ``lengths``, and its position
    there; IndexError naming ``axis`` when out of bounds."""
    starts = [int(s) for s in offsets(lengths)]
    g = normalize_int(i, starts[-1], axis)
    chunk = int(np.searchsorted(starts, g, side="right")) - 1
    return chunk, g - starts[chunk]


def chunk_starts(lengths: Sequence[float]) -> np.ndarray[Any, Any]:
    """Start of every chunk along an axis, plus its end, as ``intp``."""
    return np.asarray(offsets(lengths), dtype=np.intp)


@dataclass
class Located:
    """Integer index arrays placed in a grid of chunks, element by element (flattened)."""

    flat: list[np.ndarray[Any, Any]]
    """Each index array as non-negative indices."""
    bids: list[np.ndarray[Any, Any]]
    """The chunk each index falls in, along its axis."""
    local: list[np.ndarray[Any, Any]]
    """Each index inside its chunk."""
    gid: np.ndarray[Any, Any]
    """The flat (C order) number of the chunk each element reads, in ``grid``."""
    grid: tuple[int, ...]
    """Chunks along the indexed axes."""


def locate(
    arrays: Sequence[Any], starts: Sequence[np.ndarray[Any, Any]], axes: Sequence[int], k: int
) -> Located:
    """Place index ``arrays`` (``k`` elements each) in chunks starting at ``starts``;
    IndexError naming ``axes`` for an index out of bounds."""
    flat = [normalize_array(arr, int(st[-1]), ax) for arr, st, ax in zip(arrays, starts, axes)]
    bids = [np.searchsorted(st, f, side="right") - 1 for st, f in zip(starts, flat)]
    local = [f - st[b] for f, st, b in zip(flat, starts, bids)]
    grid = tuple(len(st) - 1 for st in starts)
    gid = np.ravel_multi_index(tuple(bids), grid) if bids else np.zeros(k, np.intp)
    return Located(flat, bids, local, gid, grid)


def groups(gid: Any) -> list[tuple[int, Any]]:
    """(value, positions in order) for each distinct value of ``gid``, by value."""
    order = np.argsort(gid, kind="stable")
    values, first = np.unique(gid[order], return_index=True)
    bounds = [*first.tolist(), len(gid)]
    return [(int(v), order[lo:hi]) for v, lo, hi in zip(values.tolist(), bounds[:-1], bounds[1:])]


def grid_index(ndim: int, *parts: tuple[Sequence[int], Sequence[int]]) -> tuple[int, ...]:
    """A chunk index of ``ndim`` dims from (axes, positions) parts; 0 elsewhere."""
    index = [0] * ndim
    for axes, positions in parts:
        for a, i in zip(axes, positions):
            index[a] = int(i)
    return tuple(index)


def other_axes(t: Tiled, axes: Sequence[int]) -> tuple[list[int], list[tuple[float, ...]]]:
    """The axes of ``t`` not in ``axes``, and their chunk lengths."""
    rest = [a for a in range(t.keys.ndim) if a not in axes]
    return rest, [tuple(t.nsplits[a]) for a in rest]


def product_of(nsplits: Sequence[Sequence[float]]) -> list[tuple[int, ...]]:
    """Every chunk index of a grid with chunk lengths ``nsplits``, in C order."""
    return list(itertools.product(*(range(len(d)) for d in nsplits)))

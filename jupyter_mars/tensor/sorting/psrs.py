"""Parallel sort by regular sampling (PSRS): the tasks that sort the chunks of an axis that
is split into several chunks, so that no task ever holds a whole axis.

1. every chunk is sorted on its own (``local``);
2. regularly spaced samples are taken from the sorted chunks and gathered, per line along
   the axis, into one small task that picks ``p - 1`` pivots (``p`` = chunks on the axis);
3. each sorted chunk is cut at the pivots into ``p`` pieces (``piece``), and piece ``k`` of
   every chunk is merged into bucket ``k`` (``bucket``): buckets hold consecutive value
   ranges, so the concatenated buckets are the sorted axis. Ties are broken by a distinct
   key (the element's global index for ``argsort``) so that duplicated values still spread
   over the buckets;
4. buckets have data-dependent lengths that differ from line to line, so they are cut again
   at the ranks where the input chunks start (``out-piece``) and reassembled
   (``out``): **the result has exactly the chunks of the input** (known lengths, no ``nan``),
   which keeps it aligned with the input for later element-wise work.

``psrs_tasks`` builds these tasks for one group of chunks sharing their lines; ``sort``
(and ``partition`` along a split axis) call it once per group.

GPU chunks are sorted here on the host: ``local`` copies each chunk off the device and
``out`` copies each output chunk back. The exchange is made of per-line searches, ragged
gathers and lexicographic sorts along an axis that CuPy does not have (its ``lexsort``
takes no axis); one copy each way per chunk keeps it one algorithm with one set of tests.
A chunk sorted along an axis it holds whole never comes here: it is sorted on the device.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import GPU, to_device, to_host
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import TileContext
from jupyter_mars.tensor.sorting._common import MAX_OVERSAMPLE, flat_index

# ---- small array helpers used by the kernels --------------------------------------------------


def _exclusive_cumsum(lengths: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    out = np.zeros(len(lengths), dtype=np.intp)
    if len(lengths) > 1:
        np.cumsum(lengths[:-1], out=out[1:])
    return out


def _ragged_take(
    starts: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """Flat positions ``[starts[l], starts[l] + lengths[l])`` for every line ``l`` in order."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.intp)
    base = np.repeat(starts.astype(np.intp) - _exclusive_cumsum(lengths), lengths)
    return base + np.arange(total, dtype=np.intp)


def _line_ids(lengths: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.repeat(np.arange(len(lengths), dtype=np.intp), lengths)


# ---- kernels: PSRS ----------------------------------------------------------------------------
# A "local" result is (values (L, n), keys (L, n) or None, base): L lines along the axis, each
# sorted; keys are the global indices (argsort) or None, in which case the tie-break key of
# the element in column u is ``base + u``. A "ragged" result is (values, keys, lengths):
# lines one after another in ``values``, ``lengths[l]`` elements for line l.


def psrs_local_flat(
    block: Any, chunk_offset: tuple[int, ...], shape: tuple[int, ...], base: int, arg: bool
) -> tuple[Any, Any, int]:
    """``psrs_local`` for ``axis=None``: the chunk raveled, keys are global flat indices."""
    block = np.asarray(to_host(block))
    lines = block.reshape(1, -1)
    if not arg:
        return np.sort(lines, axis=-1), None, base
    order = np.argsort(lines, axis=-1, kind="stable")
    values = np.take_along_axis(lines, order, axis=-1)
    index = flat_index(block.shape, chunk_offset, shape).reshape(1, -1)
    return values, np.take_along_axis(index, order, axis=-1), base


def psrs_local_axis(block: Any, axis: int, offset: int, arg: bool) -> tuple[Any, Any, int]:
    """Sort one chunk along ``axis`` as (L, n) lines; keys are positions along the axis."""
    block = np.asarray(to_host(block))
    moved = np.moveaxis(block, axis, -1)
    # the number of lines spelt out: ``-1`` is ambiguous for an empty chunk
    lines = moved.reshape(math.prod(moved.shape[:-1]), block.shape[axis])
    if not arg:
        return np.sort(lines, axis=-1), None, offset
    order = np.argsort(lines, axis=-1, kind="stable")
    values = np.take_along_axis(lines, order, axis=-1)
    return values, order.astype(np.intp) + offset, offset


def psrs_sample(local: tuple[Any, Any, int], step: int) -> tuple[Any, Any]:
    """Every ``step``-th element of each sorted line, with its tie-break key."""
    values, keys, base = local
    n = values.shape[1]
    cols = np.arange(min(step // 2, max(n - 1, 0)), n, step) if n else np.zeros(0, np.intp)
    sample = values[:, cols]
    if keys is None:
        sample_keys = np.broadcast_to(base + cols.astype(np.intp), sample.shape).copy()
    else:
        sample_keys = keys[:, cols]
    return sample, sample_keys


def psrs_pivots(nbuckets: int, *samples: tuple[Any, Any]) -> tuple[Any, Any]:
    """``nbuckets - 1`` pivots per line, (value, key) pairs at regular sample ranks."""
    values = np.concatenate([s[0] for s in samples], axis=1)
    keys = np.concatenate([s[1] for s in samples], axis=1)
    m = values.shape[1]
    order = np.lexsort((keys, values), axis=-1)
    values = np.take_along_axis(values, order, axis=-1)
    keys = np.take_along_axis(keys, order, axis=-1)
    ranks = np.array([(r * m) // nbuckets for r in range(1, nbuckets)], dtype=np.intp)
    ranks = np.minimum(ranks, max(m - 1, 0))
    if m == 0:
        shape = (values.shape[0], nbuckets - 1)
        return np.zeros(shape, dtype=values.dtype), np.zeros(shape, dtype=np.intp)
    return values[:, ranks], keys[:, ranks]


def psrs_cuts(local: tuple[Any, Any, int], pivots: tuple[Any, Any]) -> np.ndarray[Any, Any]:
    """Per line, where each bucket starts in the sorted chunk: shape (L, nbuckets + 1)."""
    values, keys, base = local
    pv, pk = pivots
    nlines, n = values.shape
    nb = pv.shape[1] + 1
    cuts = np.empty((nlines, nb + 1), dtype=np.intp)
    cuts[:, 0] = 0
    cuts[:, -1] = n
    for line in range(nlines):
        row = values[line]
        lo = np.searchsorted(row, pv[line], side="left")
        hi = np.searchsorted(row, pv[line], side="right")
        if keys is None:
            cut = np.clip(pk[line] - base, lo, hi)
        else:
            cut = lo.copy()
            for r in np.flatnonzero(hi > lo):
                run = keys[line, lo[r] : hi[r]]
                cut[r] = lo[r] + np.searchsorted(run, pk[line, r])
        cuts[line, 1:-1] = cut
    return cuts


def psrs_piece(
    local: tuple[Any, Any, int], cuts: np.ndarray[Any, Any], k: int
) -> tuple[Any, Any, Any]:
    """Bucket ``k``'s part of one sorted chunk, as a ragged array."""
    values, keys, _ = local
    lengths = (cuts[:, k + 1] - cuts[:, k]).astype(np.intp)
    n = values.shape[1]
    positions = _ragged_take(cuts[:, k] + np.arange(len(lengths), dtype=np.intp) * n, lengths)
    flat_values = values.reshape(-1)[positions]
    flat_keys = keys.reshape(-1)[positions] if keys is not None else None
    return flat_values, flat_keys, lengths


def psrs_offsets(*cuts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Global rank where each bucket starts, per line: shape (L, nbuckets + 1)."""
    sizes = functools.reduce(np.add, (np.diff(c, axis=1) for c in cuts))
    out = np.zeros((sizes.shape[0], sizes.shape[1] + 1), dtype=np.intp)
    np.cumsum(sizes, axis=1, out=out[:, 1:])
    return out


def psrs_merge(*pieces: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """Bucket ``k`` from its pieces: every line sorted by (value, key)."""
    values = np.concatenate([p[0] for p in pieces])
    has_keys = pieces[0][1] is not None
    keys = np.concatenate([p[1] for p in pieces]) if has_keys else None
    lengths = functools.reduce(np.add, (p[2] for p in pieces))
    nlines = len(lengths)
    if nlines == 1:
        if keys is None:
            return np.sort(values), None, lengths
        order = np.lexsort((keys, values))
    else:
        lines = np.concatenate([_line_ids(p[2]) for p in pieces])
        order = (
            np.lexsort((keys, values, lines)) if keys is not None else np.lexsort((values, lines))
        )
    return values[order], (keys[order] if keys is not None else None), lengths


def psrs_out_piece(
    bucket: tuple[Any, Any, Any], starts: np.ndarray[Any, Any], k: int, lo: int, hi: int
) -> tuple[Any, Any, Any]:
    """The part of bucket ``k`` whose global ranks fall in ``[lo, hi)``, per line."""
    values, keys, lengths = bucket
    first = starts[:, k]
    begin = np.clip(lo - first, 0, lengths)
    end = np.clip(hi - first, 0, lengths)
    take = (end - begin).astype(np.intp)
    positions = _ragged_take(_exclusive_cumsum(lengths) + begin, take)
    return values[positions], (keys[positions] if keys is not None else None), take


def psrs_out(
    length: int,
    arg: bool,
    axis: int | None,
    other_shape: tuple[int, ...],
    device: str | None,
    *pieces: tuple[Any, Any, Any],
) -> Any:
    """One output chunk: each line's pieces, bucket after bucket, as a rectangular block,
    copied to ``device`` (``TileContext.device``) where that is a GPU."""
    out = _assemble_out(length, arg, pieces)
    if axis is not None:
        out = np.moveaxis(out.reshape((*other_shape, length)), -1, axis)
    return to_device(out) if device == GPU else out


def _assemble_out(length: int, arg: bool, pieces: tuple[tuple[Any, Any, Any], ...]) -> Any:
    nlines = len(pieces[0][2])
    source = 1 if arg else 0
    first = pieces[0][source]
    out = np.empty(nlines * length, dtype=first.dtype)
    filled = np.zeros(nlines, dtype=np.intp)
    for piece in pieces:
        lengths = piece[2]
        total = int(lengths.sum())
        if total == 0:
            continue
        lines = _line_ids(lengths)
        within = np.arange(total, dtype=np.intp) - np.repeat(_exclusive_cumsum(lengths), lengths)
        out[lines * length + filled[lines] + within] = piece[source]
        filled += lengths
    return out


# ---- the task graph ---------------------------------------------------------------------------


def psrs_tasks(
    prefix: str,
    ctx: TileContext,
    sources: list[Key],
    lengths: list[int],
    local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]],
    arg: bool,
    axis: int | None,
    other_shape: tuple[int, ...],
) -> list[Key]:
    """Tasks sorting one group of chunks that share their lines; returns the output keys.

    ``local_args[i]`` is ``(kernel, extra args)`` turning chunk ``i`` into a local result.
    """
    key: Key
    out_keys: list[Key] = []
    p = len(sources)
    total = sum(lengths)
    # about p * oversample samples per line, at most as many as the largest chunk holds
    oversample = max(1, min(p, MAX_OVERSAMPLE, max(lengths) // p))
    step = max(1, total // (p * oversample))
    local_keys = []
    for i, (source, (kernel, extra)) in enumerate(zip(sources, local_args)):
        key = (f"{prefix}-local", i)
        ctx.new_task(key, kernel, Ref(source), *extra)
        local_keys.append(key)
    sample_keys = []
    for i, local in enumerate(local_keys):
        key = (f"{prefix}-sample", i)
        ctx.new_task(key, psrs_sample, Ref(local), step)
        sample_keys.append(key)
    pivots = (f"{prefix}-pivots",)
    ctx.new_task(pivots, psrs_pivots, p, *(Ref(k) for k in sample_keys))
    cut_keys = []
    for i, local in enumerate(local_keys):
        key = (f"{prefix}-cuts", i)
        ctx.new_task(key, psrs_cuts, Ref(local), Ref(pivots))
        cut_keys.append(key)
    starts = (f"{prefix}-offsets",)
    ctx.new_task(starts, psrs_offsets, *(Ref(k) for k in cut_keys))
    bucket_keys = []
    for k in range(p):
        piece_keys = []
        for i in range(p):
            key = (f"{prefix}-piece", i, k)
            ctx.new_task(key, psrs_piece, Ref(local_keys[i]), Ref(cut_keys[i]), k)
            piece_keys.append(key)
        bucket = (f"{prefix}-bucket", k)
        ctx.new_task(bucket, psrs_merge, *(Ref(k2) for k2 in piece_keys))
        bucket_keys.append(bucket)
    rank_starts = offsets(lengths)
    for j in range(p):
        lo, hi = int(rank_starts[j]), int(rank_starts[j + 1])
        parts = []
        for k, bucket in enumerate(bucket_keys):
            key = (f"{prefix}-outpiece", k, j)
            ctx.new_task(key, psrs_out_piece, Ref(bucket), Ref(starts), k, lo, hi)
            parts.append(key)
        out = (f"{prefix}-out", j)
        ctx.new_task(
            out, psrs_out, hi - lo, arg, axis, other_shape, ctx.device, *(Ref(k) for k in parts)
        )
        out_keys.append(out)
    return out_keys

"""Indexing: ``x[index]``, ``x[index] = value``, ``take``, ``compress``, ``nonzero``,
``argwhere``, ``flatnonzero`` and ``extract``, with NumPy's semantics.

An index is parsed and validated when it is applied (bad types, too many indices,
out-of-bounds integers and arrays, mismatched boolean masks raise NumPy's exceptions at
the user's line). Then:

- **basic** indices (ints, slices, ``None``, ``...``) become one ``BasicIndex`` node: each
  output chunk is cut from the one input chunk it lies in (an output chunk that is a whole
  input chunk reuses its key);
- **integer arrays** known at build time (NumPy arrays, lists, NumPy boolean masks turned
  into their ``nonzero`` arrays) become a ``FancyIndex`` node on top of the basic part: the
  broadcast index shape is split into chunks; every output chunk reads only the input
  chunks its indices fall in (one task per output chunk, reading just those chunks);
- a **boolean tensor mask** becomes a ``MaskIndex`` node: one output chunk of unknown
  (``nan``) length per input chunk along the first masked axis;
- **integer tensors** (values unknown when tiling) become a ``ShuffleIndex`` node: each
  index chunk is bucketed by the input chunk its indices fall in, each input chunk serves
  the buckets that ask for it, and each output chunk assembles its pieces.

Where advanced indices go in the result follows NumPy: in place when they are next to each
other in the index (integers count as advanced indices then), first otherwise.

``x[index] = value`` rebinds ``x`` to a new node (as Mars does): the chunks the selection
touches are copied and assigned, the others keep their keys. Values are converted to the
tensor's dtype exactly as NumPy's assignment converts them.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, auto_chunk_sizes, offsets, split_evenly
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.blockwise import unify_chunks
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor

__all__ = ["argwhere", "compress", "extract", "flatnonzero", "nonzero", "take"]

INDEX_TYPE_ERROR = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices"
)
NAN = math.nan


def _isnan(n: Any) -> bool:
    return isinstance(n, float) and math.isnan(n)


def _known(lengths: Sequence[float]) -> bool:
    return not any(_isnan(n) for n in lengths)


def _prod(values: Sequence[int]) -> int:
    return int(math.prod(values))


def _out_of_bounds(value: Any, axis: int, size: int) -> IndexError:
    return IndexError(f"index {value} is out of bounds for axis {axis} with size {size}")


def _check_array_bounds(arr: np.ndarray[Any, Any], size: int, axis: int) -> None:
    if arr.size == 0:
        return
    bad = (arr < -size) | (arr >= size)
    if bad.any():
        raise _out_of_bounds(arr[bad].ravel()[0], axis, size)


def _normalize_array(arr: np.ndarray[Any, Any], size: int, axis: int) -> np.ndarray[Any, Any]:
    """Non-negative ``intp`` indices (flattened); IndexError for one out of bounds."""
    _check_array_bounds(arr, size, axis)
    flat = np.asarray(arr).ravel().astype(np.intp)
    return np.where(flat < 0, flat + size, flat)


def _normalize_int(i: int, size: float, axis: int) -> int:
    n = int(size)
    if not -n <= i < n:
        raise _out_of_bounds(i, axis, n)
    return i + n if i < 0 else i


# ---- parsing --------------------------------------------------------------------------------


@dataclass
class _Adv:
    """One advanced index: ``kind`` is np (int array), npmask, tint (int tensor), tmask
    (bool tensor) or bool (a boolean scalar, which only adds a length-1 or -0 axis)."""

    kind: str
    value: Any
    x_axes: tuple[int, ...]


@dataclass
class _Parsed:
    entries: list[tuple[Any, ...]]
    """("new",) | ("slice", slice, x_axis) | ("int", i, x_axis) | ("adv", j), in order."""
    adv: list[_Adv]
    place: int
    """Where the broadcast index dims go among the output dims (with advanced indices)."""
    scalar: bool = False
    """One integer per axis and nothing else: NumPy assigns a single element then."""


def _check_slice(sl: slice) -> slice:
    parts: list[int | None] = []
    for v in (sl.start, sl.stop, sl.step):
        if v is None:
            parts.append(None)
            continue
        try:
            parts.append(operator.index(v))
        except TypeError:
            raise TypeError(
                "slice indices must be integers or None or have an __index__ method"
            ) from None
    if parts[2] == 0:
        raise ValueError("slice step cannot be zero")
    return slice(*parts)


def _classify(obj: Any) -> tuple[Any, ...]:
    if obj is None:
        return ("new",)
    if obj is Ellipsis:
        return ("ellipsis",)
    if isinstance(obj, slice):
        return ("slice", _check_slice(obj))
    if isinstance(obj, (bool, np.bool_)):
        return ("bool", bool(obj))
    if isinstance(obj, Tensor):
        kind = obj.dtype.kind
        if kind == "b":
            if obj.ndim == 0:
                raise NotImplementedError(
                    "indexing with a 0-d boolean tensor is not supported; use a Python bool"
                )
            return ("tmask", obj)
        if kind in "iu":
            return ("tint", obj)
        raise IndexError(INDEX_TYPE_ERROR)
    if isinstance(obj, (np.ndarray, list, tuple)):
        try:
            arr = np.asarray(obj)
        except ValueError:
            raise IndexError(INDEX_TYPE_ERROR) from None
        if not isinstance(obj, np.ndarray) and arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.intp)
        if arr.dtype.kind == "b":
            return ("bool", bool(arr)) if arr.ndim == 0 else ("npmask", arr)
        if arr.dtype.kind in "iu":
            return ("int", int(arr)) if arr.ndim == 0 else ("np", arr)
        raise IndexError(INDEX_TYPE_ERROR)
    if isinstance(obj, (int, np.integer)):
        return ("int", int(obj))
    if isinstance(obj, (float, complex, str, bytes, np.generic)):
        raise IndexError(INDEX_TYPE_ERROR)
    if hasattr(obj, "__index__"):
        return ("int", operator.index(obj))
    raise IndexError(INDEX_TYPE_ERROR)


def _mask_mismatch(axis: int, size: Any, got: Any) -> IndexError:
    return IndexError(
        f"boolean index did not match indexed array along axis {axis}; size of axis is "
        f"{size} but size of corresponding boolean axis is {got}"
    )


def _parse(index: Any, shape: tuple[Any, ...]) -> _Parsed:
    """Validate ``index`` against ``shape`` (NumPy's errors) and lay it out per axis."""
    items = index if isinstance(index, tuple) else (index,)
    classified = [_classify(obj) for obj in items]
    if sum(1 for c in classified if c[0] == "ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    consumed = 0
    for c in classified:
        if c[0] in ("slice", "int", "np", "tint"):
            consumed += 1
        elif c[0] in ("npmask", "tmask"):
            consumed += c[1].ndim
    if consumed > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )
    scalar = len(classified) == ndim and all(c[0] == "int" for c in classified)
    if not any(c[0] == "ellipsis" for c in classified):
        classified.append(("ellipsis",))
    entries: list[tuple[Any, ...]] = []
    adv: list[_Adv] = []
    adv_positions: list[int] = []
    out_dims_before: list[int] = []
    n_out = 0
    x_axis = 0
    for pos, c in enumerate(classified):
        kind = c[0]
        if kind == "ellipsis":
            for _ in range(ndim - consumed):
                entries.append(("slice", slice(None), x_axis))
                x_axis += 1
                n_out += 1
            continue
        if kind == "new":
            entries.append(("new",))
            n_out += 1
            continue
        if kind == "slice":
            entries.append(("slice", c[1], x_axis))
            x_axis += 1
            n_out += 1
            continue
        adv_positions.append(pos)
        out_dims_before.append(n_out)
        if kind == "int":
            n = shape[x_axis]
            if not _isnan(n):
                _normalize_int(c[1], n, x_axis)
            entries.append(("int", c[1], x_axis))
            x_axis += 1
        elif kind in ("np", "tint"):
            if kind == "np" and not _isnan(shape[x_axis]):
                _check_array_bounds(c[1], int(shape[x_axis]), x_axis)
            adv.append(_Adv(kind, c[1], (x_axis,)))
            entries.append(("adv", len(adv) - 1))
            x_axis += 1
        elif kind in ("npmask", "tmask"):
            mask = c[1]
            axes = tuple(range(x_axis, x_axis + mask.ndim))
            for j, ax in enumerate(axes):
                got, size = mask.shape[j], shape[ax]
                if not _isnan(got) and not _isnan(size) and got != size:
                    raise _mask_mismatch(ax, size, got)
            adv.append(_Adv(kind, mask, axes))
            entries.append(("adv", len(adv) - 1))
            x_axis += mask.ndim
        else:  # bool scalar
            adv.append(_Adv("bool", c[1], ()))
            entries.append(("adv", len(adv) - 1))
    place = 0
    if adv and adv_positions[-1] - adv_positions[0] + 1 == len(adv_positions):
        place = out_dims_before[0]
    return _Parsed(entries, adv, place, scalar)


def _broadcast_index_shapes(shapes: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    from jupyter_mars.tensor.elemwise import broadcast_shapes

    try:
        return broadcast_shapes(*shapes)
    except ValueError:
        shown = " ".join(str(tuple(s)) for s in shapes)
        raise IndexError(
            f"shape mismatch: indexing arrays could not be broadcast together with shapes {shown} "
        ) from None


def _layout(parsed: _Parsed) -> tuple[tuple[Any, ...], ...]:
    """The result dims that do not come from advanced indices: ("x", axis) or ("new",)."""
    out: list[tuple[Any, ...]] = []
    for e in parsed.entries:
        if e[0] == "new":
            out.append(("new",))
        elif e[0] == "slice":
            out.append(("x", e[2]))
    return tuple(out)


def _slice_length(sl: slice, n: Any) -> Any:
    if _isnan(n):
        return NAN
    return len(range(*sl.indices(int(n))))


def _layout_shape(parsed: _Parsed, shape: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    for e in parsed.entries:
        if e[0] == "new":
            out.append(1)
        elif e[0] == "slice":
            out.append(_slice_length(e[1], shape[e[2]]))
    return out


def _is_full(sl: slice) -> bool:
    return sl.start is None and sl.stop is None and sl.step in (None, 1)


# ---- per-axis chunk plans --------------------------------------------------------------------


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


def _int_plan(lengths: Sequence[float], i: int, axis: int) -> tuple[int, int]:
    starts = [int(s) for s in offsets(lengths)]
    g = _normalize_int(i, starts[-1], axis)
    chunk = int(np.searchsorted(starts, g, side="right")) - 1
    return chunk, g - starts[chunk]


# ---- chunk kernels ---------------------------------------------------------------------------


def getitem_block(block: Any, index: tuple[Any, ...]) -> Any:
    """``block[index]``; copied when it is a small view of a much larger chunk."""
    out = np.asarray(block[index])
    if out.base is not None and out.size * 2 < np.size(block):
        out = out.copy()
    return out


def place_dims(res: Any, b_shape: tuple[int, ...], place: int) -> Any:
    """``(k, *rest)`` -> ``rest`` with dims ``b_shape`` (k elements) inserted at ``place``."""
    out = res.reshape(tuple(b_shape) + res.shape[1:])
    nb = len(b_shape)
    if place and nb:
        out = np.moveaxis(out, tuple(range(nb)), tuple(range(place, place + nb)))
    return out


def take_flat(block: Any, axes: tuple[int, ...], local: tuple[Any, ...], k: int) -> Any:
    """Elements ``block[local]`` over ``axes``, as ``(k, *other dims)``."""
    m = len(axes)
    if m == 0:
        return np.repeat(np.asarray(block)[np.newaxis], k, axis=0)
    moved = block if axes == tuple(range(m)) else np.moveaxis(block, axes, tuple(range(m)))
    return moved[tuple(local)]


def fancy_take_block(
    block: Any,
    axes: tuple[int, ...],
    local: tuple[Any, ...],
    b_shape: tuple[int, ...],
    place: int,
) -> Any:
    return place_dims(take_flat(block, axes, local, _prod(b_shape)), b_shape, place)


def fancy_gather(
    b_shape: tuple[int, ...],
    place: int,
    axes: tuple[int, ...],
    parts: list[tuple[Any, Any]],
    *blocks: Any,
) -> Any:
    """One output chunk from several input chunks: ``parts[i] = (local indices, positions
    in the output)`` of the elements taken from ``blocks[i]``."""
    out: Any = None
    for (local, positions), block in zip(parts, blocks):
        piece = take_flat(block, axes, local, len(positions))
        if out is None:
            out = np.empty((_prod(b_shape),) + piece.shape[1:], dtype=piece.dtype)
        out[positions] = piece
    return place_dims(out, b_shape, place)


def mask_take_block(block: Any, mask: Any, axis: int, place: int) -> Any:
    res = block[(slice(None),) * axis + (np.asarray(mask, dtype=bool),)]
    return res if place == axis else np.moveaxis(res, axis, place)


def mask_take_piece(block: Any, mask: Any, axis: int, starts: tuple[int, ...]) -> Any:
    """Selected elements (selected dim first) and their coordinates in the strip."""
    mask = np.asarray(mask, dtype=bool)
    res = block[(slice(None),) * axis + (mask,)]
    coords = np.nonzero(mask)
    rows = [coords[0]] + [c + s for c, s in zip(coords[1:], starts)]
    return np.moveaxis(res, axis, 0), np.stack(rows) if rows else np.empty((0, 0), np.intp)


def mask_merge(place: int, *pieces: Any) -> Any:
    values = np.concatenate([p[0] for p in pieces])
    coords = np.concatenate([p[1] for p in pieces], axis=1)
    order = np.lexsort(coords[::-1])
    return np.moveaxis(values[order], 0, place)


def bucket_indices(
    info: tuple[Any, ...], grid: tuple[int, ...], *chunks: Any
) -> tuple[tuple[int, ...], dict[int, tuple[Any, tuple[Any, ...]]]]:
    """Group one chunk of (broadcast) index arrays by the input chunk each index falls in.

    ``info[j]`` is ``(chunk starts, axis size, axis number)`` for index j, or None for one
    that only takes part in broadcasting. Returns the chunk's broadcast shape and, per flat
    input-chunk number, the positions (in the flattened index chunk) and local indices.
    """
    arrays = [np.asarray(c) for c in chunks]
    try:
        arrays = list(np.broadcast_arrays(*arrays))
    except ValueError:
        shown = " ".join(str(a.shape) for a in arrays)
        raise IndexError(
            f"shape mismatch: indexing arrays could not be broadcast together with shapes {shown} "
        ) from None
    shape = arrays[0].shape if arrays else ()
    k = _prod(shape)
    bids, locs = [], []
    for arr, spec in zip(arrays, info):
        if spec is None:
            continue
        starts, size, axis = spec
        flat = _normalize_array(arr, size, axis)
        b = np.searchsorted(starts, flat, side="right") - 1
        bids.append(b)
        locs.append(flat - starts[b])
    gid = np.ravel_multi_index(tuple(bids), grid) if bids else np.zeros(k, np.intp)
    order = np.argsort(gid, kind="stable")
    values, first = np.unique(gid[order], return_index=True)
    bounds = [*first.tolist(), k]
    groups = {}
    for g, lo, hi in zip(values.tolist(), bounds[:-1], bounds[1:]):
        sel = order[lo:hi]
        groups[int(g)] = (sel, tuple(loc[sel] for loc in locs))
    return shape, groups


def shuffle_gather(block: Any, g: int, axes: tuple[int, ...], *buckets: Any) -> list[Any]:
    """For each index chunk, the elements of this input chunk it asks for, as (k, *rest)."""
    m = len(axes)
    moved = block if axes == tuple(range(m)) else np.moveaxis(block, axes, tuple(range(m)))
    empty = tuple(np.empty(0, np.intp) for _ in range(m))
    out = []
    for _, groups in buckets:
        grp = groups.get(g)
        out.append(moved[grp[1] if grp is not None else empty])
    return out


def shuffle_assemble(place: int, c: int, bucket: Any, *gathered: Any) -> Any:
    shape, groups = bucket
    first = gathered[0][c]
    out = np.empty((_prod(shape),) + first.shape[1:], dtype=first.dtype)
    for g, pieces in enumerate(gathered):
        grp = groups.get(g)
        if grp is not None:
            out[grp[0]] = pieces[c]
    return place_dims(out, shape, place)


def argwhere_block(block: Any, starts: tuple[int, ...], shape: tuple[int, ...], flat: bool) -> Any:
    """Global coordinates (or flat C-order positions) of the nonzero elements of a chunk."""
    block = np.asarray(block)
    if flat:
        if block.ndim == 0:
            return np.flatnonzero(block).astype(np.intp)
        coords = np.nonzero(block)
        moved = tuple(c + s for c, s in zip(coords, starts))
        return np.ravel_multi_index(moved, shape).astype(np.intp, copy=False)
    res = np.argwhere(block)
    if any(starts):
        res += np.asarray(starts, dtype=res.dtype)
    return res


def argwhere_merge(flat: bool, *pieces: Any) -> Any:
    """Pieces of one strip put back in global C order."""
    if flat:
        return np.sort(np.concatenate(pieces))
    rows = np.concatenate(pieces, axis=0)
    return rows[np.lexsort(rows.T[::-1])]


def mask_flat_block(mask: Any, starts: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    coords = np.nonzero(np.asarray(mask, dtype=bool))
    moved = tuple(c + s for c, s in zip(coords, starts))
    return np.ravel_multi_index(moved, shape).astype(np.intp, copy=False)


def sorted_concat(*pieces: Any) -> Any:
    return np.sort(np.concatenate(pieces))


def unravel_component(indices: Any, shape: tuple[int, ...], i: int, size: int, mode: str) -> Any:
    """Component ``i`` of the multi-index of flat ``indices`` into ``shape`` (take's modes)."""
    flat = np.asarray(indices).astype(np.intp)
    if mode == "wrap":
        flat = np.mod(flat, size)
    elif mode == "clip":
        flat = np.clip(flat, 0, size - 1)
    else:
        bad = (flat < -size) | (flat >= size)
        if bad.any():
            raise IndexError(
                f"index {flat[bad].ravel()[0]} is out of bounds for axis 0 with size {size}"
            )
        flat = np.where(flat < 0, flat + size, flat)
    return np.unravel_index(flat, shape)[i].astype(np.intp)


def wrap_indices(indices: Any, size: int, mode: str) -> Any:
    flat = np.asarray(indices).astype(np.intp)
    return np.mod(flat, size) if mode == "wrap" else np.clip(flat, 0, size - 1)


# ---- setitem kernels -------------------------------------------------------------------------


def extract_piece(
    v: Any,
    is_new: tuple[bool, ...],
    place: int,
    b_shape: tuple[int, ...] | None,
    positions: Any,
    rest: tuple[Any, ...] | None,
) -> Any:
    """The part of a value (laid out like the selection) that one chunk receives.

    ``v`` has the selection's dims: the layout dims with ``b_shape`` inserted at ``place``.
    Dims from ``None`` are dropped, layout dims are cut to ``rest`` (whole when None) and,
    with advanced indices, the elements at flat ``positions`` of the index dims are picked
    and put first: ``(k, *rest)``.
    """
    nb = 0 if b_shape is None else len(b_shape)
    idx: list[Any] = []
    for i, new in enumerate(is_new):
        if i == place:
            idx.extend([slice(None)] * nb)
        idx.append(0 if new else (rest[i] if rest is not None else slice(None)))
    if place >= len(is_new):
        idx.extend([slice(None)] * nb)
    v2 = v[tuple(idx)]
    if b_shape is None:
        return v2
    p2 = sum(1 for i in range(min(place, len(is_new))) if not is_new[i])
    if nb == 0:
        return v2[np.newaxis][np.zeros(len(positions), np.intp)]
    sel: list[Any] = [slice(None)] * v2.ndim
    sel[p2 : p2 + nb] = np.unravel_index(np.asarray(positions, np.intp), b_shape)
    return np.moveaxis(v2[tuple(sel)], p2, 0)


def _contiguous(axes: Sequence[int]) -> bool:
    return len(axes) > 0 and axes[-1] - axes[0] + 1 == len(axes)


def _assign(view: Any, fv_axes: tuple[int, ...] | None, local: tuple[Any, ...], piece: Any) -> None:
    piece = np.asarray(piece)
    if piece.dtype.kind == "c" and view.dtype.kind != "c":
        piece = piece.real  # NumPy warned when the assignment was built
    if fv_axes is None:
        view[...] = piece
        return
    if not fv_axes:
        view[...] = piece.reshape(piece.shape[1:]) if piece.ndim else piece
        return
    idx: list[Any] = [slice(None)] * view.ndim
    for ax, loc in zip(fv_axes, local):
        idx[ax] = loc
    if piece.ndim and _contiguous(fv_axes) and fv_axes[0]:
        piece = np.moveaxis(piece, 0, fv_axes[0])
    view[tuple(idx)] = piece


def set_block(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...] | None,
    local: tuple[Any, ...],
    piece: Any,
) -> Any:
    """A copy of ``block`` with ``piece`` assigned to ``block[local_basic][fancy local]``."""
    out = np.array(block, copy=True)
    _assign(out[local_basic + (Ellipsis,)], fv_axes, local, piece)
    return out


def set_block_from_chunk(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...] | None,
    local: tuple[Any, ...],
    vchunk: Any,
    spec: tuple[Any, ...],
) -> Any:
    """Like ``set_block``, the piece cut from a chunk of a value tensor first."""
    s_shape, drop, is_new, place, b_shape, positions = spec
    v = np.asarray(vchunk)
    if drop:
        v = v.reshape(v.shape[drop:])
    piece = extract_piece(np.broadcast_to(v, s_shape), is_new, place, b_shape, positions, None)
    return set_block(block, local_basic, fv_axes, local, piece)


def set_mask_block(
    block: Any, local_basic: tuple[Any, ...], axis: int, mask: Any, piece: Any
) -> Any:
    """A copy of ``block`` with ``piece`` (``(1 or k, *rest)`` or scalar) assigned where the
    mask chunk holds, over the view's axes from ``axis``."""
    out = np.array(block, copy=True)
    view = out[local_basic + (Ellipsis,)]
    piece = np.asarray(piece)
    if piece.dtype.kind == "c" and view.dtype.kind != "c":
        piece = piece.real
    if piece.ndim and axis:
        piece = np.moveaxis(piece, 0, axis)
    view[(slice(None),) * axis + (np.asarray(mask, dtype=bool),)] = piece
    return out


def set_mask_block_from_chunk(
    block: Any,
    local_basic: tuple[Any, ...],
    axis: int,
    mask: Any,
    vchunk: Any,
    spec: tuple[Any, ...],
    ranks: Any = None,
) -> Any:
    """``set_mask_block`` with the piece cut from a value chunk; with ``ranks``
    (``(mask starts, mask shape, sorted flat positions of the strip)``) the value chunk holds
    one entry per True element of the strip, else it is broadcast."""
    s_shape, drop, is_new, place = spec
    v = np.asarray(vchunk)
    if drop:
        v = v.reshape(v.shape[drop:])
    if ranks is None:
        positions = np.zeros(1, np.intp)
        b_shape: tuple[int, ...] = (1,)
    else:
        starts, mshape, strip = ranks
        positions = np.searchsorted(strip, mask_flat_block(mask, starts, mshape))
        b_shape = (len(strip),)
    s_full = s_shape[:place] + b_shape + s_shape[place:]
    piece = extract_piece(np.broadcast_to(v, s_full), is_new, place, b_shape, positions, None)
    return set_mask_block(block, local_basic, axis, mask, piece)


def set_shuffle_block(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...],
    g: int,
    spec: tuple[Any, ...],
    buckets: list[Any],
    values: list[Any],
) -> Any:
    """Assign, in index-chunk order, what every bucket sends to this chunk (flat number g).

    ``spec[0]`` is the value mode: "const" (``values[0]`` is the piece), "bcast" (a value
    chunk broadcast over the index dims) or "full" (one value chunk per index chunk).
    """
    mode, s_shape, drop, is_new, place, nb = spec
    out = np.array(block, copy=True)
    view = out[local_basic + (Ellipsis,)]
    const = None
    if mode == "const":
        const = values[0]
    elif mode == "bcast":
        v = np.asarray(values[0])
        v = v.reshape(v.shape[drop:]) if drop else v
        s_full = s_shape[:place] + (1,) * nb + s_shape[place:]
        const = extract_piece(np.broadcast_to(v, s_full), is_new, place, (1,) * nb, [0], None)
    for c, (shape, groups) in enumerate(buckets):
        grp = groups.get(g)
        if grp is None:
            continue
        positions, local = grp
        if const is not None:
            piece = const
        else:
            v = np.asarray(values[c])
            v = v.reshape(v.shape[drop:]) if drop else v
            s_full = s_shape[:place] + tuple(shape) + s_shape[place:]
            piece = extract_piece(
                np.broadcast_to(v, s_full), is_new, place, tuple(shape), positions, None
            )
        _assign(view, fv_axes, local, piece)
    return out


# ---- operators: getitem ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BasicIndex(Op):
    items: tuple[tuple[Any, ...], ...]
    """("new",) | ("slice", slice, axis) | ("int", i, axis), one per index entry."""

    def label(self) -> str:
        return "getitem"


@tile_rule(BasicIndex)
def _tile_basic(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BasicIndex)
    (src,) = inputs
    for item in op.items:
        if item[0] == "int" or (item[0] == "slice" and not _is_full(item[1])):
            if not _known(src.nsplits[item[2]]):
                ctx.require_known(src)
    # per output dim: list of (input axis or None, input chunk, local index, length)
    out_dims: list[list[tuple[Any, ...]]] = []
    fixed: dict[int, tuple[int, int]] = {}
    for item in op.items:
        if item[0] == "new":
            out_dims.append([(None, 0, None, 1)])
        elif item[0] == "slice":
            lengths = src.nsplits[item[2]]
            if _is_full(item[1]):
                out_dims.append([(item[2], j, slice(None), n) for j, n in enumerate(lengths)])
            else:
                out_dims.append(
                    [(item[2], j, loc, n) for j, loc, n in slice_plan(lengths, item[1])]
                )
        else:
            fixed[item[2]] = _int_plan(src.nsplits[item[2]], item[1], item[2])
    nsplits = tuple(tuple(e[3] for e in dim) for dim in out_dims)
    grid = key_grid(node.key, [len(d) for d in nsplits])
    ndim_in = src.keys.ndim
    for out_index in itertools.product(*(range(len(d)) for d in out_dims)):
        src_index = [0] * ndim_in
        local: list[Any] = []
        dims = iter(zip(out_dims, out_index))
        identity = True
        for item in op.items:
            if item[0] == "int":
                chunk, loc = fixed[item[2]]
                src_index[item[2]] = chunk
                local.append(loc)
                identity = False
                continue
            dim, i = next(dims)
            axis, chunk, loc, n = dim[i]
            local.append(loc)
            if axis is None:  # a new axis
                identity = False
                continue
            src_index[axis] = chunk
            whole = loc.start == 0 and loc.step == 1 and n == src.nsplits[axis][chunk]
            identity = identity and (loc == slice(None) or whole)
        key = src.keys[tuple(src_index)]
        if identity:
            grid[out_index] = key
        else:
            ctx.add_blockwise(grid[out_index], getitem_block, (Ref(key), tuple(local)), {})
    return Tiled(nsplits, grid)


@dataclass(frozen=True, eq=False)
class FancyIndex(Op):
    axes: tuple[int, ...]
    """Input axis each index array indexes (distinct)."""
    arrays: tuple[np.ndarray[Any, Any], ...]
    """Integer index arrays, all broadcast to ``b_shape`` (may be negative)."""
    b_shape: tuple[int, ...]
    place: int
    """Position of the ``b_shape`` dims among the output dims."""
    x_axes: tuple[int, ...]
    """Axis numbers of the indexed tensor, for error messages."""

    def label(self) -> str:
        return "fancy_index"


def _b_nsplits(
    b_shape: tuple[int, ...], flat: list[Any], bids: list[Any], lengths: Sequence[Sequence[float]]
) -> tuple[tuple[int, ...], ...]:
    """Chunks of the broadcast index dims: a sorted 1-d index is cut where it moves to the
    next input chunk; otherwise about as many elements per chunk as an input chunk has."""
    cap = max(_prod([max(int(max(ls)), 1) for ls in lengths]), 1)
    if (
        len(flat) == 1
        and len(b_shape) == 1
        and b_shape[0] > 1
        and bool(np.all(np.diff(flat[0]) >= 0))
    ):
        cuts = [0, *(np.flatnonzero(np.diff(bids[0])) + 1).tolist(), b_shape[0]]
        pieces: list[int] = []
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            pieces.extend(split_evenly(hi - lo, cap))
        return (tuple(pieces),)
    sizes = auto_chunk_sizes(b_shape, 1, cap)
    return tuple(split_evenly(n, s) for n, s in zip(b_shape, sizes))


def _groups(gid: Any) -> list[tuple[int, Any]]:
    """(value, positions in order) for each distinct value of ``gid``, by value."""
    order = np.argsort(gid, kind="stable")
    values, first = np.unique(gid[order], return_index=True)
    bounds = [*first.tolist(), len(gid)]
    return [(int(v), order[lo:hi]) for v, lo, hi in zip(values.tolist(), bounds[:-1], bounds[1:])]


@tile_rule(FancyIndex)
def _tile_fancy(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, FancyIndex)
    (y,) = inputs
    if any(not _known(y.nsplits[ax]) for ax in op.axes):
        ctx.require_known(y)
    lengths = [y.nsplits[ax] for ax in op.axes]
    starts = [np.asarray(offsets(ls), dtype=np.intp) for ls in lengths]
    flat = [
        _normalize_array(arr, int(st[-1]), xa) for arr, st, xa in zip(op.arrays, starts, op.x_axes)
    ]
    bids = [np.searchsorted(st, f, side="right") - 1 for st, f in zip(starts, flat)]
    locs = [f - st[b] for f, st, b in zip(flat, starts, bids)]
    fancy_grid = tuple(len(ls) for ls in lengths)
    k_total = _prod(op.b_shape)
    gid = np.ravel_multi_index(tuple(bids), fancy_grid) if bids else np.zeros(k_total, np.intp)
    b_nsplits = _b_nsplits(op.b_shape, flat, bids, lengths)
    rest_axes = [a for a in range(y.keys.ndim) if a not in op.axes]
    rest_nsplits = [y.nsplits[a] for a in rest_axes]
    p = op.place
    nsplits = tuple(rest_nsplits[:p]) + b_nsplits + tuple(rest_nsplits[p:])
    grid = key_grid(node.key, [len(d) for d in nsplits])
    positions_grid = np.arange(k_total).reshape(op.b_shape)
    b_starts = [offsets(d) for d in b_nsplits]
    for cb in itertools.product(*(range(len(d)) for d in b_nsplits)):
        region = tuple(slice(int(s[i]), int(s[i + 1])) for s, i in zip(b_starts, cb))
        c_shape = tuple(int(d[i]) for d, i in zip(b_nsplits, cb))
        positions = positions_grid[region].ravel()
        groups = []  # per input chunk read: (its index along the fancy axes, local, positions)
        for g, sel in _groups(gid[positions]) or [(0, np.empty(0, np.intp))]:
            bidx = tuple(int(b) for b in np.unravel_index(g, fancy_grid)) if fancy_grid else ()
            groups.append((bidx, tuple(loc[positions[sel]] for loc in locs), sel))
        whole = False
        if len(groups) == 1 and len(op.axes) == 1 and len(op.b_shape) == 1 and p == op.axes[0]:
            (b0,), (loc0,), _ = groups[0]
            n0 = y.nsplits[op.axes[0]][b0]
            whole = len(loc0) == n0 and bool(np.array_equal(loc0, np.arange(n0)))
        for r in itertools.product(*(range(len(d)) for d in rest_nsplits)):
            out_index = r[:p] + cb + r[p:]
            parts = []
            for bidx, local, sel in groups:
                y_index = [0] * y.keys.ndim
                for a, i in zip(rest_axes, r):
                    y_index[a] = i
                for a, i in zip(op.axes, bidx):
                    y_index[a] = i
                parts.append((y.keys[tuple(y_index)], local, sel))
            if len(parts) == 1:
                key, local, _ = parts[0]
                if whole:  # the output chunk is exactly this input chunk
                    grid[out_index] = key
                    continue
                ctx.add_blockwise(
                    grid[out_index], fancy_take_block, (Ref(key), op.axes, local, c_shape, p), {}
                )
                continue
            ctx.new_task(
                grid[out_index],
                fancy_gather,
                c_shape,
                p,
                op.axes,
                [(local, sel) for _, local, sel in parts],
                *(Ref(key) for key, _, _ in parts),
            )
    return Tiled(nsplits, grid)


@dataclass(frozen=True, eq=False)
class MaskIndex(Op):
    axis: int
    """First masked axis of the input."""
    ndim: int
    """Dimensions of the mask."""
    place: int
    x_axis: int

    def label(self) -> str:
        return "mask_index"


def _same_splits(a: Sequence[float], b: Sequence[float]) -> bool:
    return a is b or (len(a) == len(b) and _known(a) and _known(b) and tuple(a) == tuple(b))


def _align_mask(
    node_key: str, x: Tiled, mask: Tiled, axes: tuple[int, ...], x_axis: int, ctx: TileContext
) -> Tiled:
    """``mask`` with the chunks of ``x`` along ``axes`` (checked against their lengths)."""
    if all(_same_splits(x.nsplits[a], mask.nsplits[j]) for j, a in enumerate(axes)):
        return mask
    ctx.require_known(x, mask)
    for j, a in enumerate(axes):
        size, got = int(sum(x.nsplits[a])), int(sum(mask.nsplits[j]))
        if size != got:
            raise _mask_mismatch(x_axis + j, size, got)
    wanted = tuple(x.nsplits[a] for a in axes)
    return rechunk_tiled(f"{node_key}-mask", mask, wanted, np.dtype(bool), ctx)


@tile_rule(MaskIndex)
def _tile_mask(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MaskIndex)
    y, mask = inputs
    a, k, p = op.axis, op.ndim, op.place
    axes = tuple(range(a, a + k))
    mask = _align_mask(node.key, y, mask, axes, op.x_axis, ctx)
    if any(y.numblocks[ax] > 1 and not _known(y.nsplits[ax]) for ax in axes[1:]):
        ctx.require_known(y)
    rest_axes = [ax for ax in range(y.keys.ndim) if ax not in axes]
    rest_nsplits = [y.nsplits[ax] for ax in rest_axes]
    strips = (NAN,) * y.numblocks[a]
    nsplits = tuple(rest_nsplits[:p]) + (strips,) + tuple(rest_nsplits[p:])
    grid = key_grid(node.key, [len(d) for d in nsplits])
    sub_grid = list(itertools.product(*(range(y.numblocks[ax]) for ax in axes[1:])))
    sub_starts = [offsets(y.nsplits[ax]) if len(y.nsplits[ax]) > 1 else [0] for ax in axes[1:]]
    for i in range(len(strips)):
        for r in itertools.product(*(range(len(d)) for d in rest_nsplits)):
            out_index = r[:p] + (i,) + r[p:]

            def y_key(sub: tuple[int, ...], r: tuple[int, ...] = r, i: int = i) -> Key:
                index = [0] * y.keys.ndim
                for ax, j in zip(rest_axes, r):
                    index[ax] = j
                for ax, j in zip(axes, (i, *sub)):
                    index[ax] = j
                key: Key = y.keys[tuple(index)]
                return key

            if len(sub_grid) == 1:
                ctx.add_blockwise(
                    grid[out_index],
                    mask_take_block,
                    (Ref(y_key(sub_grid[0])), Ref(mask.keys[(i, *sub_grid[0])]), a, p),
                    {},
                )
                continue
            refs = []
            for n, sub in enumerate(sub_grid):
                key = (f"{node.key}-piece", *out_index, n)
                starts = tuple(int(s[j]) for s, j in zip(sub_starts, sub))
                ctx.add_blockwise(
                    key,
                    mask_take_piece,
                    (Ref(y_key(sub)), Ref(mask.keys[(i, *sub)]), a, starts),
                    {},
                )
                refs.append(Ref(key))
            ctx.new_task(grid[out_index], mask_merge, p, *refs)
    return Tiled(nsplits, grid)


def _bcast_chunk(t: Tiled, index: tuple[int, ...]) -> tuple[int, ...]:
    """The chunk of ``t`` (broadcast against a grid) that output chunk ``index`` reads."""
    offset = len(index) - t.keys.ndim
    return tuple(0 if t.keys.shape[a] == 1 else index[a + offset] for a in range(t.keys.ndim))


def _index_broadcast(
    node_key: str, idx: Sequence[Tiled], b_shape: tuple[float, ...], ctx: TileContext
) -> tuple[tuple[float, ...], list[Tiled]]:
    """The broadcast shape of the index tensors once their lengths are known (IndexError
    when they do not broadcast; ``b_shape`` while some are unknown), and the indices with
    every axis of length 1 in one chunk, so that it broadcasts chunk-wise."""
    shapes = [tuple(sum(a) for a in t.nsplits) for t in idx]
    if any(_isnan(n) for s in shapes for n in s):
        return b_shape, list(idx)
    shape = tuple(_broadcast_index_shapes([tuple(int(n) for n in s) for s in shapes]))
    out = []
    for j, t in enumerate(idx):
        if any(len(a) > 1 and sum(a) == 1 for a in t.nsplits):
            wanted = tuple((1,) if sum(a) == 1 else a for a in t.nsplits)
            t = rechunk_tiled(f"{node_key}-one{j}", t, wanted, np.dtype(np.intp), ctx)
        out.append(t)
    return shape, out


def _bucket_info(x: Tiled, axes: tuple[int, ...], x_axes: tuple[int, ...]) -> tuple[Any, ...]:
    info: list[Any] = []
    for ax, xa in zip(axes, x_axes):
        if ax < 0:
            info.append(None)
            continue
        starts = np.asarray(offsets(x.nsplits[ax]), dtype=np.intp)
        info.append((starts, int(starts[-1]), xa))
    return tuple(info)


@dataclass(frozen=True, eq=False)
class ShuffleIndex(Op):
    axes: tuple[int, ...]
    """Input axis of each index tensor; -1 for one that only takes part in broadcasting."""
    place: int
    b_ndim: int
    x_axes: tuple[int, ...]

    def label(self) -> str:
        return "tensor_index"


@tile_rule(ShuffleIndex)
def _tile_shuffle(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ShuffleIndex)
    y, idx = inputs[0], inputs[1:]
    fancy_axes = tuple(ax for ax in op.axes if ax >= 0)
    if any(not _known(y.nsplits[ax]) for ax in fancy_axes):
        ctx.require_known(y)
    p = op.place
    b_shape, idx = _index_broadcast(node.key, idx, tuple(node.shape[p : p + op.b_ndim]), ctx)
    b_nsplits, aligned = unify_chunks(f"{node.key}-idx", b_shape, idx, ctx)
    info = _bucket_info(y, op.axes, op.x_axes)
    fancy_grid = tuple(y.numblocks[ax] for ax in fancy_axes)
    rest_axes = [a for a in range(y.keys.ndim) if a not in fancy_axes]
    rest_nsplits = [y.nsplits[a] for a in rest_axes]
    nsplits = tuple(rest_nsplits[:p]) + tuple(b_nsplits) + tuple(rest_nsplits[p:])
    grid = key_grid(node.key, [len(d) for d in nsplits])
    b_grid = list(itertools.product(*(range(len(d)) for d in b_nsplits)))
    bucket_refs = []
    for c in b_grid:
        key = (f"{node.key}-bucket", *c)
        refs = [Ref(t.keys[_bcast_chunk(t, c)]) for t in aligned]
        ctx.add_blockwise(key, bucket_indices, (info, fancy_grid, *refs), {})
        bucket_refs.append(Ref(key))
    g_list = list(itertools.product(*(range(n) for n in fancy_grid)))
    for r in itertools.product(*(range(len(d)) for d in rest_nsplits)):
        gathered = []
        for g_flat, g in enumerate(g_list):
            y_index = [0] * y.keys.ndim
            for a, i in zip(rest_axes, r):
                y_index[a] = i
            for a, i in zip(fancy_axes, g):
                y_index[a] = i
            key = (f"{node.key}-gather", *y_index)
            ctx.new_task(
                key, shuffle_gather, Ref(y.keys[tuple(y_index)]), g_flat, fancy_axes, *bucket_refs
            )
            gathered.append(Ref(key))
        for c_flat, c in enumerate(b_grid):
            out_index = r[:p] + c + r[p:]
            ctx.new_task(
                grid[out_index], shuffle_assemble, p, c_flat, bucket_refs[c_flat], *gathered
            )
    return Tiled(nsplits, grid)


# ---- operators: nonzero family ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ArgWhere(Op):
    flat: bool
    """Flat C-order positions (``flatnonzero``) rather than coordinate rows (``argwhere``)."""

    def label(self) -> str:
        return "flatnonzero" if self.flat else "argwhere"


def _strip_blocks(numblocks: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    """Chunk indices grouped by their position along the first axis (C order inside)."""
    if not numblocks:
        return [[()]]
    rest = list(itertools.product(*(range(n) for n in numblocks[1:])))
    return [[(i, *s) for s in rest] for i in range(numblocks[0])]


@tile_rule(ArgWhere)
def _tile_argwhere(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ArgWhere)
    (x,) = inputs
    ctx.require_known(x)
    ndim = x.keys.ndim
    whole = tuple(int(sum(a)) for a in x.nsplits)
    starts = [offsets(a) for a in x.nsplits]
    strips = _strip_blocks(x.numblocks)
    lengths = (NAN,) * len(strips)
    nsplits = (lengths,) if op.flat else (lengths, (ndim,))
    grid = key_grid(node.key, [len(d) for d in nsplits])
    for i, blocks in enumerate(strips):
        out_index = (i,) if op.flat else (i, 0)
        args = [
            (Ref(x.keys[b]), tuple(int(starts[a][j]) for a, j in enumerate(b)), whole, op.flat)
            for b in blocks
        ]
        if len(args) == 1:
            ctx.add_blockwise(grid[out_index], argwhere_block, args[0], {})
            continue
        refs = []
        for n, a in enumerate(args):
            key = (f"{node.key}-piece", i, n)
            ctx.add_blockwise(key, argwhere_block, a, {})
            refs.append(Ref(key))
        ctx.new_task(grid[out_index], argwhere_merge, op.flat, *refs)
    return Tiled(nsplits, grid)


@dataclass(frozen=True, eq=False)
class MaskRanks(Op):
    """Sorted flat positions (within the mask) of the True elements of a mask, one chunk per
    chunk of the indexed tensor along the first masked axis. Inputs: the tensor, the mask."""

    axes: tuple[int, ...]
    x_axis: int

    def label(self) -> str:
        return "mask_ranks"


@tile_rule(MaskRanks)
def _tile_mask_ranks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MaskRanks)
    x, mask = inputs
    ctx.require_known(x, mask)
    mask = _align_mask(node.key, x, mask, op.axes, op.x_axis, ctx)
    mshape = tuple(int(sum(x.nsplits[a])) for a in op.axes)
    mstarts = [offsets(x.nsplits[a]) for a in op.axes]
    strips = _strip_blocks(mask.numblocks)
    grid = key_grid(node.key, [len(strips)])
    for i, blocks in enumerate(strips):
        args = [
            (Ref(mask.keys[b]), tuple(int(mstarts[a][j]) for a, j in enumerate(b)), mshape)
            for b in blocks
        ]
        if len(args) == 1:
            ctx.add_blockwise(grid[i], mask_flat_block, args[0], {})
            continue
        refs = []
        for n, a in enumerate(args):
            key = (f"{node.key}-piece", i, n)
            ctx.add_blockwise(key, mask_flat_block, a, {})
            refs.append(Ref(key))
        ctx.new_task(grid[i], sorted_concat, *refs)
    return Tiled(((NAN,) * len(strips),), grid)


# ---- operators: setitem ----------------------------------------------------------------------


@dataclass(frozen=True)
class _SetLayout:
    """What the set operators share: how the index maps the tensor and the value."""

    items: tuple[tuple[Any, ...], ...]
    """Per axis of the tensor: ("slice", slice) | ("int", i) | ("adv",)."""
    layout: tuple[tuple[Any, ...], ...]
    """Selection dims not from advanced indices: ("x", axis) | ("new",)."""
    place: int
    """Where the advanced-index dims go among the selection dims."""
    drop: int
    """Leading length-1 dims of the value beyond the selection's dims."""

    @property
    def is_new(self) -> tuple[bool, ...]:
        return tuple(e[0] == "new" for e in self.layout)

    def fv_axes(self, axes: Sequence[int]) -> tuple[int, ...]:
        """Positions of tensor ``axes`` once the integer-indexed axes are gone."""
        ints = [a for a, it in enumerate(self.items) if it[0] == "int"]
        return tuple(a - sum(1 for i in ints if i < a) for a in axes)


def _basic_maps(
    items: tuple[tuple[Any, ...], ...], nsplits: NSplits
) -> tuple[list[dict[int, tuple[Any, ...]] | None], list[tuple[int, ...]]]:
    """Per axis, the chunks a basic index touches: {chunk: (position, local, sel start,
    count)}, and per axis the selection's chunk lengths (None/() for advanced axes)."""
    maps: list[dict[int, tuple[Any, ...]] | None] = []
    loc: Any
    sel_splits: list[tuple[int, ...]] = []
    for ax, item in enumerate(items):
        if item[0] == "slice":
            plan = slice_plan(nsplits[ax], item[1])
            touched: dict[int, tuple[Any, ...]] = {}
            start = 0
            for pos, (chunk, loc, n) in enumerate(plan):
                if n > 0:
                    touched[chunk] = (pos, loc, start, n)
                start += n
            maps.append(touched)
            sel_splits.append(tuple(n for _, _, n in plan))
        elif item[0] == "int":
            chunk, loc = _int_plan(nsplits[ax], item[1], ax)
            maps.append({chunk: (0, loc, 0, 1)})
            sel_splits.append((1,))
        else:
            maps.append(None)
            sel_splits.append(())
    return maps, sel_splits


class _SetPlan:
    """Tile-time helper: the touched chunks of a set operator and the value's layout."""

    def __init__(self, lay: _SetLayout, x: Tiled) -> None:
        self.lay = lay
        self.x = x
        self.maps, self.sel_splits = _basic_maps(lay.items, x.nsplits)
        self.layout_shape = [
            int(sum(self.sel_splits[e[1]])) if e[0] == "x" else 1 for e in lay.layout
        ]

    @property
    def empty(self) -> bool:
        return any(n == 0 for n in self.layout_shape)

    def s_shape(self, b_shape: Sequence[int]) -> tuple[int, ...]:
        p = self.lay.place
        return tuple(self.layout_shape[:p]) + tuple(b_shape) + tuple(self.layout_shape[p:])

    def choices(self) -> list[list[int]]:
        return [
            sorted(m) if m is not None else list(range(self.x.numblocks[a]))
            for a, m in enumerate(self.maps)
        ]

    def local_basic(self, index: Sequence[int]) -> tuple[Any, ...]:
        return tuple(m[i][1] if m is not None else slice(None) for m, i in zip(self.maps, index))

    def rest(self, index: Sequence[int]) -> tuple[Any, ...]:
        out: list[Any] = []
        for e in self.lay.layout:
            if e[0] == "new":
                out.append(slice(None))
            else:
                _, _, start, n = self.maps[e[1]][index[e[1]]]
                out.append(slice(start, start + n))
        return tuple(out)

    def layout_local(self, index: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.maps[e[1]][index[e[1]]][3] if e[0] == "x" else 1 for e in self.lay.layout)

    def s_kinds(self, b_ndim: int) -> list[tuple[Any, ...]]:
        p = self.lay.place
        lay = list(self.lay.layout)
        return lay[:p] + [("b", j) for j in range(b_ndim)] + lay[p:]

    def value_tiled(
        self,
        node_key: str,
        v: Tiled,
        b_ndim: int,
        b_wanted: Sequence[tuple[float, ...]],
        ctx: TileContext,
    ) -> Tiled:
        """The value tensor rechunked like the selection (advanced dims: ``b_wanted``)."""
        ctx.require_known(v)
        kinds = self.s_kinds(b_ndim)
        wanted = []
        for d, lengths in enumerate(v.nsplits):
            s_dim = len(kinds) - (len(v.nsplits) - d)
            if s_dim < 0 or (len(lengths) == 1 and lengths[0] == 1):
                wanted.append(lengths)
                continue
            kind = kinds[s_dim]
            if kind[0] == "x":
                wanted.append(self.sel_splits[kind[1]])
            elif kind[0] == "new":
                wanted.append((1,))
            else:
                wanted.append(tuple(b_wanted[kind[1]]))
        return rechunk_tiled(f"{node_key}-value", v, tuple(wanted), np.dtype(float), ctx)

    def value_index(self, v: Tiled, index: Sequence[int], b_index: Sequence[int]) -> Key:
        kinds = self.s_kinds(len(b_index))
        out = []
        for d in range(v.keys.ndim):
            s_dim = len(kinds) - (v.keys.ndim - d)
            if s_dim < 0 or v.keys.shape[d] == 1:
                out.append(0)
                continue
            kind = kinds[s_dim]
            if kind[0] == "x":
                out.append(self.maps[kind[1]][index[kind[1]]][0])
            elif kind[0] == "new":
                out.append(0)
            else:
                out.append(b_index[kind[1]])
        key: Key = v.keys[tuple(out)]
        return key


def _check_value_shape(
    vshape: tuple[Any, ...], sshape: tuple[Any, ...], fancy: bool = False
) -> None:
    """NumPy's broadcasting rule for assigned values (leading length-1 dims may be extra)."""
    nv, ns = len(vshape), len(sshape)
    ok = all(n == 1 or _isnan(n) for n in vshape[: max(nv - ns, 0)])
    for v, s in zip(vshape[max(nv - ns, 0) :], sshape[max(ns - nv, 0) :]):
        if not (_isnan(v) or _isnan(s) or v == 1 or v == s):
            ok = False
    if not ok:
        shown = tuple("nan" if _isnan(n) else int(n) for n in sshape)
        if fancy:
            raise ValueError(
                f"shape mismatch: value array of shape {tuple(vshape)} could not be broadcast "
                f"to indexing result of shape {shown}"
            )
        raise ValueError(
            f"could not broadcast input array from shape {tuple(vshape)} into shape {shown}"
        )


def _mask_count_error(given: Any, total: Any) -> ValueError:
    return ValueError(
        f"NumPy boolean array indexing assignment cannot assign {given} input values to the "
        f"{total} output values where the mask is true"
    )


@dataclass(frozen=True, eq=False)
class SetIndex(Op):
    """``x[index] = value`` with basic indices and integer arrays known when building.

    Each touched chunk gets one task, given the part of the value it receives. A value
    tensor is rechunked like the selection along the basic dims; along the dims of the
    advanced indices it is kept whole (one chunk), since any chunk may need any element.
    """

    lay: _SetLayout
    fancy_axes: tuple[int, ...]
    """Tensor axis each index array indexes."""
    arrays: tuple[np.ndarray[Any, Any], ...]
    """Index arrays broadcast to ``b_shape``."""
    b_shape: tuple[int, ...] | None
    """Broadcast shape of the advanced indices; None without any."""
    value: np.ndarray[Any, Any] | None
    """The value, converted to the tensor's dtype; None when it is the second input."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetIndex)
def _tile_set_index(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetIndex)
    x = inputs[0]
    ctx.require_known(x)
    lay = op.lay
    plan = _SetPlan(lay, x)
    grid = x.keys.copy()
    b_shape = op.b_shape
    groups: list[tuple[int, Any]] = [(0, None)]
    locs: list[Any] = []
    fancy_grid: tuple[int, ...] = ()
    if b_shape is not None:
        k = _prod(b_shape)
        flat, bids = [], []
        for arr, ax in zip(op.arrays, op.fancy_axes):
            starts = np.asarray(offsets(x.nsplits[ax]), dtype=np.intp)
            f = _normalize_array(arr, int(starts[-1]), ax)
            b = np.searchsorted(starts, f, side="right") - 1
            flat.append(f)
            bids.append(b)
            locs.append(f - starts[b])
        fancy_grid = tuple(x.numblocks[ax] for ax in op.fancy_axes)
        gid = np.ravel_multi_index(tuple(bids), fancy_grid) if bids else np.zeros(k, np.intp)
        groups = _groups(gid)
    if plan.empty or not groups:
        return Tiled(x.nsplits, grid)
    s_shape = plan.s_shape(b_shape or ())
    fv = lay.fv_axes(op.fancy_axes) if b_shape is not None else None
    if op.value is not None:
        _check_value_shape(op.value.shape, s_shape, b_shape is not None)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        vt = plan.value_tiled(
            node.key, inputs[1], len(b_shape or ()), [(n,) for n in b_shape or ()], ctx
        )
    choices = plan.choices()
    for a in op.fancy_axes:
        choices[a] = [0]
    for combo in itertools.product(*choices):
        for g, sel in groups:
            index = list(combo)
            for a, i in zip(op.fancy_axes, np.unravel_index(g, fancy_grid) if fancy_grid else ()):
                index[a] = int(i)
            local_basic = plan.local_basic(index)
            local = tuple(loc[sel] for loc in locs)
            key = (node.key, *index)
            src = Ref(x.keys[tuple(index)])
            if op.value is not None:
                if op.value.ndim == 0:
                    piece: Any = op.value
                else:
                    piece = extract_piece(
                        whole, lay.is_new, lay.place, b_shape, sel, plan.rest(index)
                    )
                ctx.add_blockwise(key, set_block, (src, local_basic, fv, local, piece), {})
            else:
                local_s = plan.layout_local(index)
                p = lay.place
                spec = (
                    local_s[:p] + tuple(b_shape or ()) + local_s[p:],
                    lay.drop,
                    lay.is_new,
                    p,
                    b_shape,
                    sel,
                )
                vkey = plan.value_index(vt, index, (0,) * len(b_shape or ()))
                ctx.add_blockwise(
                    key, set_block_from_chunk, (src, local_basic, fv, local, Ref(vkey), spec), {}
                )
            grid[tuple(index)] = key
    return Tiled(x.nsplits, grid)


@dataclass(frozen=True, eq=False)
class SetMask(Op):
    """``x[..., mask, ...] = value`` with a boolean tensor mask. Inputs: the tensor, the mask,
    the value when it is a tensor, and ``MaskRanks`` when the value has one entry per True."""

    lay: _SetLayout
    mask_axes: tuple[int, ...]
    value: np.ndarray[Any, Any] | None
    per_element: bool
    """The value runs along the masked elements (else it is broadcast over them)."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetMask)
def _tile_set_mask(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetMask)
    x, mask = inputs[:2]
    v = inputs[2] if op.value is None else None
    ranks = inputs[-1] if op.per_element else None
    ctx.require_known(*(t for t in (x, mask, ranks, v) if t is not None))
    lay = op.lay
    mask = _align_mask(node.key, x, mask, op.mask_axes, op.mask_axes[0], ctx)
    plan = _SetPlan(lay, x)
    grid = x.keys.copy()
    if plan.empty:
        return Tiled(x.nsplits, grid)
    p = lay.place
    counts: tuple[int, ...] = (1,)
    per_element = op.per_element
    total = 1
    if ranks is not None:
        counts = tuple(int(n) for n in ranks.nsplits[0])
        total = sum(counts)
        if op.value is not None:
            given_shape = op.value.shape
        else:
            assert v is not None
            given_shape = tuple(int(sum(a)) for a in v.nsplits)
        b_dim = len(given_shape) - (len(lay.layout) + 1 - p)
        given = given_shape[b_dim] if b_dim >= 0 else 1
        if given == 1:
            per_element = False
        elif given != total:
            raise _mask_count_error(given, total)
    b_len = total if per_element else 1
    s_shape = plan.s_shape((b_len,))
    if op.value is not None:
        _check_value_shape(op.value.shape, s_shape, True)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        assert v is not None
        vt = plan.value_tiled(node.key, v, 1, [counts if per_element else (1,)], ctx)
    cum = offsets(counts)
    mshape = tuple(int(sum(x.nsplits[a])) for a in op.mask_axes)
    mstarts = [offsets(x.nsplits[a]) for a in op.mask_axes]
    axis = lay.fv_axes(op.mask_axes[:1])[0]
    for index in itertools.product(*plan.choices()):
        m_index = tuple(index[a] for a in op.mask_axes)
        i = m_index[0]
        src, mref = Ref(x.keys[index]), Ref(mask.keys[m_index])
        local_basic = plan.local_basic(index)
        key = (node.key, *index)
        grid[index] = key
        spec = (plan.layout_local(index), 0, lay.is_new, p)
        rank_args = None
        if per_element:
            assert ranks is not None
            starts = tuple(int(s[j]) for s, j in zip(mstarts, m_index))
            rank_args = (starts, mshape, Ref(ranks.keys[(i,)]))
        if op.value is not None and not per_element:
            piece: Any = op.value
            if op.value.ndim:
                piece = extract_piece(whole, lay.is_new, p, (1,), [0], plan.rest(index))
            ctx.add_blockwise(key, set_mask_block, (src, local_basic, axis, mref, piece), {})
            continue
        if op.value is not None:
            region = list(plan.rest(index))
            region.insert(p, slice(int(cum[i]), int(cum[i + 1])))
            vchunk: Any = whole[tuple(region)]
        else:
            vchunk = Ref(plan.value_index(vt, index, (i if per_element else 0,)))
            spec = (spec[0], lay.drop, lay.is_new, p)
        ctx.add_blockwise(
            key,
            set_mask_block_from_chunk,
            (src, local_basic, axis, mref, vchunk, spec, rank_args),
            {},
        )
    return Tiled(x.nsplits, grid)


@dataclass(frozen=True, eq=False)
class SetShuffle(Op):
    """``x[index] = value`` with integer tensors among the indices. Inputs: the tensor, the
    index tensors, then the value when it is a tensor."""

    lay: _SetLayout
    index_axes: tuple[int, ...]
    """Tensor axis of each index tensor; -1 for one that only takes part in broadcasting."""
    b_shape: tuple[float, ...]
    value: np.ndarray[Any, Any] | None
    per_element: bool
    """The value varies along the advanced-index dims."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetShuffle)
def _tile_set_shuffle(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetShuffle)
    n_idx = len(op.index_axes)
    x, idx = inputs[0], inputs[1 : 1 + n_idx]
    v = inputs[1 + n_idx] if op.value is None else None
    if op.per_element:
        ctx.require_known(x, *idx)
    else:
        ctx.require_known(x)
    lay = op.lay
    plan = _SetPlan(lay, x)
    grid = x.keys.copy()
    if plan.empty:
        return Tiled(x.nsplits, grid)
    b_shape, idx = _index_broadcast(node.key, idx, op.b_shape, ctx)
    b_nsplits, aligned = unify_chunks(f"{node.key}-idx", b_shape, idx, ctx)
    nb = len(b_nsplits)
    fancy = tuple(a for a in op.index_axes if a >= 0)
    info = _bucket_info(x, op.index_axes, op.index_axes)
    fancy_grid = tuple(x.numblocks[a] for a in fancy)
    b_grid = list(itertools.product(*(range(len(d)) for d in b_nsplits)))
    buckets = []
    for c in b_grid:
        key = (f"{node.key}-bucket", *c)
        refs = [Ref(t.keys[_bcast_chunk(t, c)]) for t in aligned]
        ctx.add_blockwise(key, bucket_indices, (info, fancy_grid, *refs), {})
        buckets.append(Ref(key))
    p = lay.place
    b_full = tuple(int(sum(d)) for d in b_nsplits) if op.per_element else (1,) * nb
    s_shape = plan.s_shape(b_full)
    if op.value is not None:
        _check_value_shape(op.value.shape, s_shape, True)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        wanted = b_nsplits if op.per_element else [(1,)] * nb
        assert v is not None
        vt = plan.value_tiled(node.key, v, nb, wanted, ctx)
    b_starts = [offsets(d) for d in b_nsplits]
    fv = lay.fv_axes(fancy)
    for index in itertools.product(*plan.choices()):
        g = int(np.ravel_multi_index(tuple(index[a] for a in fancy), fancy_grid))
        src = Ref(x.keys[index])
        local_basic = plan.local_basic(index)
        local_s = plan.layout_local(index)
        values: list[Any]
        if op.value is not None and not op.per_element:
            mode = "const"
            piece: Any = op.value
            if op.value.ndim:
                piece = extract_piece(whole, lay.is_new, p, (1,) * nb, [0], plan.rest(index))
            values = [piece]
        elif op.value is not None:
            mode = "full"
            values = []
            for c in b_grid:
                region = list(plan.rest(index))
                region[p:p] = [slice(int(s[j]), int(s[j + 1])) for s, j in zip(b_starts, c)]
                values.append(whole[tuple(region)])
        elif not op.per_element:
            mode = "bcast"
            values = [Ref(plan.value_index(vt, index, (0,) * nb))]
        else:
            mode = "full"
            values = [Ref(plan.value_index(vt, index, c)) for c in b_grid]
        drop = 0 if op.value is not None else lay.drop
        spec = (mode, local_s, drop, lay.is_new, p, nb)
        key = (node.key, *index)
        ctx.new_task(key, set_shuffle_block, src, local_basic, fv, g, spec, buckets, values)
        grid[index] = key
    return Tiled(x.nsplits, grid)


# ---- building nodes --------------------------------------------------------------------------


def _basic_shape(items: Sequence[tuple[Any, ...]], shape: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if item[0] == "new":
            out.append(1)
        elif item[0] == "slice":
            out.append(_slice_length(item[1], shape[item[2]]))
    return out


def _numpy_fancy(
    parsed: _Parsed, axes_of: dict[int, tuple[int, ...]]
) -> tuple[tuple[int, ...], tuple[np.ndarray[Any, Any], ...], tuple[int, ...], tuple[int, ...]]:
    """Index arrays (masks as their nonzero arrays) broadcast together, with their axes."""
    shapes: list[tuple[Any, ...]] = []
    arrays: list[np.ndarray[Any, Any]] = []
    axes: list[int] = []
    x_axes: list[int] = []
    for j, a in enumerate(parsed.adv):
        if a.kind == "np":
            shapes.append(a.value.shape)
            arrays.append(a.value)
            axes.append(axes_of[j][0])
            x_axes.append(a.x_axes[0])
        elif a.kind == "npmask":
            nz = np.nonzero(a.value)
            shapes.append(nz[0].shape)
            for d, arr in enumerate(nz):
                arrays.append(arr)
                axes.append(axes_of[j][d])
                x_axes.append(a.x_axes[d])
        else:
            shapes.append((1,) if a.value else (0,))
    b_shape = tuple(int(n) for n in _broadcast_index_shapes(shapes))
    return (
        tuple(axes),
        tuple(np.broadcast_to(arr, b_shape) for arr in arrays),
        b_shape,
        tuple(x_axes),
    )


def _index_tensors(
    parsed: _Parsed, axes_of: dict[int, tuple[int, ...]]
) -> tuple[list[Tensor], tuple[int, ...], tuple[int, ...]]:
    """Every advanced index as integer tensors (masks as their ``nonzero`` columns)."""
    tensors: list[Tensor] = []
    axes: list[int] = []
    x_axes: list[int] = []
    for j, a in enumerate(parsed.adv):
        if a.kind in ("np", "tint"):
            tensors.append(astensor(a.value))
            axes.append(axes_of[j][0])
            x_axes.append(a.x_axes[0])
        elif a.kind in ("npmask", "tmask"):
            cols = np.nonzero(a.value) if a.kind == "npmask" else nonzero(a.value)
            for d, col in enumerate(cols):
                tensors.append(astensor(col))
                axes.append(axes_of[j][d])
                x_axes.append(a.x_axes[d])
        else:
            tensors.append(astensor(np.zeros(1 if a.value else 0, np.intp)))
            axes.append(-1)
            x_axes.append(-1)
    return tensors, tuple(axes), tuple(x_axes)


def _insert(rest: Sequence[Any], place: int, dims: Sequence[Any]) -> list[Any]:
    return [*rest[:place], *dims, *rest[place:]]


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with NumPy's indexing rules (see the module docstring)."""
    parsed = _parse(index, x.shape)
    if not parsed.adv:
        basic = tuple(parsed.entries)
        return new_tensor(BasicIndex(basic), [x], _basic_shape(basic, x.shape), x.dtype)
    items: list[tuple[Any, ...]] = []
    axes_of: dict[int, tuple[int, ...]] = {}
    y_axis = 0
    identity = True
    for e in parsed.entries:
        if e[0] == "adv":
            a = parsed.adv[e[1]]
            axes_of[e[1]] = tuple(range(y_axis, y_axis + len(a.x_axes)))
            items.extend(("slice", slice(None), ax) for ax in a.x_axes)
            y_axis += len(a.x_axes)
            continue
        items.append(e)
        y_axis += e[0] != "int"
        identity = identity and e[0] == "slice" and _is_full(e[1])
    y = x
    if not identity:
        y = new_tensor(BasicIndex(tuple(items)), [x], _basic_shape(items, x.shape), x.dtype)
    p = parsed.place
    kinds = {a.kind for a in parsed.adv}
    if kinds <= {"np", "npmask", "bool"}:
        axes, arrays, b_shape, x_axes = _numpy_fancy(parsed, axes_of)
        rest = [n for a, n in enumerate(y.shape) if a not in axes]
        op: Op = FancyIndex(axes, arrays, b_shape, p, x_axes)
        return new_tensor(op, [y], _insert(rest, p, b_shape), x.dtype)
    if len(parsed.adv) == 1 and kinds == {"tmask"}:
        a = parsed.adv[0]
        ya = axes_of[0]
        rest = [n for ax, n in enumerate(y.shape) if ax not in ya]
        op = MaskIndex(ya[0], len(ya), p, a.x_axes[0])
        return new_tensor(op, [y, a.value], _insert(rest, p, [NAN]), x.dtype)
    tensors, axes, x_axes = _index_tensors(parsed, axes_of)
    b_shape = _broadcast_index_shapes([t.shape for t in tensors])
    rest = [n for a, n in enumerate(y.shape) if a not in axes]
    op = ShuffleIndex(axes, p, len(b_shape), x_axes)
    return new_tensor(op, [y, *tensors], _insert(rest, p, b_shape), x.dtype)


def _check_cast(src: np.dtype[Any], dst: np.dtype[Any]) -> None:
    """Raise (or warn) at build time as NumPy's assignment of ``src`` values into ``dst``."""
    if src == dst or src.kind in "USO":
        return
    target = np.empty(1, dtype=dst)
    target[...] = np.zeros(1, dtype=src)


def _prepare_value(
    value: Any, dtype: np.dtype[Any], s_shape: Sequence[Any], parsed: _Parsed
) -> tuple[np.ndarray[Any, Any] | None, int, Tensor | None]:
    """The value converted like NumPy's assignment does, its shape checked against the
    selection's; returns (array or None, leading dims to drop, tensor or None)."""
    fancy = bool(parsed.adv)
    ndim = value.ndim if isinstance(value, Tensor) else np.ndim(value)
    if parsed.scalar and ndim > 0:
        raise ValueError("setting an array element with a sequence.")
    if isinstance(value, Tensor):
        _check_cast(value.dtype, dtype)
        _check_value_shape(value.shape, tuple(s_shape), fancy)
        return None, max(value.ndim - len(s_shape), 0), value
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.empty(np.shape(value), dtype=dtype)
        arr[...] = value
    else:
        arr = np.array(value, dtype=dtype)
    _check_value_shape(arr.shape, tuple(s_shape), fancy)
    drop = max(arr.ndim - len(s_shape), 0)
    if drop:
        arr = arr.reshape(arr.shape[drop:])
    return arr, 0, None


def _varies(vshape: Sequence[Any], n_s: int, dims: Sequence[int]) -> bool:
    """Whether a value of ``vshape`` has a length other than 1 on selection ``dims``."""
    for d in dims:
        v = len(vshape) - (n_s - d)
        if v >= 0 and vshape[v] != 1:
            return True
    return False


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: rebinds ``x`` to a node whose touched chunks are assigned."""
    parsed = _parse(index, x.shape)
    items: list[tuple[Any, ...]] = [("slice", slice(None))] * x.ndim
    for e in parsed.entries:
        if e[0] in ("slice", "int"):
            items[e[2]] = (e[0], e[1])
        elif e[0] == "adv":
            for ax in parsed.adv[e[1]].x_axes:
                items[ax] = ("adv",)
    layout = _layout(parsed)
    layout_shape = _layout_shape(parsed, x.shape)
    p = parsed.place
    kinds = {a.kind for a in parsed.adv}
    axes_of = {j: a.x_axes for j, a in enumerate(parsed.adv)}
    inputs: list[Tensor] = [x]
    extra: list[Tensor] = []
    op: Op
    if kinds <= {"np", "npmask", "bool"}:
        b_shape: tuple[int, ...] | None = None
        fancy_axes: tuple[int, ...] = ()
        arrays: tuple[np.ndarray[Any, Any], ...] = ()
        if parsed.adv:
            fancy_axes, arrays, b_shape, _ = _numpy_fancy(parsed, axes_of)
        s_shape = _insert(layout_shape, p, b_shape or ())
        arr, drop, vt = _prepare_value(value, x.dtype, s_shape, parsed)
        lay = _SetLayout(tuple(items), layout, p, drop)
        op = SetIndex(lay, fancy_axes, arrays, b_shape, arr)
    elif len(parsed.adv) == 1 and kinds == {"tmask"}:
        a = parsed.adv[0]
        s_shape = _insert(layout_shape, p, [NAN])
        arr, drop, vt = _prepare_value(value, x.dtype, s_shape, parsed)
        vshape = arr.shape if arr is not None else vt.shape[drop:]  # type: ignore[union-attr]
        per_element = _varies(vshape, len(s_shape), [p])
        lay = _SetLayout(tuple(items), layout, p, drop)
        op = SetMask(lay, a.x_axes, arr, per_element)
        inputs.append(a.value)
        if per_element:
            ranks = new_tensor(MaskRanks(a.x_axes, a.x_axes[0]), [x, a.value], (NAN,), np.intp)
            extra.append(ranks)
    else:
        tensors, index_axes, _ = _index_tensors(parsed, axes_of)
        bs = _broadcast_index_shapes([t.shape for t in tensors])
        s_shape = _insert(layout_shape, p, bs)
        arr, drop, vt = _prepare_value(value, x.dtype, s_shape, parsed)
        vshape = arr.shape if arr is not None else vt.shape[drop:]  # type: ignore[union-attr]
        per_element = _varies(vshape, len(s_shape), range(p, p + len(bs)))
        lay = _SetLayout(tuple(items), layout, p, drop)
        op = SetShuffle(lay, index_axes, tuple(bs), arr, per_element)
        inputs.extend(tensors)
    if vt is not None:
        inputs.append(vt)
    inputs.extend(extra)
    new = new_tensor(op, inputs, x._node.shape, x.dtype)
    x._node = new._node


# ---- public functions ------------------------------------------------------------------------


def argwhere(a: Any) -> Tensor:
    """Lazy ``numpy.argwhere``: a ``(nan, ndim)`` tensor of global coordinates, C order.

    One output chunk per chunk along the first axis; where the input is chunked along other
    axes too, the pieces of a row of chunks are merged back into C order.
    """
    x = astensor(a)
    return new_tensor(ArgWhere(False), [x], (NAN, x.ndim), np.intp)


def flatnonzero(a: Any) -> Tensor:
    """Lazy ``numpy.flatnonzero``: positions in the flattened (C order) tensor."""
    x = astensor(a)
    return new_tensor(ArgWhere(True), [x], (NAN,), np.intp)


def nonzero(a: Any) -> Any:
    """Lazy ``numpy.nonzero``: a tuple of 1-d ``intp`` tensors of unknown length."""
    from jupyter_mars.session import ExecutableTuple

    x = astensor(a)
    if x.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
            "instead."
        )
    rows = argwhere(x)
    return ExecutableTuple(rows[:, i] for i in range(x.ndim))


def _check_axis(axis: Any, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(int(axis), ndim)
    return int(axis) % ndim


def _take_indices(indices: Any) -> Any:
    """Indices for ``take``: an integer tensor or ``intp`` array. Like NumPy, sequences and
    scalars are converted element by element, arrays must hold integers (or bools)."""
    if isinstance(indices, Tensor):
        if indices.dtype.kind not in "biu":
            raise TypeError(
                f"Cannot cast array data from {indices.dtype!r} to dtype('int64') according "
                "to the rule 'same_kind'"
            )
        if indices.dtype.kind == "b":
            return indices.astype(np.intp)
        return indices
    if not isinstance(indices, np.ndarray):
        return np.array(indices, dtype=np.intp)
    if indices.dtype.kind not in "biu":
        raise TypeError(
            f"Cannot cast array data from {indices.dtype!r} to dtype('int64') according to the "
            "rule 'same_kind'"
        )
    return indices.astype(np.intp) if indices.dtype.kind == "b" else indices


def _known_size(n: Any, what: str) -> int:
    if _isnan(n):
        raise ValueError(f"{what} needs the tensor's shape, which is unknown until executed")
    return int(n)


def _take_along(x: Tensor, idx: Any, axis: int, mode: str) -> Tensor:
    from jupyter_mars.tensor.elemwise import elemwise

    if mode != "raise":
        n = _known_size(x.shape[axis], f"take(mode={mode!r})")
        if n == 0 and (isinstance(idx, Tensor) or np.size(idx)):
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if isinstance(idx, Tensor):
            idx = elemwise(wrap_indices, idx, size=n, mode=mode, dtype=np.intp, name="take_" + mode)
        else:
            idx = wrap_indices(idx, n, mode)
    return getitem(x, (slice(None),) * axis + (idx,))


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Tensor:
    """Lazy ``numpy.take``: elements along ``axis`` (of the flattened tensor when None)."""
    from jupyter_mars.tensor.elemwise import elemwise

    if out is not None:
        raise TypeError("take(): the 'out' argument is not supported on tensors")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    x = astensor(a)
    idx = _take_indices(indices)
    if axis is not None:
        return _take_along(x, idx, _check_axis(axis, x.ndim), mode)
    if x.ndim <= 1:
        return _take_along(x if x.ndim else getitem(x, None), idx, 0, mode)
    shape = tuple(_known_size(n, "take(axis=None)") for n in x.shape)
    size = _prod(shape)
    if isinstance(idx, Tensor):
        if size == 0 and mode != "raise":
            raise IndexError("cannot do a non-empty take from an empty axes.")
        comps: tuple[Any, ...] = tuple(
            elemwise(
                unravel_component,
                idx,
                shape=shape,
                i=i,
                size=size,
                mode=mode,
                dtype=np.intp,
                name="unravel_index",
            )
            for i in range(x.ndim)
        )
    else:
        if mode == "raise":
            bad = (idx < -size) | (idx >= size)
            if np.any(bad):
                raise IndexError(
                    f"index {idx[bad].ravel()[0]} is out of bounds for axis 0 with size {size}"
                )
            flat = np.where(idx < 0, idx + size, idx)
        elif size == 0:
            if idx.size:
                raise IndexError("cannot do a non-empty take from an empty axes.")
            flat = idx
        else:
            flat = wrap_indices(idx, size, mode)
        comps = np.unravel_index(np.asarray(flat, dtype=np.intp), shape)
    return getitem(x, comps)


def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Tensor:
    """Lazy ``numpy.compress``: the slices along ``axis`` where ``condition`` is true."""
    if out is not None:
        raise TypeError("compress(): the 'out' argument is not supported on tensors")
    x = astensor(a)
    if isinstance(condition, Tensor):
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
        cond = condition if condition.dtype.kind == "b" else condition.astype(bool)
        if axis is None and x.ndim != 1:
            return take(x, nonzero(cond)[0], axis=None)
        ax = 0 if axis is None else _check_axis(axis, x.ndim)
        n, m = x.shape[ax], cond.shape[0]
        if not _isnan(n) and not _isnan(m) and n == m:
            return getitem(x, (slice(None),) * ax + (cond,))
        return take(x, nonzero(cond)[0], axis=ax)
    c = np.asarray(condition)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(x, np.flatnonzero(c), axis=axis)


def extract(condition: Any, arr: Any) -> Tensor:
    """Lazy ``numpy.extract``: the elements of ``arr`` (flattened) where ``condition`` is
    nonzero (flattened)."""
    x = astensor(arr)
    if isinstance(condition, Tensor):
        cond = condition if condition.dtype.kind == "b" else condition.astype(bool)
        if cond.ndim and cond.shape == x.shape and not any(_isnan(n) for n in x.shape):
            return getitem(x, cond)
        return take(x, flatnonzero(cond), axis=None)
    return take(x, np.flatnonzero(np.asarray(condition)), axis=None)


# ---- Tensor methods --------------------------------------------------------------------------


def _tensor_getitem(self: Tensor, index: Any) -> Tensor:
    return getitem(self, index)


def _tensor_setitem(self: Tensor, index: Any, value: Any) -> None:
    setitem(self, index, value)


def _tensor_nonzero(self: Tensor) -> Any:
    return nonzero(self)


def _tensor_take(
    self: Tensor, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise"
) -> Tensor:
    return take(self, indices, axis=axis, out=out, mode=mode)


def _tensor_compress(self: Tensor, condition: Any, axis: Any = None, out: Any = None) -> Tensor:
    return compress(condition, self, axis=axis, out=out)


def _attach() -> None:
    Tensor.__getitem__ = _tensor_getitem  # type: ignore[method-assign]
    Tensor.__setitem__ = _tensor_setitem  # type: ignore[method-assign]
    Tensor.nonzero = _tensor_nonzero  # type: ignore[attr-defined]
    Tensor.take = _tensor_take  # type: ignore[attr-defined]
    Tensor.compress = _tensor_compress  # type: ignore[attr-defined]


_attach()

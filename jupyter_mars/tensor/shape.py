"""Shape manipulation: reshape, transpose, concatenate, split, tile, repeat, flip, roll, rechunk.

Every function follows NumPy (C order), builds lazy nodes, and validates its arguments when
it is called. How each one is tiled:

- ``transpose``/``swapaxes``/``moveaxis``/``.T``: the chunk grid is transposed; one cheap
  ``np.transpose`` task per chunk (fused with what follows).
- ``squeeze``/``expand_dims`` (and reshapes that only add or drop length-1 axes): one task
  per chunk; no chunk lengths are needed, so they work on data-dependent (``nan``) shapes.
- ``reshape``/``ravel``/``flatten``: the axes are split into groups whose products match
  (``(6, 4) -> (24,)`` is one group, ``(2, 3, 4) -> (6, 4)`` two). A group is reshaped
  chunk by chunk when its inner input axes are each one chunk and the chunk boundaries along
  its first axis fall on whole output rows; then no data moves. Otherwise the input is first
  rechunked so that it does: inner axes whole and the first axis cut into runs of rows with
  about the same number of elements per chunk as before (rounded to whole output rows, so a
  chunk can grow to at least one output row). Each output chunk is then a contiguous piece
  of the input.
- ``concatenate`` (and ``stack``, ``hstack``, ...): the chunk grids are laid side by side;
  input chunks are reused as they are (no task, no copy) unless the dtype is promoted or
  the other axes are chunked differently (then those inputs are rechunked to common
  boundaries).
- ``split``/``array_split``: each part reuses the input chunks it covers whole and slices
  the (at most two) chunks at its ends.
- ``roll``: slices and re-concatenates the chunk grid; only the chunks cut by the shift get
  a task.
- ``flip``: the grid is reversed and each chunk flipped.
- ``tile``: along an axis held in one chunk, copies are grouped into chunks of about the
  chunk-size budget; along an axis in several chunks, the chunk keys are repeated (no copy).
- ``repeat``: one output chunk per input chunk, cut into smaller pieces when a repeated
  chunk would exceed ``options.chunk_store_limit``.
- ``broadcast_to``: input chunks are broadcast; new and stretched axes are cut so each
  chunk stays within ``options.chunk_store_limit``. Chunks are read-only views, as NumPy's.
- ``rechunk``: the engine's rechunk (chunks that do not change are reused).

Operations that need real chunk lengths (``reshape``, ``split``, ``roll``, ``rechunk``,
``repeat`` with per-element counts, ``concatenate`` of differently chunked inputs) call
``ctx.require_known``, so they work after a data-dependent operation through iterative
tiling; their result shape has ``nan`` where it depends on such lengths.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import (
    NSplits,
    auto_chunk_sizes,
    normalize_chunk_size,
    offsets,
    split_evenly,
)
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import Rechunk, rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.datasource import astensor

AxisError = np.exceptions.AxisError

# ---- argument helpers -----------------------------------------------------------------------


def _isnan(n: Any) -> bool:
    return isinstance(n, float) and math.isnan(n)


def normalize_axis_index(axis: Any, ndim: int, argname: str = "axis") -> int:
    """``axis`` as a non-negative int; ``AxisError`` naming ``argname`` when out of range."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{argname} must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise AxisError(int(axis), ndim, argname)
    return int(axis) % ndim


def normalize_axis_tuple(axis: Any, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Axes (an int or a sequence of ints) as non-negative ints, in the order given."""
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis_index(a, ndim, argname) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {argname}: {axis!r}")
    return out


def _int_arg(value: Any, argname: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argname} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{argname} must be an int, got {value!r}") from None


def _int_tuple(value: Any, argname: str) -> tuple[int, ...]:
    """An int or a sequence of ints, as a tuple of ints."""
    if isinstance(value, Tensor):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.ndim > 1:
            raise ValueError(f"{argname} must be an int or a 1-d sequence of ints")
        value = value.tolist()
    items = value if isinstance(value, (tuple, list)) else (value,)
    try:
        return tuple(_int_arg(v, argname) for v in items)
    except TypeError:
        raise TypeError(f"{argname} must be an int or a sequence of ints, got {value!r}") from None


def _check_order(order: Any, func: str) -> None:
    if order in ("C", "A", "K", None):
        return
    if order == "F":
        raise NotImplementedError(
            f"{func}(): order='F' is not supported; tensors are in C order (use order='C')"
        )
    raise ValueError(f"{func}(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")


def _same_length(a: Any, b: Any) -> bool:
    return _isnan(a) or _isnan(b) or a == b


def _shape_str(shape: Sequence[Any]) -> str:
    return "(" + ", ".join("nan" if _isnan(n) else str(int(n)) for n in shape) + ")"


def _wrap(node_like: Tensor) -> Tensor:
    """A new handle on the same node (so ``__setitem__`` on it does not touch the input)."""
    return Tensor(node_like.node)


def _grid(node_key: str, numblocks: Sequence[int]) -> Any:
    return key_grid(node_key, numblocks)


def _keys(t: Tiled) -> Any:
    return t.keys


# ---- chunk kernels (module level: picklable) --------------------------------------------------


def _reshape_chunk(block: Any, shape: tuple[int, ...]) -> Any:
    return np.reshape(block, shape)


def _transpose_chunk(block: Any, axes: tuple[int, ...]) -> Any:
    return np.transpose(block, axes)


def _squeeze_expand_chunk(block: Any, squeeze: tuple[int, ...], expand: tuple[int, ...]) -> Any:
    if squeeze:
        block = np.squeeze(block, axis=squeeze)
    if expand:
        block = np.expand_dims(block, expand)
    return block


def _flip_chunk(block: Any, axes: tuple[int, ...]) -> Any:
    return np.flip(block, axis=axes)


def _slice_chunk(block: Any, axis: int, sl: slice) -> Any:
    return block[(slice(None),) * axis + (sl,)]


def _cast_chunk(block: Any, dtype: np.dtype[Any]) -> Any:
    return block.astype(dtype, copy=False)


def _broadcast_chunk(block: Any, shape: tuple[int, ...]) -> Any:
    return np.broadcast_to(block, shape)


def _repeat_chunk(block: Any, repeats: Any, axis: int, sl: slice | None) -> Any:
    if sl is not None:
        block = block[(slice(None),) * axis + (sl,)]
    return np.repeat(block, repeats, axis=axis)


def _tile_chunk(block: Any, axis: int, copies: int) -> Any:
    return np.concatenate([block] * copies, axis=axis)


# ---- tiled-level helpers ------------------------------------------------------------------------


def _slice_axis_tiled(
    prefix: str, t: Tiled, axis: int, start: int, stop: int, ctx: TileContext
) -> Tiled:
    """``t[..., start:stop, ...]`` along ``axis`` (lengths known there, 0 <= start <= stop).

    Chunks inside the range are reused; the chunks cut at its ends are sliced.
    """
    lengths = [int(n) for n in t.nsplits[axis]]
    starts = offsets(lengths)
    picks: list[tuple[int, slice | None, int]] = []
    for i in range(len(lengths)):
        lo, hi = max(start, int(starts[i])), min(stop, int(starts[i + 1]))
        if hi > lo:
            whole = lo == starts[i] and hi == starts[i + 1]
            sl = None if whole else slice(lo - int(starts[i]), hi - int(starts[i]))
            picks.append((i, sl, hi - lo))
    if not picks:
        picks = [(0, slice(0, 0), 0)]
    nsplits = list(t.nsplits)
    nsplits[axis] = tuple(n for _, _, n in picks)
    shape = list(t.keys.shape)
    shape[axis] = len(picks)
    grid = np.empty(tuple(shape), dtype=object)
    for index in np.ndindex(*shape):
        i, sl, _ = picks[index[axis]]
        src = _keys(t)[index[:axis] + (i,) + index[axis + 1 :]]
        if sl is None:
            grid[index] = src
        else:
            key = (prefix, *index)
            ctx.add_blockwise(key, _slice_chunk, (Ref(src),), {"axis": axis, "sl": sl})
            grid[index] = key
    return Tiled(tuple(nsplits), grid)


def _concat_tiled(parts: Sequence[Tiled], axis: int) -> Tiled:
    """Chunk grids side by side along ``axis`` (the other axes already share boundaries)."""
    if len(parts) == 1:
        return parts[0]
    nsplits = list(parts[0].nsplits)
    nsplits[axis] = tuple(n for p in parts for n in p.nsplits[axis])
    keys = np.concatenate([p.keys for p in parts], axis=axis)
    return Tiled(tuple(nsplits), keys)


def _union_lengths(candidates: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    bounds = sorted({int(b) for lengths in candidates for b in offsets(lengths)})
    return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])) or (0,)


def _align_other_axes(
    prefix: str,
    parts: list[Tiled],
    skip_axis: int,
    dtypes: Sequence[np.dtype[Any]],
    ctx: TileContext,
) -> list[Tiled]:
    """Rechunk ``parts`` to common boundaries on every axis but ``skip_axis``."""
    ndim = len(parts[0].nsplits)
    others = [a for a in range(ndim) if a != skip_axis]
    if all(p is parts[0] for p in parts):
        return parts
    needs_known = any(_isnan(n) for p in parts for a in others for n in p.nsplits[a])
    if needs_known:
        ctx.require_known(*parts)
    wanted: dict[int, tuple[float, ...]] = {}
    for a in others:
        candidates = [p.nsplits[a] for p in parts]
        totals = [sum(c) for c in candidates]
        for i, total in enumerate(totals):
            if total != totals[0]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {a}, the array at index 0 has size "
                    f"{int(totals[0])} and the array at index {i} has size {int(total)}"
                )
        if all(tuple(c) == tuple(candidates[0]) for c in candidates):
            wanted[a] = candidates[0]
        else:
            wanted[a] = _union_lengths(candidates)
    out = []
    for i, p in enumerate(parts):
        target = tuple(p.nsplits[a] if a == skip_axis else wanted[a] for a in range(ndim))
        if all(tuple(x) == tuple(y) for x, y in zip(target, p.nsplits)):
            out.append(p)
        else:
            out.append(rechunk_tiled(f"{prefix}-in{i}", p, target, dtypes[i], ctx))
    return out


# ---- operators -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Reshape(Op):
    shape: tuple[int, ...]
    """The requested shape; one entry may be negative (inferred from the size)."""


@dataclass(frozen=True, eq=False)
class SqueezeExpand(Op):
    squeeze: tuple[int, ...]
    """Input axes of length 1 to drop."""
    expand: tuple[int, ...]
    """Output positions where length-1 axes are inserted (after the drop)."""

    def label(self) -> str:
        if not self.expand:
            return "squeeze"
        return "expand_dims" if not self.squeeze else "reshape"


@dataclass(frozen=True, eq=False)
class Transpose(Op):
    axes: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Flip(Op):
    axes: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class BroadcastTo(Op):
    shape: tuple[int, ...]
    max_bytes: int

    def label(self) -> str:
        return "broadcast_to"


@dataclass(frozen=True, eq=False)
class Concatenate(Op):
    axis: int


@dataclass(frozen=True, eq=False)
class SliceAxis(Op):
    """One part of ``array_split(x, spec, axis)``: ``sections`` or split ``indices``."""

    axis: int
    sections: int | None
    indices: tuple[int, ...]
    part: int
    equal: bool
    """``split`` (True) requires an equal division."""

    def label(self) -> str:
        return "split"


@dataclass(frozen=True, eq=False)
class Roll(Op):
    shifts: tuple[int, ...]
    axes: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Repeat(Op):
    repeats: Any
    """An int, or a 1-d int array with one count per element along ``axis``."""
    axis: int
    max_bytes: int


@dataclass(frozen=True, eq=False)
class TileAxis(Op):
    axis: int
    reps: int
    max_bytes: int

    def label(self) -> str:
        return "tile"


@dataclass(frozen=True, eq=False)
class RechunkTo(Op):
    """Rechunk to ``chunk_size`` once the (data-dependent) shape is known."""

    chunk_size: Any

    def label(self) -> str:
        return "rechunk"


# ---- reshape ---------------------------------------------------------------------------------


def _resolve_shape(size: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with its negative entry (if any) inferred; ValueError if sizes differ."""
    negatives = [i for i, n in enumerate(shape) if n < 0]
    if len(negatives) > 1:
        raise ValueError("can only specify one unknown dimension")
    known = math.prod(n for n in shape if n >= 0)
    if negatives:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {_shape_str(shape)}")
        out = list(shape)
        out[negatives[0]] = size // known
        return tuple(out)
    if known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {_shape_str(shape)}")
    return shape


def _reshape_groups(
    in_shape: tuple[int, ...], out_shape: tuple[int, ...]
) -> list[tuple[list[int], list[int]]]:
    """Groups of (input axes, output axes) with equal products, length-1 axes left out."""
    ins = [a for a, n in enumerate(in_shape) if n != 1]
    outs = [b for b, n in enumerate(out_shape) if n != 1]
    groups = []
    i = j = 0
    while i < len(ins):
        ii, jj = i + 1, j + 1
        pi, pj = in_shape[ins[i]], out_shape[outs[j]]
        while pi != pj:
            if pi < pj:
                pi *= in_shape[ins[ii]]
                ii += 1
            else:
                pj *= out_shape[outs[jj]]
                jj += 1
        groups.append((ins[i:ii], outs[j:jj]))
        i, j = ii, jj
    return groups


def plan_reshape(
    in_nsplits: NSplits, out_shape: tuple[int, ...]
) -> tuple[NSplits, NSplits, list[tuple[int, int]]]:
    """Input chunking that reshapes chunk by chunk, the output chunking, and axis pairs.

    Returns ``(input nsplits, output nsplits, [(output axis, input axis), ...])``: output
    chunk index ``k`` along a paired output axis comes from input chunk ``k`` along the
    paired input axis; every other axis of both has a single chunk. Sizes must be known and
    the total size non-zero.

    >>> plan_reshape(((2, 2), (3,)), (12,))
    (((2, 2), (3,)), ((6, 6),), [(0, 0)])
    >>> plan_reshape(((3, 3), (2, 2)), (24,))[1]
    ((8, 8, 8),)
    """
    in_shape = tuple(int(sum(a)) for a in in_nsplits)
    new_in: list[tuple[int, ...]] = [(n,) for n in in_shape]
    new_out: list[tuple[int, ...]] = [(n,) for n in out_shape]
    pairs = []
    for ins, outs in _reshape_groups(in_shape, out_shape):
        a0, b0 = ins[0], outs[0]
        row_in = math.prod(in_shape[a] for a in ins[1:])
        row_out = math.prod(out_shape[b] for b in outs[1:])
        step = row_out // math.gcd(row_in, row_out)
        current = tuple(int(n) for n in in_nsplits[a0])
        fits = all(len(in_nsplits[a]) == 1 for a in ins[1:]) and all(
            int(o) % step == 0 for o in offsets(current)[1:-1]
        )
        if fits:
            lengths = current
        else:
            volume = math.prod(int(max(in_nsplits[a])) for a in ins)
            rows = max(1, round(volume / row_in))
            rows = max(step, round(rows / step) * step)
            lengths = split_evenly(in_shape[a0], rows)
        new_in[a0] = lengths
        new_out[b0] = tuple(n * row_in // row_out for n in lengths)
        pairs.append((b0, a0))
    return tuple(new_in), tuple(new_out), pairs


@tile_rule(Reshape)
def _tile_reshape(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Reshape)
    (x,) = inputs
    ctx.require_known(x)
    in_shape = tuple(int(sum(a)) for a in x.nsplits)
    out_shape = _resolve_shape(math.prod(in_shape), op.shape)
    if math.prod(in_shape) == 0:
        whole = rechunk_tiled(
            f"{node.key}-in", x, tuple((n,) for n in in_shape), node.inputs[0].dtype, ctx
        )
        grid = _grid(node.key, [1] * len(out_shape))
        src = _keys(whole)[(0,) * len(in_shape)]
        ctx.add_blockwise(
            grid[(0,) * len(out_shape)], _reshape_chunk, (Ref(src),), {"shape": out_shape}
        )
        return Tiled(tuple((n,) for n in out_shape), grid)
    in_nsplits, out_nsplits, pairs = plan_reshape(x.nsplits, out_shape)
    src_tiled = rechunk_tiled(f"{node.key}-in", x, in_nsplits, node.inputs[0].dtype, ctx)
    grid = _grid(node.key, [len(a) for a in out_nsplits])
    for index in np.ndindex(*grid.shape):
        src = [0] * len(in_shape)
        for b, a in pairs:
            src[a] = index[b]
        chunk_shape = tuple(int(out_nsplits[b][i]) for b, i in enumerate(index))
        ctx.add_blockwise(
            grid[index],
            _reshape_chunk,
            (Ref(_keys(src_tiled)[tuple(src)]),),
            {"shape": chunk_shape},
        )
    return Tiled(out_nsplits, grid)


def _ones_only_change(
    in_shape: tuple[Any, ...], out_shape: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(axes to drop, positions to insert) when the reshape only drops/adds length-1 axes."""
    kept_in = [n for n in in_shape if n != 1]
    kept_out = [n for n in out_shape if n != 1]
    if len(kept_in) != len(kept_out) or any(_isnan(a) or a != b for a, b in zip(kept_in, kept_out)):
        return None
    squeeze = tuple(a for a, n in enumerate(in_shape) if n == 1)
    expand = tuple(b for b, n in enumerate(out_shape) if n == 1)
    return squeeze, expand


def _shape_param(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = np.asarray(shape)
    if isinstance(shape, np.ndarray):
        shape = shape.tolist()
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    out = []
    for n in items:
        if isinstance(n, (bool, np.bool_)) or not hasattr(n, "__index__"):
            raise TypeError(
                f"shape must be an int or a tuple of ints, got {type(n).__name__} in {shape!r}"
            )
        out.append(operator.index(n))
    return tuple(out)


def reshape(
    a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None
) -> Tensor:
    """Lazy ``numpy.reshape`` (C order; ``order='F'`` is not supported).

    One length may be -1 (inferred). Reshapes that only add or drop length-1 axes run one
    task per chunk and do not need the chunk lengths; others reshape chunk by chunk after a
    rechunk where needed (see the module docstring). For a tensor whose size depends on the
    data, the size is checked when it is executed, and a -1 length is ``nan`` until then.
    """
    if shape is None:
        if newshape is None:
            raise TypeError("reshape() missing required argument 'shape'")
        shape = newshape
    elif newshape is not None:
        raise TypeError("reshape(): give only one of 'shape' and 'newshape'")
    _check_order(order, "reshape")
    x = astensor(a)
    wanted = _shape_param(shape)
    if unknown_shape(x.shape):
        if sum(1 for n in wanted if n < 0) > 1:
            raise ValueError("can only specify one unknown dimension")
        out_shape: tuple[Any, ...] = tuple(math.nan if n < 0 else n for n in wanted)
        ones = _ones_only_change(x.shape, wanted) if all(n >= 0 for n in wanted) else None
        if ones is not None:
            return new_tensor(SqueezeExpand(*ones), [x], out_shape, x.dtype)
        return new_tensor(Reshape(wanted), [x], out_shape, x.dtype)
    resolved = _resolve_shape(int(x.size), wanted)
    if resolved == x.shape:
        return _wrap(x)
    ones = _ones_only_change(x.shape, resolved)
    if ones is not None:
        return new_tensor(SqueezeExpand(*ones), [x], resolved, x.dtype)
    return new_tensor(Reshape(resolved), [x], resolved, x.dtype)


def ravel(a: Any, order: str = "C") -> Tensor:
    """Lazy ``numpy.ravel``: the tensor as 1-d, in C order."""
    _check_order(order, "ravel")
    x = astensor(a)
    return _wrap(x) if x.ndim == 1 else reshape(x, -1)


def _flatten(self: Tensor, order: str = "C") -> Tensor:
    """A 1-d copy of the tensor, in C order."""
    _check_order(order, "flatten")
    return reshape(self, -1) if self.ndim != 1 else _wrap(self)


# ---- squeeze / expand_dims ---------------------------------------------------------------------


@tile_rule(SqueezeExpand)
def _tile_squeeze_expand(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SqueezeExpand)
    (x,) = inputs
    if any(len(x.nsplits[a]) != 1 for a in op.squeeze):
        # an axis of data-dependent length in several chunks: it must hold one element
        ctx.require_known(x)
        for a in op.squeeze:
            if sum(x.nsplits[a]) != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one "
                    f"(axis {a} has size {int(sum(x.nsplits[a]))})"
                )
        target = tuple((1,) if a in op.squeeze else n for a, n in enumerate(x.nsplits))
        x = rechunk_tiled(f"{node.key}-in", x, target, node.inputs[0].dtype, ctx)
    kept = [a for a in range(len(x.nsplits)) if a not in op.squeeze]
    nsplits = [x.nsplits[a] for a in kept]
    for pos in sorted(op.expand):
        nsplits.insert(pos, (1,))
    src_keys: Any = x.keys.reshape([x.keys.shape[a] for a in kept])
    src_keys = src_keys.reshape(tuple(len(n) for n in nsplits))
    grid = _grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(
            grid[index],
            _squeeze_expand_chunk,
            (Ref(src_keys[index]),),
            {"squeeze": op.squeeze, "expand": op.expand},
        )
    return Tiled(tuple(nsplits), grid)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.squeeze``: drop length-1 axes (all of them, or those in ``axis``).

    With ``axis=None`` on a tensor with data-dependent (``nan``) lengths, only the axes
    known to have length 1 are dropped.
    """
    x = astensor(a)
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        axes = tuple(sorted(normalize_axis_tuple(axis, x.ndim)))
        for i in axes:
            if not _isnan(x.shape[i]) and x.shape[i] != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one "
                    f"(axis {i} of shape {_shape_str(x.shape)})"
                )
    if not axes:
        return _wrap(x)
    shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return new_tensor(SqueezeExpand(axes, ()), [x], shape, x.dtype)


def expand_dims(a: Any, axis: Any) -> Tensor:
    """Lazy ``numpy.expand_dims``: insert length-1 axes at the positions ``axis``."""
    x = astensor(a)
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    axes = tuple(sorted(normalize_axis_tuple(axis, x.ndim + count)))
    if not axes:
        return _wrap(x)
    shape = list(x.shape)
    for pos in axes:
        shape.insert(pos, 1)
    return new_tensor(SqueezeExpand((), axes), [x], tuple(shape), x.dtype)


# ---- broadcast_to --------------------------------------------------------------------------------


@tile_rule(BroadcastTo)
def _tile_broadcast_to(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BroadcastTo)
    (x,) = inputs
    ndim = len(op.shape)
    lead = ndim - len(x.nsplits)
    if not x.known:
        ctx.require_known(x)
    in_shape = tuple(int(sum(a)) for a in x.nsplits)
    stretched = []
    for b, n in enumerate(op.shape):
        a = b - lead
        if a < 0:
            stretched.append(b)
        elif in_shape[a] != n:
            if in_shape[a] != 1:
                raise ValueError(
                    f"broadcast_to(): cannot broadcast a tensor of shape {_shape_str(in_shape)}"
                    f" to shape {_shape_str(op.shape)}"
                )
            stretched.append(b)
    fixed_elems = math.prod(
        int(max(x.nsplits[b - lead])) for b in range(ndim) if b not in stretched
    )
    sizes = auto_chunk_sizes(
        [op.shape[b] for b in stretched],
        max(node.dtype.itemsize, 1) * max(fixed_elems, 1),
        op.max_bytes,
    )
    nsplits: list[tuple[float, ...]] = []
    for b in range(ndim):
        if b in stretched:
            nsplits.append(split_evenly(op.shape[b], sizes[stretched.index(b)]))
        else:
            nsplits.append(x.nsplits[b - lead])
    grid = _grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        src = tuple(0 if b in stretched else index[b] for b in range(lead, ndim))
        chunk_shape = tuple(int(nsplits[b][i]) for b, i in enumerate(index))
        ctx.add_blockwise(
            grid[index], _broadcast_chunk, (Ref(_keys(x)[src]),), {"shape": chunk_shape}
        )
    return Tiled(tuple(nsplits), grid)


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> Tensor:
    """Lazy ``numpy.broadcast_to`` (chunks are read-only views, as in NumPy)."""
    x = astensor(array)
    target = _shape_param(shape)
    if any(n < 0 for n in target):
        raise ValueError(f"all elements of broadcast shape must be non-negative, got {target}")
    if x.ndim > len(target):
        raise ValueError(
            f"broadcast_to(): cannot broadcast a tensor of shape {_shape_str(x.shape)} to "
            f"shape {_shape_str(target)}: the input has more dimensions than the shape"
        )
    lead = len(target) - x.ndim
    for a, n in enumerate(x.shape):
        if not _isnan(n) and n != 1 and n != target[a + lead]:
            raise ValueError(
                f"broadcast_to(): cannot broadcast a tensor of shape {_shape_str(x.shape)} to "
                f"shape {_shape_str(target)}: axis {a} has length {n}, not 1 or "
                f"{target[a + lead]}"
            )
    if target == x.shape:
        return _wrap(x)
    return new_tensor(BroadcastTo(target, options.chunk_store_limit), [x], target, x.dtype)


# ---- transpose and friends ------------------------------------------------------------------


@tile_rule(Transpose)
def _tile_transpose(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Transpose)
    (x,) = inputs
    nsplits = tuple(x.nsplits[a] for a in op.axes)
    src_keys: Any = x.keys.transpose(op.axes)
    grid = _grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(grid[index], _transpose_chunk, (Ref(src_keys[index]),), {"axes": op.axes})
    return Tiled(nsplits, grid)


def transpose(a: Any, axes: Any = None) -> Tensor:
    """Lazy ``numpy.transpose``: the chunk grid is permuted, one task per chunk."""
    x = astensor(a)
    if axes is None:
        perm = tuple(range(x.ndim))[::-1]
    else:
        if isinstance(axes, np.ndarray):
            axes = axes.tolist()
        items = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
        if len(items) != x.ndim:
            raise ValueError(
                f"axes don't match array: got {len(items)} axes for a tensor of "
                f"{x.ndim} dimension(s)"
            )
        perm = tuple(normalize_axis_index(i, x.ndim, "axes") for i in items)
        if len(set(perm)) != len(perm):
            raise ValueError(f"repeated axis in transpose: axes={axes!r}")
    if perm == tuple(range(x.ndim)):
        return _wrap(x)
    shape = tuple(x.shape[i] for i in perm)
    return new_tensor(Transpose(perm), [x], shape, x.dtype)


def swapaxes(a: Any, axis1: Any, axis2: Any) -> Tensor:
    """Lazy ``numpy.swapaxes``."""
    x = astensor(a)
    i = normalize_axis_index(axis1, x.ndim, "axis1")
    j = normalize_axis_index(axis2, x.ndim, "axis2")
    perm = list(range(x.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(x, perm)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """Lazy ``numpy.moveaxis``."""
    x = astensor(a)
    src = normalize_axis_tuple(source, x.ndim, "source")
    dst = normalize_axis_tuple(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError(
            "`source` and `destination` arguments must have the same number of elements"
        )
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


# ---- flip --------------------------------------------------------------------------------------


@tile_rule(Flip)
def _tile_flip(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Flip)
    (x,) = inputs
    nsplits = tuple(tuple(reversed(n)) if a in op.axes else n for a, n in enumerate(x.nsplits))
    grid = _grid(node.key, x.numblocks)
    for index in np.ndindex(*grid.shape):
        src = tuple(x.numblocks[a] - 1 - i if a in op.axes else i for a, i in enumerate(index))
        ctx.add_blockwise(grid[index], _flip_chunk, (Ref(_keys(x)[src]),), {"axes": op.axes})
    return Tiled(nsplits, grid)


def flip(m: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.flip``: reverse the order of elements along ``axis`` (all by default)."""
    x = astensor(m)
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    if not axes:
        return _wrap(x)
    return new_tensor(Flip(tuple(sorted(axes))), [x], x.shape, x.dtype)


def fliplr(m: Any) -> Tensor:
    """Lazy ``numpy.fliplr``: reverse axis 1."""
    x = astensor(m)
    if x.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(x, 1)


def flipud(m: Any) -> Tensor:
    """Lazy ``numpy.flipud``: reverse axis 0."""
    x = astensor(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(x, 0)


# ---- concatenate and stacking -------------------------------------------------------------------


@tile_rule(Concatenate)
def _tile_concatenate(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Concatenate)
    dtypes = [n.dtype for n in node.inputs]
    parts = list(inputs)
    keep = [i for i, p in enumerate(parts) if sum(p.nsplits[op.axis]) != 0]
    if keep and len(keep) < len(parts):
        parts = [parts[i] for i in keep]
        dtypes = [dtypes[i] for i in keep]
    elif not keep:
        parts, dtypes = parts[:1], dtypes[:1]
    parts = _align_other_axes(node.key, parts, op.axis, dtypes, ctx)
    pieces = []
    for i, (p, dt) in enumerate(zip(parts, dtypes)):
        if dt == node.dtype:
            pieces.append(p)
            continue
        grid = _grid(f"{node.key}-cast{i}", p.numblocks)
        for index in np.ndindex(*grid.shape):
            ctx.add_blockwise(
                grid[index], _cast_chunk, (Ref(_keys(p)[index]),), {"dtype": node.dtype}
            )
        pieces.append(Tiled(p.nsplits, grid))
    return _concat_tiled(pieces, op.axis)


def _as_sequence(arrays: Any, func: str) -> list[Any]:
    """The items of a list/tuple of arrays, or the sub-arrays of one tensor along axis 0."""
    if isinstance(arrays, Tensor):
        if arrays.ndim == 0:
            raise ValueError(f"{func}(): zero-dimensional arrays cannot be concatenated")
        return [squeeze(t, 0) for t in _split_parts(arrays, len(arrays), (), 0, False)]
    if isinstance(arrays, np.ndarray):
        return list(arrays)
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(
            f'arrays to {func} must be passed as a "sequence" type such as list or tuple, '
            f"got {type(arrays).__name__}"
        )
    return list(arrays)


def _concat_dtype(tensors: Sequence[Tensor], dtype: Any, casting: str) -> np.dtype[Any]:
    probes = [np.empty((0,), dtype=t.dtype) for t in tensors]
    concat: Any = np.concatenate
    out_dtype: np.dtype[Any] = concat(probes, dtype=dtype, casting=casting).dtype
    return out_dtype


def concatenate(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Tensor:
    """Lazy ``numpy.concatenate``.

    The input chunks are reused as the output's chunks (no copy) unless the dtype is
    promoted or the other axes are chunked differently. ``axis=None`` flattens the inputs.
    """
    if out is not None:
        raise TypeError("concatenate(): the 'out' argument is not supported on tensors")
    tensors = [astensor(t) for t in _as_sequence(arrays, "concatenate")]
    if not tensors:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        tensors = [ravel(t) for t in tensors]
        axis = 0
    ndim = tensors[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, t in enumerate(tensors):
        if t.ndim != ndim:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {ndim} dimension(s) and the array at index {i} has {t.ndim} "
                "dimension(s)"
            )
    ax = normalize_axis_index(axis, ndim)
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        for d in range(ndim):
            if d != ax and not _same_length(first[d], t.shape[d]):
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {d}, the array at index 0 has size "
                    f"{first[d]} and the array at index {i} has size {t.shape[d]}"
                )
    out_dtype = _concat_dtype(tensors, dtype, casting)
    if len(tensors) == 1 and out_dtype == tensors[0].dtype:
        return _wrap(tensors[0])
    shape = []
    for d in range(ndim):
        if d == ax:
            lengths = [t.shape[d] for t in tensors]
            shape.append(math.nan if any(_isnan(n) for n in lengths) else sum(lengths))
        else:
            known = [t.shape[d] for t in tensors if not _isnan(t.shape[d])]
            shape.append(known[0] if known else math.nan)
    return new_tensor(Concatenate(ax), tensors, tuple(shape), out_dtype)


def stack(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Tensor:
    """Lazy ``numpy.stack``: join same-shaped tensors along a new axis."""
    if out is not None:
        raise TypeError("stack(): the 'out' argument is not supported on tensors")
    tensors = [astensor(t) for t in _as_sequence(arrays, "stack")]
    if not tensors:
        raise ValueError("need at least one array to stack")
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        if len(t.shape) != len(first) or not all(map(_same_length, first, t.shape)):
            raise ValueError(
                "all input arrays must have the same shape, but the array at index 0 has "
                f"shape {_shape_str(first)} and the array at index {i} has shape "
                f"{_shape_str(t.shape)}"
            )
    ax = normalize_axis_index(axis, len(first) + 1)
    return concatenate([expand_dims(t, ax) for t in tensors], ax, dtype=dtype, casting=casting)


def _atleast(arys: tuple[Any, ...], ndmin: int) -> Any:
    out = []
    for a in arys:
        x = astensor(a)
        if x.ndim < ndmin:
            if ndmin == 3 and x.ndim == 1:
                x = expand_dims(x, (0, 2))
            elif ndmin == 3 and x.ndim == 2:
                x = expand_dims(x, 2)
            else:
                x = expand_dims(x, tuple(range(ndmin - x.ndim)))
        out.append(x)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_1d``: a tensor (or a tuple of them) with at least one axis."""
    return _atleast(arys, 1)


def atleast_2d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_2d``: 1-d inputs become rows ``(1, N)``."""
    return _atleast(arys, 2)


def atleast_3d(*arys: Any) -> Any:
    """Lazy ``numpy.atleast_3d``: ``(N,) -> (1, N, 1)``, ``(M, N) -> (M, N, 1)``."""
    return _atleast(arys, 3)


def _stack_inputs(tup: Any, func: str) -> list[Any]:
    items = _as_sequence(tup, func)
    if not items:
        raise ValueError("need at least one array to concatenate")
    return items


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Lazy ``numpy.vstack``: concatenate along axis 0 after ``atleast_2d``."""
    items = [atleast_2d(t) for t in _stack_inputs(tup, "stack")]
    return concatenate(items, 0, dtype=dtype, casting=casting)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Lazy ``numpy.hstack``: along axis 1, or axis 0 for 1-d inputs."""
    items = [atleast_1d(t) for t in _stack_inputs(tup, "stack")]
    axis = 0 if items[0].ndim == 1 else 1
    return concatenate(items, axis, dtype=dtype, casting=casting)


def dstack(tup: Any) -> Tensor:
    """Lazy ``numpy.dstack``: concatenate along axis 2 after ``atleast_3d``."""
    items = [atleast_3d(t) for t in _stack_inputs(tup, "stack")]
    return concatenate(items, 2)


def column_stack(tup: Any) -> Tensor:
    """Lazy ``numpy.column_stack``: 1-d inputs become columns, then concatenate on axis 1."""
    items = []
    for t in _stack_inputs(tup, "stack"):
        x = astensor(t)
        if x.ndim < 2:
            x = expand_dims(x, tuple(range(x.ndim, 2)))
        items.append(x)
    return concatenate(items, 1)


# ---- split -------------------------------------------------------------------------------------


def _split_bounds(
    length: int, sections: int | None, indices: tuple[int, ...], equal: bool
) -> list[tuple[int, int]]:
    """(start, stop) of every part, as ``numpy.array_split`` computes them."""
    if sections is not None:
        if equal and length % sections:
            raise ValueError(
                f"array split does not result in an equal division: an axis of length "
                f"{length} into {sections} sections"
            )
        each, extra = divmod(length, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = offsets(sizes)
        return [(int(points[i]), int(points[i + 1])) for i in range(sections)]
    bounds = []
    edges = [0, *indices, length]
    for st, end in zip(edges[:-1], edges[1:]):
        r = range(length)[st:end]
        bounds.append((r.start, r.stop) if len(r) else (0, 0))
    return bounds


@tile_rule(SliceAxis)
def _tile_slice_axis(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SliceAxis)
    (x,) = inputs
    if any(_isnan(n) for n in x.nsplits[op.axis]):
        ctx.require_known(x)
    length = int(sum(x.nsplits[op.axis]))
    start, stop = _split_bounds(length, op.sections, op.indices, op.equal)[op.part]
    return _slice_axis_tiled(node.key, x, op.axis, start, stop, ctx)


def _split_parts(
    x: Tensor, sections: int | None, indices: tuple[int, ...], axis: int, equal: bool
) -> list[Tensor]:
    n = x.shape[axis]
    count = sections if sections is not None else len(indices) + 1
    bounds = None if _isnan(n) else _split_bounds(int(n), sections, indices, equal)
    parts = []
    for part in range(count):
        shape = list(x.shape)
        if bounds is None:
            shape[axis] = math.nan
        else:
            start, stop = bounds[part]
            shape[axis] = stop - start
            if start == 0 and stop == n:
                parts.append(_wrap(x))
                continue
        op = SliceAxis(axis, sections, indices, part, equal)
        parts.append(new_tensor(op, [x], tuple(shape), x.dtype))
    return parts


def _split(ary: Any, indices_or_sections: Any, axis: Any, equal: bool) -> list[Tensor]:
    x = astensor(ary)
    ax = normalize_axis_index(axis, x.ndim)
    spec = indices_or_sections
    if isinstance(spec, Tensor):
        spec = np.asarray(spec)
    if isinstance(spec, np.ndarray) and spec.ndim == 0:
        spec = spec.item()
    if isinstance(spec, (list, tuple, np.ndarray)):
        indices = _int_tuple(spec, "indices_or_sections")
        return _split_parts(x, None, indices, ax, False)
    sections = _int_arg(spec, "indices_or_sections")
    if sections <= 0:
        raise ValueError(f"number sections must be larger than 0, got {sections}")
    if equal and not _isnan(x.shape[ax]) and x.shape[ax] % sections:
        raise ValueError(
            f"array split does not result in an equal division: axis {ax} of length "
            f"{x.shape[ax]} into {sections} sections"
        )
    return _split_parts(x, sections, (), ax, equal)


def split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Tensor]:
    """Lazy ``numpy.split``: a list of tensors; ``N`` sections must divide the axis."""
    return _split(ary, indices_or_sections, axis, True)


def array_split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Tensor]:
    """Lazy ``numpy.array_split``: like ``split`` but sections may differ in length by 1."""
    return _split(ary, indices_or_sections, axis, False)


# ---- roll --------------------------------------------------------------------------------------


@tile_rule(Roll)
def _tile_roll(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Roll)
    (x,) = inputs
    if any(_isnan(n) for a in op.axes for n in x.nsplits[a]):
        ctx.require_known(x)
    t = x
    for k, (shift, axis) in enumerate(zip(op.shifts, op.axes)):
        n = int(sum(t.nsplits[axis]))
        s = shift % n if n else 0
        if s == 0:
            continue
        tail = _slice_axis_tiled(f"{node.key}-{k}a", t, axis, n - s, n, ctx)
        head = _slice_axis_tiled(f"{node.key}-{k}b", t, axis, 0, n - s, ctx)
        t = _concat_tiled([tail, head], axis)
    return t


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.roll``; ``shift`` and ``axis`` may be tuples (broadcast together)."""
    x = astensor(a)
    if axis is None:
        if x.ndim == 1:
            return roll(x, shift, 0)
        if sum(1 for n in x.shape if _isnan(n)) > 1:
            raise ValueError(
                "roll(): with axis=None the shape must be known on all axes but one; "
                "execute the input first or give axis"
            )
        back = tuple(-1 if _isnan(n) else n for n in x.shape)
        return reshape(roll(ravel(x), shift, 0), back)
    shifts = _int_tuple(shift, "shift")
    axes = tuple(
        normalize_axis_index(i, x.ndim)
        for i in (axis if isinstance(axis, (tuple, list)) else (axis,))
    )
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError(
            f"roll(): shift {shift!r} and axis {axis!r} cannot be broadcast to a single shape "
            f"({len(shifts)} shifts for {len(axes)} axes)"
        )
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    total: dict[int, int] = {}
    for s, ax in zip(shifts, axes):
        total[ax] = total.get(ax, 0) + s
    moves = {
        ax: s for ax, s in total.items() if _isnan(x.shape[ax]) or (x.shape[ax] and s % x.shape[ax])
    }
    if not moves:
        return _wrap(x)
    op = Roll(tuple(moves.values()), tuple(moves))
    return new_tensor(op, [x], x.shape, x.dtype)


# ---- repeat ------------------------------------------------------------------------------------


def _pieces_scalar(length: int, repeats: int, max_len: int) -> list[tuple[int, int]]:
    """Runs of one input chunk such that each repeated run has at most ``max_len`` items."""
    per = max(1, max_len // max(repeats, 1))
    if length <= per:
        return [(0, length)]
    return [(i, min(i + per, length)) for i in range(0, length, per)]


def _pieces_counts(counts: np.ndarray[Any, Any], max_len: int) -> list[tuple[int, int]]:
    pieces = []
    start, total = 0, 0
    for i, c in enumerate(counts.tolist()):
        if i > start and total + c > max_len:
            pieces.append((start, i))
            start, total = i, 0
        total += c
    pieces.append((start, len(counts)))
    return pieces


@tile_rule(Repeat)
def _tile_repeat(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Repeat)
    (x,) = inputs
    axis = op.axis
    per_element = isinstance(op.repeats, np.ndarray)
    if per_element or not x.known:
        ctx.require_known(x)
    lengths = [int(n) for n in x.nsplits[axis]]
    starts = offsets(lengths)
    if per_element and op.repeats.shape[0] != sum(lengths):
        raise ValueError(
            f"repeat(): repeats has {op.repeats.shape[0]} counts but axis {axis} has length "
            f"{sum(lengths)}"
        )
    other = math.prod(int(max(n)) for a, n in enumerate(x.nsplits) if a != axis)
    max_len = max(1, op.max_bytes // max(node.dtype.itemsize * max(other, 1), 1))
    # (input chunk, slice of it or None, repeats for it, output length)
    plan: list[tuple[int, slice | None, Any, int]] = []
    for i, n in enumerate(lengths):
        if per_element:
            counts = op.repeats[int(starts[i]) : int(starts[i]) + n]
            pieces = _pieces_counts(counts, max_len) if n else [(0, 0)]
        else:
            pieces = _pieces_scalar(n, op.repeats, max_len)
        for lo, hi in pieces:
            sl = None if (lo, hi) == (0, n) else slice(lo, hi)
            if per_element:
                reps: Any = counts[lo:hi]
                out_len = int(reps.sum())
            else:
                reps = op.repeats
                out_len = (hi - lo) * op.repeats
            plan.append((i, sl, reps, out_len))
    nsplits = list(x.nsplits)
    nsplits[axis] = tuple(p[3] for p in plan)
    grid = _grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        i, sl, reps, _ = plan[index[axis]]
        src = _keys(x)[index[:axis] + (i,) + index[axis + 1 :]]
        ctx.add_blockwise(
            grid[index], _repeat_chunk, (Ref(src),), {"repeats": reps, "axis": axis, "sl": sl}
        )
    return Tiled(tuple(nsplits), grid)


def repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.repeat``: ``repeats`` is an int or one count per element along ``axis``.

    With ``axis=None`` the tensor is flattened first. Each input chunk gives one output
    chunk, cut in pieces where a repeated chunk would exceed ``options.chunk_store_limit``.
    """
    x = astensor(a)
    if axis is None:
        x = ravel(x)
        axis = 0
    ax = normalize_axis_index(axis, x.ndim)
    try:
        reps = np.asarray(repeats, dtype=np.intp)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"repeat(): repeats must be an int or a sequence of ints ({exc})") from exc
    if reps.ndim > 1:
        raise ValueError(f"repeat(): repeats must be an int or a 1-d sequence, got {reps.ndim}-d")
    if (reps < 0).any():
        raise ValueError(f"repeat(): repeats may not contain negative values, got {repeats!r}")
    n = x.shape[ax]
    shape = list(x.shape)
    if reps.ndim == 1 and reps.shape[0] != 1:
        if not _isnan(n) and reps.shape[0] != n:
            raise ValueError(
                f"repeat(): operands could not be broadcast together: repeats has "
                f"{reps.shape[0]} counts but axis {ax} has length {n}"
            )
        shape[ax] = math.nan if _isnan(n) else int(reps.sum())
        op = Repeat(reps, ax, options.chunk_store_limit)
    else:
        r = int(reps.reshape(-1)[0])
        shape[ax] = n * r if not _isnan(n) else math.nan
        if r == 1:
            return _wrap(x)
        op = Repeat(r, ax, options.chunk_store_limit)
    return new_tensor(op, [x], tuple(shape), x.dtype)


# ---- tile --------------------------------------------------------------------------------------


@tile_rule(TileAxis)
def _tile_tile_axis(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TileAxis)
    (x,) = inputs
    axis = op.axis
    if op.reps == 0:
        return _slice_axis_tiled(node.key, x, axis, 0, 0, ctx)
    copies = 1
    if x.numblocks[axis] == 1 and x.known:
        chunk_bytes = max(node.dtype.itemsize * math.prod(int(max(n)) for n in x.nsplits), 1)
        copies = int(min(op.reps, max(1, op.max_bytes // chunk_bytes)))
    if copies == 1:
        return _concat_tiled([x] * op.reps, axis)
    counts = [copies] * (op.reps // copies) + ([op.reps % copies] if op.reps % copies else [])
    nsplits = list(x.nsplits)
    nsplits[axis] = tuple(int(x.nsplits[axis][0]) * c for c in counts)
    grid = _grid(node.key, [len(n) for n in nsplits])
    for index in np.ndindex(*grid.shape):
        src = _keys(x)[index[:axis] + (0,) + index[axis + 1 :]]
        ctx.add_blockwise(
            grid[index], _tile_chunk, (Ref(src),), {"axis": axis, "copies": counts[index[axis]]}
        )
    return Tiled(tuple(nsplits), grid)


def tile(A: Any, reps: Any) -> Tensor:  # noqa: N803 - NumPy's argument name
    """Lazy ``numpy.tile``.

    Along an axis held in one chunk, copies are grouped into chunks within
    ``options.chunk_store_limit``; along an axis in several chunks the input chunks are
    reused (no copy).
    """
    x = astensor(A)
    counts = _int_tuple(reps, "reps")
    if any(r < 0 for r in counts):
        raise ValueError(f"tile(): reps must be non-negative, got {reps!r}")
    ndim = max(x.ndim, len(counts))
    counts = (1,) * (ndim - len(counts)) + counts
    if x.ndim < ndim:
        x = expand_dims(x, tuple(range(ndim - x.ndim)))
    out = _wrap(x)
    for axis, r in enumerate(counts):
        if r == 1:
            continue
        shape = list(out.shape)
        shape[axis] = shape[axis] * r
        op = TileAxis(axis, r, options.chunk_store_limit)
        out = new_tensor(op, [out], tuple(shape), out.dtype)
    return out


# ---- rechunk -----------------------------------------------------------------------------------


@tile_rule(RechunkTo)
def _tile_rechunk_to(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RechunkTo)
    (x,) = inputs
    ctx.require_known(x)
    shape = tuple(int(sum(a)) for a in x.nsplits)
    nsplits = normalize_chunk_size(shape, op.chunk_size, node.dtype.itemsize)
    return rechunk_tiled(node.key, x, nsplits, node.dtype, ctx)


def _probe_shape(shape: tuple[Any, ...], chunk_size: Any) -> tuple[int, ...]:
    """Stand-in lengths for unknown axes, to validate ``chunk_size`` before execution."""
    entries: Any = chunk_size
    if isinstance(chunk_size, dict):
        entries = [chunk_size.get(i, chunk_size.get(i - len(shape))) for i in range(len(shape))]
    probe = []
    for i, n in enumerate(shape):
        if not _isnan(n):
            probe.append(int(n))
            continue
        entry = entries[i] if isinstance(entries, (tuple, list)) and i < len(entries) else None
        if isinstance(entry, (tuple, list)):
            try:
                probe.append(sum(int(v) for v in entry))
            except (TypeError, ValueError):
                probe.append(1)
        else:
            probe.append(1)
    return tuple(probe)


def rechunk(x: Any, chunk_size: Any) -> Tensor:
    """The same tensor cut along other chunk boundaries.

    ``chunk_size`` takes every form of ``normalize_chunk_size``: an int for all axes, -1 or
    None for a whole axis, a tuple with one entry per axis (an int, -1, None or a tuple of
    lengths) or a dict ``{axis: entry}``. Unchanged chunks are reused.
    """
    t = astensor(x)
    if unknown_shape(t.shape):
        normalize_chunk_size(_probe_shape(t.shape, chunk_size), chunk_size, t.dtype.itemsize)
        return new_tensor(RechunkTo(chunk_size), [t], t.shape, t.dtype)
    nsplits = normalize_chunk_size(t.shape, chunk_size, t.dtype.itemsize)
    return new_tensor(Rechunk(nsplits), [t], t.shape, t.dtype)


# ---- methods -------------------------------------------------------------------------------------


def _reshape_method(self: Tensor, *shape: Any, order: str = "C") -> Tensor:
    """Lazy ``ndarray.reshape``: ``t.reshape(2, 3)`` or ``t.reshape((2, 3))``."""
    if not shape:
        raise TypeError("reshape() takes at least one argument: the new shape")
    target = shape[0] if len(shape) == 1 else shape
    return reshape(self, target, order=order)


def _transpose_method(self: Tensor, *axes: Any) -> Tensor:
    """Lazy ``ndarray.transpose``: ``t.transpose()``, ``t.transpose(1, 0)`` or with a tuple."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return transpose(self)
    target = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
    return transpose(self, target)


def _squeeze_method(self: Tensor, axis: Any = None) -> Tensor:
    return squeeze(self, axis)


def _swapaxes_method(self: Tensor, axis1: Any, axis2: Any) -> Tensor:
    return swapaxes(self, axis1, axis2)


def _ravel_method(self: Tensor, order: str = "C") -> Tensor:
    return ravel(self, order)


def _repeat_method(self: Tensor, repeats: Any, axis: Any = None) -> Tensor:
    return repeat(self, repeats, axis)


def _rechunk_method(self: Tensor, chunk_size: Any) -> Tensor:
    return rechunk(self, chunk_size)


def _T(self: Tensor) -> Tensor:  # noqa: N802 - the .T property
    return transpose(self)


def _attach() -> None:
    Tensor.reshape = _reshape_method  # type: ignore[attr-defined]
    Tensor.transpose = _transpose_method  # type: ignore[attr-defined]
    Tensor.T = property(_T)  # type: ignore[attr-defined]
    Tensor.squeeze = _squeeze_method  # type: ignore[attr-defined]
    Tensor.swapaxes = _swapaxes_method  # type: ignore[attr-defined]
    Tensor.ravel = _ravel_method  # type: ignore[attr-defined]
    Tensor.flatten = _flatten  # type: ignore[attr-defined]
    Tensor.repeat = _repeat_method  # type: ignore[attr-defined]
    Tensor.rechunk = _rechunk_method  # type: ignore[attr-defined]


_attach()

__all__ = [
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_to",
    "column_stack",
    "concatenate",
    "dstack",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "hstack",
    "moveaxis",
    "ravel",
    "rechunk",
    "repeat",
    "reshape",
    "roll",
    "split",
    "squeeze",
    "stack",
    "swapaxes",
    "tile",
    "transpose",
    "vstack",
]

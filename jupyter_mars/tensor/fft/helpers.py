"""Helpers, as ``numpy.fft``'s: the sample frequencies ``fftfreq``/``rfftfreq`` (each chunk
computed from its index range) and ``fftshift``/``ifftshift`` (chunk pieces moved without
gathering)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import fill_from_pieces
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.sorting import axis_length, check_axis, chunk_indices, known_nsplits

# ---- frequencies ------------------------------------------------------------------------------


def fftfreq_block(lo: int, hi: int, n: int, d: float) -> Any:
    """``numpy.fft.fftfreq(n, d)[lo:hi]``, computed the way NumPy does."""
    val = 1.0 / (n * d)
    positive = (n - 1) // 2 + 1
    k = np.arange(lo, hi, dtype=int)
    k = np.where(k < positive, k, k - n)
    return k * val


def rfftfreq_block(lo: int, hi: int, n: int, d: float) -> Any:
    val = 1.0 / (n * d)
    return np.arange(lo, hi, dtype=int) * val


@dataclass(frozen=True, eq=False)
class Frequencies(Op):
    func: Callable[..., Any]
    n: int
    d: float
    nsplits: tuple[tuple[int, ...], ...]

    def label(self) -> str:
        return getattr(self.func, "__name__", "fftfreq").replace("_block", "")


@tile_rule(Frequencies)
def _tile_frequencies(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Frequencies)
    starts = offsets(op.nsplits[0])
    grid = key_grid(node.key, (len(op.nsplits[0]),))
    for i in range(len(op.nsplits[0])):
        ctx.new_task(grid[i], op.func, int(starts[i]), int(starts[i + 1]), op.n, op.d)
    return Tiled(op.nsplits, grid)


def _frequencies(func: Callable[..., Any], n: Any, d: Any, length: int, chunk_size: Any) -> Tensor:
    d_value = float(np.asarray(d))
    nsplits = normalize_chunk_size((length,), chunk_size, 8)
    return new_tensor(Frequencies(func, n, d_value, nsplits), [], (length,), np.float64)


def _freq_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n should be an integer, got {n!r}")
    if n < 1:
        raise ValueError(f"n must be a positive integer, got {n}")
    return int(n)


def fftfreq(n: int, d: float = 1.0, chunk_size: Any = None) -> Tensor:
    """Sample frequencies of an ``n``-point transform (``numpy.fft.fftfreq``)."""
    n = _freq_n(n)
    return _frequencies(fftfreq_block, n, d, n, chunk_size)


def rfftfreq(n: int, d: float = 1.0, chunk_size: Any = None) -> Tensor:
    """Sample frequencies for ``rfft`` (``numpy.fft.rfftfreq``)."""
    n = _freq_n(n)
    return _frequencies(rfftfreq_block, n, d, n // 2 + 1, chunk_size)


# ---- shifts -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Roll(Op):
    """``np.roll`` along some axes: each output chunk is cut from the input chunks."""

    shifts: tuple[tuple[int, int], ...]
    """(axis, shift) pairs."""
    name: str

    def label(self) -> str:
        return self.name


def _segments(lo: int, hi: int, shift: int, length: int) -> list[tuple[int, int, int]]:
    """Source pieces of output range [lo, hi) rolled by ``shift``: (src start, stop, dst)."""
    out = []
    pos = lo
    while pos < hi:
        src = (pos - shift) % length
        take = min(hi - pos, length - src)
        out.append((src, src + take, pos - lo))
        pos += take
    return out


def _axis_pieces(
    lengths: tuple[int, ...], lo: int, hi: int, shift: int
) -> list[tuple[int, slice, slice]]:
    """(input chunk, slice in it, slice in the output chunk) along one axis."""
    total = sum(lengths)
    starts = offsets(lengths)
    pieces = []
    for src_lo, src_hi, dst in _segments(lo, hi, shift, total):
        for c in range(len(lengths)):
            a, b = max(src_lo, int(starts[c])), min(src_hi, int(starts[c + 1]))
            if a < b:
                d0 = dst + a - src_lo
                pieces.append(
                    (c, slice(a - int(starts[c]), b - int(starts[c])), slice(d0, d0 + b - a))
                )
    return pieces


@tile_rule(Roll)
def _tile_roll(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Roll)
    (x,) = inputs
    nsplits = known_nsplits(x, ctx)
    shifts = dict(op.shifts)
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        per_axis = []
        for a, i in enumerate(index):
            starts = offsets(nsplits[a])
            lo, hi = int(starts[i]), int(starts[i + 1])
            if shifts.get(a, 0) % max(sum(nsplits[a]), 1) == 0 or hi == lo:
                per_axis.append([(i, slice(0, hi - lo), slice(0, hi - lo))])
            else:
                per_axis.append(_axis_pieces(nsplits[a], lo, hi, shifts[a]))
        shape = tuple(nsplits[a][i] for a, i in enumerate(index))
        combos = list(itertools.product(*per_axis))
        if len(combos) == 1 and all(p[0] == i for p, i in zip(combos[0], index)):
            grid[index] = x.keys[index]
            continue
        regions = [(tuple(p[1] for p in c), tuple(p[2] for p in c)) for c in combos]
        refs = [Ref(x.keys[tuple(p[0] for p in c)]) for c in combos]
        ctx.new_task(grid[index], fill_from_pieces, shape, node.dtype, regions, *refs)
    return Tiled(nsplits, grid)


def _shift(name: str, x: Any, axes: Any, sign: int) -> Tensor:
    t = astensor(x)
    if axes is None:
        axes_list = list(range(t.ndim))
    elif isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        axes_list = [int(axes)]
    else:
        axes_list = list(axes)
    shifts: dict[int, int] = {}
    for a in axes_list:
        ax = check_axis(a, t.ndim, none_ok=False)
        n = axis_length(t, ax)
        shifts[ax] = shifts.get(ax, 0) + (n // 2 if sign > 0 else -(n // 2))
    return new_tensor(Roll(tuple(sorted(shifts.items())), name), [t], t.shape, t.dtype)


def fftshift(x: Any, axes: Any = None) -> Tensor:
    """Move the zero-frequency term to the centre (``numpy.fft.fftshift``), chunk pieces
    moved without gathering."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: Any = None) -> Tensor:
    """Inverse of ``fftshift`` (``numpy.fft.ifftshift``)."""
    return _shift("ifftshift", x, axes, -1)

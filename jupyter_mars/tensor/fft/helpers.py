"""Helpers, as ``numpy.fft``'s: the sample frequencies ``fftfreq``/``rfftfreq`` (each chunk
computed from its index range) and ``fftshift``/``ifftshift`` (chunk pieces moved without
gathering)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.devices import device_module
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import roll
from jupyter_mars.tensor.shape.common import check_axis, known_length

# ---- frequencies ------------------------------------------------------------------------------


def fftfreq_block(lo: int, hi: int, n: int, d: float, device: str | None = None) -> Any:
    """``numpy.fft.fftfreq(n, d)[lo:hi]``, computed the way NumPy does, on ``device``
    (``TileContext.device``)."""
    xp = device_module(device)
    val = 1.0 / (n * d)
    positive = (n - 1) // 2 + 1
    k = xp.arange(lo, hi, dtype=int)
    k = xp.where(k < positive, k, k - n)
    return k * val


def rfftfreq_block(lo: int, hi: int, n: int, d: float, device: str | None = None) -> Any:
    val = 1.0 / (n * d)
    return device_module(device).arange(lo, hi, dtype=int) * val


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
        ctx.new_task(grid[i], op.func, int(starts[i]), int(starts[i + 1]), op.n, op.d, ctx.device)
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
        ax = check_axis(a, t.ndim)
        n = known_length(t, ax, "fft")
        shifts[ax] = shifts.get(ax, 0) + (n // 2 if sign > 0 else -(n // 2))
    if not shifts:
        return roll(t, 0, 0) if t.ndim else t
    axes_rolled = tuple(sorted(shifts))
    return roll(t, tuple(shifts[a] for a in axes_rolled), axes_rolled)


def fftshift(x: Any, axes: Any = None) -> Tensor:
    """Move the zero-frequency term to the centre (``numpy.fft.fftshift``): ``roll`` by
    half of each axis, chunk pieces moved without gathering."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: Any = None) -> Tensor:
    """Inverse of ``fftshift`` (``numpy.fft.ifftshift``)."""
    return _shift("ifftshift", x, axes, -1)

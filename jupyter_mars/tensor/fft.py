"""``mt.fft``: discrete Fourier transforms, as ``numpy.fft``.

A transform needs whole lines along the transformed axes: those axes are rechunked to one
chunk each (the other axes keep their chunks) and NumPy transforms every chunk. ``fftn``
over all axes therefore gathers the whole array into one chunk. ``fftshift``/``ifftshift``
move chunk pieces without gathering, and ``fftfreq``/``rfftfreq`` compute each chunk from
its index range.
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import fill_from_pieces
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.sorting import chunk_indices
from jupyter_mars.tensor.statistics import apply_whole_axes

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm: Any) -> None:
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _check_n(n: Any, what: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {n!r}")
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return int(n)


def _axis(axis: Any, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(int(axis), ndim)
    return int(axis) % ndim


def _length(x: Tensor, axis: int) -> int:
    n = x.shape[axis]
    if isinstance(n, float):
        raise ValueError(
            f"the length of axis {axis} is unknown until the input is executed; "
            "call .execute() on it first"
        )
    return int(n)


def fft_block(block: Any, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return func(block, **kwargs)


def _meta_dtype(func: Callable[..., Any], dtype: np.dtype[Any], kwargs: dict[str, Any]) -> Any:
    """The result dtype NumPy gives, from a tiny transform of the same kind."""
    probe_kwargs = {k: v for k, v in kwargs.items() if k in ("norm",)}
    return func(np.ones(4, dtype=dtype), **probe_kwargs).dtype


def _transform(
    name: str,
    func: Callable[..., Any],
    a: Any,
    axes: tuple[int, ...],
    out_lengths: dict[int, int],
    kwargs: dict[str, Any],
    meta_func: Callable[..., Any],
) -> Tensor:
    x = astensor(a)
    dtype = _meta_dtype(meta_func, x.dtype, kwargs)
    shape = tuple(out_lengths.get(i, n) for i, n in enumerate(x.shape))
    out_axes = tuple(None if i in axes else i for i in range(x.ndim))
    block_func = functools.partial(fft_block, func=func, kwargs=kwargs)
    return apply_whole_axes(x, block_func, axes, out_axes, shape, dtype, name)


def _one_dim(
    name: str, func: Callable[..., Any], a: Any, n: Any, axis: Any, norm: Any, kind: str
) -> Tensor:
    """1-d transforms; ``kind`` is ``c2c``, ``r2c`` (output n//2+1) or ``c2r`` (output n)."""
    x = astensor(a)
    if x.ndim == 0:
        raise np.exceptions.AxisError(int(axis) if isinstance(axis, (int, np.integer)) else 0, 0)
    _check_norm(norm)
    ax = _axis(axis, x.ndim)
    length = _length(x, ax)
    if n is None:
        n = 2 * (length - 1) if kind == "c2r" else length
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    else:
        n = _check_n(n)
    out = n // 2 + 1 if kind == "r2c" else n
    kwargs = {"n": n, "axis": ax, "norm": norm}
    return _transform(name, func, x, (ax,), {ax: out}, kwargs, func)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d discrete Fourier transform (``numpy.fft.fft``); ``axis`` is rechunked whole."""
    return _one_dim("fft", np.fft.fft, a, n, axis, norm, "c2c")


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d inverse transform (``numpy.fft.ifft``); ``axis`` is rechunked whole."""
    return _one_dim("ifft", np.fft.ifft, a, n, axis, norm, "c2c")


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-d transform of real input (``numpy.fft.rfft``): ``n // 2 + 1`` outputs."""
    return _one_dim("rfft", np.fft.rfft, a, n, axis, norm, "r2c")


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of ``rfft`` (``numpy.fft.irfft``): ``n`` (default ``2 * (m - 1)``) outputs."""
    return _one_dim("irfft", np.fft.irfft, a, n, axis, norm, "c2r")


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Transform of a Hermitian-symmetric signal (``numpy.fft.hfft``)."""
    return _one_dim("hfft", np.fft.hfft, a, n, axis, norm, "c2r")


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of ``hfft`` (``numpy.fft.ihfft``)."""
    return _one_dim("ihfft", np.fft.ihfft, a, n, axis, norm, "r2c")


def _cook_axes(x: Tensor, s: Any, axes: Any, inverse_real: bool) -> tuple[list[int], list[int]]:
    """Transformed axes and their lengths, following ``numpy.fft``'s rules."""
    if s is not None and not isinstance(s, (Sequence, np.ndarray)):
        raise TypeError(f"s must be a sequence of ints, got {s!r}")
    if axes is not None and not isinstance(axes, (Sequence, np.ndarray)):
        raise TypeError(f"axes must be a sequence of ints, got {axes!r}")
    if s is not None and any(n is None for n in s):
        warnings.warn(
            "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0",
            DeprecationWarning,
            stacklevel=4,
        )
    if axes is None:
        if s is not None:
            warnings.warn(
                "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0)",
                DeprecationWarning,
                stacklevel=4,
            )
        axes_list = list(range(-len(s), 0)) if s is not None else list(range(x.ndim))
    else:
        axes_list = list(axes)
    if s is not None and len(s) != len(axes_list):
        raise ValueError("Shape and axes have different lengths.")
    norm_axes = [_axis(a, x.ndim) for a in axes_list]
    if s is None:
        lengths = [_length(x, a) for a in norm_axes]
        if inverse_real and lengths:
            lengths[-1] = (lengths[-1] - 1) * 2
            if lengths[-1] < 1:
                raise ValueError(f"Invalid number of FFT data points ({lengths[-1]}) specified.")
    else:
        lengths = [_length(x, a) if n is None else _check_n(n, "s") for n, a in zip(s, norm_axes)]
    return norm_axes, lengths


def _n_dim(
    name: str,
    func: Callable[..., Any],
    a: Any,
    s: Any,
    axes: Any,
    norm: Any,
    kind: str,
    meta_func: Callable[..., Any],
) -> Tensor:
    x = astensor(a)
    _check_norm(norm)
    norm_axes, lengths = _cook_axes(x, s, axes, kind == "c2r")
    if not norm_axes and kind != "c2c":
        raise ValueError(f"{name}(): at least one axis must be transformed")
    out_lengths: dict[int, int] = {}
    for ax, n in zip(norm_axes, lengths):
        out_lengths[ax] = n
    if kind == "r2c":
        out_lengths[norm_axes[-1]] = lengths[-1] // 2 + 1
    kwargs: dict[str, Any] = {"s": lengths, "axes": norm_axes, "norm": norm}
    return _transform(name, func, x, tuple(sorted(set(norm_axes))), out_lengths, kwargs, meta_func)


def fftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d transform (``numpy.fft.fftn``); the transformed axes are rechunked whole."""
    return _n_dim("fftn", np.fft.fftn, a, s, axes, norm, "c2c", np.fft.fft)


def ifftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d inverse transform (``numpy.fft.ifftn``)."""
    return _n_dim("ifftn", np.fft.ifftn, a, s, axes, norm, "c2c", np.fft.ifft)


def rfftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """N-d transform of real input (``numpy.fft.rfftn``)."""
    return _n_dim("rfftn", np.fft.rfftn, a, s, axes, norm, "r2c", np.fft.rfft)


def irfftn(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Any = None
) -> Tensor:
    """Inverse of ``rfftn`` (``numpy.fft.irfftn``)."""
    return _n_dim("irfftn", np.fft.irfftn, a, s, axes, norm, "c2r", np.fft.irfft)


def fft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d transform (``numpy.fft.fft2``)."""
    return _n_dim("fft2", np.fft.fftn, a, s, axes, norm, "c2c", np.fft.fft)


def ifft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d inverse transform (``numpy.fft.ifft2``)."""
    return _n_dim("ifft2", np.fft.ifftn, a, s, axes, norm, "c2c", np.fft.ifft)


def rfft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """2-d transform of real input (``numpy.fft.rfft2``)."""
    return _n_dim("rfft2", np.fft.rfftn, a, s, axes, norm, "r2c", np.fft.rfft)


def irfft2(
    a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Any = None
) -> Tensor:
    """Inverse of ``rfft2`` (``numpy.fft.irfft2``)."""
    return _n_dim("irfft2", np.fft.irfftn, a, s, axes, norm, "c2r", np.fft.irfft)


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
    ctx.require_known(x)
    nsplits = tuple(tuple(int(n) for n in lengths) for lengths in x.nsplits)
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
        ax = _axis(a, t.ndim)
        n = _length(t, ax)
        shifts[ax] = shifts.get(ax, 0) + (n // 2 if sign > 0 else -(n // 2))
    return new_tensor(Roll(tuple(sorted(shifts.items())), name), [t], t.shape, t.dtype)


def fftshift(x: Any, axes: Any = None) -> Tensor:
    """Move the zero-frequency term to the centre (``numpy.fft.fftshift``), chunk pieces
    moved without gathering."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: Any = None) -> Tensor:
    """Inverse of ``fftshift`` (``numpy.fft.ifftshift``)."""
    return _shift("ifftshift", x, axes, -1)

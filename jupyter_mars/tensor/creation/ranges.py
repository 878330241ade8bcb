"""``arange`` and ``linspace``: evenly spaced values, equal to NumPy's bit for bit.

Each chunk computes its values from its offset in the whole array with NumPy's own
formula, so no chunk depends on another and no value is accumulated across chunks. On a
GPU (``gpu=True``) the same formula runs with CuPy, one element-wise kernel per step, on
the device.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, offsets
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.recipes import regenerable
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.creation.common import (
    array_module_named,
    as_dtype,
    block_indices,
    chunk_region,
    chunk_shape,
    device_args,
    nsplits_for,
    numblocks,
    on_module,
)
from jupyter_mars.tensor.gpu_keyword import check_gpu

# ---- arange --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Arange(Op):
    first: np.ndarray[Any, Any]
    """The first two values, set as NumPy sets them (the rest are ``v0 + i * (v1 - v0)``)."""
    nsplits: NSplits

    def label(self) -> str:
        return "arange"


@regenerable
def arange_chunk(first: np.ndarray[Any, Any], offset: int, length: int, xp: str = "numpy") -> Any:
    """Values ``offset .. offset + length`` of ``arange``, computed as NumPy's fill does
    (with the array module ``xp``: ``"cupy"`` on the GPU; ``first`` stays on the host,
    its values enter the device's arithmetic as scalars)."""
    mod = array_module_named(xp, "arange(gpu=True)")
    dtype = first.dtype
    out = mod.empty(length, dtype=dtype)
    if length == 0:
        return out
    i = mod.arange(offset, offset + length, dtype=np.intp)
    with np.errstate(all="ignore"):
        if dtype.kind == "b" or first.shape[0] < 2:
            # at most two values in all: those set as NumPy sets them
            out[:] = on_module(first[offset : offset + length], mod)
        elif dtype.kind == "u" and dtype.itemsize == 8:
            delta = first[1:2] - first[0:1]
            out[:] = first[0] + i.astype(dtype) * delta[0]
        elif dtype.kind in "iu":
            delta64 = on_module((first[1:2] - first[0:1]).astype(np.int64), mod)
            start64 = on_module(first[0:1].astype(np.int64), mod)
            out[:] = (start64 + i * delta64).astype(dtype)
        elif dtype.kind == "c":
            real = _float_fill(first.real, i)
            imag = _float_fill(first.imag, i)
            out.real = real
            out.imag = imag
        else:
            out[:] = _float_fill(first, i)
    # the first two values are stored as given, not recomputed
    for g in (0, 1):
        if offset <= g < offset + length and g < first.shape[0]:
            out[g - offset] = first[g]
    return out


def _float_fill(first: np.ndarray[Any, Any], i: np.ndarray[Any, Any]) -> Any:
    if first.dtype == np.float16:
        start = first[0].astype(np.float32)
        delta = first[1].astype(np.float32) - start
        return (start + i.astype(np.float32) * delta).astype(np.float16)
    delta = (first[1:2] - first[0:1])[0]
    return first[0] + i.astype(first.dtype) * delta


def _descr_of(value: Any) -> np.dtype[Any]:
    if isinstance(value, Tensor):
        raise TypeError("arange(): start, stop and step must be scalars, not tensors")
    dt = np.asarray(value).dtype
    if np.ndim(value) != 0:
        raise TypeError("arange: scalar arguments expected instead of a sequence.")
    return dt


def _ceil_length(value: float) -> int:
    ivalue = math.ceil(value) if math.isfinite(value) else value
    if isinstance(ivalue, float) and math.isnan(ivalue):
        raise ValueError("arange: cannot compute length")
    if not -(2**63) <= ivalue < 2**63:
        raise ValueError("Maximum allowed size exceeded")
    return int(ivalue)


def _arange_length(start: Any, stop: Any, step: Any, is_complex: bool) -> int:
    with np.errstate(all="ignore"):
        diff = stop - start
        nonzero = bool(diff != 0)
        val = diff / step
        if is_complex and isinstance(val, complex):
            return min(_ceil_length(val.real), _ceil_length(val.imag))
        value = float(val)
        if value == 0 and nonzero:
            return 0 if math.copysign(1.0, value) < 0 else 1
        return _ceil_length(value)


def arange(
    start: Any,
    stop: Any = None,
    step: Any = None,
    dtype: Any = None,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """Evenly spaced values in ``[start, stop)`` (``numpy.arange``), bit for bit.

    Each chunk computes its values from its offset, as NumPy's fill does:
    ``v0 + i * (v1 - v0)`` with ``v0 = start`` and ``v1 = start + step``. ``gpu=True``:
    each chunk is computed on a GPU.
    """
    on_gpu = check_gpu(gpu, "arange")
    given = [v for v in (start, stop, step) if v is not None]
    for v in given:
        _descr_of(v)
    if dtype is None:
        dt = np.dtype(np.intp)
        for v in given:
            dt = np.promote_types(dt, _descr_of(v))
        dt = as_dtype(dt)
    else:
        dt = as_dtype(dtype)
    if dt.kind not in "biufc":
        raise TypeError(f"arange() not supported for inputs with dtype {dt}")
    if step is None:
        step = 1
    if stop is None:
        start, stop = 0, start
    try:
        length = max(_arange_length(start, stop, step, dt.kind == "c"), 0)
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    if dt.kind == "b" and length > 2:
        raise TypeError(
            "arange() is only supported for booleans when the result has at most length 2."
        )
    first = np.zeros(min(length, 2), dtype=dt)
    if length >= 1:
        first[0] = start
    if length >= 2:
        with np.errstate(all="ignore"):
            first[1] = start + step
    nsplits = nsplits_for((length,), chunk_size, dt)
    return new_tensor(Arange(first, nsplits), [], (length,), dt, gpu=on_gpu)


@tile_rule(Arange)
def _tile_arange(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Arange)
    grid = key_grid(node.key, numblocks(op.nsplits))
    starts = offsets(op.nsplits[0])
    for i, n in enumerate(op.nsplits[0]):
        ctx.new_task(grid[i], arange_chunk, op.first, int(starts[i]), int(n), *device_args(ctx))
    return Tiled(op.nsplits, grid)


# ---- linspace ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Linspace(Op):
    start: Any
    stop: Any
    step: Any
    delta: Any
    div: int
    num: int
    endpoint: bool
    axis: int
    step_zero: bool
    calc_dtype: np.dtype[Any]
    integer_dtype: bool
    nsplits: NSplits

    def label(self) -> str:
        return "linspace"


def linspace_chunk(
    lo: int,
    n: int,
    start: Any,
    stop: Any,
    step: Any,
    delta: Any,
    div: int,
    num: int,
    endpoint: bool,
    axis: int,
    step_zero: bool,
    calc_dtype: np.dtype[Any],
    integer_dtype: bool,
    dtype: np.dtype[Any],
    xp: str = "numpy",
) -> Any:
    """Samples ``lo .. lo + n`` of ``linspace``, with NumPy's formula and rounding.

    ``start``/``stop``/``step``/``delta`` are already cut to the chunk's region of the
    other axes (Python scalars stay Python scalars, as in NumPy). ``xp="cupy"``: the
    samples are computed on the GPU (the parameters, small, are copied there first).
    """
    mod = array_module_named(xp, "linspace(gpu=True)")
    pdim = np.ndim(delta)
    start, stop, step, delta = (on_module(v, mod) for v in (start, stop, step, delta))
    y = mod.arange(lo, lo + n, dtype=np.intp).astype(calc_dtype).reshape((-1,) + (1,) * pdim)
    with np.errstate(all="ignore"):
        if div > 0:
            if step_zero:
                y /= div
                y = y * delta
            else:
                y = y * step
        else:
            y = y * delta
        y += start
        if endpoint and num > 1 and lo <= num - 1 < lo + n:
            y[num - 1 - lo, ...] = stop
        if axis != 0:
            y = mod.moveaxis(y, 0, axis)
        if integer_dtype:
            mod.floor(y, out=y)
        return mod.ascontiguousarray(y.astype(dtype, copy=False))


def _is_pyscalar(x: Any) -> bool:
    return type(x) in (int, float, complex, bool)


def linspace(
    start: Any,
    stop: Any,
    num: Any = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Any:
    """``num`` evenly spaced samples from ``start`` to ``stop`` (``numpy.linspace``).

    ``start``/``stop`` are scalars or array-likes (held by the client, as in NumPy; each
    chunk receives the part of them it covers). Each chunk computes its samples from its
    offset with NumPy's formula, so values equal NumPy's bit for bit. With ``retstep``,
    returns ``(tensor, step)``, the step as NumPy gives it. ``gpu=True``: each chunk is
    computed on a GPU.
    """
    on_gpu = check_gpu(gpu, "linspace")
    if isinstance(start, Tensor) or isinstance(stop, Tensor):
        raise TypeError(
            "linspace(): start and stop must be scalars or array-likes, not tensors; "
            "fetch them first"
        )
    try:
        num = operator.index(num)
    except TypeError:
        raise TypeError(
            f"linspace(): num must be an int, got {type(num).__name__} {num!r}"
        ) from None
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    if _is_pyscalar(start) and _is_pyscalar(stop):
        start_a: Any = np.asarray(start)
        stop_a: Any = np.asarray(stop)
    else:
        start_a = start if _is_pyscalar(start) else np.asarray(start)
        stop_a = stop if _is_pyscalar(stop) else np.asarray(stop)
    for v in (start_a, stop_a):
        if isinstance(v, np.ndarray) and v.dtype.kind not in "biufc":
            raise TypeError(f"linspace(): start and stop must be numbers, got dtype {v.dtype}")
    dt = np.result_type(start_a, stop_a)
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    if dtype is None:
        out_dtype = dt
        integer_dtype = False
    else:
        out_dtype = as_dtype(dtype)
        integer_dtype = bool(np.issubdtype(out_dtype, np.integer))
    with np.errstate(all="ignore"):
        delta = np.subtract(stop_a, start_a, dtype=dt.type)
        if div > 0:
            step: Any = delta / div
            step_zero = bool(np.asarray(step == 0).any())
        else:
            step = np.nan
            step_zero = False
    pshape = np.shape(delta)
    ndim = len(pshape) + 1
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"linspace(): axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(int(axis), ndim)
    ax = int(axis) % ndim
    out_shape = list(pshape)
    out_shape.insert(ax, num)
    nsplits = nsplits_for(out_shape, chunk_size, out_dtype)

    def full_param(v: Any) -> Any:
        return v if _is_pyscalar(v) or np.ndim(v) == 0 else np.broadcast_to(v, pshape)

    op = Linspace(
        start=full_param(start_a),
        stop=full_param(stop_a),
        step=full_param(step),
        delta=full_param(delta),
        div=div,
        num=num,
        endpoint=bool(endpoint),
        axis=ax,
        step_zero=step_zero,
        calc_dtype=dt,
        integer_dtype=integer_dtype,
        nsplits=nsplits,
    )
    t = new_tensor(op, [], tuple(out_shape), out_dtype, gpu=on_gpu)
    if retstep:
        return t, step
    return t


@tile_rule(Linspace)
def _tile_linspace(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Linspace)
    nsplits = op.nsplits
    grid = key_grid(node.key, numblocks(nsplits))
    starts = [offsets(axis) for axis in nsplits]

    # start/stop/step/delta are shaped as the output without ``axis``
    param_starts = [axis for a, axis in enumerate(starts) if a != op.axis]

    def region(v: Any, index: tuple[int, ...], shape: tuple[int, ...]) -> Any:
        if np.ndim(v) == 0:
            return v
        index_p = tuple(i for a, i in enumerate(index) if a != op.axis)
        shape_p = tuple(n for a, n in enumerate(shape) if a != op.axis)
        return np.ascontiguousarray(chunk_region(v, param_starts, index_p, shape_p))

    for index in block_indices(nsplits):
        shape = chunk_shape(nsplits, index)
        lo = int(starts[op.axis][index[op.axis]])
        ctx.new_task(
            grid[index],
            linspace_chunk,
            lo,
            shape[op.axis],
            region(op.start, index, shape),
            region(op.stop, index, shape),
            region(op.step, index, shape),
            region(op.delta, index, shape),
            op.div,
            op.num,
            op.endpoint,
            op.axis,
            op.step_zero,
            op.calc_dtype,
            op.integer_dtype,
            node.dtype,
            *device_args(ctx),
        )
    return Tiled(nsplits, grid)

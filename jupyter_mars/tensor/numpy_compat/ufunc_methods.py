"""The methods of ``mt``'s ufuncs, as NumPy's ufuncs have them: ``reduce``,
``accumulate``, ``outer`` and ``at``. ``np.add.reduce(t)`` reaches them too, through
``Tensor.__array_ufunc__``.

- ``reduce``: a tree of partial reductions for the ufuncs NumPy may reorder (``add``,
  ``maximum``, ``logical_or``, ...); otherwise (``subtract``, ``power``, ...) the axis is
  made one chunk and NumPy reduces each chunk, so the order of operands is NumPy's.
- ``accumulate``: a scan with carries between chunks for ufuncs that are associative and
  have an identity; otherwise the axis is made one chunk.
- ``outer``: the ufunc on ``a`` reshaped to ``a.shape + (1,) * b.ndim`` and ``b``.
- ``at``: unbuffered in-place application at an index, done chunk by chunk: the
  positions the index selects are worked out in the client from zero-cost broadcast
  views (so NumPy raises its own index errors, at the call), each chunk applies the
  ufunc at the positions that fall in it, in the order given, and the tensor is rebound.

Dtypes and errors (a unary ufunc has no ``reduce``, a ufunc that cannot be reordered
takes one axis) are NumPy's, found by calling the method on one-element stand-ins.

On a GPU, CuPy's ufuncs have ``reduce`` and ``accumulate`` for ``add`` and ``multiply``
only, and ``at`` for ``add``, ``maximum`` and ``minimum``: another ufunc's method raises
``NotOnGPU`` at the call on a GPU tensor, naming ``.to_cpu()``.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module, to_host
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.creation import arange
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.gpu_kernels import NotOnGPU, on_gpu
from jupyter_mars.tensor.outputs import probe_out, write_result
from jupyter_mars.tensor.reduction import normalize_axis, reduced_shape
from jupyter_mars.tensor.reduction.args import NOVALUE, given
from jupyter_mars.tensor.reduction.core import numpy_chunk, pairwise_reduce
from jupyter_mars.tensor.reduction.cumulative import Cumulative
from jupyter_mars.tensor.shape import reshape
from jupyter_mars.tensor.statistics.common import apply_whole_axes
from jupyter_mars.tensor.ufuncs import TensorUfunc
from jupyter_mars.tensor.views import rebind

# reorderable: NumPy reduces them over several axes at once, in any order
_REORDERABLE = frozenset(
    {
        "add",
        "multiply",
        "maximum",
        "minimum",
        "fmax",
        "fmin",
        "logical_and",
        "logical_or",
        "logical_xor",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_count",
        "gcd",
        "lcm",
    }
)


def _probe(method: Any, *args: Any, **kwargs: Any) -> np.dtype[Any]:
    """NumPy's result dtype (or its error) for the method on one-element stand-ins."""
    stand_ins = [np.ones((1,) * a.ndim, a.dtype) if isinstance(a, Tensor) else a for a in args]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(method(*stand_ins, **kwargs)).dtype


_GPU_METHODS = {
    "reduce": frozenset({"add", "multiply"}),
    "accumulate": frozenset({"add", "multiply"}),
    "at": frozenset({"add", "maximum", "minimum"}),
}
"""The ufuncs whose method CuPy has, by method."""


def _check_gpu_method(ufunc_name: str, method: str, x: Any) -> None:
    """Raise ``NotOnGPU`` where ``x`` is on a GPU and CuPy lacks ``ufunc_name.method``."""
    if on_gpu(x) and ufunc_name not in _GPU_METHODS[method]:
        has = " and ".join(sorted(_GPU_METHODS[method]))
        raise NotOnGPU(
            f"{ufunc_name}.{method}() does not run on a GPU: CuPy has {method} for {has} "
            "only; call .to_cpu() on its GPU input first"
        )


# ---- reduce -------------------------------------------------------------------------------


def _reduce_block(
    ufunc: np.ufunc, axis: Any, dtype: Any, keepdims: bool, extra: dict[str, Any], block: Any
) -> Any:
    with np.errstate(all="ignore"):
        result = ufunc.reduce(block, axis=axis, dtype=dtype, keepdims=keepdims, **extra)
        return array_module(block).asarray(result)


def _with_initial(ufunc: np.ufunc, initial: Any, part: Any, axis: Any) -> Any:
    return ufunc(part, initial)


def ufunc_reduce(
    self: TensorUfunc,
    array: Any,
    axis: Any = 0,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = NOVALUE,
    where: Any = True,
) -> Tensor:
    """Lazy ``ufunc.reduce``: ``ufunc`` applied along ``axis`` (several, or None, for a
    ufunc NumPy may reorder)."""
    ufunc, name = self.ufunc, f"{self.__name__}.reduce"
    if where is not True:
        raise TypeError(f"{name}(): the 'where' argument is not supported on tensors")
    x = astensor(array)
    _check_gpu_method(self.__name__, "reduce", x)
    extra = {"initial": initial} if given(initial) else {}
    result_dtype = _probe(ufunc.reduce, x, axis=axis, dtype=dtype, keepdims=keepdims, **extra)
    axes = normalize_axis(axis, x.ndim)
    shape = reduced_shape(x.shape, axes, bool(keepdims))
    result: Tensor
    if self.__name__ in _REORDERABLE:
        result = pairwise_reduce(
            x,
            name,
            functools.partial(numpy_chunk, ufunc.reduce, dtype=result_dtype),
            ufunc,
            axes,
            bool(keepdims),
            result_dtype,
            finalize=functools.partial(_with_initial, ufunc, initial) if extra else None,
        )
    else:
        result = _reduce_whole(ufunc, x, axes, dtype, bool(keepdims), extra, shape, result_dtype)
    if out is not None:
        target = out[0] if isinstance(out, tuple) else out
        given_args = {"axis": axis, "dtype": dtype, "keepdims": keepdims, "out": target}
        probe_out(ufunc.reduce, [x], given_args, target)
        return write_result(name, result, target)
    return result


def _reduce_whole(
    ufunc: np.ufunc,
    x: Tensor,
    axes: tuple[int, ...],
    dtype: Any,
    keepdims: bool,
    extra: dict[str, Any],
    shape: tuple[Any, ...],
    result_dtype: np.dtype[Any],
) -> Tensor:
    """Reduce with every reduced axis one chunk, so NumPy sees the operands in order."""
    kept = [a for a in range(x.ndim) if a not in axes]
    out_axes: tuple[int | None, ...] = (
        tuple(None if a in axes else a for a in range(x.ndim)) if keepdims else tuple(kept)
    )
    kernel = functools.partial(_reduce_block, ufunc, axes, dtype, keepdims, extra)
    return apply_whole_axes(x, kernel, axes, out_axes, shape, result_dtype, ufunc.__name__)


# ---- accumulate -----------------------------------------------------------------------------


def _accumulate_block(ufunc: np.ufunc, block: Any, axis: int, dtype: Any) -> Any:
    with np.errstate(all="ignore"):
        return ufunc.accumulate(block, axis=axis, dtype=dtype)


def ufunc_accumulate(
    self: TensorUfunc, array: Any, axis: int = 0, dtype: Any = None, out: Any = None
) -> Tensor:
    """Lazy ``ufunc.accumulate``: the running result of ``ufunc`` along ``axis``."""
    ufunc, name = self.ufunc, f"{self.__name__}.accumulate"
    x = astensor(array)
    _check_gpu_method(self.__name__, "accumulate", x)
    result_dtype = _probe(ufunc.accumulate, x, axis=axis, dtype=dtype)
    ax = int(normalize_axis(axis, x.ndim)[0])
    scan = functools.partial(_accumulate_block, ufunc)
    result: Tensor
    if self.__name__ in _REORDERABLE and ufunc.identity is not None:
        op = Cumulative(
            func=scan, combine=ufunc, axis=ax, identity=ufunc.identity, name=self.__name__
        )
        result = new_tensor(op, [x], x.shape, result_dtype)
    else:
        kernel = functools.partial(_accumulate_whole, scan, ax, result_dtype)
        result = apply_whole_axes(
            x, kernel, (ax,), tuple(range(x.ndim)), x.shape, result_dtype, self.__name__
        )
    if out is not None:
        target = out[0] if isinstance(out, tuple) else out
        probe_out(ufunc.accumulate, [x], {"axis": axis, "dtype": dtype, "out": target}, target)
        return write_result(name, result, target)
    return result


def _accumulate_whole(scan: Any, axis: int, dtype: Any, block: Any) -> Any:
    return scan(block, axis=axis, dtype=dtype)


# ---- outer ---------------------------------------------------------------------------------


def ufunc_outer(self: TensorUfunc, a: Any, b: Any, **kwargs: Any) -> Any:
    """Lazy ``ufunc.outer``: ``ufunc(a[i..., None...], b[j...])`` for every pair."""
    if self.ufunc.nin != 2:
        raise ValueError("outer product only supported for binary functions")
    x, y = astensor(a), astensor(b)
    return self(reshape(x, tuple(x.shape) + (1,) * y.ndim), y, **kwargs)


# ---- at ------------------------------------------------------------------------------------


def selected_positions(shape: tuple[int, ...], index: Any) -> np.ndarray[Any, Any]:
    """The flat positions ``index`` selects in an array of ``shape``, in NumPy's order,
    without allocating the array: each axis' coordinate is a broadcast view of
    ``arange(n)``, indexed as the array would be (NumPy's own index errors)."""
    coords = []
    for axis, n in enumerate(shape):
        along = np.arange(n).reshape((-1,) + (1,) * (len(shape) - axis - 1))
        coords.append(np.asarray(np.broadcast_to(along, shape)[index]))
    if not shape:
        return np.zeros(np.shape(np.zeros(())[index]), dtype=np.intp)
    return np.asarray(np.ravel_multi_index(tuple(coords), shape))


def _at_block(
    ufunc: np.ufunc,
    shape: tuple[int, ...],
    positions: np.ndarray[Any, Any],
    values: Any,
    block: Any,
    *coords: Any,
) -> Any:
    """Chunk kernel: ``ufunc.at`` at the selected positions inside this chunk, whose
    place in the whole tensor is the first of its coordinates along each axis."""
    out = array_module(block).array(block, copy=True)
    if out.size == 0 or positions.size == 0:
        return out
    if not shape:  # a 0-d tensor: its one element, once per time the index selects it
        operands = () if values is None else (np.broadcast_to(values, positions.shape),)
        with np.errstate(all="ignore"):
            for i in range(positions.size):
                out[()] = ufunc(out, *(v.flat[i] for v in operands))
        return out
    origin = tuple(int(np.asarray(to_host(c)).flat[0]) for c in coords)
    targets = np.unravel_index(positions.ravel(), shape)
    inside = np.ones(positions.size, dtype=bool)
    for c, o, n in zip(targets, origin, out.shape):
        inside &= (c >= o) & (c < o + n)
    local = tuple(c[inside] - o for c, o in zip(targets, origin))
    with np.errstate(all="ignore"):
        if values is None:
            ufunc.at(out, local)
        else:
            ufunc.at(out, local, np.broadcast_to(values, positions.shape).ravel()[inside])
    return out


def ufunc_at(self: TensorUfunc, a: Any, indices: Any, b: Any = None) -> None:
    """Lazy ``ufunc.at``: apply ``ufunc`` in place at ``indices`` (unbuffered: repeated
    indices apply repeatedly); ``a`` is rebound, views of it included."""
    ufunc, name = self.ufunc, f"{self.__name__}.at"
    if not isinstance(a, Tensor):
        raise TypeError(f"{name}(): the first argument must be a tensor to update in place")
    _check_gpu_method(self.__name__, "at", a)
    if isinstance(b, Tensor) or isinstance(indices, Tensor):
        raise TypeError(f"{name}(): indices and values must be known (NumPy arrays or scalars)")
    expected = 2 if ufunc.nin == 2 else 1
    if (b is None) != (expected == 1):
        raise ValueError(
            "second operand needed for ufunc" if expected == 2 else "second operand not needed"
        )
    positions = selected_positions(tuple(int(n) for n in a.shape), indices)
    values = None if b is None else np.asarray(b)
    # NumPy's dtype errors and broadcasting errors, on the selection's shape
    target = np.ones(positions.shape, dtype=a.dtype)
    with np.errstate(all="ignore"):
        ufunc.at(
            target.reshape(-1),
            np.arange(positions.size),
            *(() if values is None else (np.broadcast_to(values, positions.shape).ravel(),)),
        )
    # each chunk learns where it lies from the coordinates along each axis, which
    # broadcast against it (one small range per axis)
    coords = [
        reshape(arange(n, chunk_size=max(int(n), 1)), (1,) * i + (-1,) + (1,) * (a.ndim - i - 1))
        for i, n in enumerate(a.shape)
    ]
    kernel = functools.partial(_at_block, ufunc, tuple(a.shape), positions, values)
    result = elemwise(kernel, a, *coords, dtype=a.dtype, name=self.__name__)
    rebind(a, result._node)


TensorUfunc.reduce = ufunc_reduce  # type: ignore[attr-defined]
TensorUfunc.accumulate = ufunc_accumulate  # type: ignore[attr-defined]
TensorUfunc.outer = ufunc_outer  # type: ignore[attr-defined]
TensorUfunc.at = ufunc_at  # type: ignore[attr-defined]

__all__: list[str] = []

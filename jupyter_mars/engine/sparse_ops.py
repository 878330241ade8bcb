"""Kernels on sparse chunks, and the build-time rule that says when a result stays sparse.

The values are always NumPy's on the dense equivalent; sparseness is only how they are
stored. An element-wise result is sparse when the function keeps zeros (``f(0) == 0``
with the other operands as given), and the kernels then work on the stored values alone
(``f(data)``), or through SciPy's own sparse-sparse operations; anything else is computed
on the chunk made dense, which is exact and costs one dense chunk at a time.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jupyter_mars.engine.sparse import (
    is_sparse_chunk,
    join_sparse,
    scipy_sparse,
    to_dense,
    to_sparse,
)

_PROBES = (0.0, 1.0, -1.0, 2.5)
"""Values tried for the dense operands when deciding if zeros of the sparse ones stay
zero; infinities and NaN are left out, as SciPy leaves them out (``0 * inf`` is 0 there)."""


class SparseOperand:
    """Build-time stand-in for a sparse operand of an element-wise function."""

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self.dtype = dtype


class DenseOperand:
    """Build-time stand-in for a dense tensor or array operand."""

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self.dtype = dtype


def keeps_zeros(func: Callable[..., Any], operands: Sequence[Any], kwargs: dict[str, Any]) -> bool:
    """Whether ``func`` gives 0 wherever every sparse operand is 0, whatever the dense
    operands hold (tried on a few values); scalars are passed as they are."""
    has_dense = any(isinstance(o, DenseOperand) for o in operands)
    for probe in _PROBES if has_dense else _PROBES[:1]:
        args = [_probe_value(o, probe) for o in operands]
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = np.asarray(func(*args, **kwargs))
        except Exception:  # noqa: BLE001 - an operation the probe cannot run stays dense
            return False
        if out.dtype.kind not in "biufc" or bool(np.any(out != 0)):
            return False
    return True


def _probe_value(operand: Any, probe: float) -> Any:
    if isinstance(operand, SparseOperand):
        return np.zeros(1, dtype=operand.dtype)
    if isinstance(operand, DenseOperand):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.full(1, probe).astype(operand.dtype)
    return operand


def _sparse_sparse(name: str, a: Any, b: Any) -> Any:
    if name == "add":
        return a + b
    if name == "subtract":
        return a - b
    if name == "multiply":
        return a.multiply(b)
    if name == "maximum":
        return a.maximum(b)
    return a.minimum(b)


_SPARSE_BINARY = {np.add, np.subtract, np.multiply, np.maximum, np.minimum}
"""Ufuncs SciPy computes on two sparse matrices of one shape without densifying."""


def _on_stored(func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``func`` computed without a dense chunk, or None where no such path applies."""
    positions = [i for i, a in enumerate(args) if is_sparse_chunk(a)]
    arrays = [a for a in args if isinstance(a, np.ndarray) and a.ndim > 0]
    if len(positions) == 1 and not arrays:
        # one sparse operand, scalars beside it: f keeps zeros, so only stored values change
        m = to_sparse(args[positions[0]]).copy()
        m.sum_duplicates()
        values = func(*(m.data if i == positions[0] else a for i, a in enumerate(args)), **kwargs)
        return scipy_sparse().csr_matrix((np.asarray(values), m.indices, m.indptr), shape=m.shape)
    if len(args) != 2 or kwargs or func not in _SPARSE_BINARY:
        return None
    a, b = args
    name = getattr(func, "__name__", "")
    if len(positions) == 2 and a.shape == b.shape:
        return _sparse_sparse(name, to_sparse(a), to_sparse(b))
    if name == "multiply" and len(positions) == 1 and len(arrays) == 1:
        sparse, dense = (a, b) if positions == [0] else (b, a)
        if np.broadcast_shapes(sparse.shape, dense.shape) == sparse.shape:
            return to_sparse(sparse).multiply(dense)
    return None


def sparse_elementwise(
    func: Callable[..., Any],
    sparse_out: bool,
    dtype: np.dtype[Any],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """``func(*args)`` where some chunks are sparse: a CSR chunk when ``sparse_out``."""
    if sparse_out:
        out = _on_stored(func, args, kwargs)
        if out is not None:
            return to_sparse(out).astype(dtype, copy=False)
    result = func(*(to_dense(a) for a in args), **kwargs)
    if sparse_out:
        return to_sparse(np.asarray(result, dtype=dtype))
    return result


def sparse_reduce(name: str, block: Any, axis: tuple[int, ...], dtype: Any) -> Any:
    """SciPy's ``sum``/``max``/``min`` of a sparse chunk, as a dense partial with the
    reduced axes kept (length 1), in ``dtype`` when one is given."""
    m = to_sparse(block)
    along = None if len(axis) != 1 else axis[0]
    if name == "sum":
        out = m.sum(axis=along, dtype=dtype)
    else:
        out = m.max(axis=along) if name == "max" else m.min(axis=along)
        out = out.toarray() if is_sparse_chunk(out) else out
    shape = tuple(1 if a in axis else n for a, n in enumerate(m.shape))
    result = np.asarray(out).reshape(shape)
    return result.astype(dtype, copy=False) if dtype is not None else result


def sparse_matmul(sparse_out: bool, dtype: np.dtype[Any], left: Any, right: Any) -> Any:
    """One output chunk of a product: a row panel of ``a`` times a column panel of ``b``
    (SciPy's product where either side is sparse)."""
    out = left @ right
    if sparse_out:
        return to_sparse(out).astype(dtype, copy=False)
    return np.asarray(to_dense(out)).astype(dtype, copy=False)


def join_panel(axis: int, *blocks: Any) -> Any:
    """Chunks joined along ``axis`` into one panel: CSR where any is sparse."""
    if any(is_sparse_chunk(b) for b in blocks):
        return join_sparse(blocks, axis)  # a sparse operand is 2-d
    return np.concatenate(blocks, axis=axis)

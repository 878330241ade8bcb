"""``dot`` and ``matmul`` (``a @ b``, batched over the leading axes, which broadcast), and
the ``Tensor`` methods ``dot``, ``__matmul__`` and ``__rmatmul__``.

Labels of a ``matmul``: the batch axes ``0 .. nbatch-1`` (right-aligned, broadcast), then
``n``, ``k`` (contracted) and ``m``. Matrices use the ``dot`` kernels, stacks ``np.matmul``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.products.checks import (
    broadcast_batches,
    check_out,
    differ,
    dot_dtype,
    fmt_shape,
    multiply,
    tiny,
)
from jupyter_mars.tensor.products.contraction import contract
from jupyter_mars.tensor.products.kernels import matmul_kernel, pair_kernel
from jupyter_mars.tensor.products.tensordot import contract_axes
from jupyter_mars.tensor.sparse.matmul import involves_sparse, sparse_product


def dot(a: Any, b: Any, out: Any = None) -> Tensor:
    """Lazy, chunked ``numpy.dot``.

    0-d operands multiply; 1-D with 1-D is the inner product; otherwise the last axis of
    ``a`` is contracted with the second-to-last of ``b`` (the only one when ``b`` is 1-D).
    """
    check_out("dot", out)
    a, b = astensor(a), astensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    ax_b = max(b.ndim - 2, 0)
    if differ(a.shape[-1], b.shape[ax_b]):
        raise ValueError(
            f"shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)} not aligned: "
            f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[ax_b]} (dim {ax_b})"
        )
    if involves_sparse(a, b):
        return sparse_product(a, b, dot_dtype(a, b, "dot"), "dot")
    return contract_axes(a, b, (a.ndim - 1,), (ax_b,), "dot", dot_dtype(a, b, "dot"))


_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"


def matmul(a: Any, b: Any, out: Any = None, dtype: Any = None, **kwargs: Any) -> Tensor:
    """Lazy, chunked ``numpy.matmul`` (``a @ b``): batched over leading axes, broadcast."""
    check_out("matmul", out)
    for bad in ("axes", "axis", "where", "signature", "subok", "order", "casting"):
        if kwargs.get(bad) is not None:
            raise TypeError(f"matmul(): the {bad!r} argument is not supported on tensors")
    a, b = astensor(a), astensor(b)
    for i, t in enumerate((a, b)):
        if t.ndim == 0:
            raise ValueError(
                f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core "
                f"with signature {_MATMUL_SIG} requires 1)"
            )
    if dtype is not None:
        a, b = a.astype(dtype), b.astype(dtype)
    k_b = 0 if b.ndim == 1 else b.ndim - 2
    if differ(a.shape[-1], b.shape[k_b]):
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {_MATMUL_SIG} (size {b.shape[k_b]} is different from {a.shape[-1]})"
        )
    try:
        result_dtype = np.matmul(tiny(a), tiny(b)).dtype
    except TypeError as exc:
        raise TypeError(
            f"matmul: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc
    if involves_sparse(a, b):
        return sparse_product(a, b, result_dtype, "matmul")
    requested = []
    if a.ndim >= 2:
        requested.append(a.shape[-2])
    if b.ndim >= 2:
        requested.append(b.shape[-1])
    nbatch = broadcast_batches(a, b, requested)
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    # labels: batch axes 0..nbatch-1 (right-aligned), n, k, m
    n_lab, k_lab, m_lab = nbatch, nbatch + 1, nbatch + 2
    sub_a = (
        tuple(range(nbatch - len(batch_a), nbatch)) + ((n_lab,) if a.ndim >= 2 else ()) + (k_lab,)
    )
    sub_b = (
        tuple(range(nbatch - len(batch_b), nbatch)) + (k_lab,) + ((m_lab,) if b.ndim >= 2 else ())
    )
    out_labels = (
        tuple(range(nbatch)) + ((n_lab,) if a.ndim >= 2 else ()) + ((m_lab,) if b.ndim >= 2 else ())
    )
    if a.ndim <= 2 and b.ndim <= 2:
        func, accepts_out = pair_kernel(a.ndim, b.ndim, (a.ndim - 1,), (0,))
    else:
        func, accepts_out = matmul_kernel, len(out_labels) > 0
    return contract([a, b], [sub_a, sub_b], out_labels, result_dtype, func, "matmul", accepts_out)


# ---- Tensor methods -----------------------------------------------------------------------


def _operand_ok(x: Any) -> bool:
    return isinstance(x, (Tensor, np.ndarray, np.generic, list, tuple, int, float, complex, bool))


def matmul_method(self: Tensor, other: Any) -> Any:
    """``a @ b``; ``NotImplemented`` for an operand that is not array-like."""
    if not _operand_ok(other):
        return NotImplemented
    return matmul(self, other)


def rmatmul_method(self: Tensor, other: Any) -> Any:
    """``b @ a`` with ``a`` the tensor; ``NotImplemented`` for a non-array-like ``b``."""
    if not _operand_ok(other):
        return NotImplemented
    return matmul(other, self)


def dot_method(self: Tensor, b: Any, out: Any = None) -> Tensor:
    """``a.dot(b)``: see ``dot``."""
    return dot(self, b, out=out)

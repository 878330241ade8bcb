"""Sparse and dense tensors made from each other, and the ``Tensor`` methods that tell
which a tensor is: ``issparse``, ``tosparse``, ``todense``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.primitives.blockwise import Blockwise, Slot
from jupyter_mars.engine.sparse import (
    SparseNode,
    is_sparse_chunk,
    scipy_sparse,
    to_dense,
    to_sparse,
)
from jupyter_mars.tensor.core import Tensor, new_tensor


def issparse(x: Any) -> bool:
    """Whether ``x`` is a sparse tensor (or a SciPy sparse matrix)."""
    if isinstance(x, Tensor):
        return isinstance(x.node, SparseNode)
    return bool(is_sparse_chunk(x))


def sparse_like(x: Tensor) -> bool | None:
    """``new_tensor``'s ``sparse=`` for an operator that keeps its input's storage (a
    transpose, a slice): sparse for a sparse input, the default otherwise."""
    return True if issparse(x) else None


def sparse_flag(sparse: Any, shape: tuple[Any, ...], func: str) -> bool | None:
    """``new_tensor``'s ``sparse=`` for a creation function's ``sparse`` argument, which
    asks for a 2-d shape (SciPy's matrices are 2-d)."""
    if not sparse:
        return None
    if len(shape) != 2:
        raise ValueError(f"{func}(): sparse=True needs a 2-d shape, got {tuple(shape)}")
    return True


def tosparse(x: Tensor, missing: Any = None) -> Tensor:
    """``x`` with CSR chunks (``x`` itself when it is sparse); 2-d tensors only.

    ``missing`` (Mars's keyword): the entries equal to it (NaN: the NaNs) are the ones not
    stored, and so read as 0; every other entry is stored, zeros included.
    """
    if issparse(x):
        return x
    if x.ndim != 2:
        raise ValueError(
            f"tosparse(): only 2-d tensors can be sparse, got a {x.ndim}-d tensor of shape "
            f"{x.shape}"
        )
    if x.dtype.kind not in "biufc":
        raise TypeError(f"tosparse(): a sparse tensor holds numbers, not dtype {x.dtype}")
    op = Blockwise(to_sparse, (Slot(0), missing), {}, "tosparse")
    return new_tensor(op, [x], x.shape, x.dtype, sparse=True)


def todense(x: Tensor) -> Tensor:
    """``x`` with NumPy chunks (``x`` itself when it is dense)."""
    if not issparse(x):
        return x
    op = Blockwise(to_dense, (Slot(0),), {}, "todense")
    return new_tensor(op, [x], x.shape, x.dtype, sparse=False)


def sparse_matrix(data: Any, dtype: np.dtype[Any] | None) -> Any:
    """A SciPy sparse matrix or array as a 2-d CSR matrix of ``dtype``."""
    if data.ndim != 2:
        raise ValueError(f"tensor(): only 2-d sparse data is supported, got shape {data.shape}")
    m = scipy_sparse().csr_matrix(data, dtype=dtype)
    m.sum_duplicates()
    return m


def _attach() -> None:
    Tensor.issparse = issparse  # type: ignore[attr-defined]
    Tensor.tosparse = tosparse  # type: ignore[attr-defined]
    Tensor.todense = todense  # type: ignore[attr-defined]


_attach()

"""``lstsq``: least squares through the TSQR-based SVD.

With ``a = U diag(s) V^H`` (``svd``: TSQR, ``U`` chunked like the rows of ``a``), the
minimum-norm solution is ``x = V diag(1/s) U^H b``, where singular values at or below
``rcond * max(s)`` count as zero (that also fixes the rank). ``U^H b`` and ``V (...)`` are
chunked products. The residuals ``|b - a x|^2`` (per column) take one more pass over
``a``; like NumPy they are empty unless the rank is full and ``m > n``, which is known
only after executing: their length is ``nan`` until then.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import GPU, array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor import ufuncs
from jupyter_mars.tensor.core import Tensor, moved, new_tensor
from jupyter_mars.tensor.datasource import astensor, tensor
from jupyter_mars.tensor.linalg._core import LinAlgError, batch_apply, no_axes
from jupyter_mars.tensor.linalg.norm import reduce_abs
from jupyter_mars.tensor.linalg.qr import svd
from jupyter_mars.tensor.products import contract, matmul, tensordot


def _cutoff(s: Any, rcond: float) -> Any:
    return rcond * np.max(s) if s.size else 0.0


def inverse_singular_values(s: Any, rcond: float) -> Any:
    keep = s > _cutoff(s, rcond)
    out = np.zeros_like(s)
    out[keep] = 1.0 / s[keep]
    return out


def matrix_rank_of(s: Any, rcond: float) -> Any:
    xp = array_module(s)
    return xp.asarray(xp.count_nonzero(s > _cutoff(s, rcond)), dtype=np.int32)


def scale_rows(c: Any, factors: Any) -> Any:
    return c * (factors[:, None] if c.ndim == 2 else factors)


def length_of(core: tuple[int, ...]) -> tuple[int, ...]:
    return core


def residuals_kernel(sums: Any, rank: Any, n: int, vector: bool, dtype: np.dtype[Any]) -> Any:
    xp = array_module(sums, rank)
    if int(rank) < n:
        return xp.empty((0,), dtype=dtype)
    return xp.reshape(xp.asarray(sums, dtype=dtype), (1,) if vector else (-1,))


@dataclass(frozen=True, eq=False)
class Residuals(Op):
    """The residual sums when the rank is full, else empty (a data-dependent length)."""

    n: int
    vector: bool

    def label(self) -> str:
        return "residuals"


@tile_rule(Residuals)
def _tile_residuals(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Residuals)
    sums, rank = inputs
    ctx.require_known(sums)
    # the sums of all columns in one chunk (they are few: one per column of b)

    whole = tuple((sum(s),) for s in sums.nsplits)
    rs = rechunk_tiled(f"{node.key}-whole", sums, whole, node.dtype, ctx)
    grid = key_grid(node.key, [1])
    ctx.new_task(
        grid[0],
        residuals_kernel,
        Ref(rs.flat_keys()[0]),
        Ref(rank.flat_keys()[0]),
        op.n,
        op.vector,
        node.dtype,
    )
    return Tiled(((math.nan,),), grid)


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Lazy ``numpy.linalg.lstsq``: ``(x, residuals, rank, s)`` (see the module docstring)."""
    ta, tb = astensor(a), astensor(b)
    if ta.ndim != 2:
        raise LinAlgError(f"{ta.ndim}-dimensional array given. Array must be two-dimensional")
    if tb.ndim not in (1, 2):
        raise LinAlgError(f"{tb.ndim}-dimensional array given. Array must be two-dimensional")
    m, n = ta.shape
    if m == m and tb.shape[0] == tb.shape[0] and m != tb.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    vector = tb.ndim == 1
    probe = np.linalg.lstsq(
        np.eye(1, dtype=ta.dtype), np.ones((1,) if vector else (1, 1), dtype=tb.dtype)
    )
    x_dtype, res_dtype, s_dtype = probe[0].dtype, probe[1].dtype, probe[3].dtype
    if rcond is None:
        rcond = np.finfo(s_dtype).eps * max(m, n) if m == m and n == n else None
    if rcond is None:
        raise ValueError("lstsq: rcond must be given when the shape of a is unknown")

    work = ta if ta.dtype == x_dtype else ta.astype(x_dtype)
    u, s, vh = svd(work)
    rank = batch_apply(
        s, functools.partial(matrix_rank_of, rcond=float(rcond)), 1, no_axes, np.int32, "rank"
    )
    sinv = batch_apply(
        s,
        functools.partial(inverse_singular_values, rcond=float(rcond)),
        1,
        length_of,
        s.dtype,
        "pinv",
    )
    uh = getattr(ufuncs, "conjugate")(u) if np.iscomplexobj(np.empty(0, u.dtype)) else u  # noqa: B009
    c = tensordot(uh, tb, axes=([0], [0]))
    if vector:
        y = contract(
            [c, sinv], [(0,), (0,)], (0,), c.dtype, scale_rows, "scale", whole=frozenset({0})
        )
    else:
        y = contract(
            [c, sinv], [(0, 1), (0,)], (0, 1), c.dtype, scale_rows, "scale", whole=frozenset({0})
        )
    vt = getattr(ufuncs, "conjugate")(vh) if np.iscomplexobj(np.empty(0, vh.dtype)) else vh  # noqa: B009
    x = tensordot(vt, y, axes=([0], [0]))
    if x.dtype != x_dtype:
        x = x.astype(x_dtype)
    if m == m and n == n and m <= n:
        # no residuals: an empty tensor where the others are
        residuals = moved(tensor(np.empty((0,), dtype=res_dtype)), x.node.device == GPU)
    else:
        r = getattr(ufuncs, "subtract")(tb, matmul(ta, x))  # noqa: B009
        sums = reduce_abs(r, (0,), False, "sumsq", None, np.dtype(res_dtype))
        residuals = new_tensor(Residuals(int(n), vector), [sums, rank], (math.nan,), res_dtype)
    return x, residuals, rank, s

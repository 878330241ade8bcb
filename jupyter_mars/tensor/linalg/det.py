"""``det`` and ``slogdet`` from the factors of the blocked LU (``lu.py``): the product of
the diagonals of the ``U`` blocks and the parities of the step permutations. Stacks of
matrices (``ndim > 2``) are done one whole matrix per chunk.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module, device_module, to_host
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    assert_stacked_2d,
    assert_stacked_square,
    batch_apply,
    new_token,
    no_axes,
    nth_result,
    probe_dtype,
)
from jupyter_mars.tensor.linalg.lu import emit_lu, lu_dtype

# ---- kernels ------------------------------------------------------------------------------


def det_from_factors(dtype: np.dtype[Any], *factors: Any) -> Any:
    xp = array_module(*(f[2] for f in factors))
    value: Any = xp.ones((), dtype=dtype)
    for perm, _, upper in factors:
        value = value * _parity(perm) * xp.prod(xp.diagonal(upper))
    return xp.asarray(value, dtype=dtype)


def constant(value: Any, dtype: np.dtype[Any], device: str | None) -> Any:
    """``value`` as a 0-d array, made where the task runs (``TileContext.device``)."""
    return device_module(device).asarray(value, dtype=dtype)


def _parity(perm: Any) -> int:
    """+1 for an even permutation, -1 for an odd one. Counted on the host: a walk over the
    cycles, one index at a time (a GPU permutation is copied off: one int per row)."""
    perm = to_host(perm)
    seen = np.zeros(len(perm), dtype=bool)
    swaps = 0
    for start in range(len(perm)):
        if seen[start]:
            continue
        length = 0
        j = start
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        swaps += length - 1
    return -1 if swaps % 2 else 1


def slogdet_from_factors(dtype: np.dtype[Any], *factors: Any) -> tuple[Any, Any]:
    xp = array_module(*(f[2] for f in factors))
    sign: Any = xp.ones((), dtype=dtype)
    real = np.ones((), dtype=dtype).real.dtype
    logdet: Any = xp.zeros((), dtype=real)
    for perm, _, upper in factors:
        diag = xp.diagonal(upper)
        sign = sign * _parity(perm)
        if np.iscomplexobj(diag):
            absd = np.abs(diag)
            with np.errstate(divide="ignore", invalid="ignore"):
                sign = sign * np.prod(diag / absd)
        else:
            sign = sign * np.prod(np.sign(diag))
            absd = np.abs(diag)
        with np.errstate(divide="ignore"):
            logdet = logdet + np.sum(np.log(absd))
    if bool(xp.all(sign == 0)) or bool(logdet == -np.inf):
        return xp.asarray(0, dtype=dtype), xp.asarray(-np.inf, dtype=real)
    return xp.asarray(sign, dtype=dtype), xp.asarray(logdet, dtype=real)


def slogdet_part(index: int, dtype: np.dtype[Any], *factors: Any) -> Any:
    return slogdet_from_factors(dtype, *factors)[index]


# ---- det, slogdet -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LUDet(Op):
    """``det`` (part 2), or ``slogdet``'s sign (0) or log-determinant (1)."""

    token: str
    part: int

    def label(self) -> str:
        return ("slogdetsign", "slogdetlog", "det")[self.part]


@tile_rule(LUDet)
def _tile_lu_det(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, LUDet)
    (x,) = inputs
    ctx.require_known(x)
    in_dtype = node.inputs[0].dtype
    work = lu_dtype(in_dtype)
    grid = key_grid(node.key, [])
    out: Key = (node.key,)
    if sum(x.nsplits[0]) == 0:
        value = (1, 0, 1)[op.part]
        ctx.new_task(out, constant, value, node.dtype, ctx.device)
        return Tiled((), grid)
    tasks = emit_lu(op.token, x, in_dtype, work, ctx)
    refs = [Ref(f) for f in tasks.factors]
    if op.part == 2:
        ctx.new_task(out, det_from_factors, node.dtype, *refs)
    else:
        sign_dtype = np.dtype(np.result_type(work, node.dtype)) if op.part == 1 else node.dtype
        ctx.new_task(out, slogdet_part, op.part, sign_dtype, *refs)
    return Tiled((), grid)


def det(a: Any) -> Tensor:
    """Lazy ``numpy.linalg.det``, from the blocked LU (a stack: one matrix per chunk)."""
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    dtype = probe_dtype(np.linalg.det, t.dtype)
    if t.ndim > 2:
        return batch_apply(t, np.linalg.det, 2, no_axes, dtype, "det")
    return new_tensor(LUDet(new_token("det"), 2), [t], (), dtype)


def slogdet(a: Any) -> tuple[Tensor, Tensor]:
    """Lazy ``numpy.linalg.slogdet``: ``(sign, logabsdet)`` from the blocked LU."""
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    sign_dtype = probe_dtype(np.linalg.slogdet, t.dtype, index=0)
    log_dtype = probe_dtype(np.linalg.slogdet, t.dtype, index=1)
    if t.ndim > 2:
        return (
            batch_apply(
                t,
                functools.partial(nth_result, np.linalg.slogdet, 0),
                2,
                no_axes,
                sign_dtype,
                "slogdetsign",
            ),
            batch_apply(
                t,
                functools.partial(nth_result, np.linalg.slogdet, 1),
                2,
                no_axes,
                log_dtype,
                "slogdetlog",
            ),
        )
    token = new_token("slogdet")
    return (
        new_tensor(LUDet(token, 0), [t], (), sign_dtype),
        new_tensor(LUDet(token, 1), [t], (), log_dtype),
    )

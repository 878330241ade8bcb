"""Chunk kernels of the products (module-level, so tasks stay picklable).

- the per-position kernels: one product of the chunks that meet at one position of the
  contracted labels (``dot_nn`` ... ``einsum_kernel``), chosen by ``pair_kernel`` for a
  pair of operands;
- the task kernels of a contraction: ``contract_blocks`` (a sum of such products through
  one reused buffer), ``sum_parts`` (the sum tree), ``concat_blocks`` (panels) and
  ``transpose_block`` (the mirrored half of a symmetric product).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module

# ---- products of one position -----------------------------------------------------------


def dot_nn(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a, b, out=out)


def dot_nt(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a, b.T, out=out)


def dot_tn(a: Any, b: Any, out: Any = None) -> Any:
    return np.dot(a.T, b, out=out)


def matmul_kernel(a: Any, b: Any, out: Any = None) -> Any:
    if out is None:
        return np.matmul(a, b)
    return np.matmul(a, b, out=out)


def tensordot_kernel(a: Any, b: Any, axes: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
    return np.tensordot(a, b, axes=axes)


def vdot_kernel(a: Any, b: Any) -> Any:
    return np.vdot(a, b)


def outer_kernel(a: Any, b: Any) -> Any:
    return np.outer(a, b)


def einsum_kernel(subscripts: str, path: Any, kwargs: dict[str, Any], *blocks: Any) -> Any:
    return np.einsum(subscripts, *blocks, optimize=path, **kwargs)


def pair_kernel(
    nda: int, ndb: int, axes_a: tuple[int, ...], axes_b: tuple[int, ...]
) -> tuple[Callable[..., Any], bool]:
    """The fastest kernel for one chunk pair of a tensordot, and whether it takes ``out``."""
    if nda == 2 and ndb == 2 and len(axes_a) == 1:
        table = {(1, 0): dot_nn, (1, 1): dot_nt, (0, 0): dot_tn}
        kernel = table.get((axes_a[0], axes_b[0]))
        if kernel is not None:
            return kernel, True
    if nda in (1, 2) and ndb == 1 and axes_a == (nda - 1,) and axes_b == (0,):
        return dot_nn, nda == 2
    if nda == 1 and ndb == 2 and axes_a == (0,) and axes_b == (0,):
        return dot_nn, True
    return functools.partial(tensordot_kernel, axes=(axes_a, axes_b)), False


# ---- tasks of a contraction -------------------------------------------------------------


def contract_blocks(func: Callable[..., Any], nops: int, accepts_out: bool, *blocks: Any) -> Any:
    """Sum of ``func`` over consecutive groups of ``nops`` blocks (one group per position)."""
    xp = array_module(*blocks)
    acc: Any = None
    owned = accepts_out
    buf: Any = None
    for start in range(0, len(blocks), nops):
        args = blocks[start : start + nops]
        if acc is None:
            acc = func(*args)
            continue
        if accepts_out and isinstance(acc, xp.ndarray) and acc.ndim:
            if buf is None:
                buf = xp.empty_like(acc)
            part = func(*args, out=buf)
        else:
            part = func(*args)
        if owned and isinstance(acc, xp.ndarray):
            acc += part
        else:
            # the first product may be a view of an input chunk: never write into it
            acc = acc + part
            owned = True
    return acc if isinstance(acc, xp.ndarray) else xp.asarray(acc)


def sum_parts(*parts: Any) -> Any:
    acc = parts[0] + parts[1] if len(parts) > 1 else parts[0]
    for part in parts[2:]:
        acc += part
    return acc


def transpose_block(block: Any, axes: tuple[int, ...]) -> Any:
    return np.transpose(block, axes)


def concat_blocks(axis: int, *blocks: Any) -> Any:
    return array_module(*blocks).concatenate(blocks, axis=axis)

"""Shared pieces of ``mt.linalg``: input checks, small kernels, and ``BatchApply``.

``BatchApply`` runs a NumPy/SciPy function on whole matrices: the trailing (core) axes are
gathered into one chunk, the leading (batch) axes keep their chunks, and each batch chunk
is one task. The 2-D algorithms (TSQR, blocked Cholesky, blocked LU) live in their own
modules; stacks of matrices (``ndim > 2``) go through ``BatchApply``.

Functions with several results (``qr``, ``svd``, ``lu``) build one node per result; the
nodes of one call share a token, and the tasks they have in common are keyed by that
token, so executing them together computes the shared work once.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module, device_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor

LinAlgError = np.linalg.LinAlgError

_token_counter = itertools.count()
_TOKEN_PREFIX = os.urandom(3).hex()


def new_token(name: str) -> str:
    """A key prefix shared by the result nodes of one call (``name`` has no ``-``)."""
    return f"{name}-{_TOKEN_PREFIX}{next(_token_counter):x}"


# ---- checks -----------------------------------------------------------------------------


def assert_stacked_2d(t: Tensor) -> None:
    if t.ndim < 2:
        raise LinAlgError(
            f"{t.ndim}-dimensional array given. Array must be at least two-dimensional"
        )


def assert_stacked_square(t: Tensor) -> None:
    m, n = t.shape[-2:]
    if m == m and n == n and m != n:  # nan lengths are not checked here
        raise LinAlgError("Last 2 dimensions of the array must be square")


def probe_dtype(func: Callable[..., Any], *dtypes: np.dtype[Any], index: int | None = None) -> Any:
    """Result dtype of ``func`` on 1x1 identity matrices of ``dtypes`` (raises NumPy's errors)."""
    with np.errstate(all="ignore"):
        result = func(*(np.eye(1, dtype=dt) for dt in dtypes))
    if index is not None:
        result = result[index]
    return np.asarray(result).dtype


# ---- kernels ----------------------------------------------------------------------------


def take(obj: Any, index: int) -> Any:
    return obj[index]


def zeros_block(shape: tuple[int, ...], dtype: np.dtype[Any], device: str | None) -> Any:
    """A block of zeros, made where the task runs (``TileContext.device``)."""
    return device_module(device).zeros(shape, dtype=dtype)


def scipy_linalg(*blocks: Any) -> ModuleType:
    """``scipy.linalg``, or its CuPy twin ``cupyx.scipy.linalg`` where a block is on a GPU
    (it has the ``lu`` and ``solve_triangular`` the decompositions use)."""
    if array_module(*blocks) is np:
        import scipy.linalg  # SciPy loads with the first decomposition, not with mt

        module: ModuleType = scipy.linalg
        return module
    return importlib.import_module("cupyx.scipy.linalg")


def linalg_errors(*blocks: Any) -> contextlib.AbstractContextManager[Any]:
    """Where ``blocks`` are on a GPU: CuPy's linear algebra raising ``LinAlgError`` for a
    singular or indefinite matrix, as NumPy's does, instead of returning NaNs (it waits
    for the device to say so)."""
    if array_module(*blocks) is np:
        return contextlib.nullcontext()
    raising: contextlib.AbstractContextManager[Any]
    raising = importlib.import_module("cupyx").errstate(linalg="raise")
    return raising


def apply_whole(func: Callable[..., Any], *blocks: Any) -> Any:
    """``func(*blocks)``: a NumPy linear algebra function on whole matrices, raising its
    errors on a GPU too (``linalg_errors``)."""
    with linalg_errors(*blocks):
        return func(*blocks)


def conj_transpose(block: Any) -> Any:
    return np.conj(block).T if np.iscomplexobj(block) else block.T


def nth_result(func: Callable[..., Any], index: int, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)[index]


# ---- BatchApply -------------------------------------------------------------------------


def same_shape(core: tuple[int, ...]) -> tuple[int, ...]:
    return core


def no_axes(core: tuple[int, ...]) -> tuple[int, ...]:
    return ()


def last_axis(core: tuple[int, ...]) -> tuple[int, ...]:
    return core[-1:]


@dataclass(frozen=True, eq=False)
class BatchApply(Op):
    """``func`` on each chunk of whole matrices (the trailing ``ncore_in`` axes)."""

    func: Callable[..., Any]
    ncore_in: int
    """Trailing input axes gathered into one chunk."""
    core_shape: Callable[[tuple[int, ...]], tuple[int, ...]]
    """Output core shape from the input core shape; the batch axes keep their chunks."""
    name: str

    def label(self) -> str:
        return self.name


@tile_rule(BatchApply)
def _tile_batch_apply(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BatchApply)
    (x,) = inputs
    ctx.require_known(x)
    nbatch = len(x.nsplits) - op.ncore_in
    batch = x.nsplits[:nbatch]
    core_in = tuple(int(sum(s)) for s in x.nsplits[nbatch:])
    target = batch + tuple((n,) for n in core_in)
    rx = rechunk_tiled(f"{node.key}-whole", x, target, node.inputs[0].dtype, ctx)
    core_out = op.core_shape(core_in)
    nsplits = batch + tuple((n,) for n in core_out)
    grid = key_grid(node.key, [len(s) for s in nsplits])
    core_in_zero = (0,) * op.ncore_in
    core_out_zero = (0,) * len(core_out)
    for index in itertools.product(*(range(len(s)) for s in batch)):
        ctx.new_task(
            grid[index + core_out_zero], apply_whole, op.func, Ref(rx.keys[index + core_in_zero])
        )
    return Tiled(nsplits, grid)


def batch_apply(
    x: Tensor,
    func: Callable[..., Any],
    ncore_in: int,
    core_shape: Callable[[tuple[int, ...]], tuple[int, ...]],
    dtype: Any,
    name: str,
) -> Tensor:
    """``func`` applied to every matrix (trailing ``ncore_in`` axes) of ``x``."""
    core = x.shape[x.ndim - ncore_in :]
    if any(n != n for n in core):
        n_out = len(core_shape(tuple(1 for _ in core)))
        out_core: tuple[Any, ...] = (float("nan"),) * n_out
    else:
        out_core = core_shape(tuple(int(n) for n in core))
    shape = tuple(x.shape[: x.ndim - ncore_in]) + tuple(out_core)
    return new_tensor(BatchApply(func, ncore_in, core_shape, name), [x], shape, dtype)


# ---- WholeAxes --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WholeAxes(Op):
    """The same tensor with ``axes`` gathered into one chunk (the other axes unchanged)."""

    axes: tuple[int, ...]

    def label(self) -> str:
        return "rechunk"


@tile_rule(WholeAxes)
def _tile_whole_axes(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, WholeAxes)
    (x,) = inputs
    ctx.require_known(x)
    target = tuple((sum(s),) if a in op.axes else s for a, s in enumerate(x.nsplits))
    return rechunk_tiled(node.key, x, target, node.dtype, ctx)


def whole_axes(x: Tensor, axes: tuple[int, ...]) -> Tensor:
    return new_tensor(WholeAxes(tuple(axes)), [x], x.shape, x.dtype)

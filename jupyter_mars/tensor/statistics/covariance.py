"""``cov`` and ``corrcoef``.

Without weights: two passes over chunks of observations (means, then centred products summed
by a tree); the variables of each chunk are whole and the result is one chunk. With
``fweights``/``aweights`` (and for 0-d inputs) everything is gathered into one task that
calls NumPy.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor, tensor
from jupyter_mars.tensor.sorting import check_known, int_nsplits, tree_reduce


def as_variables(block: Any, transpose: bool, dtype: np.dtype[Any]) -> Any:
    """A block as (variables, observations), cast like NumPy's ``cov`` does."""
    x = array_module(block).array(block, ndmin=2, dtype=dtype)
    return x.T if transpose else x


def stack_variables(m: Any, y: Any, transpose: tuple[bool, bool], dtype: np.dtype[Any]) -> Any:
    """The variables of ``m`` and then of ``y`` (if any) as rows, for one observation chunk."""
    x = as_variables(m, transpose[0], dtype)
    if y is not None:
        x = array_module(x).concatenate((x, as_variables(y, transpose[1], dtype)), axis=0)
    return x


def cov_sums(m: Any, y: Any, transpose: tuple[bool, bool], dtype: np.dtype[Any]) -> Any:
    return stack_variables(m, y, transpose, dtype).sum(axis=1)


def cov_mean(count: int, *sums: Any) -> Any:
    return functools.reduce(np.add, sums) / count


def cov_products(
    m: Any, y: Any, mean: Any, transpose: tuple[bool, bool], dtype: np.dtype[Any]
) -> Any:
    x = stack_variables(m, y, transpose, dtype) - mean[:, None]
    return np.dot(x, x.T.conj())


def cov_finalize(fact: float, corr: bool, c: Any) -> Any:
    # in NumPy ``c *= 1 / fact``: keeps c's dtype (float32 stays float32)
    c = np.multiply(c, np.true_divide(1, fact), dtype=c.dtype)
    c = c.squeeze()
    return corr_from_cov(c) if corr else c


def corr_from_cov(c: Any) -> Any:
    """NumPy's ``corrcoef`` from the covariance matrix."""
    if c.ndim == 0:
        return c / c
    d = np.diag(c)
    stddev = np.sqrt(d.real)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    np.clip(c.real, -1, 1, out=c.real)
    if np.iscomplexobj(c):
        np.clip(c.imag, -1, 1, out=c.imag)
    return c


@dataclass(frozen=True, eq=False)
class Cov(Op):
    """Two passes over the observation chunks: means, then centred products summed."""

    obs_axes: tuple[int, ...]
    """The observation axis of each input (``m``, then ``y``)."""
    transpose: tuple[bool, bool]
    work_dtype: np.dtype[Any]
    nobs: int
    fact: float
    corr: bool

    def label(self) -> str:
        return "corrcoef" if self.corr else "cov"


@tile_rule(Cov)
def _tile_cov(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Cov)
    ctx.require_known(*inputs)
    obs_splits = int_nsplits(inputs[0].nsplits)[op.obs_axes[0]]
    aligned = []
    for n, (t, obs_axis) in enumerate(zip(inputs, op.obs_axes)):
        wanted = tuple(
            obs_splits if a == obs_axis else (int(sum(lengths)),)
            for a, lengths in enumerate(t.nsplits)
        )
        aligned.append(rechunk_tiled(f"{node.key}-in{n}", t, wanted, node.dtype, ctx))
    nchunks = len(obs_splits)

    def chunk_of(n: int, i: int) -> Any:
        t = aligned[n]
        index = tuple(i if a == op.obs_axes[n] else 0 for a in range(t.keys.ndim))
        return Ref(t.keys[index])

    sums = []
    for i in range(nchunks):
        y = chunk_of(1, i) if len(aligned) > 1 else None
        key = (f"{node.key}-sums", i)
        ctx.new_task(key, cov_sums, chunk_of(0, i), y, op.transpose, op.work_dtype)
        sums.append(Ref(key))
    mean = (f"{node.key}-mean",)
    ctx.new_task(mean, cov_mean, op.nobs, *sums)
    parts: list[Key] = []
    for i in range(nchunks):
        y = chunk_of(1, i) if len(aligned) > 1 else None
        key = (f"{node.key}-products", i)
        ctx.new_task(key, cov_products, chunk_of(0, i), y, Ref(mean), op.transpose, op.work_dtype)
        parts.append(key)
    grid = key_grid(node.key, (1,) * node.ndim)
    out = grid[(0,) * node.ndim]
    tree_reduce(
        ctx, node.key, parts, np.add, out, functools.partial(cov_finalize, op.fact, op.corr)
    )
    return Tiled(tuple((int(n),) for n in node.shape), grid)


@dataclass(frozen=True, eq=False)
class GatheredCall(Op):
    """``func(*whole inputs)`` in one task (for weighted covariances)."""

    func: Callable[..., Any]
    slots: tuple[int | None, ...]
    """Per argument of ``func``: the input it is, or None for ``None``."""

    def label(self) -> str:
        return "cov"


@tile_rule(GatheredCall)
def _tile_gathered_call(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, GatheredCall)
    wholes = []
    for n, t in enumerate(inputs):
        ctx.require_known(t)
        wanted = tuple((int(sum(lengths)),) for lengths in t.nsplits)
        wholes.append(rechunk_tiled(f"{node.key}-in{n}", t, wanted, node.dtype, ctx))
    args = [Ref(wholes[s].keys.ravel()[0]) if s is not None else None for s in op.slots]
    grid = key_grid(node.key, (1,) * node.ndim)
    ctx.new_task(grid[(0,) * node.ndim], op.func, *args)
    return Tiled(tuple((int(n),) for n in node.shape), grid)


def _n_variables(t: Tensor, rowvar: bool) -> tuple[int, int, bool, int]:
    """(variables, observations, transpose?, observation axis) as NumPy's ``cov`` sees it."""
    if t.ndim == 0:
        return 1, 1, False, 0
    if t.ndim == 1:
        return 1, int(t.shape[0]), False, 0
    rows, cols = int(t.shape[0]), int(t.shape[1])
    if not rowvar and rows != 1:
        return cols, rows, True, 0
    return rows, cols, False, 1


def _cov(
    m: Any,
    y: Any,
    rowvar: bool,
    bias: bool,
    ddof: Any,
    fweights: Any,
    aweights: Any,
    dtype: Any,
    corr: bool,
) -> Tensor:
    name = "corrcoef" if corr else "cov"
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    mt_ = astensor(m)
    if mt_.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    yt = astensor(y) if y is not None else None
    if yt is not None and yt.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    for t in (mt_, yt):
        if t is not None:
            check_known(t, name)
    if dtype is None:
        work = np.result_type(mt_.dtype, np.float64)
        if yt is not None:
            work = np.result_type(mt_.dtype, yt.dtype, np.float64)
    else:
        work = np.dtype(dtype)
    nvars, nobs, tm, obs_m = _n_variables(mt_, rowvar)
    inputs = [mt_]
    obs_axes = [obs_m]
    transpose = [tm, False]
    if yt is not None:
        yvars, yobs, ty, obs_y = _n_variables(yt, rowvar)
        if yobs != nobs:
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match "
                f"exactly, but along dimension 1, the array for m has size {nobs} and the "
                f"array for y has size {yobs}"
            )
        nvars += yvars
        inputs.append(yt)
        obs_axes.append(obs_y)
        transpose[1] = ty
    shape: tuple[int, ...] = () if nvars == 1 else (nvars, nvars)
    out_dtype = work
    if nvars == 0:
        return tensor(np.array([]).reshape(0, 0))
    gathered = mt_.ndim == 0 or (yt is not None and yt.ndim == 0)
    if gathered or fweights is not None or aweights is not None:
        if corr:
            func = functools.partial(_corrcoef_call, rowvar=rowvar, dtype=dtype)
            return new_tensor(
                GatheredCall(func, (0, 1 if yt is not None else None)), inputs, shape, out_dtype
            )
        extra = [astensor(w) for w in (fweights, aweights) if w is not None]
        slots: list[int | None] = [0, 1 if yt is not None else None]
        n = len(inputs)
        for w in (fweights, aweights):
            if w is not None:
                slots.append(n)
                n += 1
            else:
                slots.append(None)
        func = functools.partial(
            _cov_weighted_call, rowvar=rowvar, bias=bias, ddof=ddof, dtype=dtype
        )
        op = GatheredCall(func, tuple(slots))
        return new_tensor(op, inputs + extra, shape, out_dtype)
    if ddof is None:
        ddof = 0 if bias else 1
    fact = float(nobs - ddof)
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
        fact = 0.0
    op_ = Cov(tuple(obs_axes), (transpose[0], transpose[1]), work, nobs, fact, corr)
    return new_tensor(op_, inputs, shape, out_dtype)


def _corrcoef_call(m: Any, y: Any, rowvar: bool, dtype: Any) -> Any:
    return np.corrcoef(m, y, rowvar, dtype=dtype)


def _cov_weighted_call(
    m: Any, y: Any, fweights: Any, aweights: Any, rowvar: bool, bias: bool, ddof: Any, dtype: Any
) -> Any:
    return np.cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype=dtype)


def cov(
    m: Any,
    y: Any = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: Any = None,
    fweights: Any = None,
    aweights: Any = None,
    *,
    dtype: Any = None,
) -> Tensor:
    """Covariance matrix (NumPy's ``cov``).

    Without weights: two passes over chunks of observations (means, then centred products
    summed by a tree); the variables of each chunk are whole, and the result (variables x
    variables) is one chunk. With ``fweights``/``aweights``, everything is gathered into
    one task that calls NumPy.
    """
    return _cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype, False)


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Tensor:
    """Pearson correlation coefficients (NumPy's ``corrcoef``), computed like ``cov``."""
    return _cov(x, y, rowvar, False, None, None, None, dtype, True)

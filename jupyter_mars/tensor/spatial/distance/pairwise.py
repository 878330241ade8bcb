"""``cdist`` and ``pdist``: distances between blocks of rows, one task per pair of blocks.

Both inputs are rechunked so that each chunk holds whole rows (all the features); ``cdist``
then computes the block of distances between row chunk ``i`` of ``XA`` and row chunk ``j``
of ``XB`` with SciPy, one task per ``(i, j)``. ``pdist`` computes only the pairs of blocks
on and above the diagonal (``pdist`` of a block with itself, ``cdist`` of a block with a
later one) and gathers, for each block of rows, its rows of the condensed vector: the
condensed vector is chunked by the row blocks of ``X``.

Arrays given as keywords (``w``, ``V``, ``VI``, or their defaults computed from the data)
are inputs of the operator, each one chunk, read by every task.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.spatial import distance as sp_distance

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import concatenate
from jupyter_mars.tensor.spatial.distance.metrics import (
    ARRAY_KEYWORDS,
    array_keywords,
    check_keywords,
    default_arrays,
    resolve_metric,
)


@dataclass(frozen=True, eq=False)
class PairwiseDistance(Op):
    """Distances between the rows of one input (``condensed``) or of two inputs."""

    metric: str | Callable[..., Any]
    kwargs: dict[str, Any] = field(default_factory=dict)
    """Scalar keywords of the metric (``p``), passed as they are."""
    array_names: tuple[str, ...] = ()
    """The keywords of the inputs after the data (``w``, ``V``, ``VI``), in order."""
    condensed: bool = False
    """``pdist``'s condensed vector of one input rather than ``cdist``'s matrix of two."""

    def label(self) -> str:
        return "pdist" if self.condensed else "cdist"


# ---- kernels ---------------------------------------------------------------------------------


def cdist_block(
    xa: Any, xb: Any, *arrays: Any, metric: Any, names: tuple[str, ...], kwargs: dict[str, Any]
) -> Any:
    return sp_distance.cdist(xa, xb, metric, **kwargs, **dict(zip(names, arrays)))


def pdist_block(
    x: Any, *arrays: Any, metric: Any, names: tuple[str, ...], kwargs: dict[str, Any]
) -> Any:
    return sp_distance.pdist(x, metric, **kwargs, **dict(zip(names, arrays)))


def condensed_rows(k: int, diagonal: Any, *right: Any) -> Any:
    """The condensed-vector rows of a block of ``k`` rows: ``diagonal`` is the block's own
    condensed distances, ``right`` its distance blocks to every later block of rows."""
    width = sum(r.shape[1] for r in right)
    out = np.empty(len(diagonal) + k * width, dtype=np.float64)
    # row t of the block: its k-1-t distances within the block, then its row of each
    # later block; copied slice by slice, straight into place
    pos = own = 0
    for t in range(k):
        n_own = k - 1 - t
        out[pos : pos + n_own] = diagonal[own : own + n_own]
        pos, own = pos + n_own, own + n_own
        for block in right:
            out[pos : pos + block.shape[1]] = block[t]
            pos += block.shape[1]
    return out


# ---- tiling ---------------------------------------------------------------------------------


def _whole_columns(key: str, t: Tiled, dtype: np.dtype[Any], ctx: TileContext) -> Tiled:
    if len(t.nsplits[1]) == 1:
        return t
    wanted = (t.nsplits[0], (sum(t.nsplits[1]),))
    return rechunk_tiled(key, t, wanted, dtype, ctx)


def _whole(key: str, t: Tiled, dtype: np.dtype[Any], ctx: TileContext) -> Ref:
    if any(len(lengths) != 1 for lengths in t.nsplits):
        wanted = tuple((sum(lengths),) for lengths in t.nsplits)
        t = rechunk_tiled(key, t, wanted, dtype, ctx)
    return Ref(t.keys.ravel()[0])


@tile_rule(PairwiseDistance)
def _tile_pairwise(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, PairwiseDistance)
    n_data = 1 if op.condensed else 2
    dtypes = [n.dtype for n in node.inputs]
    data = [
        _whole_columns(f"{node.key}-rows{i}", t, dtypes[i], ctx)
        for i, t in enumerate(inputs[:n_data])
    ]
    arrays = [
        _whole(f"{node.key}-{name}", t, dtype, ctx)
        for name, t, dtype in zip(op.array_names, inputs[n_data:], dtypes[n_data:])
    ]
    kw = {"metric": op.metric, "names": op.array_names, "kwargs": op.kwargs}
    if op.condensed:
        return _tile_pdist(node, data[0], arrays, kw, ctx)
    xa, xb = data
    grid = key_grid(node.key, (xa.keys.shape[0], xb.keys.shape[0]))
    for i in range(xa.keys.shape[0]):
        for j in range(xb.keys.shape[0]):
            args = (Ref(xa.keys[i, 0]), Ref(xb.keys[j, 0]), *arrays)
            ctx.add_blockwise(grid[i, j], cdist_block, args, kw)
    return Tiled((xa.nsplits[0], xb.nsplits[0]), grid)


def _tile_pdist(
    node: Node, x: Tiled, arrays: list[Ref], kw: dict[str, Any], ctx: TileContext
) -> Tiled:
    ctx.require_known(x)
    lengths = [int(n) for n in x.nsplits[0]]
    n = sum(lengths)
    nblocks = len(lengths)
    grid = key_grid(node.key, (nblocks,))
    out_lengths = []
    start = 0
    for i, rows in enumerate(lengths):
        out_lengths.append(sum(n - 1 - r for r in range(start, start + rows)))
        start += rows
        own = (f"{node.key}-own", i)
        ctx.new_task(own, functools.partial(pdist_block, **kw), Ref(x.keys[i, 0]), *arrays)
        right = []
        for j in range(i + 1, nblocks):
            pair = (f"{node.key}-pair", i, j)
            ctx.new_task(
                pair,
                functools.partial(cdist_block, **kw),
                Ref(x.keys[i, 0]),
                Ref(x.keys[j, 0]),
                *arrays,
            )
            right.append(Ref(pair))
        ctx.new_task(grid[i], condensed_rows, rows, Ref(own), *right)
    return Tiled((tuple(out_lengths),), grid)


# ---- the functions --------------------------------------------------------------------------


def _split_kwargs(
    metric: str | Callable[..., Any], kwargs: dict[str, Any], n_features: int
) -> tuple[dict[str, Any], dict[str, Tensor]]:
    check_keywords(metric, {k: v for k, v in kwargs.items() if v is not None})
    arrays = array_keywords(metric, kwargs, n_features)
    scalars = {k: v for k, v in kwargs.items() if k not in ARRAY_KEYWORDS}
    return scalars, arrays


def _as_rows(x: Any, message: str) -> Tensor:
    t = astensor(x)
    if t.ndim != 2:
        raise ValueError(message)
    return t


def _into_out(result: Tensor, out: Any) -> Tensor:
    """Mars's ``out=``: the tensor ``out`` is rebound to the result."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError("return arrays must be a tensor")
    if out.shape != result.shape:
        raise ValueError("output tensor has incorrect shape.")
    if out.dtype != np.float64:
        raise ValueError("Output tensor must be double type.")
    out._node = result._node
    return out


def cdist(XA: Any, XB: Any, metric: Any = "euclidean", *, out: Any = None, **kwargs: Any) -> Tensor:  # noqa: N803 - SciPy's names
    """Distances between each pair of rows of ``XA`` and ``XB`` (SciPy's ``cdist``).

    The result is chunked like the rows of ``XA`` by the rows of ``XB``; each chunk is one
    task. ``V`` (seuclidean) and ``VI`` (mahalanobis) default to SciPy's estimates from
    both inputs, computed over their chunks.
    """
    xa = _as_rows(XA, "XA must be a 2-dimensional array.")
    xb = _as_rows(XB, "XB must be a 2-dimensional array.")
    if xa.shape[1] != xb.shape[1]:
        raise ValueError("XA and XB must have the same number of columns (i.e. feature dimension.)")
    name = resolve_metric(metric)
    scalars, arrays = _split_kwargs(name, kwargs, int(xa.shape[1]))
    if isinstance(name, str) and not ({"V", "VI"} & set(arrays)):
        arrays.update(default_arrays(name, lambda: concatenate([xa, xb])))
    names = tuple(arrays)
    op = PairwiseDistance(name, scalars, names, condensed=False)
    result = new_tensor(op, [xa, xb, *arrays.values()], (xa.shape[0], xb.shape[0]), np.float64)
    return _into_out(result, out)


def pdist(X: Any, metric: Any = "euclidean", *, out: Any = None, **kwargs: Any) -> Tensor:  # noqa: N803 - SciPy's names
    """Condensed distances between the rows of ``X`` (SciPy's ``pdist``).

    Blocks of rows are compared pairwise (a block with itself, and with each later block),
    one task per pair; the condensed vector is chunked by the row blocks of ``X``. Mars's
    ``aggregate_size`` is accepted and has no effect.
    """
    kwargs.pop("aggregate_size", None)
    x = _as_rows(X, f"A 2-dimensional array must be passed. (Shape was {astensor(X).shape}).")
    name = resolve_metric(metric)
    scalars, arrays = _split_kwargs(name, kwargs, int(x.shape[1]))
    if isinstance(name, str) and not ({"V", "VI"} & set(arrays)):
        arrays.update(default_arrays(name, lambda: x))
    m = x.shape[0]
    length = m * (m - 1) // 2 if isinstance(m, int) else m
    op = PairwiseDistance(name, scalars, tuple(arrays), condensed=True)
    result = new_tensor(op, [x, *arrays.values()], (length,), np.float64)
    return _into_out(result, out)

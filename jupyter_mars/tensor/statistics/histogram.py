"""``histogram``, ``histogram_bin_edges`` and ``digitize``.

Each chunk is counted by NumPy with the same bins and the counts are summed by a tree of
``combine_size``. Bins that depend on the data are found first: the data's min and max for
int bins without a range (one small task per chunk), all the data for a string estimator
(gathered into one task), the edges themselves when they are a tensor. ``digitize`` runs
per chunk with the bins passed whole.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import GPU, array_module, to_device, to_host
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.sorting import chunk_indices, identity, internal, tree_reduce
from jupyter_mars.tensor.statistics.common import align_weights

# ---- histogram --------------------------------------------------------------------------------
# A histogram "spec" is ``(bins, range)`` exactly as passed to ``np.histogram`` on every chunk:
# either known when the function is called (int bins with a range, or array bins), or computed
# by a ``HistSpec`` task (the data's min and max for int bins, the whole data for a string
# estimator, a tensor of bin edges). A spec is host data wherever the chunks are: GPU chunks
# give their min and max as NumPy scalars, and the data a string estimator reads is copied to
# the host (CuPy has no ``histogram_bin_edges``); the counts are then made on the device.


def minmax_block(block: Any) -> Any:
    xp = array_module(block)
    block = xp.asarray(block)
    if block.size == 0:
        return None
    if xp is np:
        return np.min(block), np.max(block)
    return to_host(xp.min(block))[()], to_host(xp.max(block))[()]


def spec_from_minmax(nbins: int, *parts: Any) -> tuple[int, tuple[Any, Any]]:
    """NumPy's automatic range: the data's min and max, widened by 0.5 when equal."""
    found = [p for p in parts if p is not None]
    if not found:
        first: Any = 0
        last: Any = 1
    else:
        first = functools.reduce(np.minimum, (p[0] for p in found))
        last = functools.reduce(np.maximum, (p[1] for p in found))
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return nbins, (first, last)


def spec_from_data(estimator: str, range_: Any, *blocks: Any) -> tuple[int, Any]:
    """A bin-count estimator needs all the data: the number of bins and the outer edges."""
    data = np.concatenate([np.asarray(to_host(b)).ravel() for b in blocks])
    edges = np.histogram_bin_edges(data, bins=estimator, range=range_)
    if range_ is not None:
        return len(edges) - 1, range_
    _, outer = spec_from_minmax(len(edges) - 1, minmax_block(data))
    return len(edges) - 1, outer


def spec_from_edges(*blocks: Any) -> tuple[Any, None]:
    return np.concatenate([np.asarray(to_host(b)).ravel() for b in blocks]), None


@dataclass(frozen=True, eq=False)
class HistSpec(Op):
    """Internal: the ``(bins, range)`` to histogram every chunk with (one chunk, a tuple)."""

    kind: str
    """``minmax`` (int bins), ``estimator`` (string bins) or ``edges`` (a tensor of edges)."""
    bins: Any
    range: Any

    def label(self) -> str:
        return "histogram_spec"


@tile_rule(HistSpec)
def _tile_hist_spec(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, HistSpec)
    (x,) = inputs
    grid = key_grid(node.key, (1,))
    refs = [Ref(k) for k in x.flat_keys()]
    if op.kind == "minmax":
        parts = []
        for n, ref in enumerate(refs):
            key = (f"{node.key}-minmax", n)
            ctx.add_blockwise(key, minmax_block, (ref,), {})
            parts.append(Ref(key))
        ctx.new_task(grid[0], spec_from_minmax, op.bins, *parts)
    elif op.kind == "estimator":
        ctx.new_task(grid[0], spec_from_data, op.bins, op.range, *refs)
    else:
        ctx.new_task(grid[0], spec_from_edges, *refs)
    return Tiled(((1,),), grid)


def hist_block(block: Any, weights: Any, spec: tuple[Any, Any]) -> Any:
    bins, range_ = spec
    xp = array_module(block, weights)
    if xp is not np and np.ndim(bins):
        bins = xp.asarray(bins)  # CuPy takes an int or its own array of edges
    return xp.histogram(block, bins=bins, range=range_, weights=weights)[0]


def edges_of(spec: tuple[Any, Any], dtype: np.dtype[Any], device: str | None = None) -> Any:
    """The bin edges of ``spec``, computed on the host and put on ``device``."""
    bins, range_ = spec
    edges = np.histogram_bin_edges(np.empty(0, dtype=dtype), bins=bins, range=range_)
    return to_device(edges) if device == GPU else edges


def hist_finalize(density: bool, spec: tuple[Any, Any], dtype: np.dtype[Any], n: Any) -> Any:
    if not density:
        return n
    db = array_module(n).asarray(np.array(np.diff(edges_of(spec, dtype)), float))
    return n / db / n.sum()


@dataclass(frozen=True, eq=False)
class Histogram(Op):
    """Counts per chunk (``np.histogram`` with the shared spec), summed by a tree."""

    spec: Any
    """``(bins, range)`` when known at build time, else None (the last input computes it)."""
    density: bool
    has_weights: bool
    data_dtype: np.dtype[Any]

    def label(self) -> str:
        return "histogram"


@tile_rule(Histogram)
def _tile_histogram(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Histogram)
    x = inputs[0]
    weights = inputs[1] if op.has_weights else None
    spec: Any = op.spec if op.spec is not None else Ref(inputs[-1].keys[0])
    weights = align_weights(node.key, x, weights, node.dtype, ctx)
    parts: list[Key] = []
    for n, index in enumerate(chunk_indices(x.numblocks)):
        key = (f"{node.key}-part", n)
        w = Ref(weights.keys[index]) if weights is not None else None
        ctx.add_blockwise(key, hist_block, (Ref(x.keys[index]), w, spec), {})
        parts.append(key)
    grid = key_grid(node.key, (1,))
    if isinstance(spec, Ref):
        # the spec is data: hand it to the last step through a task of its own
        finalize_key = (f"{node.key}-final",)
        tree_reduce(ctx, node.key, parts, np.add, finalize_key, identity)
        ctx.new_task(grid[0], hist_finalize, op.density, spec, op.data_dtype, Ref(finalize_key))
    else:
        finalize = functools.partial(hist_finalize, op.density, spec, op.data_dtype)
        tree_reduce(ctx, node.key, parts, np.add, grid[0], finalize)
    return Tiled(((node.shape[0],),), grid)


@dataclass(frozen=True, eq=False)
class HistEdges(Op):
    spec: Any
    data_dtype: np.dtype[Any]

    def label(self) -> str:
        return "histogram_bin_edges"


@tile_rule(HistEdges)
def _tile_hist_edges(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, HistEdges)
    spec: Any = op.spec if op.spec is not None else Ref(inputs[0].keys[0])
    grid = key_grid(node.key, (1,))
    ctx.new_task(grid[0], edges_of, spec, op.data_dtype, ctx.device)
    return Tiled(((node.shape[0],),), grid)


def _same_shape(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Equal shapes, where an unknown (nan) length matches any."""
    if len(a) != len(b):
        return False
    return all(isinstance(m, float) or isinstance(n, float) or m == n for m, n in zip(a, b))


def _hist_setup(
    a: Any,
    bins: Any,
    range: Any,
    weights: Any,  # noqa: A002
) -> tuple[Tensor, Tensor | None, Any, Tensor | None, Any, np.dtype[Any]]:
    """Checks as NumPy does; returns the data, weights, spec, spec node, bin count, edge dtype."""
    x = astensor(a)
    w = astensor(weights) if weights is not None else None
    if w is not None and not _same_shape(w.shape, x.shape):
        raise ValueError("weights should have the same shape as a.")
    probe = np.zeros(1, dtype=x.dtype)
    probe_w = np.ones(1, dtype=w.dtype) if w is not None else None
    if isinstance(bins, Tensor):
        if bins.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        node = internal(HistSpec("edges", None, None), [bins], (1,), object)
        return x, w, None, node, bins.shape[0] - 1, bins.dtype
    edges = np.histogram_bin_edges(probe, bins=bins, range=range, weights=probe_w)
    if isinstance(bins, str):
        node = internal(HistSpec("estimator", bins, range), [x], (1,), object)
        return x, w, None, node, math.nan, edges.dtype
    if np.ndim(bins) == 0:
        nbins = operator.index(bins)
        if range is None:
            node = internal(HistSpec("minmax", nbins, None), [x], (1,), object)
            return x, w, None, node, nbins, edges.dtype
        return x, w, (nbins, tuple(range)), None, nbins, edges.dtype
    edges = np.asarray(bins)
    return x, w, (edges, range), None, len(edges) - 1, edges.dtype


def histogram(
    a: Any,
    bins: Any = 10,
    range: Any = None,
    density: Any = None,
    weights: Any = None,  # noqa: A002
) -> tuple[Tensor, Tensor]:
    """``(hist, bin_edges)`` of the flattened ``a``, as NumPy's ``histogram``.

    Each chunk is counted by NumPy with the same bins and the counts are summed (a tree of
    ``combine_size``). With int ``bins`` and no ``range``, the data's min and max are
    computed first (one small task per chunk). A string estimator (``'auto'``, ...) needs
    all the data: it is gathered into one task to choose the bins, and the number of bins
    (the result's length) is ``nan`` until executed.
    """
    x, w, spec, spec_node, nbins, edge_dtype = _hist_setup(a, bins, range, weights)
    hist_probe = np.histogram(
        np.zeros(1, dtype=x.dtype),
        bins=2,
        weights=np.ones(1, dtype=w.dtype) if w is not None else None,
        density=bool(density),
    )[0]
    inputs = [x] + ([w] if w is not None else []) + ([spec_node] if spec_node is not None else [])
    op = Histogram(spec, bool(density), w is not None, x.dtype)
    hist = new_tensor(op, inputs, (nbins,), hist_probe.dtype)
    edges = new_tensor(
        HistEdges(spec, x.dtype),
        [spec_node] if spec_node is not None else [],
        (nbins + 1,),
        edge_dtype,
    )
    return hist, edges


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Tensor:  # noqa: A002
    """The bin edges ``histogram`` would use (see there for how they are found)."""
    x, _, spec, spec_node, nbins, edge_dtype = _hist_setup(a, bins, range, weights)
    inputs = [spec_node] if spec_node is not None else []
    return new_tensor(HistEdges(spec, x.dtype), inputs, (nbins + 1,), edge_dtype)


# ---- digitize ---------------------------------------------------------------------------------


def digitize_block(x: Any, bins: Any, right: bool) -> Any:
    xp = array_module(x)
    return xp.digitize(x, xp.asarray(bins), right=right)


def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """Index of the bin of each element (NumPy's ``digitize``); ``bins`` is materialized
    (executed when a tensor) and passed whole to every chunk."""
    edges = np.asarray(bins)
    t = astensor(x)
    meta = np.digitize(np.zeros(1, dtype=t.dtype), edges, right=right)
    func = functools.partial(digitize_block, bins=edges, right=bool(right))
    return elemwise(func, t, dtype=meta.dtype, name="digitize")

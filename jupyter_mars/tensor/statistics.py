"""Statistics: ``percentile``, ``quantile``, ``median`` (and their ``nan`` variants),
``histogram``, ``histogram_bin_edges``, ``bincount``, ``digitize``, ``cov`` and ``corrcoef``.

Order statistics need every value of a slice at once: the reduced axes are rechunked to a
single chunk (the other axes keep their chunks) and NumPy runs per chunk. With
``axis=None`` that gathers the whole array into one chunk. Histograms, bin counts and
covariances are tree reductions of per-chunk partial results.
"""

from __future__ import annotations

import functools
import math
import operator
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.reduction import normalize_axis, reduced_shape
from jupyter_mars.tensor.sorting import chunk_indices, tree_reduce

__all__ = [
    "bincount",
    "corrcoef",
    "cov",
    "digitize",
    "histogram",
    "histogram_bin_edges",
    "median",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "quantile",
]

_INTP = np.dtype(np.intp)


def _internal(op: Op, inputs: list[Tensor], shape: tuple[Any, ...], dtype: Any) -> Tensor:
    """A step inside one function's graph: never executed on its own, even when eager."""
    return Tensor(Node(op, [t.node for t in inputs], shape, np.dtype(dtype)))


def _known(nsplits: tuple[tuple[float, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(n) for n in axis) for axis in nsplits)


# ---- NumPy on blocks whose given axes are whole -----------------------------------------------


@dataclass(frozen=True, eq=False)
class WholeAxesApply(Op):
    """``func(block)`` on each chunk of the input rechunked so that ``axes`` are one chunk.

    ``out_axes`` describes the result's axes: an input axis number (the output axis has
    that axis's chunks) or None (one chunk, its length taken from the node's shape). Every
    input axis not in ``axes`` must appear in ``out_axes``, so chunks map one to one.
    """

    func: Callable[..., Any]
    axes: tuple[int, ...]
    out_axes: tuple[int | None, ...]
    name: str

    def label(self) -> str:
        return self.name


@tile_rule(WholeAxesApply)
def _tile_whole_axes(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, WholeAxesApply)
    (x,) = inputs
    if any(len(x.nsplits[a]) != 1 for a in op.axes):
        ctx.require_known(x)
        wanted = tuple(
            (sum(lengths),) if a in op.axes else lengths for a, lengths in enumerate(x.nsplits)
        )
        x = rechunk_tiled(f"{node.key}-whole", x, wanted, node.dtype, ctx)
    nsplits = tuple(
        x.nsplits[a] if a is not None else (node.shape[i],) for i, a in enumerate(op.out_axes)
    )
    grid = key_grid(node.key, [len(lengths) for lengths in nsplits])
    for index in chunk_indices(x.numblocks):
        out_index = tuple(index[a] if a is not None else 0 for a in op.out_axes)
        ctx.add_blockwise(grid[out_index], op.func, (Ref(x.keys[index]),), {})
    return Tiled(nsplits, grid)


def apply_whole_axes(
    x: Tensor,
    func: Callable[..., Any],
    axes: tuple[int, ...],
    out_axes: tuple[int | None, ...],
    shape: tuple[Any, ...],
    dtype: Any,
    name: str,
) -> Tensor:
    kept = {a for a in range(x.ndim) if a not in axes}
    assert kept <= {a for a in out_axes if a is not None}
    return new_tensor(WholeAxesApply(func, axes, out_axes, name), [x], shape, dtype)


# ---- percentile / quantile / median -----------------------------------------------------------


def quantile_block(
    block: Any, func: Callable[..., Any], q: Any, axis: Any, keepdims: bool, kwargs: dict[str, Any]
) -> Any:
    return np.asarray(func(block, q, axis=axis, keepdims=keepdims, **kwargs))


def median_block(block: Any, func: Callable[..., Any], axis: Any, keepdims: bool) -> Any:
    return np.asarray(func(block, axis=axis, keepdims=keepdims))


def _check_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")


def _order_statistic(
    name: str,
    npfunc: Callable[..., Any],
    a: Any,
    q: Any,
    axis: Any,
    keepdims: bool,
    kwargs: dict[str, Any],
) -> Tensor:
    x = astensor(a)
    axes = normalize_axis(axis, x.ndim)
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"{name}(): keepdims must be True or False, got {keepdims!r}")
    keepdims = bool(keepdims)
    whole = len(axes) == x.ndim
    np_axis: Any = None if whole and not keepdims else axes
    probe = np.zeros((1,) * x.ndim, dtype=x.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if q is None:
            meta = np.asarray(npfunc(probe, axis=np_axis, keepdims=keepdims))
        else:
            meta = np.asarray(npfunc(probe, q, axis=np_axis, keepdims=keepdims, **kwargs))
    qshape = () if q is None else np.shape(q)
    kept = reduced_shape(x.shape, axes, keepdims)
    shape = qshape + kept
    out_axes: tuple[int | None, ...] = (None,) * len(qshape) + tuple(
        None if a in axes else a for a in range(x.ndim) if keepdims or a not in axes
    )
    if q is None:
        func = functools.partial(median_block, func=npfunc, axis=np_axis, keepdims=keepdims)
    else:
        func = functools.partial(
            quantile_block, func=npfunc, q=q, axis=np_axis, keepdims=keepdims, kwargs=kwargs
        )
    return apply_whole_axes(x, func, axes, out_axes, shape, meta.dtype, name)


def _q_array(q: Any) -> Any:
    if isinstance(q, Tensor):
        return np.asarray(q)  # executes it: the output shape depends on q's
    if np.ndim(q) == 0:
        return q
    return np.asarray(q)


def _quantile_kwargs(name: str, method: str, weights: Any, interpolation: Any) -> dict[str, Any]:
    if weights is not None:
        raise NotImplementedError(f"{name}(): weights are not supported on tensors yet")
    if interpolation is not None:
        raise TypeError(f"{name}(): 'interpolation' was renamed 'method' in NumPy 1.22")
    return {"method": method}


def percentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """The ``q``-th percentiles of ``a`` along ``axis`` (NumPy's ``percentile``).

    The reduced axes are rechunked to one chunk (other axes keep theirs) and NumPy runs
    per chunk; ``axis=None`` gathers the whole array into one chunk. ``q`` is a number or
    array-like (a tensor ``q`` is executed first: the result's shape depends on it).
    """
    _check_out("percentile", out)
    kwargs = _quantile_kwargs("percentile", method, weights, interpolation)
    return _order_statistic("percentile", np.percentile, a, _q_array(q), axis, keepdims, kwargs)


def quantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """The ``q``-th quantiles of ``a`` along ``axis`` (NumPy's ``quantile``); see
    ``percentile`` for how it is computed."""
    _check_out("quantile", out)
    kwargs = _quantile_kwargs("quantile", method, weights, interpolation)
    return _order_statistic("quantile", np.quantile, a, _q_array(q), axis, keepdims, kwargs)


def nanpercentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """``percentile`` ignoring NaNs (NumPy's ``nanpercentile``)."""
    _check_out("nanpercentile", out)
    kwargs = _quantile_kwargs("nanpercentile", method, weights, interpolation)
    return _order_statistic(
        "nanpercentile", np.nanpercentile, a, _q_array(q), axis, keepdims, kwargs
    )


def nanquantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Tensor:
    """``quantile`` ignoring NaNs (NumPy's ``nanquantile``)."""
    _check_out("nanquantile", out)
    kwargs = _quantile_kwargs("nanquantile", method, weights, interpolation)
    return _order_statistic("nanquantile", np.nanquantile, a, _q_array(q), axis, keepdims, kwargs)


def median(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """The median along ``axis``; the reduced axes are rechunked to one chunk (all of the
    array for ``axis=None``)."""
    _check_out("median", out)
    return _order_statistic("median", np.median, a, None, axis, keepdims, {})


def nanmedian(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """``median`` ignoring NaNs (NumPy's ``nanmedian``)."""
    _check_out("nanmedian", out)
    return _order_statistic("nanmedian", np.nanmedian, a, None, axis, keepdims, {})


# ---- histogram --------------------------------------------------------------------------------
# A histogram "spec" is ``(bins, range)`` exactly as passed to ``np.histogram`` on every chunk:
# either known when the function is called (int bins with a range, or array bins), or computed
# by a ``HistSpec`` task (the data's min and max for int bins, the whole data for a string
# estimator, a tensor of bin edges).


def minmax_block(block: Any) -> Any:
    block = np.asarray(block)
    if block.size == 0:
        return None
    return np.min(block), np.max(block)


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
    data = np.concatenate([np.asarray(b).ravel() for b in blocks])
    edges = np.histogram_bin_edges(data, bins=estimator, range=range_)
    if range_ is not None:
        return len(edges) - 1, range_
    _, outer = spec_from_minmax(len(edges) - 1, minmax_block(data))
    return len(edges) - 1, outer


def spec_from_edges(*blocks: Any) -> tuple[Any, None]:
    return np.concatenate([np.asarray(b).ravel() for b in blocks]), None


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
    return np.histogram(block, bins=bins, range=range_, weights=weights)[0]


def edges_of(spec: tuple[Any, Any], dtype: np.dtype[Any]) -> Any:
    bins, range_ = spec
    return np.histogram_bin_edges(np.empty(0, dtype=dtype), bins=bins, range=range_)


def hist_finalize(density: bool, spec: tuple[Any, Any], dtype: np.dtype[Any], n: Any) -> Any:
    if not density:
        return n
    db = np.array(np.diff(edges_of(spec, dtype)), float)
    return n / db / n.sum()


def spec_arg(spec: Any) -> Any:
    return spec


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
    if weights is not None and weights.nsplits != x.nsplits:
        ctx.require_known(x, weights)
        weights = rechunk_tiled(f"{node.key}-w", weights, x.nsplits, node.dtype, ctx)
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
        tree_reduce(ctx, node.key, parts, np.add, finalize_key, _identity)
        ctx.new_task(grid[0], hist_finalize, op.density, spec, op.data_dtype, Ref(finalize_key))
    else:
        finalize = functools.partial(hist_finalize, op.density, spec, op.data_dtype)
        tree_reduce(ctx, node.key, parts, np.add, grid[0], finalize)
    return Tiled(((node.shape[0],),), grid)


def _identity(x: Any) -> Any:
    return x


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
    ctx.new_task(grid[0], edges_of, spec, op.data_dtype)
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
        node = _internal(HistSpec("edges", None, None), [bins], (1,), object)
        return x, w, None, node, bins.shape[0] - 1, bins.dtype
    edges = np.histogram_bin_edges(probe, bins=bins, range=range, weights=probe_w)
    if isinstance(bins, str):
        node = _internal(HistSpec("estimator", bins, range), [x], (1,), object)
        return x, w, None, node, math.nan, edges.dtype
    if np.ndim(bins) == 0:
        nbins = operator.index(bins)
        if range is None:
            node = _internal(HistSpec("minmax", nbins, None), [x], (1,), object)
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


# ---- bincount ---------------------------------------------------------------------------------


def bincount_max(block: Any) -> int:
    block = np.asarray(block)
    if block.size == 0:
        return 0
    low = block.min()
    if low < 0:
        raise ValueError("'list' argument must have no negative elements")
    return int(block.max()) + 1


@dataclass(frozen=True)
class LengthMarker:
    """A chunk that only carries a ``shape``: how iterative tiling learns a data-dependent
    length (``require_known`` fills nsplits from the shapes of computed chunks)."""

    shape: tuple[int, ...]


def bincount_length(minlength: int, *parts: int) -> LengthMarker:
    """The output length of ``bincount``: ``max(x) + 1``, at least ``minlength``."""
    return LengthMarker((max(minlength, *parts) if parts else minlength,))


@dataclass(frozen=True, eq=False)
class BincountLength(Op):
    minlength: int

    def label(self) -> str:
        return "bincount_length"


@tile_rule(BincountLength)
def _tile_bincount_length(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BincountLength)
    (x,) = inputs
    parts = []
    for n, key in enumerate(x.flat_keys()):
        part = (f"{node.key}-max", n)
        ctx.add_blockwise(part, bincount_max, (Ref(key),), {})
        parts.append(Ref(part))
    grid = key_grid(node.key, (1,))
    ctx.new_task(grid[0], bincount_length, op.minlength, *parts)
    return Tiled(((math.nan,),), grid)


def bincount_part(block: Any, weights: Any, lo: int, hi: int) -> Any:
    block = np.asarray(block)
    if lo == 0 and (block.size == 0 or block.max() < hi):
        return np.bincount(block, weights, minlength=hi)
    keep = (block >= lo) & (block < hi)
    w = weights[keep] if weights is not None else None
    return np.bincount(block[keep] - lo, w, minlength=hi - lo)


@dataclass(frozen=True, eq=False)
class Bincount(Op):
    has_weights: bool

    def label(self) -> str:
        return "bincount"


@tile_rule(Bincount)
def _tile_bincount(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Bincount)
    x = inputs[0]
    weights = inputs[1] if op.has_weights else None
    length = inputs[-1]
    ctx.require_known(length)
    total = int(length.nsplits[0][0])
    if weights is not None and weights.nsplits != x.nsplits:
        ctx.require_known(x, weights)
        weights = rechunk_tiled(f"{node.key}-w", weights, x.nsplits, node.dtype, ctx)
    out_splits = normalize_chunk_size((total,), None, node.dtype.itemsize)[0]
    starts = offsets(out_splits)
    grid = key_grid(node.key, (len(out_splits),))
    for j in range(len(out_splits)):
        lo, hi = int(starts[j]), int(starts[j + 1])
        parts: list[Key] = []
        for i in range(x.numblocks[0]):
            key = (f"{node.key}-part", j, i)
            w = Ref(weights.keys[i]) if weights is not None else None
            ctx.add_blockwise(key, bincount_part, (Ref(x.keys[i]), w, lo, hi), {})
            parts.append(key)
        tree_reduce(ctx, f"{node.key}-{j}", parts, np.add, grid[j], _identity)
    return Tiled((out_splits,), grid)


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """Occurrences of each value in the non-negative int array ``x`` (NumPy's ``bincount``).

    The length (``max(x) + 1``, at least ``minlength``) depends on the data: it is ``nan``
    until executed, and found first (a small task per chunk) by iterative tiling. Each
    chunk of ``x`` is then counted and the counts summed.
    """
    t = astensor(x)
    if t.ndim > 1:
        raise ValueError("object too deep for desired array")
    if t.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    w = astensor(weights) if weights is not None else None
    if w is not None:
        if w.ndim != 1:
            raise ValueError("object too deep for desired array")
        if not isinstance(w.shape[0], float) and w.shape[0] != t.shape[0]:
            raise ValueError("The weights and list don't have the same length.")
    if minlength is None:
        raise TypeError("minlength must be an int, not None")
    meta = np.bincount(
        np.zeros(1, dtype=t.dtype),
        np.ones(1, dtype=w.dtype) if w is not None else None,
        minlength=minlength,
    )
    length = _internal(BincountLength(operator.index(minlength)), [t], (math.nan,), np.bool_)
    inputs = [t] + ([w] if w is not None else []) + [length]
    return new_tensor(Bincount(w is not None), inputs, (math.nan,), meta.dtype)


# ---- digitize ---------------------------------------------------------------------------------


def digitize_block(x: Any, bins: Any, right: bool) -> Any:
    return np.digitize(x, bins, right=right)


def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """Index of the bin of each element (NumPy's ``digitize``); ``bins`` is materialized
    (executed when a tensor) and passed whole to every chunk."""
    edges = np.asarray(bins)
    t = astensor(x)
    meta = np.digitize(np.zeros(1, dtype=t.dtype), edges, right=right)
    func = functools.partial(digitize_block, bins=edges, right=bool(right))
    return elemwise(func, t, dtype=meta.dtype, name="digitize")


# ---- cov / corrcoef ---------------------------------------------------------------------------


def as_variables(block: Any, transpose: bool, dtype: np.dtype[Any]) -> Any:
    """A block as (variables, observations), cast like NumPy's ``cov`` does."""
    x = np.array(block, ndmin=2, dtype=dtype)
    return x.T if transpose else x


def cov_sums(m: Any, y: Any, transpose: tuple[bool, bool], dtype: np.dtype[Any]) -> Any:
    x = as_variables(m, transpose[0], dtype)
    if y is not None:
        x = np.concatenate((x, as_variables(y, transpose[1], dtype)), axis=0)
    return x.sum(axis=1)


def cov_mean(count: int, *sums: Any) -> Any:
    return functools.reduce(np.add, sums) / count


def cov_products(
    m: Any, y: Any, mean: Any, transpose: tuple[bool, bool], dtype: np.dtype[Any]
) -> Any:
    x = as_variables(m, transpose[0], dtype)
    if y is not None:
        x = np.concatenate((x, as_variables(y, transpose[1], dtype)), axis=0)
    x = x - mean[:, None]
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
    obs_splits = _known(inputs[0].nsplits)[op.obs_axes[0]]
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
            from jupyter_mars.tensor.sorting import _check_known

            _check_known(t, name)
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
        from jupyter_mars.tensor.datasource import tensor

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

"""``choice``, ``permutation`` and ``shuffle``: samples of a population.

``choice`` with replacement draws its indices chunk by chunk, like the distributions.
``choice`` without replacement and ``permutation`` need one draw over the whole tensor:
one task draws the indices (O(n) memory for n elements) from the node's own stream, and
each output chunk takes its part of them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, offsets
from jupyter_mars.engine.devices import array_module, to_host
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import (
    block_indices,
    chunk_shape,
    normalize_shape,
    nsplits_for,
    numblocks,
    rechunked,
)
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.random.streams import (
    RandomStateField,
    checking_generator,
    chunk_generator,
    flat_index,
)
from jupyter_mars.tensor.views import rebind

# ---- kernels -------------------------------------------------------------------------------


def gather(idx: Any, starts: Sequence[int], *chunks: Any) -> Any:
    """``whole[idx]`` where ``whole`` is the concatenation of ``chunks`` (starting at
    ``starts``), without concatenating them; on the GPU where the chunks are (the drawn
    indices, from a host generator, are copied there)."""
    xp = array_module(*chunks)
    idx = xp.asarray(idx)
    if len(chunks) == 1:
        return xp.asarray(chunks[0][idx])
    which = xp.searchsorted(xp.asarray(starts), idx, side="right") - 1
    out = xp.empty(idx.shape + chunks[0].shape[1:], dtype=chunks[0].dtype)
    for c, chunk in enumerate(chunks):
        mask = which == c
        if mask.any():
            out[mask] = chunk[idx[mask] - starts[c]]
    return out


def choice_chunk(
    seed: int,
    index: int,
    n: int,
    shape: tuple[int, ...],
    p: Any,
    starts: Sequence[int],
    *population: Any,
) -> Any:
    """One chunk of ``choice`` with replacement: indices drawn, then the population read.
    The indices are drawn on the host; a chunk of a GPU node (its ``p`` or population on
    the device) is put there."""
    idx = chunk_generator(seed, index).choice(n, size=shape, replace=True, p=to_host(p))
    if population:
        return gather(idx, starts, *population)
    return array_module(p).asarray(idx)


def draw_permutation(seed: int, n: int) -> Any:
    return chunk_generator(seed, None).permutation(n)


def draw_without_replacement(seed: int, n: int, size: int, p: Any) -> Any:
    idx = chunk_generator(seed, None).choice(n, size=size, replace=False, p=to_host(p))
    return array_module(p).asarray(idx)


def take_indices(
    idx: Any,
    shape: tuple[int, ...],
    region: tuple[slice, ...],
    starts: Sequence[int],
    *population: Any,
) -> Any:
    """Part ``region`` of the drawn indices (reshaped to ``shape``), read from the
    population when there is one."""
    part = idx.reshape(shape)[region]
    return gather(part, starts, *population) if population else part.copy()


def take_rows(perm: Any, lo: int, hi: int, starts: Sequence[int], *chunks: Any) -> Any:
    """Rows ``perm[lo:hi]`` of the concatenation of ``chunks`` (one block column)."""
    return gather(perm[lo:hi], starts, *chunks)


def perm_slice(perm: Any, lo: int, hi: int) -> Any:
    return perm[lo:hi].copy()


# ---- choice --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Choice(Op):
    seed: RandomStateField
    size: tuple[int, ...]
    replace: bool
    p: np.ndarray[Any, Any] | None
    """Probabilities held by the client (a tensor ``p`` is the last input instead)."""
    has_population: bool
    """The first input is the population (else the result is the indices)."""
    p_is_input: bool
    nsplits: NSplits
    n: int = 0
    """The population size when there is no population input (``choice(int)``)."""

    def label(self) -> str:
        return "choice"


def _population_chunks(
    inputs: list[Tiled], has: bool, ctx: TileContext
) -> tuple[int, list[int], list[Ref]]:
    if not has:
        return 0, [], []
    pop = inputs[0]
    ctx.require_known(pop)
    lengths = [int(n) for n in pop.nsplits[0]]
    starts = [int(s) for s in offsets(lengths)]
    return starts[-1], starts[:-1], [Ref(k) for k in pop.flat_keys()]


@tile_rule(Choice)
def _tile_choice(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Choice)
    n, starts, pop_refs = _population_chunks(inputs, op.has_population, ctx)
    if not op.has_population:
        n = op.n
    p: Any = op.p
    if op.p_is_input:
        p_tiled = inputs[-1]
        ctx.require_known(p_tiled)
        whole = tuple((int(sum(axis)),) for axis in p_tiled.nsplits)
        p_one = rechunk_tiled(f"{node.key}-p", p_tiled, whole, np.dtype(np.float64), ctx)
        p = Ref(p_one.keys.ravel()[0])
    nsplits = op.nsplits
    blocks = numblocks(nsplits)
    grid = key_grid(node.key, blocks)
    if op.replace:
        for index in block_indices(nsplits):
            shape = chunk_shape(nsplits, index)
            flat = flat_index(index, blocks)
            ctx.new_task(grid[index], choice_chunk, op.seed, flat, n, shape, p, starts, *pop_refs)
        return Tiled(nsplits, grid)
    total = math.prod(op.size)
    idx_key = (f"{node.key}-indices",)
    ctx.new_task(idx_key, draw_without_replacement, op.seed, n, total, p)
    per_axis = [offsets(axis) for axis in nsplits]
    for index in block_indices(nsplits):
        region = tuple(
            slice(int(per_axis[a][i]), int(per_axis[a][i + 1])) for a, i in enumerate(index)
        )
        ctx.new_task(grid[index], take_indices, Ref(idx_key), op.size, region, starts, *pop_refs)
    return Tiled(nsplits, grid)


def _choice_population(a: Any) -> tuple[Tensor | None, Any, np.dtype[Any]]:
    """The population tensor of ``a`` (None for an int), its size and the result dtype."""
    if isinstance(a, Tensor):
        if a.ndim != 1:
            raise ValueError(f"choice(): a must be 1-dimensional, got {a.ndim} dimensions")
        return a, a.shape[0], a.dtype
    arr = np.asarray(a)
    if arr.ndim == 0:
        try:
            n = operator.index(arr.item())
        except TypeError:
            raise TypeError(f"choice(): a must be 1-dimensional or an integer, got {a!r}") from None
        return None, n, np.dtype(np.int64)
    if arr.ndim == 1:
        if arr.dtype.kind == "O":
            raise TypeError("choice(): object arrays are not supported")
        return astensor(arr), arr.shape[0], arr.dtype
    raise ValueError(f"choice(): a must be 1-dimensional, got {arr.ndim} dimensions")


def _choice_probabilities(
    p: Any, n: Any, known_n: bool
) -> tuple[np.ndarray[Any, Any] | None, Tensor | None]:
    """``p`` as probabilities held by the client, or as a float64 tensor input."""
    if isinstance(p, Tensor):
        if p.ndim != 1:
            raise ValueError("choice(): p must be 1-dimensional")
        if known_n and not unknown_shape(p.shape) and p.shape[0] != n:
            raise ValueError("choice(): a and p must have same size")
        return None, p if p.dtype == np.float64 else p.astype(np.float64)
    if p is None:
        return None, None
    p_arr = np.asarray(p, dtype=np.float64)
    if p_arr.ndim != 1:
        raise ValueError("choice(): p must be 1-dimensional")
    if known_n and p_arr.shape[0] != n:
        raise ValueError("choice(): a and p must have same size")
    if known_n and n > 0:
        # NumPy's own checks of p (non-negative, finite, sums to 1)
        checking_generator().choice(int(n), size=0, p=p_arr)
    return p_arr, None


def choice(
    next_seed: Callable[[], RandomStateField],
    a: Any,
    size: Any,
    replace: bool,
    p: Any,
    chunk_size: Any,
) -> Tensor:
    """``RandomState.choice`` with seeds from ``next_seed`` (called once, after the checks)."""
    population, n, out_dtype = _choice_population(a)
    shape = () if size is None else normalize_shape(size, "size")
    total = math.prod(shape)
    replace = bool(replace)
    known_n = not (isinstance(n, float) and math.isnan(n))
    if known_n and n <= 0 and total != 0:
        if population is not None:
            raise ValueError("choice(): a cannot be empty unless no samples are taken")
        raise ValueError("choice(): a must be a positive integer unless no samples are taken")
    p_arr, p_tensor = _choice_probabilities(p, n, known_n)
    if not replace and known_n and total > n:
        raise ValueError(
            "choice(): cannot take a larger sample than population when replace is False"
        )
    if not replace and p_arr is not None and np.count_nonzero(p_arr) < total:
        raise ValueError("choice(): fewer non-zero entries in p than size")
    nsplits = nsplits_for(shape, chunk_size, out_dtype)
    inputs = [t for t in (population, p_tensor) if t is not None]
    op = Choice(
        seed=next_seed(),
        size=shape,
        replace=replace,
        p=p_arr,
        has_population=population is not None,
        p_is_input=p_tensor is not None,
        nsplits=nsplits,
        n=int(n) if population is None else 0,
    )
    return new_tensor(op, inputs, shape, out_dtype)


# ---- permutation, shuffle -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Permutation(Op):
    seed: RandomStateField
    n: int
    """Length of ``permutation(int)``; rows of the input otherwise."""
    nsplits: NSplits | None
    """Chunks of ``permutation(int)``; None: the input's chunks."""

    def label(self) -> str:
        return "permutation"


@tile_rule(Permutation)
def _tile_permutation(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Permutation)
    perm_key = (f"{node.key}-perm",)
    if not inputs:
        assert op.nsplits is not None
        ctx.new_task(perm_key, draw_permutation, op.seed, op.n)
        grid = key_grid(node.key, [len(op.nsplits[0])])
        bounds = offsets(op.nsplits[0])
        for i in range(len(op.nsplits[0])):
            ctx.new_task(grid[i], perm_slice, Ref(perm_key), int(bounds[i]), int(bounds[i + 1]))
        return Tiled(op.nsplits, grid)
    (x,) = inputs
    ctx.require_known(x)
    rows = [int(n) for n in x.nsplits[0]]
    bounds = offsets(rows)
    starts = [int(b) for b in bounds[:-1]]
    ctx.new_task(perm_key, draw_permutation, op.seed, int(bounds[-1]))
    grid = key_grid(node.key, list(x.keys.shape))
    for index in block_indices(x.nsplits):
        i, rest = index[0], index[1:]
        column = [Ref(x.keys[(r, *rest)]) for r in range(len(rows))]
        ctx.new_task(
            grid[index],
            take_rows,
            Ref(perm_key),
            int(bounds[i]),
            int(bounds[i + 1]),
            starts,
            *column,
        )
    return Tiled(x.nsplits, grid)


def permutation(next_seed: Callable[[], RandomStateField], x: Any, chunk_size: Any) -> Tensor:
    """``RandomState.permutation`` with seeds from ``next_seed``."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        n = max(int(x), 0)
        nsplits = nsplits_for((n,), chunk_size, np.dtype(np.int64))
        op = Permutation(next_seed(), n, nsplits)
        return new_tensor(op, [], (n,), np.int64)
    if isinstance(x, Tensor):
        t = x
    else:
        arr = np.asarray(x)
        if arr.ndim < 1:
            raise IndexError("permutation(): x must be an integer or at least 1-dimensional")
        t = astensor(arr)
    if t.ndim < 1:
        raise IndexError("permutation(): x must be an integer or at least 1-dimensional")
    t = rechunked(t, chunk_size, "permutation(): chunk_size needs a tensor of known shape")
    return new_tensor(Permutation(next_seed(), 0, None), [t], t.shape, t.dtype)


def shuffle(next_seed: Callable[[], RandomStateField], x: Any) -> None:
    """``RandomState.shuffle`` with seeds from ``next_seed``."""
    if isinstance(x, Tensor):
        rebind(x, permutation(next_seed, x, None).node)
    elif isinstance(x, np.ndarray):
        if x.ndim < 1:
            raise TypeError("shuffle(): x must be at least 1-dimensional")
        chunk_generator(next_seed(), None).shuffle(x)
    else:
        raise TypeError(f"shuffle(): x must be a tensor or a NumPy array, got {type(x).__name__}")

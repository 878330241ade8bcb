"""Helpers for the shape tests: random data, tiling without running, a data-dependent
operator (``RowsAbove``, for chunks of unknown length) and Hypothesis strategies."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TILE_RULES, Op, TileContext, Tiled, key_grid, tile_rule, walk
from jupyter_mars.tensor.core import Tensor, new_tensor
from tests.conftest import assert_same

_calls = iter(range(1 << 30))


def data(shape: tuple[int, ...], dtype: Any = np.float64, seed: int | None = None) -> np.ndarray:
    """Random values in [0, 10); the same for the same ``seed`` (fresh values if None)."""
    rng = np.random.default_rng(next(_calls) if seed is None else seed)
    return (rng.random(shape) * 10).astype(dtype)


def assert_all_same(parts: list[Any], expected: list[np.ndarray]) -> None:
    assert isinstance(parts, list)
    assert len(parts) == len(expected)
    for got, want in zip(parts, expected):
        assert_same(got, want)


def tile_graph(t: Tensor) -> tuple[Tiled, TileContext, dict[str, Tiled]]:
    """Tile ``t`` (known shapes only) and return its chunks, the tasks and every node's tiles."""
    ctx = TileContext()
    tiled: dict[str, Tiled] = {}
    for node in walk([t.node], stop=lambda n: False):
        rule = TILE_RULES[type(node.op)]
        tiled[node.key] = rule(node, [tiled[i.key] for i in node.inputs], ctx)
    return tiled[t.node.key], ctx, tiled


# ---- a data-dependent operator, to get chunks of unknown (nan) length ------------------------


@dataclass(frozen=True, eq=False)
class RowsAbove(Op):
    threshold: float


def _rows_above(block: Any, threshold: float) -> Any:
    first = block[(slice(None),) + (0,) * (block.ndim - 1)]
    return block[first > threshold]


@tile_rule(RowsAbove)
def _tile_rows_above(node: Any, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    assert all(n == 1 for n in x.numblocks[1:]), "rows must be whole chunks"
    grid: Any = key_grid(node.key, x.numblocks)
    keys: Any = x.keys
    for index in np.ndindex(*grid.shape):
        ctx.add_blockwise(
            grid[index], _rows_above, (Ref(keys[index]),), {"threshold": node.op.threshold}
        )
    return Tiled(((math.nan,) * x.numblocks[0], *x.nsplits[1:]), grid)


def rows_above(x: Tensor, threshold: float) -> Tensor:
    """Rows whose first element exceeds ``threshold``: a nan length along axis 0."""
    return new_tensor(RowsAbove(threshold), [x], (math.nan, *x.shape[1:]), x.dtype)


def np_rows_above(a: np.ndarray, threshold: float) -> np.ndarray:
    out: np.ndarray = _rows_above(a, threshold)
    return out


# ---- strategies -------------------------------------------------------------------------------


def axis_chunks(n: int) -> st.SearchStrategy[Any]:
    """An int chunk size or explicit lengths for an axis of length ``n``."""
    if n <= 1:
        return st.just(max(n, 1))

    @st.composite
    def lengths(draw: Any) -> tuple[int, ...]:
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1)))
        bounds = [0, *cuts, n]
        return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:]))

    return st.one_of(st.integers(1, n), lengths())


shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)


nonempty_shapes = st.lists(st.integers(1, 5), min_size=1, max_size=4).map(tuple)


@st.composite
def shape_and_chunks(draw: Any, shape_strategy: Any = shapes) -> tuple[tuple[int, ...], Any]:
    shape = draw(shape_strategy)
    return shape, tuple(draw(axis_chunks(n)) for n in shape)


def prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@st.composite
def reshape_targets(draw: Any, size: int) -> tuple[int, ...]:
    ndim = draw(st.integers(1, 4))
    if size == 0:
        out = [draw(st.integers(0, 4)) for _ in range(ndim)]
        out[draw(st.integers(0, ndim - 1))] = 0
        return tuple(out)
    out = [1] * ndim
    for f in prime_factors(size):
        out[draw(st.integers(0, ndim - 1))] *= f
    if draw(st.booleans()):
        out[draw(st.integers(0, ndim - 1))] = -1
    return tuple(out)

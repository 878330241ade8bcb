"""Helpers for the indexing tests: random data, tiling without running, NumPy versions of
indices, running an assignment on both sides, and a Hypothesis strategy of basic indices."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import TILE_RULES, TileContext, Tiled, walk
from tests.conftest import assert_same
from tests.tensor.conftest import on

RNG = np.random.default_rng(20240531)


def tensor(a: Any, chunk_size: Any = None) -> Any:
    """``mt.tensor``, typed loosely: comparison operators are attached to Tensor at import."""
    return mt.tensor(a, chunk_size=chunk_size)


def data(shape: tuple[int, ...], dtype: Any = float) -> np.ndarray[Any, Any]:
    return np.asarray(RNG.random(shape) * 100).astype(dtype)


def tile(t: mt.Tensor) -> tuple[Tiled, TileContext]:
    """Tile ``t`` and its inputs (all sizes known) without running anything."""
    ctx = TileContext()
    tiled: dict[str, Tiled] = {}
    for node in walk([t.node], stop=lambda n: False):
        rule = TILE_RULES[type(node.op)]
        tiled[node.key] = rule(node, [tiled[i.key] for i in node.inputs], ctx)
    return tiled[t.node.key], ctx


def own_tasks(t: mt.Tensor, ctx: TileContext) -> list[Any]:
    return [k for k in ctx.graph if isinstance(k, tuple) and k[0] == t.key]


def index_np(index: Any) -> Any:
    """The same index with tensors replaced by their NumPy values."""
    if isinstance(index, tuple):
        return tuple(index_np(i) for i in index)
    if isinstance(index, mt.Tensor):
        return index.execute().fetch()
    return index


def run_setitem(a: np.ndarray[Any, Any], chunks: Any, index: Any, value: Any, xp: Any = np) -> None:
    """``x[index] = value`` on a tensor of ``a`` (its chunks computed with ``xp``) rebinds
    it and gives NumPy's result."""
    x = on(xp, tensor(a, chunk_size=chunks))
    old = x.node
    x[index] = value
    assert x.node is not old
    assert x.shape == a.shape
    assert x.dtype == a.dtype
    expected = a.copy()
    expected[index_np(index)] = index_np(value)
    assert_same(x, expected)


@st.composite
def basic_cases(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], Any, tuple[Any, ...]]:
    """Random data, chunks and a basic index (ints, slices, ``None``, ``...``) for it."""
    shape = tuple(draw(st.lists(st.integers(0, 6), max_size=3)))
    chunks = tuple(draw(st.integers(1, max(n, 1))) for n in shape)
    entries: list[Any] = []
    axis = 0
    ellipsis = False
    while axis < len(shape) and draw(st.booleans()) | (len(entries) < 1):
        n = shape[axis]
        kind = draw(st.sampled_from(["slice", "int", "none", "ellipsis"]))
        if kind == "int" and n > 0:
            entries.append(draw(st.integers(-n, n - 1)))
            axis += 1
        elif kind == "none":
            entries.append(None)
        elif kind == "ellipsis" and not ellipsis:
            entries.append(Ellipsis)
            ellipsis = True
            axis = len(shape)
        else:
            bound = st.none() | st.integers(-n - 3, n + 3)
            step = st.none() | st.integers(-4, 4).filter(lambda s: s != 0)
            entries.append(slice(draw(bound), draw(bound), draw(step)))
            axis += 1
    return data(shape), chunks, tuple(entries)

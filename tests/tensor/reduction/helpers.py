"""Shared by the reduction tests: data, comparison with NumPy (values, dtypes, warnings),
the names of each family, Hypothesis strategies, and a filter with data-dependent chunk
lengths."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import new_tensor
from tests.conftest import assert_same
from tests.tensor.conftest import on

REDUCTIONS = [
    "sum", "prod", "max", "min", "mean", "var", "std", "ptp", "count_nonzero", "any", "all",
    "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
]  # fmt: skip


MOMENTS = {"var", "std", "nanvar", "nanstd"}


ARG_REDUCTIONS = ["argmax", "argmin", "nanargmax", "nanargmin"]


SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]


def data(shape: tuple[int, ...], seed: int = 0, nans: bool = False) -> np.ndarray:
    """Halves in [-1.5, 1.5]: many ties and zeros, products stay finite."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=shape).astype(np.float64) / 2
    if nans:
        x[rng.random(shape) < 0.25] = np.nan
    return x


def run_numpy(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """NumPy's result (or exception) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - compared with ours
            result = exc
    return result, [str(w.message) for w in caught]


def build(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Our tensor (or the exception raised when building it) and the warnings given then;
    execution happens later, outside, where any warning is an error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - compared with NumPy's
            result = exc
    return result, [str(w.message) for w in caught]


def check_like_numpy(
    name: str, x: np.ndarray, chunks: Any, tol: float = 1e-7, xp: Any = np, **kwargs: Any
) -> None:
    """``mt.<name>`` of ``x`` in ``chunks``, its chunks computed with ``xp``, against
    NumPy's ``np.<name>`` of ``x``."""
    expected, np_warnings = run_numpy(getattr(np, name), x, **kwargs)
    t = on(xp, mt.tensor(x, chunk_size=chunks))
    got, our_warnings = build(getattr(mt, name), t, **kwargs)
    if isinstance(expected, Exception):
        assert type(got) is type(expected), (got, expected)
        return
    assert not isinstance(got, Exception), got
    if not name.startswith("nan"):  # NumPy's NaN-slice warnings depend on the data
        assert bool(our_warnings) == bool(np_warnings), (our_warnings, np_warnings)
    assert_same(got, expected, rtol=tol, atol=1e-12)


@st.composite
def tensors(draw: Any, nans: bool = False) -> tuple[np.ndarray, tuple[int, ...]]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    return data(shape, seed=draw(st.integers(0, 2**16)), nans=nans), chunks


def axes_for(ndim: int) -> st.SearchStrategy[Any]:
    one = st.integers(-ndim, ndim - 1)
    several = st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).flatmap(
        lambda axes: st.tuples(*(st.sampled_from([a, a - ndim]) for a in axes))
    )
    return st.one_of(st.none(), one, several)


# ---- unknown chunk lengths (a filter whose output sizes depend on the data) ----------------------


@dataclass(frozen=True, eq=False)
class _KeepPositive(Op):
    pass


def _keep_positive(block: Any) -> Any:
    return block[block > 0]


@tile_rule(_KeepPositive)
def _tile_keep_positive(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    grid = key_grid(node.key, x.numblocks)
    for i in range(x.numblocks[0]):
        ctx.add_blockwise(grid[i], _keep_positive, (Ref(x.keys[i]),), {})
    return Tiled(((math.nan,) * x.numblocks[0],), grid)


def keep_positive(x: np.ndarray, chunks: int) -> Any:
    t = mt.tensor(x, chunk_size=chunks)
    return new_tensor(_KeepPositive(), [t], (math.nan,), t.dtype)

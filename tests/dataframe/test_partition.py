"""Shuffles of frame chunks by key hash: equal keys meet in one output chunk."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.dataframe.partition import hash_codes, shuffle_tasks, split_by_hash
from jupyter_mars.engine.graph import get_sync
from jupyter_mars.engine.node import TileContext
from jupyter_mars.engine.optimize import coarsen


def _sum_by_k(parts: list[pd.DataFrame]) -> pd.Series:
    return pd.concat(parts).groupby("k").v.sum()


def _chunk(df: pd.DataFrame, lo: int, hi: int) -> pd.DataFrame:
    return df.iloc[lo:hi]


@pytest.mark.parametrize(("n_in", "n_out"), [(1, 1), (4, 3), (5, 8)])
def test_shuffle_by_hash_meets_every_key_once(n_in: int, n_out: int) -> None:
    df = pd.DataFrame({"k": np.arange(100) % 7, "v": np.arange(100.0)})
    ctx = TileContext()
    bounds = np.linspace(0, len(df), n_in + 1).astype(int)
    for i in range(n_in):
        ctx.new_task(("src", i), _chunk, df, bounds[i], bounds[i + 1])
    tiled = shuffle_tasks(
        ctx, "grp-x", [("src", i) for i in range(n_in)], n_out, split_by_hash, (["k"],), _sum_by_k
    )
    parts = get_sync(ctx.graph, tiled.flat_keys())
    assert len(parts) == n_out
    got = pd.concat(parts)
    assert got.index.is_unique
    pd.testing.assert_series_equal(got.sort_index(), df.groupby("k").v.sum())


def test_parts_stay_tasks_when_coarsened() -> None:
    ctx = TileContext()
    df = pd.DataFrame({"k": [1, 2, 3], "v": [1.0, 2.0, 3.0]})
    for i in range(4):
        ctx.new_task(("src", i), _chunk, df, 0, 3)
    tiled = shuffle_tasks(
        ctx, "grp-y", [("src", i) for i in range(4)], 3, split_by_hash, (["k"],), _sum_by_k
    )
    coarse, weights = coarsen(ctx.graph, set(tiled.flat_keys()), max_tasks=100)
    assert sum(weights.values()) == len(ctx.graph)
    # sources go into their splits; the 12 parts stay, so only parts cross workers
    assert sum(1 for k in coarse if k[0] == "grp-y-part") == 12
    assert not any(k[0] == "src" for k in coarse)


def test_hash_codes_agree_across_chunks_and_kinds() -> None:
    keys = pd.Series(["a", "b", "a", None])
    codes = hash_codes(keys, 5)
    assert codes[0] == codes[2]
    assert hash_codes(keys.iloc[2:], 5)[0] == codes[0]
    frame_codes = hash_codes(pd.DataFrame({"a": [1, 1], "b": ["x", "x"]}), 3)
    assert frame_codes[0] == frame_codes[1]
    assert ((0 <= codes) & (codes < 5)).all()


def test_shuffle_needs_an_output() -> None:
    with pytest.raises(ValueError, match="n_out"):
        shuffle_tasks(TileContext(), "x", [], 0, split_by_hash, (None,), _sum_by_k)

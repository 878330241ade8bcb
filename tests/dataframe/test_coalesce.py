from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.coalesce import coalesce, group_chunks, row_bytes
from jupyter_mars.engine.node import TILE_RULES, TileContext, Tiled, walk


def _tiled(result: Any) -> Tiled:
    """The result tiled as the engine tiles it (the inputs' lengths are known)."""
    ctx = TileContext()
    tiled: dict[str, Any] = {}
    for node in walk([result.node], stop=lambda n: False):
        tiled[node.key] = TILE_RULES[type(node.op)](node, [tiled[i.key] for i in node.inputs], ctx)
    return tiled[result.node.key]


@settings(max_examples=25, deadline=None)
@given(lengths=st.lists(st.integers(0, 9), min_size=1, max_size=12), limit=st.integers(1, 20))
def test_group_chunks_keeps_order_and_limit(lengths, limit):
    groups = group_chunks(tuple(lengths), limit)
    assert [i for g in groups for i in g] == list(range(len(lengths)))
    for g in groups:
        assert len(g) == 1 or sum(lengths[i] for i in g) <= limit


@pytest.mark.parametrize("chunk_size", [1, 3, 10])
def test_coalesce_keeps_rows_order_and_index(chunk_size):
    p = pd.DataFrame({"a": np.arange(20), "s": list("abcdefghij") * 2}, index=np.arange(20) * 3)
    d = md.DataFrame(p, chunk_size=chunk_size)
    kept = d[d["a"] % 3 == 0]
    got = coalesce(kept, limit=4 * row_bytes(p))
    pd.testing.assert_frame_equal(got.to_pandas(), p[p.a % 3 == 0])
    s = md.Series(p["a"], chunk_size=chunk_size)
    pd.testing.assert_series_equal(coalesce(s, limit=1).to_pandas(), p["a"])


def test_coalesce_merges_small_chunks_into_fewer():
    p = pd.DataFrame({"a": np.arange(12.0)})
    d = md.DataFrame(p, chunk_size=1)
    per_row = row_bytes(p)
    assert _tiled(coalesce(d, limit=4 * per_row)).nsplits == ((4, 4, 4),)
    assert _tiled(coalesce(d, limit=per_row)).nsplits == ((1,) * 12,)
    unchanged = _tiled(coalesce(d, limit=4 * per_row, min_chunks=12))
    assert unchanged.nsplits == ((1,) * 12,)

"""concat along rows and columns against pandas, over chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.joins import merge
from jupyter_mars.engine.plan import plan_stages

CHUNKS = [1, 3, None]


def _a() -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [1, 2, 3, 4, 5], "f": [0.5, np.nan, 2.5, 3.5, 4.5], "b": [True, False] * 2 + [True]},
        index=pd.Index([10, 11, 12, 13, 14], name="id"),
    )


def _b() -> pd.DataFrame:
    return pd.DataFrame(
        {"f": [9.0, 8.0, 7.0], "s": ["p", "q", "r"], "x": [7, 8, 9]},
        index=pd.Index([20, 21, 22], name="id"),
    )


def _lazy(df: Any, chunk_size: int | None) -> Any:
    return (md.DataFrame if isinstance(df, pd.DataFrame) else md.Series)(df, chunk_size=chunk_size)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("join", ["outer", "inner"])
def test_rows_of_frames_with_other_columns(chunk, join):
    a, b = _a(), _b()
    got = concat([_lazy(a, chunk), _lazy(b, 2), _lazy(a, chunk)], join=join)
    want = pd.concat([a, b, a], join=join)
    assert got.shape == want.shape
    assert got.dtypes.equals(want.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_chunks_are_the_inputs_chunks_in_order(chunk):
    a, b = _a(), _b()
    got = concat([_lazy(a, chunk), _lazy(b, 2)])
    n_a = len(_lazy(a, chunk).node.op.splits)
    assert len(got.node.inputs) == 2
    stage = next(plan_stages([got.node], {}))
    assert len(stage.outputs) == n_a + 2


@pytest.mark.parametrize("chunk", CHUNKS)
def test_ignore_index_and_keys(chunk):
    a, b = _a(), _b()
    got = concat([_lazy(a, chunk), _lazy(b, 2)], ignore_index=True)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat([a, b], ignore_index=True))
    got = concat([_lazy(a, chunk), _lazy(b, 2)], keys=["one", "two"])
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat([a, b], keys=["one", "two"]))
    got = concat({"p": _lazy(a, chunk), "q": b})
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat({"p": a, "q": b}))


def test_series_and_mixed_inputs():
    s = pd.Series([1, 2, 3], name="x")
    t = pd.Series([1.5, 2.5], name="y")
    got = concat([_lazy(s, 2), _lazy(t, 1)])
    pd.testing.assert_series_equal(got.to_pandas(), pd.concat([s, t]))
    got = concat([_lazy(_a(), 2), _lazy(s, 2), None])
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat([_a(), s, None]))
    got = concat([_lazy(s, 2), _lazy(s.rename(None), 2)], ignore_index=True)
    pd.testing.assert_series_equal(
        got.to_pandas(), pd.concat([s, s.rename(None)], ignore_index=True)
    )


def test_rows_with_unknown_lengths_renumber():
    a, b = _a(), _b()
    left = pd.DataFrame({"x": [1, 2, 2, 9], "y": list("abcd")})
    merged = merge(_lazy(left, 2), _lazy(a, 2), on="x")
    got = concat([merged, _lazy(b, 2)], ignore_index=True)
    want = pd.concat([pd.merge(left, a, on="x"), b], ignore_index=True)
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_columns_of_frames_on_one_index(chunk):
    a, df = _lazy(_a(), chunk), _a()
    got = concat([a[["x"]], a[["f", "b"]], a["x"].rename("y")], axis=1)
    want = pd.concat([df[["x"]], df[["f", "b"]], df["x"].rename("y")], axis=1)
    assert got.node.index_key == a.node.index_key  # side by side, chunk by chunk
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("join", ["outer", "inner"])
def test_columns_of_frames_on_other_indexes(join):
    a = _a()
    c = pd.DataFrame({"z": [1.0, 2.0, 3.0]}, index=pd.Index([12, 99, 10], name="id"))
    got = concat([_lazy(a, 2), _lazy(c, 2)], axis=1, join=join)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat([a, c], axis=1, join=join))
    got = concat([_lazy(a, 2), _lazy(c, 2)], axis="columns", keys=["a", "c"])
    pd.testing.assert_frame_equal(got.to_pandas(), pd.concat([a, c], axis=1, keys=["a", "c"]))


def test_bad_inputs_raise_at_the_call():
    with pytest.raises(ValueError, match="No objects"):
        concat([])
    with pytest.raises(TypeError, match="objs"):
        concat(_lazy(_a(), 2))
    with pytest.raises(TypeError, match="list"):
        concat([_lazy(_a(), 2), [1, 2]])
    with pytest.raises(ValueError, match="keys"):
        concat([_lazy(_a(), 2)], keys=["a", "b"])


@st.composite
def _frames(draw: Any) -> list[pd.DataFrame]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, 6))
        cols = draw(st.lists(st.sampled_from(["i", "f", "s", "b"]), unique=True, max_size=4))
        data = {
            "i": np.arange(n, dtype=np.int64),
            "f": np.linspace(0, 1, n),
            "s": [f"v{k}" for k in range(n)],
            "b": np.arange(n) % 2 == 0,
        }
        out.append(pd.DataFrame({c: data[c] for c in cols}, index=np.arange(n) * 3))
    return out


@given(
    frames=_frames(),
    chunk=st.integers(1, 4),
    join=st.sampled_from(["outer", "inner"]),
    ignore_index=st.booleans(),
)
def test_concat_rows_equals_pandas(frames, chunk, join, ignore_index):
    lazy = [_lazy(f, chunk) for f in frames]
    got = concat(lazy, join=join, ignore_index=ignore_index).to_pandas()
    pd.testing.assert_frame_equal(got, pd.concat(frames, join=join, ignore_index=ignore_index))

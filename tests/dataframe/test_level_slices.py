"""``loc`` with per-level slices and lists on a MultiIndex, checked against pandas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.level_slices import level_rows_mask

IDX = pd.IndexSlice
INDEX = pd.MultiIndex.from_tuples(
    [("x", 1, "a"), ("x", 2, "b"), ("y", 1, "a"), ("y", 2, "c"), ("z", 3, "a"), ("z", 1, "b")],
    names=["p", "q", "r"],
)
FRAME = pd.DataFrame({"v": range(6), "w": np.arange(6.0) / 2}, index=INDEX).sort_index()

KEYS: list[Any] = [
    ("x", [1, 2]),
    (["x"], 1, "a"),
    (slice(None), 1, "a"),
    ("x", slice(None), "a"),
    ("x", 1, slice(None)),
    (slice(None), 1),
    (["z", "x"], slice(None)),
    (["z", "x"], [2, 1]),
    IDX["x":"y", 1],
    IDX[:, 1:2],
    IDX[:, [1, 3], "a"],
]


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("chunk_size", [1, 2, 6])
@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_rows_of_a_frame_and_a_series_as_pandas_gives_them(key: Any, chunk_size: int) -> None:
    frame = md.DataFrame(FRAME, chunk_size=chunk_size)
    series = md.Series(FRAME.v, chunk_size=chunk_size)
    for lazy, expected in [
        (frame.loc[key, :], FRAME.loc[key, :]),
        (frame.loc[key, "w"], FRAME.loc[key, "w"]),
        (series.loc[key], FRAME.v.loc[key]),
    ]:
        assert list(lazy.meta.index.names) == list(expected.index.names)  # levels dropped
        _same(lazy.execute().fetch(), expected)


@pytest.mark.parametrize("key", [(["x", "w"], 1), ("w", slice(None)), (slice(None), 9)], ids=repr)
def test_a_missing_label_raises_key_error_when_executed(key: Any) -> None:
    with pytest.raises(KeyError):
        FRAME.loc[key, :]
    lazy = md.DataFrame(FRAME, chunk_size=2).loc[key, :]
    with pytest.raises(KeyError):
        lazy.execute()


def test_a_tuple_of_a_slice_and_a_label_is_rows_and_a_column_as_in_pandas() -> None:
    with pytest.raises(KeyError):
        FRAME.loc[(slice(None), 1)]
    with pytest.raises(KeyError):
        md.DataFrame(FRAME, chunk_size=2).loc[(slice(None), 1)].execute()


_PARTS = st.one_of(
    st.sampled_from(["x", "y", "z", 1, 2, 3, "a", "b"]),
    st.lists(st.sampled_from(["x", "y", 1, 2, "a", "c"]), min_size=1, max_size=3),
    st.sampled_from([slice(None), slice("x", "y"), slice(1, 2), slice("b", None)]),
)


@given(st.lists(_PARTS, min_size=1, max_size=3))
def test_the_chunk_test_keeps_every_row_pandas_selects(parts: list[Any]) -> None:
    key = tuple(parts)
    try:
        expected = FRAME.loc[key, :]
    except (KeyError, TypeError):
        return
    kept = FRAME[level_rows_mask(FRAME.index, key)]
    missing = expected.index.difference(kept.index) if expected.index.nlevels == 3 else []
    assert len(missing) == 0


@pytest.mark.parametrize("key", [(slice(None), 1, "a", 2), ("x", [1], "a", "b")], ids=repr)
def test_a_key_longer_than_the_levels_raises_key_error_at_the_call(key: Any) -> None:
    with pytest.raises(KeyError, match="exceeds index depth"):
        FRAME.loc[key, :]
    with pytest.raises(KeyError, match=r"Key length \(4\) exceeds index depth \(3\)"):
        md.DataFrame(FRAME, chunk_size=2).loc[key, :]

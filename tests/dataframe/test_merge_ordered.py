"""``md.merge_ordered`` against pandas: sorted outer (and other) merges, the forward fill
of whole rows, groups, dtypes and pandas' errors, over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.joins.ordered import fill_forward, with_marker


def _sides(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    n, m = 13, 9
    left = pd.DataFrame(
        {
            "k": rng.integers(0, 10, n),
            "a": rng.integers(0, 9, n),
            "v": np.where(rng.random(n) < 0.3, np.nan, rng.normal(size=n)),
            "s": rng.choice(list("xyz"), n),
            "ok": rng.random(n) > 0.5,
        }
    )
    right = pd.DataFrame(
        {"k": rng.integers(0, 10, m), "b": rng.normal(size=m), "a": rng.integers(0, 9, m)}
    )
    return left, right


def _same(got: Any, expected: pd.DataFrame) -> None:
    assert list(got.dtypes) == list(expected.dtypes)  # the lazy dtypes are pandas'
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


CASES: list[dict[str, Any]] = [
    {"on": "k"},
    {"on": "k", "fill_method": "ffill"},
    {"on": "k", "how": "left", "fill_method": "ffill"},
    {"on": "k", "how": "right", "fill_method": "ffill"},
    {"on": "k", "how": "inner"},
    {"on": ["k", "a"], "fill_method": "ffill", "suffixes": ("_l", "_r")},
    {"left_on": "k", "right_on": "a", "fill_method": "ffill"},
    {"left_on": "k", "right_on": "a"},
    {},
]


@pytest.mark.parametrize("chunk", [1, 4, None])
@pytest.mark.parametrize("kwargs", CASES)
def test_merge_ordered_matches_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    left, right = _sides()
    got = md.merge_ordered(
        md.DataFrame(left, chunk_size=chunk), md.DataFrame(right, chunk_size=chunk), **kwargs
    )
    _same(got, pd.merge_ordered(left, right, **kwargs))


@pytest.mark.parametrize("seed", range(6))
def test_merge_ordered_on_missing_and_repeated_keys(seed: int) -> None:
    left, right = _sides(seed)
    left["k"] = left["k"].where(left["k"] % 4 != 0)  # NaN keys sort last, as in pandas
    for kwargs in ({"on": "k"}, {"on": "k", "fill_method": "ffill"}):
        got = md.merge_ordered(
            md.DataFrame(left, chunk_size=3), md.DataFrame(right, chunk_size=2), **kwargs
        )
        _same(got, pd.merge_ordered(left, right, **kwargs))


def test_forward_fill_carries_each_sides_last_row_across_chunks() -> None:
    """The fill of a merge cut into many chunks: rows above a chunk's first given row
    take the last row given in the chunks above, missing values of that row included."""
    left = pd.DataFrame({"k": [1, 4, 9, 12], "v": [1.0, np.nan, 3.0, 4.0], "n": [1, 2, 3, 4]})
    right = pd.DataFrame({"k": [2, 3, 5, 6, 7, 8, 10, 11], "w": list("abcdefgh")})
    expected = pd.merge_ordered(left, right, on="k", fill_method="ffill")
    marks = ("__left__", "__right__")
    merged = pd.merge(
        with_marker(left, marks[0]), with_marker(right, marks[1]), on="k", how="outer", sort=True
    )
    for chunk in (1, 2, 5):
        got = fill_forward(md.DataFrame(merged, chunk_size=chunk), marks, {"k"}, expected[:0])
        # the merged frame given here holds "n" as floats already (pandas' merge)
        pd.testing.assert_frame_equal(got.to_pandas(), expected.astype({"n": float}))


def test_merge_ordered_takes_pandas_objects_and_named_series() -> None:
    left, right = _sides()
    got = md.merge_ordered(left, md.Series(right["k"], chunk_size=3), fill_method="ffill")
    expected = pd.merge_ordered(left, right["k"], fill_method="ffill")
    _same(got, expected)


def test_merge_ordered_keeps_dtypes_lazy_where_no_miss_changes_them() -> None:
    left = pd.DataFrame({"k": [1, 3, 5], "v": [1.0, 2.0, 3.0]})
    right = pd.DataFrame({"k": [2, 3], "w": [10.0, 20.0]})
    got = md.merge_ordered(md.DataFrame(left, chunk_size=2), right, on="k")
    assert got.node.op.label() != "merge_ordered"  # not executed to find dtypes
    _same(got, pd.merge_ordered(left, right, on="k"))


GROUPED: list[dict[str, Any]] = [
    {"left_by": "group"},
    {"left_by": "group", "fill_method": "ffill"},
    {"left_by": ["group"], "on": "key", "fill_method": "ffill", "how": "left"},
]


@pytest.mark.parametrize("chunk", [1, 4])
@pytest.mark.parametrize("kwargs", GROUPED)
def test_merge_ordered_by_groups(chunk: int, kwargs: dict[str, Any]) -> None:
    left = pd.DataFrame(
        {
            "key": list("aceacee"),
            "lvalue": [1, 2, 3, 1, 2, 3, 5],
            "group": list("aaabbbc"),
        }
    )
    rights = [
        pd.DataFrame({"key": list("bcd"), "rvalue": [1, 2, 3]}),
        # groups by columns both sides have: group "a" has no right rows
        pd.DataFrame({"key": list("abcd"), "group": list("bbcz"), "rvalue": [1, 2, 3, 4]}),
    ]
    for right in rights:
        expected = pd.merge_ordered(left, right, **kwargs)
        got = md.merge_ordered(
            md.DataFrame(left, chunk_size=chunk), md.DataFrame(right, chunk_size=chunk), **kwargs
        )
        _same(got, expected)
        swapped = {("right_by" if k == "left_by" else k): v for k, v in kwargs.items()}
        expected = pd.merge_ordered(right, left, **swapped)
        got = md.merge_ordered(
            md.DataFrame(right, chunk_size=chunk), md.DataFrame(left, chunk_size=chunk), **swapped
        )
        _same(got, expected)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"on": "missing"},
        {"left_by": "missing"},
        {"right_by": "missing"},
        {"left_by": "k", "right_by": "k"},
        {"on": "k", "fill_method": "bfill"},
        {"on": "k", "how": "sideways"},
        {"on": "k", "left_on": "k"},
    ],
)
def test_merge_ordered_raises_pandas_errors_at_the_call(kwargs: dict[str, Any]) -> None:
    left, right = _sides()
    with pytest.raises(Exception) as expected:  # noqa: PT011 - the type is pandas' to say
        pd.merge_ordered(left, right, **kwargs)
    with pytest.raises(expected.type):
        md.merge_ordered(md.DataFrame(left, chunk_size=4), md.DataFrame(right), **kwargs)

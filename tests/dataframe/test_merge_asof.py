"""``md.merge_asof`` against pandas: trades joined with the latest quote, over several
chunkings of both sides."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md


def _sides() -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(0)
    start = pd.Timestamp("2024-01-01")
    trades = pd.DataFrame(
        {
            "time": start + pd.to_timedelta(np.sort(rng.integers(0, 10_000, 40)), unit="s"),
            "ticker": rng.choice(["A", "B", "C"], 40),
            "qty": rng.integers(1, 100, 40),
        }
    )
    quotes = pd.DataFrame(
        {
            "time": start + pd.to_timedelta(np.sort(rng.integers(500, 10_000, 25)), unit="s"),
            "ticker": rng.choice(["A", "B", "C"], 25),
            "bid": rng.normal(100, 1, 25),
            "size": rng.integers(1, 9, 25),
            "ok": rng.random(25) > 0.5,
        }
    )
    return trades, quotes


def _same(got: Any, expected: pd.DataFrame) -> None:
    result = got.to_pandas()
    assert list(result.dtypes) == list(got.dtypes)  # the lazy dtypes are the data's
    # a right column of integers or booleans takes the dtype it takes with a miss
    pd.testing.assert_frame_equal(result, expected.astype(dict(got.dtypes)))


CASES: list[dict[str, Any]] = [
    {"on": "time"},
    {"on": "time", "by": "ticker"},
    {"on": "time", "by": "ticker", "direction": "forward"},
    {"on": "time", "direction": "nearest", "tolerance": pd.Timedelta("100s")},
    {"on": "time", "allow_exact_matches": False},
    {"on": "time", "by": "ticker", "suffixes": ("_l", "_r")},
]


@pytest.mark.parametrize("chunk", [1, 7, None])
@pytest.mark.parametrize("kwargs", CASES)
def test_merge_asof_on_columns(chunk: int | None, kwargs: dict[str, Any]) -> None:
    trades, quotes = _sides()
    got = md.merge_asof(
        md.DataFrame(trades, chunk_size=chunk), md.DataFrame(quotes, chunk_size=chunk), **kwargs
    )
    _same(got, pd.merge_asof(trades, quotes, **kwargs))


@pytest.mark.parametrize("chunk", [1, 7, None])
def test_merge_asof_on_indexes_keeps_the_left_labels(chunk: int | None) -> None:
    trades, quotes = _sides()
    left, right = trades.set_index("time"), quotes.set_index("time")
    pairs: list[tuple[dict[str, Any], pd.DataFrame, pd.DataFrame]] = [
        ({"left_index": True, "right_index": True}, left, right),
        ({"left_on": "time", "right_index": True}, trades.set_index(trades.index * 10), right),
    ]
    for kwargs, lhs, rhs in pairs:
        got = md.merge_asof(
            md.DataFrame(lhs, chunk_size=chunk), md.DataFrame(rhs, chunk_size=chunk), **kwargs
        )
        _same(got, pd.merge_asof(lhs, rhs, **kwargs))


@pytest.mark.parametrize("chunk", [1, 7, None])
@pytest.mark.parametrize("first_quote", ["0s", "9000s"], ids=["all match", "early trades miss"])
def test_the_left_index_on_a_right_column_fills_the_key_as_pandas(
    chunk: int | None, first_quote: str
) -> None:
    # pandas' key column holds the right's keys where every left row matched, and the
    # left's where any missed: a miss in one chunk decides for all of them
    trades, quotes = _sides()
    quotes = quotes.copy()
    quotes.loc[0, "time"] = pd.Timestamp("2024-01-01") + pd.Timedelta(first_quote)
    quotes = quotes.sort_values("time", kind="stable", ignore_index=True)
    left = trades.set_index("time")
    kwargs: dict[str, Any] = {"left_index": True, "right_on": "time"}
    got = md.merge_asof(
        md.DataFrame(left, chunk_size=chunk), md.DataFrame(quotes, chunk_size=chunk), **kwargs
    )
    _same(got, pd.merge_asof(left, quotes, **kwargs))


def test_merge_asof_takes_pandas_frames_and_raises_pandas_errors() -> None:
    trades, quotes = _sides()
    got = md.merge_asof(md.DataFrame(trades, chunk_size=9), quotes, on="time")
    _same(got, pd.merge_asof(trades, quotes, on="time"))
    with pytest.raises(KeyError):
        md.merge_asof(md.DataFrame(trades), md.DataFrame(quotes), on="nope")
    with pytest.raises(TypeError, match="right"):
        md.merge_asof(md.DataFrame(trades), [1, 2], on="time")
    with pytest.raises(ValueError, match="sorted"):  # pandas checks the right side whole
        md.merge_asof(md.DataFrame(trades), md.DataFrame(quotes[::-1]), on="time").execute()

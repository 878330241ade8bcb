"""Grouped statistics of whole groups, running and filling methods, rows picked per
group, and named aggregations, against pandas over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, assert_same, lazy_copy


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 15
    return pd.DataFrame(
        {
            "k": np.arange(n) % 3,
            "x": rng.normal(size=n),
            "y": np.where(rng.random(n) > 0.6, np.nan, rng.random(n)),
        },
        index=pd.Index(np.arange(n) * 3, name="i"),
    )


CALLS = {
    "skew": lambda g: g.skew(),
    "kurt": lambda g: g.kurt(),
    "sem": lambda g: g.sem(ddof=0),
    "describe": lambda g: g.describe(),
    "quantile": lambda g: g.quantile(0.3),
    "quantiles": lambda g: g.quantile([0.25, 0.75]),
    "corr": lambda g: g.corr(),
    "cov": lambda g: g.cov(),
    "cummin": lambda g: g.cummin(),
    "cummax": lambda g: g.cummax(),
    "ffill": lambda g: g.ffill(),
    "bfill": lambda g: g.bfill(limit=1),
    "head": lambda g: g.head(2),
    "tail": lambda g: g.tail(1),
    "series_skew": lambda g: g["x"].skew(),
    "series_ffill": lambda g: g["y"].ffill(),
    "series_head": lambda g: g["y"].head(3),
}


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("call", list(CALLS))
def test_grouped_method_matches_pandas(chunk: int | None, call: str) -> None:
    data = _frame()
    got = CALLS[call](lazy_copy(data, chunk).groupby("k")).execute().fetch()
    assert_same(got, CALLS[call](data.groupby("k")))


SAMPLES: list[Any] = [
    lambda: {"n": 2, "random_state": 0},
    lambda: {"frac": 0.5, "random_state": 3},
    lambda: {"n": 3, "replace": True, "random_state": 1},
    lambda: {"n": 1, "random_state": np.random.RandomState(7)},
    lambda: {"n": 1, "random_state": np.random.default_rng(3)},
    lambda: {"frac": 0.5, "weights": list(range(1, 16)), "replace": True, "random_state": 2},
]


@pytest.mark.parametrize("chunk", [2, 5, None])
@pytest.mark.parametrize("kwargs", SAMPLES)
def test_sample_picks_pandas_rows_in_pandas_order(chunk: int | None, kwargs: Any) -> None:
    data = _frame()
    assert len(data) == 15
    lazy = lazy_copy(data, chunk)
    calls = [
        lambda d, kw: d.groupby("k").sample(**kw),
        lambda d, kw: d.groupby("k")["x"].sample(**kw),
        lambda d, kw: d.groupby("k", sort=False)[["y"]].sample(**kw),
    ]
    for call in calls:
        assert_same(call(lazy, kwargs()).execute().fetch(), call(data, kwargs()))


@pytest.mark.parametrize("chunk", [2, None])
def test_sample_weighted_by_a_column(chunk: int | None) -> None:
    data = _frame().assign(w=np.arange(15.0) % 4 + 1)
    got = lazy_copy(data, chunk).groupby("k").sample(n=2, weights="w", random_state=5)
    assert_same(got.execute().fetch(), data.groupby("k").sample(n=2, weights="w", random_state=5))


def test_sample_refuses_what_pandas_refuses() -> None:
    lazy = lazy_copy(_frame(), 2)
    with pytest.raises(ValueError, match="larger sample"):
        lazy.groupby("k").sample(n=10)
    with pytest.raises(ValueError, match="not both"):
        lazy.groupby("k").sample(n=1, frac=0.5)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n": 1, "frac": 0.5}, ValueError),
        ({"n": -1}, ValueError),
        ({"frac": -0.1}, ValueError),
        ({"n": 1.5}, ValueError),
        ({"frac": 1.5}, ValueError),
        ({"random_state": "x"}, ValueError),
        ({"n": "a"}, TypeError),
    ],
)
def test_sample_checks_its_arguments_before_any_data_is_computed(kwargs, error) -> None:
    data = _frame()
    with pytest.raises(error) as want:
        data.groupby("k").sample(**kwargs)
    lazy = lazy_copy(data, 2)
    groups = lazy.groupby("k")
    groups.ngroup = None  # computing the groups now would fail the test
    with pytest.raises(error) as got:
        groups.sample(**kwargs)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_named_aggregation_with_named_agg(chunk: int | None) -> None:
    data = _frame()
    named = dict(total=md.NamedAgg("x", "sum"), top=("y", "max"), n=md.NamedAgg("y", "count"))
    got = lazy_copy(data, chunk).groupby("k").agg(**named).execute().fetch()
    assert_same(got, data.groupby("k").agg(**named))
    assert md.NamedAgg is pd.NamedAgg

"""expanding ``first``, ``last``, ``nunique``, ``rank``, ``median``, ``quantile`` and
``apply`` against pandas, over chunkings of one row, uneven ones and one chunk."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, assert_all_same, lazy_copy


def _frame(n: int = 15) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    df = pd.DataFrame(
        {"a": rng.integers(0, 5, n).astype(float), "b": rng.normal(size=n)},
        index=pd.Index(np.arange(n) * 3, name="k"),
    )
    df.iloc[[2, 7, 8], 0] = np.nan
    df.iloc[[0], 1] = np.nan
    return df


_all_same = functools.partial(assert_all_same, tol=1e-12)


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("first", {}),
    ("last", {}),
    ("nunique", {}),
    ("median", {}),
    ("rank", {}),
    ("rank", {"method": "min", "pct": True}),
    ("rank", {"method": "max", "ascending": False}),
    ("quantile", {"q": 0.3}),
    ("quantile", {"q": 0.75, "interpolation": "nearest"}),
    ("quantile", {"q": 0.5, "interpolation": "midpoint"}),
    ("quantile", {"q": 1.0, "interpolation": "lower"}),
    ("quantile", {"q": 0.4, "interpolation": "higher"}),
    ("apply", {"func": np.nansum, "raw": True}),
    ("apply", {"func": lambda s: s.index[-1] + s.max()}),
]


@pytest.mark.parametrize("chunk", [*CHUNKS, 4])
@pytest.mark.parametrize("min_periods", [0, 1, 3])
def test_expanding_values(chunk: int | None, min_periods: int) -> None:
    df = _frame()
    mdf: Any = lazy_copy(df, chunk)
    pairs = []
    for how, kwargs in CALLS:
        lazy, eager = mdf.expanding(min_periods), df.expanding(min_periods)
        pairs.append((getattr(lazy, how)(**kwargs), getattr(eager, how)(**kwargs)))
    lazy, eager = mdf.b.expanding(min_periods), df.b.expanding(min_periods)
    pairs += [(lazy.median(), eager.median()), (lazy.apply(np.mean), eager.apply(np.mean))]
    _all_same(pairs)


def test_after_a_filter_with_empty_chunks() -> None:
    df = _frame()
    lazy: Any = md.DataFrame(df, chunk_size=2).dropna()
    eager = df.dropna()
    _all_same(
        [
            (lazy.expanding().median(), eager.expanding().median()),
            (lazy.expanding().nunique(), eager.expanding().nunique()),
            (lazy.expanding(2).first(), eager.expanding(2).first()),
        ]
    )


def test_bad_arguments_raise_at_the_call() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(ValueError, match="dense"):
        mdf.expanding().rank(method="dense")
    with pytest.raises(ValueError, match="quantile"):
        mdf.expanding().quantile(1.5)
    with pytest.raises(NotImplementedError, match="engine"):
        mdf.expanding().apply(np.sum, engine="numba")


@given(
    values=st.lists(st.one_of(st.none(), st.integers(-4, 4)), max_size=16),
    chunk=st.integers(1, 6),
    min_periods=st.integers(0, 3),
    method=st.sampled_from(["average", "min", "max"]),
    ascending=st.booleans(),
    pct=st.booleans(),
    q=st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]),
)
def test_expanding_rank_and_quantile_property(
    values: list[int | None],
    chunk: int,
    min_periods: int,
    method: str,
    ascending: bool,
    pct: bool,
    q: float,
) -> None:
    s = pd.Series(values, dtype=float)
    lazy: Any = md.Series(s, chunk_size=chunk)
    kwargs = {"method": method, "ascending": ascending, "pct": pct}
    got = lazy.expanding(min_periods).rank(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, s.expanding(min_periods).rank(**kwargs))
    got = lazy.expanding(min_periods).quantile(q).to_pandas()
    pd.testing.assert_series_equal(got, s.expanding(min_periods).quantile(q))

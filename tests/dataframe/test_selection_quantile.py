"""Exact quantiles by parallel selection: pandas' results bit for bit over chunkings, on
columns long enough that the windows are narrower than the chunks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mars.dataframe.sort import selection
from tests.dataframe.helpers import lazy_copy

INTERPOLATIONS = ["linear", "lower", "higher", "midpoint", "nearest"]


def _frame(n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    f = rng.normal(size=n)
    f[rng.random(n) < 0.1] = np.nan
    f[:3] = [np.inf, -np.inf, np.inf]
    return pd.DataFrame(
        {"f": f, "i": rng.integers(0, 50, n), "u": rng.integers(0, 9, n).astype(np.uint8)}
    )


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # pandas, on infinities
@pytest.mark.parametrize("chunk", [700, 3000])
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_frame_quantiles_are_exact(chunk: int, interpolation: str) -> None:
    data = _frame()
    lazy = lazy_copy(data, chunk)
    qs = [0.0, 0.1, 0.25, 0.5, 0.999, 1.0]
    got = lazy.quantile(qs, interpolation=interpolation).execute().fetch()
    pd.testing.assert_frame_equal(
        got, data.quantile(qs, interpolation=interpolation), check_exact=True
    )
    got = lazy.quantile(0.37, interpolation=interpolation).execute().fetch()
    pd.testing.assert_series_equal(
        got, data.quantile(0.37, interpolation=interpolation), check_exact=True
    )


@pytest.mark.parametrize("chunk", [1, 700, 3000])
def test_median_and_series_quantile_are_exact(chunk: int) -> None:
    data = _frame() if chunk > 1 else _frame(40)
    lazy = lazy_copy(data, chunk)
    pd.testing.assert_series_equal(lazy.median().execute().fetch(), data.median(), check_exact=True)
    assert lazy["f"].median().execute().fetch() == data["f"].median()
    assert lazy["i"].quantile(0.3, interpolation="lower").execute().fetch() == data["i"].quantile(
        0.3, interpolation="lower"
    )
    got = lazy["u"].quantile([0.2, 0.8]).execute().fetch()
    pd.testing.assert_series_equal(got, data["u"].quantile([0.2, 0.8]), check_exact=True)


def test_windows_hold_a_small_part_of_the_column() -> None:
    data = _frame(20000)
    parts = np.array_split(data["f"].dropna().to_numpy(), 8)
    sketches = [selection._sketch(part) for part in parts]
    n = sum(s[0] for s in sketches)
    spec = selection.Sketches((0,), (0.5,), "linear")
    lo, hi = spec._window(sketches, 0.5, n)
    inside = data["f"].between(lo, hi).sum()
    assert lo <= data["f"].median() <= hi
    assert inside < 4 * n / selection.SAMPLES + 16


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=40),
    chunk=st.integers(1, 9),
    q=st.floats(0, 1),
    interpolation=st.sampled_from(INTERPOLATIONS),
)
def test_series_quantile_over_chunkings(
    values: list[int | None], chunk: int, q: float, interpolation: str
) -> None:
    data = pd.Series([np.nan if v is None else v for v in values], dtype=np.float64)
    got = lazy_copy(data, chunk).quantile([q], interpolation=interpolation).execute().fetch()
    pd.testing.assert_series_equal(
        got, data.quantile([q], interpolation=interpolation), check_exact=True
    )

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


def _long_frame(order: str) -> pd.DataFrame:
    """Chunks longer than ``SAMPLES`` (they are sampled, not given whole), in orders a
    strided sample would misjudge."""
    n = 6 * selection.SAMPLES
    rng = np.random.default_rng(5)
    f = rng.normal(size=n)
    if order == "sorted":
        f.sort()
    elif order == "periodic":
        f = np.tile(np.sort(f[:64]), n // 64)
    f[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({"f": f, "i": rng.integers(-(10**6), 10**6, n)})


@pytest.mark.parametrize("order", ["random", "sorted", "periodic"])
def test_sampled_chunks_give_exact_quantiles_from_narrow_windows(order: str) -> None:
    data = _long_frame(order)
    qs = [0.0, 0.01, 0.5, 0.9, 1.0]
    lazy = lazy_copy(data, 2 * selection.SAMPLES + 5)
    pd.testing.assert_frame_equal(
        lazy.quantile(qs).execute().fetch(), data.quantile(qs), check_exact=True
    )
    # the windows of the median hold a small part of the column
    parts = np.array_split(data["i"].to_numpy(np.float64), 3)
    spec = selection.Samples((None,), (0.5,), "linear")
    state = spec.combine([spec.chunk(pd.Series(part)) for part in parts])
    n, lo, hi = spec.aggregate(state)[0]
    assert n == len(data)
    inside = int(data["i"].between(lo, hi).sum())
    assert lo <= data["i"].median() <= hi
    assert inside < 0.1 * n


@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_windows_that_miss_their_ranks_are_widened(
    interpolation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a negative margin makes windows that exclude the ranks they are for
    monkeypatch.setattr(selection, "MARGIN_SE", -40.0)
    data = _long_frame("random")
    qs = [0.02, 0.5, 0.97]
    lazy = lazy_copy(data, 2 * selection.SAMPLES + 5)
    got = lazy.quantile(qs, interpolation=interpolation).execute().fetch()
    pd.testing.assert_frame_equal(
        got, data.quantile(qs, interpolation=interpolation), check_exact=True
    )
    assert lazy["f"].median().execute().fetch() == data["f"].median()


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

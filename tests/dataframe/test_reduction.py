"""DataFrame and Series reductions against pandas over several row chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.reduction  # noqa: F401 - attaches the methods
from jupyter_mars.config import option_context
from jupyter_mars.tensor.core import Tensor

CHUNKS = [1, 3, None]  # one row per chunk, uneven chunks, one chunk
SIMPLE = ["sum", "prod", "count", "min", "max", "any", "all"]
MOMENTS = ["mean", "var", "std", "sem"]
ALL = SIMPLE + MOMENTS


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": [3, -1, 4, 1, 5, 9, 2, 6],
            "f": [1.5, np.nan, 2.25, -3.0, np.nan, 4.0, 0.5, 8.0],
            "b": [True, False, True, True, False, True, True, True],
            "n": [np.nan] * 8,
        }
    )


def _series(data: pd.Series, chunk_size: int | None = None) -> Any:
    """A lazy Series typed loosely: its reduction methods are attached at import."""
    return md.Series(data, chunk_size=chunk_size)


def _frame_of(data: pd.DataFrame, chunk_size: int | None = None) -> Any:
    return md.DataFrame(data, chunk_size=chunk_size)


def _chunk(n: int | None, rows: int) -> int:
    return max(rows, 1) if n is None else n


def _assert_scalar(got: Any, expected: Any) -> None:
    if isinstance(expected, (float, np.floating)) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_allclose(got, expected, rtol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ALL)
@pytest.mark.parametrize("skipna", [True, False])
def test_frame_axis0(how: str, chunk: int | None, skipna: bool) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    kwargs = {} if how == "count" else {"skipna": skipna}
    got = getattr(mdf, how)(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, getattr(df, how)(**kwargs), rtol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ALL)
def test_frame_axis1(how: str, chunk: int | None) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    result = getattr(mdf, how)(axis="columns")
    expected = getattr(df, how)(axis=1)
    assert result.dtype == expected.dtype
    pd.testing.assert_series_equal(result.to_pandas(), expected, rtol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", ALL)
@pytest.mark.parametrize("col", ["i", "f", "b", "n"])
def test_series(how: str, chunk: int | None, col: str) -> None:
    s = _frame()[col]
    ms: Any = _series(s, chunk_size=_chunk(chunk, len(s)))
    result = getattr(ms, how)()
    assert isinstance(result, Tensor)
    assert result.shape == ()
    expected = getattr(s, how)()
    _assert_scalar(result.execute().fetch(), expected)
    _assert_scalar(result.to_numpy(), expected)


@pytest.mark.parametrize("how", ["sum", "min", "max", "mean", "var", "count", "any"])
def test_series_skipna_false(how: str) -> None:
    s = _frame()["f"]
    kwargs = {} if how == "count" else {"skipna": False}
    _assert_scalar(
        getattr(_series(s, chunk_size=3), how)(**kwargs).to_numpy(), getattr(s, how)(**kwargs)
    )


def test_int_dtypes_kept() -> None:
    df = pd.DataFrame({"a": np.arange(10, dtype=np.int64), "b": np.arange(10) % 2 == 0})
    mdf: Any = md.DataFrame(df, chunk_size=3)
    for how in ("sum", "min", "max", "count", "prod"):
        got = getattr(mdf, how)().to_pandas()
        pd.testing.assert_series_equal(got, getattr(df, how)())
    assert _series(df["a"], chunk_size=3).sum().to_numpy().dtype == np.int64


@pytest.mark.parametrize("ddof", [0, 1, 2, -1, 10])
def test_ddof(ddof: int) -> None:
    df = _frame()
    mdf: Any = md.DataFrame(df, chunk_size=3)
    for how in ("var", "std", "sem"):
        got = getattr(mdf, how)(ddof=ddof).to_pandas()
        with np.errstate(invalid="ignore"):  # pandas' own 0/0 on the all-NaN column
            expected = getattr(df, how)(ddof=ddof)
        pd.testing.assert_series_equal(got, expected, rtol=1e-10)
        _assert_scalar(
            getattr(_series(df["i"], chunk_size=2), how)(ddof=ddof).to_numpy(),
            getattr(df["i"], how)(ddof=ddof),
        )


def test_var_is_numerically_stable() -> None:
    rng = np.random.default_rng(0)
    s = pd.Series(1e9 + rng.standard_normal(1000))
    got = _series(s, chunk_size=7).var().to_numpy()
    np.testing.assert_allclose(got, s.var(), rtol=1e-6)


def test_numeric_only_and_bool_only() -> None:
    df = _frame().assign(s=list("abcdefgh"))
    mdf: Any = md.DataFrame(df, chunk_size=3)
    for how in ("sum", "mean", "min", "max", "var", "count", "prod"):
        got = getattr(mdf, how)(numeric_only=True).to_pandas()
        pd.testing.assert_series_equal(got, getattr(df, how)(numeric_only=True), rtol=1e-10)
    for how in ("sum", "min", "max", "count"):
        pd.testing.assert_series_equal(getattr(mdf, how)().to_pandas(), getattr(df, how)())
    pd.testing.assert_series_equal(mdf.any(bool_only=True).to_pandas(), df.any(bool_only=True))
    with pytest.raises(TypeError, match="numeric_only"):
        mdf.mean()
    with pytest.raises(TypeError, match="numeric or boolean"):
        _series(df["s"]).mean()
    assert _series(df["s"], 3).max(numeric_only=True).to_numpy() == df["s"].max(numeric_only=True)


def test_combine_size_fan_in() -> None:
    df = pd.DataFrame({"x": np.arange(50, dtype=float) ** 1.5, "y": np.arange(50)})
    mdf: Any = md.DataFrame(df, chunk_size=1)
    with option_context({"combine_size": 2}):
        results = {how: getattr(mdf, how)().to_pandas() for how in ("sum", "var", "min")}
    for how, got in results.items():
        pd.testing.assert_series_equal(got, getattr(df, how)(), rtol=1e-10)


def test_empty_frame_and_series() -> None:
    df = pd.DataFrame({"a": pd.Series([], dtype=np.int64), "f": pd.Series([], dtype=float)})
    mdf: Any = md.DataFrame(df)
    for how in ALL:
        pd.testing.assert_series_equal(getattr(mdf, how)().to_pandas(), getattr(df, how)())
        _assert_scalar(getattr(_series(df["a"]), how)().to_numpy(), getattr(df["a"], how)())
    nocols = pd.DataFrame(index=range(3))
    pd.testing.assert_series_equal(_frame_of(nocols).sum().to_pandas(), nocols.sum())


def test_bad_arguments() -> None:
    mdf: Any = md.DataFrame(_frame(), chunk_size=3)
    ms: Any = _series(_frame()["i"], chunk_size=3)
    with pytest.raises(ValueError, match="axis"):
        mdf.sum(axis=2)
    with pytest.raises(ValueError, match="axis"):
        ms.sum(axis=1)
    with pytest.raises(ValueError, match="skipna"):
        mdf.mean(skipna="yes")
    with pytest.raises(TypeError, match="ddof"):
        ms.var(ddof=1.5)
    pd.testing.assert_series_equal(mdf.max(axis="rows").to_pandas(), _frame().max(axis="rows"))


@given(
    rows=st.integers(0, 30),
    chunk=st.integers(1, 8),
    data=st.data(),
)
def test_hypothesis_shapes(rows: int, chunk: int, data: st.DataObject) -> None:
    values = data.draw(
        st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=rows, max_size=rows)
    )
    ints = data.draw(st.lists(st.integers(-1000, 1000), min_size=rows, max_size=rows))
    df = pd.DataFrame({"f": pd.Series(values, dtype=float), "i": pd.Series(ints, dtype=np.int64)})
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    for how in ("sum", "mean", "std", "max"):
        got = getattr(mdf, how)().to_pandas()
        pd.testing.assert_series_equal(got, getattr(df, how)(), rtol=1e-7, atol=1e-6)
    _assert_scalar(_series(df["f"], chunk_size=chunk).var().to_numpy(), df["f"].var())

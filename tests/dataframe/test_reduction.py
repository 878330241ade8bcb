"""DataFrame and Series reductions against pandas over several row chunkings."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.reduction  # noqa: F401 - attaches the methods
from jupyter_mars.config import option_context
from jupyter_mars.dataframe.reduction.kernels import numpy_reduce
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


def _assert_scalar(got: Any, expected: Any, atol: float = 0.0) -> None:
    if isinstance(expected, (float, np.floating)) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=atol)


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
    # a variance near 0 is rounding error of the squares: pandas' and a tree's differ there
    scale = float(np.abs(df["f"]).max(skipna=True)) ** 2 if df["f"].notna().any() else 1.0
    got = _series(df["f"], chunk_size=chunk).var().to_numpy()
    _assert_scalar(got, df["f"].var(), atol=1e-12 * scale)


def _labelled() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [3, 1, 4, 1, 5, 9, 2, 9],
            "f": [1.5, np.nan, 9.0, -3.0, np.nan, 9.0, 0.5, 8.0],
            "g": [11.0, 12.0, np.nan, 10.0, 15.0, 13.0, np.nan, 11.0],
            "b": [True, False, True, True, False, True, True, True],
        },
        index=list("pqrstuvw"),
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_idxmax_idxmin(chunk: int | None) -> None:
    for how in ("idxmax", "idxmin"):
        _check_labels(chunk, how)


def _check_labels(chunk: int | None, how: str) -> None:
    df = _labelled()
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    pd.testing.assert_series_equal(getattr(mdf, how)().to_pandas(), getattr(df, how)())
    pd.testing.assert_series_equal(getattr(mdf, how)(axis=1).to_pandas(), getattr(df, how)(axis=1))
    pd.testing.assert_series_equal(
        getattr(mdf, how)(numeric_only=True).to_pandas(), getattr(df, how)(numeric_only=True)
    )
    for col in df:
        got = getattr(_series(df[col], chunk_size=_chunk(chunk, len(df))), how)()
        assert got.to_numpy() == getattr(df[col], how)()  # first occurrence on ties
    dates = pd.Series(pd.to_datetime(["2001-01-01", None, "1999-05-05", "2003-02-02"]))
    ms = _series(dates, chunk_size=_chunk(chunk, 4))
    assert getattr(ms, how)().to_numpy() == getattr(dates, how)()


def test_idxmax_missing_values_raise_like_pandas() -> None:
    df = _labelled()
    mdf: Any = md.DataFrame(df, chunk_size=3)
    with pytest.raises(ValueError, match="NA"):
        df.idxmax(skipna=False)
    with pytest.raises(ValueError, match="NA"):
        mdf.idxmax(skipna=False).to_pandas()
    with pytest.raises(ValueError, match="NA"):
        _series(pd.Series([np.nan, np.nan]), chunk_size=1).idxmin().to_numpy()
    with pytest.raises(ValueError, match="axis"):
        mdf.idxmax(axis=3)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_corr_cov_frame(chunk: int | None) -> None:
    df = _labelled()
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    pd.testing.assert_frame_equal(mdf.corr().to_pandas(), df.corr(), rtol=1e-9)
    pd.testing.assert_frame_equal(mdf.corr(min_periods=6).to_pandas(), df.corr(min_periods=6))
    pd.testing.assert_frame_equal(mdf.cov().to_pandas(), df.cov(), rtol=1e-9)
    pd.testing.assert_frame_equal(mdf.cov(min_periods=6).to_pandas(), df.cov(min_periods=6))
    # with missing values pandas ignores ddof; without, it honours it
    pd.testing.assert_frame_equal(mdf.cov(ddof=3).to_pandas(), df.cov(ddof=3), rtol=1e-9)
    full = df[["a", "b"]].assign(c=df["a"] * 2.5 - 1)
    mfull: Any = md.DataFrame(full, chunk_size=_chunk(chunk, len(df)))
    for ddof in (0, 1, 3):
        pd.testing.assert_frame_equal(mfull.cov(ddof=ddof).to_pandas(), full.cov(ddof=ddof))
    ms_f = _series(df["f"], chunk_size=_chunk(chunk, len(df)))
    ms_g = _series(df["g"], chunk_size=_chunk(chunk, len(df)))
    _assert_scalar(ms_f.corr(ms_g).to_numpy(), df["f"].corr(df["g"]))
    _assert_scalar(ms_f.cov(ms_g, ddof=0).to_numpy(), df["f"].cov(df["g"], ddof=0))
    _assert_scalar(ms_f.corr(ms_g, min_periods=6).to_numpy(), df["f"].corr(df["g"], min_periods=6))


def test_corr_cov_errors_and_other_index() -> None:
    df = _labelled().assign(s=list("abcdefgh"))
    mdf: Any = md.DataFrame(df, chunk_size=3)
    with pytest.raises(ValueError, match="s"):
        mdf.corr()
    pd.testing.assert_frame_equal(
        mdf.corr(numeric_only=True).to_pandas(), df.corr(numeric_only=True), rtol=1e-9
    )
    with pytest.raises(ValueError, match="spearman"):
        mdf.corr(method="spearmann", numeric_only=True)
    with pytest.raises(TypeError, match="numbers"):
        _series(df["s"]).corr(_series(df["a"]))
    other = df["g"].iloc[::-1].iloc[1:]  # other labels, other order
    got = _series(df["f"], chunk_size=3).corr(_series(other, chunk_size=2)).to_numpy()
    _assert_scalar(got, df["f"].corr(other))


def test_corr_is_numerically_stable() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(200)
    df = pd.DataFrame({"x": x + 1e9, "y": 3 * x + rng.standard_normal(200) - 1e9})
    got = _frame_of(df, chunk_size=7).corr().to_numpy()
    np.testing.assert_allclose(got, np.corrcoef(x, df["y"] + 1e9), rtol=1e-7)


@given(
    rows=st.integers(0, 25),
    chunk=st.integers(1, 6),
    data=st.data(),
)
def test_corr_cov_hypothesis(rows: int, chunk: int, data: st.DataObject) -> None:
    cols = {
        name: data.draw(
            st.lists(
                st.one_of(st.none(), st.integers(-20, 20).map(float)), min_size=rows, max_size=rows
            )
        )
        for name in "xyz"
    }
    df = pd.DataFrame({k: pd.Series(v, dtype=float) for k, v in cols.items()})
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # pandas' own, on too few rows
        expected_corr, expected_cov = df.corr(), df.cov()
    pd.testing.assert_frame_equal(mdf.corr().to_pandas(), expected_corr, rtol=1e-8, atol=1e-10)
    pd.testing.assert_frame_equal(mdf.cov().to_pandas(), expected_cov, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_axis_none(chunk: int | None) -> None:
    ints = _labelled()[["a"]].assign(c=[2, 3, 4, 5, 6, 7, 8, 1])
    for df in (_labelled()[["a", "f", "g"]], ints):
        mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
        for how in ALL:
            if how == "count":
                with pytest.raises(ValueError, match="axis"):
                    mdf.count(axis=None)
                continue
            got = getattr(mdf, how)(axis=None)
            assert isinstance(got, Tensor)
            assert got.shape == ()
            _assert_scalar(got.to_numpy(), getattr(df, how)(axis=None))


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # inf - inf
@pytest.mark.parametrize("chunk", CHUNKS)
def test_axis_none_of_opposite_infinities_is_nan_as_in_pandas(chunk: int | None) -> None:
    df = pd.DataFrame({"a": [np.inf, -np.inf, 1.0], "b": [1.0, 2.0, np.nan]})
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    for how in ("sum", "prod", "min", "max"):
        for skipna in (True, False):
            got = getattr(mdf, how)(axis=None, skipna=skipna).to_numpy()
            _assert_scalar(got, getattr(df, how)(axis=None, skipna=skipna))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_min_count(chunk: int | None) -> None:
    df = _labelled()
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(df)))
    for how, min_count in itertools.product(("sum", "prod"), (0, 1, 6, 7, 9)):
        got = getattr(mdf, how)(min_count=min_count).to_pandas()
        pd.testing.assert_series_equal(got, getattr(df, how)(min_count=min_count))
        for col in ("a", "f"):
            ms = _series(df[col], chunk_size=_chunk(chunk, len(df)))
            _assert_scalar(
                getattr(ms, how)(min_count=min_count).to_numpy(),
                getattr(df[col], how)(min_count=min_count),
            )
        _assert_scalar(
            getattr(_frame_of(df[["f", "g"]], 3), how)(axis=None, min_count=min_count).to_numpy(),
            getattr(df[["f", "g"]], how)(axis=None, min_count=min_count),
        )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_datetime_reductions(chunk: int | None) -> None:
    for tz in (None, "UTC"):
        _check_datetimes(chunk, tz)


def _check_datetimes(chunk: int | None, tz: str | None) -> None:
    t = pd.Series(pd.date_range("2000-01-01 03:00", periods=9, freq="37h", tz=tz))
    t.iloc[2] = pd.NaT
    ms = _series(t, chunk_size=_chunk(chunk, len(t)))
    for how in ("min", "max", "mean"):
        assert getattr(ms, how)().to_numpy()[()] == getattr(t, how)()
    assert pd.isna(ms.mean(skipna=False).to_numpy()[()])
    td = t - t.iloc[0]
    assert _series(td, chunk_size=_chunk(chunk, len(t))).mean().to_numpy()[()] == td.mean()
    df = pd.DataFrame({"t": t, "x": np.arange(9)})
    mdf: Any = md.DataFrame(df, chunk_size=_chunk(chunk, len(t)))
    for how in ("min", "max", "mean"):
        pd.testing.assert_series_equal(getattr(mdf, how)().to_pandas(), getattr(df, how)())
    alone: Any = md.DataFrame(df[["t"]], chunk_size=_chunk(chunk, len(t)))  # NaT: zone kept
    pd.testing.assert_series_equal(
        alone.mean(skipna=False).to_pandas(), df[["t"]].mean(skipna=False)
    )


def _std_matches(got: Any, expected: Any) -> None:
    """Standard deviations of dates: pandas' up to the last bits of the float they come
    from (the partial moments are summed in another order)."""
    if pd.isna(expected):
        assert pd.isna(got)
        return
    assert type(got) is type(expected)
    assert got.unit == expected.unit
    assert abs(got.value - expected.value) <= max(2, abs(expected.value) * 1e-12)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_std_of_dates_and_spans_is_a_span(chunk: int | None) -> None:
    t = pd.Series(pd.date_range("2000-01-01 03:00", periods=9, freq="37h"))
    t.iloc[2] = pd.NaT
    for column in (t, t.dt.tz_localize("UTC"), t - t.iloc[0], t.astype("datetime64[ns]")):
        size = _chunk(chunk, len(column))
        for kwargs in ({}, {"ddof": 0}, {"skipna": False}):
            _std_matches(
                _series(column, size).std(**kwargs).execute().fetch(), column.std(**kwargs)
            )
            df = pd.DataFrame({"t": column, "x": np.arange(9.0)})
            got = _frame_of(df, size).std(**kwargs).to_pandas()
            expected = df.std(**kwargs)
            assert got.dtype == expected.dtype
            _std_matches(got["t"], expected["t"])
            assert got["x"] == expected["x"]
        one = column.to_frame().std(skipna=False)  # NaT alone keeps the span's dtype
        pd.testing.assert_series_equal(
            _frame_of(column.to_frame(), size).std(skipna=False).to_pandas(), one
        )
    with pytest.raises(TypeError, match="var"):
        _series(t, _chunk(chunk, 9)).var()


def _nullable_frames() -> dict[str, pd.DataFrame]:
    ints = pd.array([1, 2, None, 4, 7, None], dtype="Int64")
    return {
        "Int64 and floats": pd.DataFrame({"a": ints, "b": np.arange(6.0), "c": np.arange(6)}),
        "Int64 and ints": pd.DataFrame({"a": ints, "c": np.arange(6)}),
        "all missing": pd.DataFrame({"a": pd.array([None] * 6, dtype="Int64"), "c": np.arange(6)}),
        "boolean": pd.DataFrame(
            {
                "a": pd.array([True, None, False, True, True, None], dtype="boolean"),
                "c": np.arange(6),
            }
        ),
        "Float32": pd.DataFrame(
            {
                "a": pd.array([1.5, None, 2, 3, None, 0], dtype="Float32"),
                "c": np.arange(6.0, dtype="f4"),
            }
        ),
        "strings": pd.DataFrame({"a": ints, "s": list("uvwxyz")}),
        "dates": pd.DataFrame({"a": ints, "d": pd.date_range("2020", periods=6)}),
    }


@pytest.mark.parametrize("name", list(_nullable_frames()))
@pytest.mark.parametrize("chunk", [2, 4])
def test_frames_with_nullable_columns_reduce_to_pandas_dtypes_and_missing_values(
    name: str, chunk: int
) -> None:
    df = _nullable_frames()[name]
    for how in ALL + ["median"]:
        for kwargs in ({}, {"skipna": False}, {"numeric_only": True}):
            if how in ("any", "all") and kwargs.get("numeric_only"):
                kwargs = {"bool_only": True}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    expected = getattr(df, how)(**kwargs)
                except TypeError:
                    with pytest.raises(TypeError):
                        getattr(_frame_of(df, chunk), how)(**kwargs).to_pandas()
                    continue
                got = getattr(_frame_of(df, chunk), how)(**kwargs).to_pandas()
            pd.testing.assert_series_equal(got, expected, rtol=1e-12, obj=f"{name} {how} {kwargs}")


def test_bool_only_keeps_numpy_bool_columns_alone() -> None:
    df = pd.DataFrame(
        {
            "a": pd.array([True, None], dtype="boolean"),
            "b": pd.array([True, None], dtype="bool[pyarrow]"),
            "c": [True, False],
        }
    )
    for how in ("any", "all"):
        expected = getattr(df, how)(bool_only=True)
        pd.testing.assert_series_equal(
            getattr(_frame_of(df, 1), how)(bool_only=True).to_pandas(), expected
        )
        empty = getattr(df[["a"]], how)(bool_only=True)
        pd.testing.assert_series_equal(
            getattr(_frame_of(df[["a"]], 1), how)(bool_only=True).to_pandas(), empty
        )


@pytest.mark.parametrize("chunk", [None, 2])
def test_moments_of_float32_stay_float32(chunk: int | None) -> None:
    pdf = pd.DataFrame({"a": [1.5, 2.25, 3.0, np.nan], "b": [0.5, -1.0, 4.0, 2.0]}, dtype="f4")
    df = md.DataFrame(pdf, chunk_size=chunk)
    for how in ("mean", "var", "std", "sem", "skew"):
        pd.testing.assert_series_equal(getattr(df, how)().to_pandas(), getattr(pdf, how)())
        got = getattr(md.Series(pdf["a"], chunk_size=chunk), how)().execute().fetch()
        assert type(got) is np.float32
        assert np.isclose(got, getattr(pdf["a"], how)())


FAST_DTYPES = ["float64", "float32", "int64", "uint64", "int8", "uint16"]


@st.composite
def _plain_column(draw: Any) -> pd.Series:
    dtype = np.dtype(draw(st.sampled_from(FAST_DTYPES)))
    if dtype.kind == "f":
        width = 32 if dtype.itemsize == 4 else 64
        element: Any = st.floats(allow_nan=True, allow_infinity=True, width=width)
    else:
        info = np.iinfo(dtype)
        element = st.integers(int(info.min), int(info.max))
    values = draw(st.lists(element, min_size=1, max_size=40))
    return pd.Series(np.array(values, dtype=dtype))


@given(_plain_column(), st.sampled_from(["min", "max", "sum"]))
def test_numpy_reductions_give_pandas_own_scalar(column: pd.Series, how: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf, and int overflow
        expected = getattr(column, how)()
        got = numpy_reduce(column, how)
    if got is None:  # left to pandas: a NaN, or a sum pandas widens
        assert how == "sum" or np.isnan(column.to_numpy(dtype=np.float64)).any()
        return
    assert type(got) is type(expected)
    np.testing.assert_array_equal(np.array(got), np.array(expected))  # exact
    assert np.signbit(got) == np.signbit(expected)

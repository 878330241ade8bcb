"""Wide blocks of one NumPy number dtype reduce with their states as arrays
(``reduction._stacked``): pandas' results over every chunking, and the declined cases."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.reduction._stacked import StackedStates
from jupyter_mars.dataframe.reduction.kernels import ReduceSpec

HOWS = ["sum", "prod", "count", "min", "max", "any", "all", "mean", "var", "std", "sem"]
CHUNKS = [None, (7, 40), (3, 17), (5, 1000)]
"""One chunk; uneven rows and columns; uneven rows, all columns in one column chunk."""


def _wide(dtype: str, nan: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    if dtype == "bool":
        data: Any = rng.random((23, 60)) > 0.3
    elif dtype.startswith("int"):
        data = rng.integers(-5, 6, (23, 60)).astype(dtype)
    else:
        data = (rng.standard_normal((23, 60)) + 0.5).astype(dtype)
    pdf = pd.DataFrame(data, columns=[f"c{k}" for k in range(60)])
    if nan:
        pdf.iloc[2, 4] = pdf.iloc[9:, 7] = np.nan
        pdf.iloc[:, 11] = np.nan
        pdf.iloc[0, 13], pdf.iloc[5, 13] = np.inf, -np.inf  # a NaN sum with no NaN in
        pdf.iloc[3, 14] = np.inf
    return pdf


def _check(pdf: pd.DataFrame, how: str, chunk: Any, **kwargs: Any) -> None:
    df = md.DataFrame(pdf, chunk_size=chunk) if chunk else md.DataFrame(pdf)
    with warnings.catch_warnings():  # inf - inf warns, in pandas as in its chunks
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(pdf, how)(**kwargs)
        got = getattr(df, how)(**kwargs).to_pandas()
    pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "bool"])
def test_one_dtype_wide_frames_reduce_as_pandas(chunk: Any, how: str, dtype: str) -> None:
    _check(_wide(dtype), how, chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("skipna", [True, False])
def test_missing_values_reduce_as_pandas(chunk: Any, how: str, skipna: bool) -> None:
    kwargs = {} if how == "count" else {"skipna": skipna}
    _check(_wide("float64", nan=True), how, chunk, **kwargs)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("ddof", [0, 2, 30])
def test_ddof_and_short_columns(chunk: Any, ddof: int) -> None:
    pdf = _wide("float64", nan=True)
    for how in ("var", "std", "sem"):
        _check(pdf, how, chunk, ddof=ddof)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_declined_reductions_still_match_pandas(chunk: Any) -> None:
    pdf = _wide("float64", nan=True)
    _check(pdf, "sum", chunk, min_count=20)
    _check(pdf, "prod", chunk, min_count=1)
    _check(pdf, "skew", chunk)
    _check(pdf, "kurt", chunk)
    _check(pdf.iloc[:0], "min", chunk)
    _check(pdf.iloc[:0], "mean", chunk)
    mixed = pdf.assign(c3=pdf["c3"].astype("float32"), c5=np.arange(len(pdf)))
    for how in ("sum", "mean", "max", "std"):
        _check(mixed, how, chunk)
        _check(mixed, how, chunk, numeric_only=True)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_axis_none_of_a_wide_frame(chunk: Any) -> None:
    # no infinities: axis=None skips the NaN sum of inf - inf where pandas gives NaN
    pdf = _wide("float64", nan=True).drop(columns=["c13", "c14"])
    df = md.DataFrame(pdf, chunk_size=chunk) if chunk else md.DataFrame(pdf)
    for how in ("sum", "mean", "std", "max"):
        got = getattr(df, how)(axis=None).execute().fetch()
        assert np.isclose(got, getattr(pdf, how)(axis=None))


def _spec(pdf: pd.DataFrame, how: str) -> ReduceSpec:
    positions = tuple(range(pdf.shape[1]))
    return ReduceSpec(how, True, 1, positions, pdf.columns, tuple(pdf.dtypes))


def test_only_one_number_dtype_is_stacked() -> None:
    pdf = _wide("float64")
    assert isinstance(_spec(pdf, "mean").chunk(pdf), StackedStates)
    assert isinstance(_spec(pdf, "sum").chunk(pdf), StackedStates)
    mixed = pdf.assign(c3=pdf["c3"].astype("float32"))
    assert isinstance(_spec(mixed, "mean").chunk(mixed), list)
    assert isinstance(_spec(pdf, "skew").chunk(pdf), list)
    assert isinstance(_spec(pdf.iloc[:0], "min").chunk(pdf.iloc[:0]), list)


def test_stacked_and_listed_partials_merge_together() -> None:
    pdf = _wide("float64", nan=True)
    for how in ("min", "mean", "var", "sum"):
        spec = _spec(pdf, how)
        with warnings.catch_warnings():  # inf - inf warns, in pandas as in the chunks
            warnings.simplefilter("ignore", RuntimeWarning)
            stacked = spec.chunk(pdf.iloc[:10])
            listed = spec._chunk_by_dtype(pdf.iloc[10:])
            empty = spec.chunk(pdf.iloc[:0])
            expected = getattr(pdf, how)()
            got = spec.aggregate(spec.combine([stacked, listed, empty]))
        assert isinstance(stacked, StackedStates)
        assert isinstance(listed, list)
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("how", ["sum", "count", "max", "mean", "var"])
def test_stacked_states_are_the_per_column_states(how: str) -> None:
    pdf = _wide("float64")
    spec = _spec(pdf, how)
    stacked = spec.chunk(pdf)
    assert isinstance(stacked, StackedStates)
    listed = spec._chunk_by_dtype(pdf)
    if how == "mean":  # a mean needs no squared deviations: the stacked states skip them
        assert [s[:2] for s in stacked.to_list()] == [s[:2] for s in listed]
    else:
        assert stacked.to_list() == listed

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.filters  # noqa: F401
import jupyter_mars.dataframe.loc  # noqa: F401

CHUNKS = [1, 3, None]


def _frame(n: int = 10) -> pd.DataFrame:
    return pd.DataFrame(
        {"a": np.arange(n), "b": np.linspace(0, 1, n), "c": list("pqrstuvwxyz"[:n])},
        index=pd.Index(np.arange(n) * 2 + 100, name="id"),
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_label_slices_on_sorted_indexes(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    for key in (
        slice(103, 111),
        slice(104, 110),
        slice(None, 105),
        slice(113, None),
        slice(90, 200),
        slice(150, 160),
        slice(110, 104),
        slice(101, 117, 3),
    ):
        pd.testing.assert_frame_equal(d.loc[key].to_pandas(), df.loc[key])
    rev = df.iloc[::-1]
    r = md.DataFrame(rev, chunk_size=chunk_size)
    for key in (slice(113, 103), slice(None, 108), slice(111, None, 2), slice(103, 113)):
        pd.testing.assert_frame_equal(r.loc[key].to_pandas(), rev.loc[key])


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_label_slices_on_unsorted_indexes_need_present_unique_bounds(chunk_size):
    df = _frame().sample(frac=1, random_state=3)
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d.loc[106:102].to_pandas(), df.loc[106:102])
    pd.testing.assert_frame_equal(d.loc[:110].to_pandas(), df.loc[:110])
    with pytest.raises(KeyError):
        d.loc[105:110].to_pandas()
    dup = pd.DataFrame({"a": range(4)}, index=[3, 1, 3, 2])
    with pytest.raises(KeyError, match="non-unique"):
        md.DataFrame(dup, chunk_size=chunk_size).loc[3:2].to_pandas()


def test_label_slices_by_strings_and_after_filters():
    df = _frame().set_index("c")
    d = md.DataFrame(df, chunk_size=3)
    pd.testing.assert_frame_equal(d.loc["qq":"v"].to_pandas(), df.loc["qq":"v"])
    f, want = d[d["a"] % 2 == 0], df[df["a"] % 2 == 0]
    pd.testing.assert_frame_equal(f.loc["q":"w"].to_pandas(), want.loc["q":"w"])
    other = md.DataFrame(_frame(), chunk_size=3)  # strings on an int index: nothing
    pd.testing.assert_frame_equal(other.loc["foo":"bar"].to_pandas(), _frame().loc["foo":"bar"])


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_label_lists_and_single_labels(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    for key in ([110, 100, 118], [104], [], np.array([106, 102]), pd.Index([108, 108])):
        pd.testing.assert_frame_equal(d.loc[key].to_pandas(), df.loc[key])
    pd.testing.assert_series_equal(d.loc[106].to_pandas(), df.loc[106])
    assert d["c"].loc[112].to_numpy() == df["c"].loc[112]
    dup = pd.DataFrame({"a": range(5)}, index=[3, 1, 3, 2, 1])
    m = md.DataFrame(dup, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(m.loc[[1, 3]].to_pandas(), dup.loc[[1, 3]])
    with pytest.raises(ValueError, match="not unique"):
        m.loc[3].to_pandas()


def test_missing_row_labels_raise_key_error_when_executed():
    d = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(KeyError, match="not in index"):
        d.loc[[100, 101]].to_pandas()
    with pytest.raises(KeyError):
        d.loc[101].to_pandas()
    with pytest.raises(KeyError, match="nope"):
        d.loc[:, "nope"]  # columns: at the call


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_rows_and_columns(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(
        d.loc[102:110, ["c", "a"]].to_pandas(), df.loc[102:110, ["c", "a"]]
    )
    pd.testing.assert_series_equal(d.loc[:, "b"].to_pandas(), df.loc[:, "b"])
    pd.testing.assert_frame_equal(d.loc[:, "b":].to_pandas(), df.loc[:, "b":])
    pd.testing.assert_frame_equal(
        d.loc[:, [True, False, True]].to_pandas(), df.loc[:, [True, False, True]]
    )
    pd.testing.assert_series_equal(d.loc[[104, 100], "c"].to_pandas(), df.loc[[104, 100], "c"])
    pd.testing.assert_series_equal(d.loc[108, ["a", "b"]].to_pandas(), df.loc[108, ["a", "b"]])
    assert d.loc[108, "b"].to_numpy() == df.loc[108, "b"]
    assert d.at[116, "c"].to_numpy() == df.at[116, "c"]
    assert d["a"].at[104].to_numpy() == df["a"].at[104]


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_masks_and_callables(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d.loc[d["a"] > 4].to_pandas(), df.loc[df["a"] > 4])
    pd.testing.assert_series_equal(
        d.loc[lambda x: x["b"] < 0.5, "c"].to_pandas(), df.loc[lambda x: x["b"] < 0.5, "c"]
    )
    arr = np.arange(10) % 4 == 0
    pd.testing.assert_frame_equal(d.loc[arr].to_pandas(), df.loc[arr])


_INDEX = st.lists(st.integers(0, 8), max_size=16)


@given(
    labels=_INDEX,
    chunk=st.integers(1, 6),
    start=st.one_of(st.none(), st.integers(-1, 9)),
    stop=st.one_of(st.none(), st.integers(-1, 9)),
    step=st.integers(1, 3),
    descending=st.booleans(),
)
def test_slices_of_sorted_duplicate_indexes_equal_pandas(
    labels, chunk, start, stop, step, descending
):
    index = sorted(labels, reverse=descending)
    df = pd.DataFrame(
        {"v": np.arange(len(index), dtype="float64")}, index=pd.Index(index, dtype="int64")
    )
    d = md.DataFrame(df, chunk_size=chunk)
    key = slice(start, stop, step)
    pd.testing.assert_frame_equal(d.loc[key].to_pandas(), df.loc[key])
    wanted = sorted(set(labels))[:3]
    pd.testing.assert_frame_equal(d.loc[wanted].to_pandas(), df.loc[wanted])


@pytest.mark.parametrize("chunk", [1, 4, None])
def test_strings_on_a_time_index_are_parsed_as_pandas(chunk):
    daily = pd.DataFrame(
        {"A": np.arange(6.0), "B": np.arange(6) * 2}, index=pd.date_range("2013-01-01", periods=6)
    )
    lazy = md.DataFrame(daily, chunk_size=chunk or 6)
    # the first steps of pandas' ten-minute tour
    pd.testing.assert_series_equal(
        lazy.loc["20130102", ["A", "B"]].to_pandas(), daily.loc["20130102", ["A", "B"]]
    )
    pd.testing.assert_series_equal(lazy.loc["2013-01-05"].to_pandas(), daily.loc["2013-01-05"])
    pd.testing.assert_frame_equal(
        lazy.loc[["2013-01-03", "2013-01-01"]].to_pandas(), daily.loc[["2013-01-03", "2013-01-01"]]
    )
    with pytest.raises(KeyError):
        daily.loc["2014-01-05"]
    with pytest.raises(KeyError):
        lazy.loc["2014-01-05"].execute()
    hourly = pd.DataFrame(
        {"v": np.arange(48)}, index=pd.date_range("2013-01-01", periods=48, freq="h")
    )
    lazy_hours = md.DataFrame(hourly, chunk_size=chunk or 48)
    pd.testing.assert_series_equal(
        lazy_hours.loc["2013-01-02 05:00"].to_pandas(), hourly.loc["2013-01-02 05:00"]
    )
    pd.testing.assert_frame_equal(
        lazy_hours.loc[["2013-01-02"]].to_pandas(), hourly.loc[["2013-01-02"]]
    )
    # pandas gives the day's rows, a frame: a lazy label gives a row, so it says what to use
    with pytest.raises(ValueError, match="use loc\\['2013-01-02':'2013-01-02'\\]"):
        lazy_hours.loc["2013-01-02"].execute()
    pd.testing.assert_frame_equal(
        lazy_hours.loc["2013-01-02":"2013-01-02"].to_pandas(), hourly.loc["2013-01-02"]
    )

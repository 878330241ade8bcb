import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.dataframe.helpers import CHUNKS, lazy_copy


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_to_numeric_errors_coerce_matches_pandas(chunk_size):
    s = pd.Series(["1", "x", "3.5", None, "7"], name="v")
    got = md.to_numeric(lazy_copy(s, chunk_size), errors="coerce")
    pd.testing.assert_series_equal(got.to_pandas(), pd.to_numeric(s, errors="coerce"))


def test_to_numeric_bad_arguments_raise_at_the_call():
    s = md.Series(pd.Series(["1", "x"]), chunk_size=1)
    with pytest.raises(ValueError, match="invalid error value"):
        md.to_numeric(s, errors="ignore")
    with pytest.raises(ValueError, match="downcasting"):
        md.to_numeric(s, downcast="small")
    with pytest.raises(ValueError, match="Unable to parse"):
        md.to_numeric(s).execute()


@settings(max_examples=15, deadline=None)
@given(
    values=st.lists(st.integers(-70000, 70000), min_size=1, max_size=8),
    chunk=st.integers(1, 4),
    downcast=st.sampled_from(["integer", "signed", "unsigned", "float"]),
)
def test_to_numeric_downcast_picks_the_dtype_of_the_whole_input(values, chunk, downcast):
    s = pd.Series(values)
    got = md.to_numeric(md.Series(s, chunk_size=chunk), downcast=downcast)
    pd.testing.assert_series_equal(got.to_pandas(), pd.to_numeric(s, downcast=downcast))


def test_to_numeric_of_plain_values_and_tensors():
    assert md.to_numeric("3") == 3
    np.testing.assert_array_equal(md.to_numeric(["1", "2"]), pd.to_numeric(["1", "2"]))
    t = md.to_numeric(mt.tensor(np.array([1, 2, 300]), chunk_size=2), downcast="integer")
    np.testing.assert_array_equal(t.execute().fetch(), np.array([1, 2, 300], dtype=np.int16))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_to_datetime_of_series_and_index(chunk_size):
    s = pd.Series(["2020-01-01", "bad", "2021-03-04"], name="d")
    got = md.to_datetime(lazy_copy(s, chunk_size), errors="coerce")
    pd.testing.assert_series_equal(got.to_pandas(), pd.to_datetime(s, errors="coerce"))
    idx = pd.Index(["2020-01-01", "2021-03-04"], name="when")
    got_idx = md.to_datetime(md.Index(idx, chunk_size=chunk_size or 2), format="%Y-%m-%d")
    pd.testing.assert_index_equal(got_idx.to_pandas(), pd.to_datetime(idx, format="%Y-%m-%d"))
    frame = pd.DataFrame({"year": [2020, 2021], "month": [1, 2], "day": [3, 4]})
    pd.testing.assert_series_equal(
        md.to_datetime(lazy_copy(frame, chunk_size)).to_pandas(), pd.to_datetime(frame)
    )
    assert md.to_datetime("2020-01-02") == pd.Timestamp("2020-01-02")


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_to_timedelta_of_series_index_tensors_and_values(chunk_size):
    s = pd.Series(["1 day", "bad", "2h", None], name="span")
    got = md.to_timedelta(lazy_copy(s, chunk_size), errors="coerce")
    pd.testing.assert_series_equal(got.to_pandas(), pd.to_timedelta(s, errors="coerce"))
    numbers = pd.Series([1, 90, 3600])
    got = md.to_timedelta(lazy_copy(numbers, chunk_size), unit="s")
    pd.testing.assert_series_equal(got.to_pandas(), pd.to_timedelta(numbers, unit="s"))
    idx = pd.Index(["1min", "3min"], name="after")
    got_idx = md.to_timedelta(md.Index(idx, chunk_size=chunk_size or 2))
    pd.testing.assert_index_equal(got_idx.to_pandas(), pd.to_timedelta(idx))
    t = md.to_timedelta(mt.tensor(np.array([1, 2, 3]), chunk_size=2), unit="D")
    np.testing.assert_array_equal(t.execute().fetch(), pd.to_timedelta([1, 2, 3], unit="D"))
    assert md.to_timedelta("1h") == pd.Timedelta("1h")
    with pytest.raises(ValueError, match="errors"):
        md.to_timedelta(lazy_copy(s, chunk_size), errors="ignore")
    with pytest.raises(ValueError, match="bad"):
        md.to_timedelta(lazy_copy(s, chunk_size)).execute()  # "bad" is no span


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_factorize_of_lazy_objects_tensors_and_values(chunk_size):
    s = pd.Series(["b", None, "a", "b", "c", "a"])
    for kwargs in ({}, {"sort": True}, {"use_na_sentinel": False}):
        codes, uniques = md.factorize(lazy_copy(s, chunk_size), **kwargs)
        expected_codes, expected_uniques = pd.factorize(s, **kwargs)
        np.testing.assert_array_equal(codes, expected_codes)
        pd.testing.assert_index_equal(uniques, expected_uniques)
    codes, uniques = md.factorize(mt.tensor(np.array([3, 1, 3, 2]), chunk_size=2))
    expected_codes, expected_uniques = pd.factorize(pd.Series([3, 1, 3, 2]))
    np.testing.assert_array_equal(codes, expected_codes)
    pd.testing.assert_index_equal(uniques, expected_uniques)
    np.testing.assert_array_equal(md.factorize(np.array([2, 2, 5]))[0], [0, 0, 1])
    with pytest.raises(TypeError, match="list"):  # as pandas
        md.factorize([2, 2, 5])
    with pytest.raises(TypeError, match="DataFrame"):
        md.factorize(lazy_copy(pd.DataFrame({"a": [1]}), chunk_size))


def test_to_datetime_bad_format_raises_at_execute_and_bad_errors_at_call():
    s = md.Series(pd.Series(["2020-01-01", "nope"]), chunk_size=1)
    with pytest.raises(ValueError, match="errors"):
        md.to_datetime(s, errors="ignore")
    with pytest.raises(ValueError, match="nope"):
        md.to_datetime(s).execute()


@pytest.mark.parametrize("name", ["isna", "isnull", "notna", "notnull"])
@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_isna_family_on_lazy_objects_tensors_and_values(name, chunk_size):
    frame = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": ["x", None, "z"]})
    func, pandas_func = getattr(md, name), getattr(pd, name)
    pd.testing.assert_frame_equal(
        func(lazy_copy(frame, chunk_size)).to_pandas(), pandas_func(frame)
    )
    pd.testing.assert_series_equal(
        func(lazy_copy(frame["b"], chunk_size)).to_pandas(), pandas_func(frame["b"])
    )
    values = np.array([1.0, np.nan, 2.0])
    t = func(mt.tensor(values, chunk_size=chunk_size or 3))
    np.testing.assert_array_equal(t.execute().fetch(), pandas_func(values))
    grid = np.array([[1.0, np.nan], [np.inf, 2.0], [np.nan, 0.0]])
    t2 = func(mt.tensor(grid, chunk_size=chunk_size or 3))
    np.testing.assert_array_equal(t2.execute().fetch(), pandas_func(grid))
    ints = np.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(func(mt.tensor(ints)).execute().fetch(), pandas_func(ints))
    times = np.array(["2020-01-01", "NaT"], dtype="datetime64[ns]")
    np.testing.assert_array_equal(func(mt.tensor(times)).execute().fetch(), pandas_func(times))
    words = np.array(["a", ""])
    np.testing.assert_array_equal(func(mt.tensor(words)).execute().fetch(), pandas_func(words))
    assert func(None) == pandas_func(None)
    np.testing.assert_array_equal(func([1, None]), pandas_func([1, None]))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_unique_keeps_the_order_of_appearance(chunk_size):
    s = pd.Series([3, 1, 3, 2, 1, 5])
    np.testing.assert_array_equal(
        md.unique(lazy_copy(s, chunk_size)).execute().fetch(), pd.unique(s)
    )
    idx = pd.Index(list("babca"))
    got = md.unique(md.Index(idx, chunk_size=chunk_size or 5)).execute().fetch()
    np.testing.assert_array_equal(got, np.asarray(pd.unique(idx)))
    t = mt.tensor(np.array([2, 2, 7, 1, 7]), chunk_size=chunk_size or 5)
    np.testing.assert_array_equal(md.unique(t).execute().fetch(), np.array([2, 7, 1]))
    np.testing.assert_array_equal(md.unique(np.array([1, 1, 2])), np.array([1, 2]))
    with pytest.raises(TypeError, match="unique requires"):
        md.unique([1, 1, 2])  # as pandas
    with pytest.raises(TypeError, match="unique requires"):
        md.unique(md.DataFrame(pd.DataFrame({"a": [1]})))


def test_named_agg_and_executable_tuple_are_the_shared_types():
    assert md.NamedAgg is pd.NamedAgg
    import jupyter_mars

    assert md.ExecutableTuple is jupyter_mars.ExecutableTuple
    pair = md.ExecutableTuple([md.Series(pd.Series([1, 2])), md.Series(pd.Series([3]))])
    pair.execute()
    got = pair.fetch()
    pd.testing.assert_series_equal(got[1], pd.Series([3]))


@pytest.mark.parametrize("chunk_size", [1, 2, None])
def test_from_records_and_from_dict(chunk_size):
    records = [(1, "a", 0.5), (2, "b", 1.5), (3, "c", np.nan)]
    got = md.from_records(records, columns=["x", "y", "z"], index="x", chunk_size=chunk_size)
    want = pd.DataFrame.from_records(records, columns=["x", "y", "z"], index="x")
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    pd.testing.assert_frame_equal(
        md.DataFrame.from_records(records, chunk_size=chunk_size).to_pandas(),
        pd.DataFrame.from_records(records),
    )
    data = {"r1": [1, 2], "r2": [3, 4]}
    pd.testing.assert_frame_equal(
        md.from_dict(data, orient="index", columns=["p", "q"], chunk_size=chunk_size).to_pandas(),
        pd.DataFrame.from_dict(data, orient="index", columns=["p", "q"]),
    )

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt

CHUNKS = [1, 3, 100]


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {"i": rng.integers(0, 9, 10), "f": rng.random(10), "b": rng.random(10) > 0.5},
        index=pd.Index(np.arange(10) * 2, name="key"),
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_a_pandas_frame_round_trips(chunk_size):
    df = _frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    assert d.shape == df.shape
    assert list(d.columns) == list(df.columns)
    pd.testing.assert_series_equal(d.dtypes, df.dtypes)
    pd.testing.assert_frame_equal(d.to_pandas(), df)
    pd.testing.assert_frame_equal(d.execute().fetch(), df)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_series_and_index_round_trip(chunk_size):
    df = _frame()
    pd.testing.assert_series_equal(md.Series(df.f, chunk_size=chunk_size).to_pandas(), df.f)
    pd.testing.assert_index_equal(md.Index(df.index, chunk_size=chunk_size).to_pandas(), df.index)


def test_dicts_lists_and_arrays_build_frames_as_pandas_does():
    pd.testing.assert_frame_equal(
        md.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]}, chunk_size=2).to_pandas(),
        pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]}),
    )
    arr = np.arange(12).reshape(4, 3)
    pd.testing.assert_frame_equal(
        md.DataFrame(arr, columns=list("xyz"), chunk_size=(3, 2)).to_pandas(),
        pd.DataFrame(arr, columns=list("xyz")),
    )
    pd.testing.assert_series_equal(
        md.Series([1.5, 2.5], name="s").to_pandas(), pd.Series([1.5, 2.5], name="s")
    )


@pytest.mark.parametrize("chunk_size", [1, 4, 10])
def test_frames_from_tensors_as_in_the_mars_examples(chunk_size):
    t = mt.random.rand(10, 3, chunk_size=chunk_size)
    data = t.to_numpy()
    pd.testing.assert_frame_equal(md.DataFrame(t).to_pandas(), pd.DataFrame(data))
    pd.testing.assert_frame_equal(
        md.DataFrame(t, columns=list("abc")).to_pandas(), pd.DataFrame(data, columns=list("abc"))
    )
    v = mt.arange(7, chunk_size=chunk_size)
    pd.testing.assert_series_equal(
        md.Series(v, name="v").to_pandas(), pd.Series(np.arange(7), name="v")
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_to_tensor_and_values(chunk_size):
    df = _frame()[["i", "f"]]
    d = md.DataFrame(df, chunk_size=chunk_size)
    np.testing.assert_array_equal(d.to_tensor().to_numpy(), df.to_numpy())
    np.testing.assert_array_equal(d["f"].values.to_numpy(), df["f"].to_numpy())


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_values_of_mixed_columns_and_string_indexes_are_objects(chunk_size):
    df = pd.DataFrame(
        {"a": [1, 2, 3, 4], "s": ["x", "y", None, "w"], "f": [0.5, 1.5, 2.5, np.nan]},
        index=pd.Index(["p", "q", "r", "s"], name="k"),
    )
    d = md.DataFrame(df, chunk_size=chunk_size)
    for lazy, expected in (
        (d.values, df.values),
        (d.to_tensor(), df.to_numpy()),
        (d["s"].values, df["s"].to_numpy()),
        (d.index.values, df.index.to_numpy()),
    ):
        got = lazy.execute().fetch()
        assert got.dtype == expected.dtype == object
        pd.testing.assert_frame_equal(pd.DataFrame(got), pd.DataFrame(expected))


def test_repr_is_lazy_until_executed_then_shows_the_data():
    d = md.DataFrame(_frame(), chunk_size=3)
    assert repr(d).startswith("DataFrame <op=from_pandas, shape=(10, 3)")
    d.execute()
    assert repr(d) == repr(_frame())
    assert "<table" in d._repr_html_()


def test_bad_chunk_sizes_name_the_argument():
    with pytest.raises(ValueError, match="chunk_size must be a positive number of rows"):
        md.DataFrame({"a": [1]}, chunk_size=0)
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        md.DataFrame({"a": [1]}, chunk_size="3")
    with pytest.raises(ValueError, match=r"chunk_size must be rows or \(rows, cols\)"):
        md.DataFrame({"a": [1]}, chunk_size=(1, 2, 3))


def test_later_changes_to_the_pandas_source_do_not_reach_the_lazy_frame() -> None:
    pdf = pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]})
    lazy = md.DataFrame(pdf, chunk_size=2)
    expected = pdf.copy()
    del pdf["b"]
    pdf.loc[0, "a"] = 100
    pd.testing.assert_frame_equal(lazy.to_pandas(), expected)


def _even_rows(chunk: pd.DataFrame) -> pd.DataFrame:
    return chunk[chunk.a % 2 == 0]


def test_a_chunk_map_that_drops_rows_has_unknown_lengths() -> None:
    from jupyter_mars.dataframe.map_chunks import Slot, map_chunks

    pdf = pd.DataFrame({"a": range(10)})
    df = md.DataFrame(pdf, chunk_size=3)
    evens = map_chunks(_even_rows, [df], (Slot(0),), df.meta, keeps_rows=False)
    assert np.isnan(evens.shape[0])
    # a positional slice needs the real lengths: they are computed, not the input's
    pd.testing.assert_frame_equal(evens.iloc[1:4].to_pandas(), _even_rows(pdf).iloc[1:4])


def test_a_lazy_repr_shows_columns_dtypes_and_chunks() -> None:
    df = md.DataFrame(pd.DataFrame({"a": range(10), "b": list("abcdefghij")}), chunk_size=3)
    text = repr(df[df.a > 3])
    assert "columns=[a: int64, b: " in text
    assert "chunks=4" in text
    # how many chunks a groupby has depends on the sizes of its partial results
    assert "chunks=?" in repr(df.groupby("b").a.sum())
    assert "chunks=4" in repr(df.a + 1)
    assert text.endswith("; lazy: .execute() computes it>")
    wide = md.DataFrame(pd.DataFrame(np.zeros((2, 40))))
    assert "columns=[0: float64, 1: float64" in repr(wide)
    assert "11: float64, … 28 more]" in repr(wide)


def test_truth_value_is_ambiguous_as_in_pandas() -> None:
    data = pd.DataFrame({"a": [1, 2]})
    lazy = md.DataFrame(data, chunk_size=1)
    for obj, real in ((lazy, data), (lazy["a"], data["a"]), (lazy.index, data.index)):
        with pytest.raises(ValueError, match="truth value of a") as info:
            bool(obj)
        with pytest.raises(ValueError, match="ambiguous") as expected:
            bool(real)
        assert str(info.value) == str(expected.value)

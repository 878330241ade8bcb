"""DataFrame/Series structure: aliases, columns, levels, rows, reindexing, combining,
transposing; each against pandas over several chunkings."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy


def same(got, expected):
    got = got.to_pandas() if hasattr(got, "to_pandas") else got
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    elif isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(got, expected)
    elif isinstance(expected, pd.Index):
        pd.testing.assert_index_equal(got, expected)
    else:
        assert got == expected


def numbers(n=7):
    return pd.DataFrame(
        {"a": np.arange(n) - 2, "b": np.where(np.arange(n) % 3 == 0, np.nan, np.arange(n) / 2)},
        index=pd.Index(np.arange(n) * 10, name="k"),
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_aliases_divmod_and_keys(chunk_size):
    df = numbers()
    d = lazy_copy(df, chunk_size)
    same(d.divide(2), df.divide(2))
    same(d.multiply(d), df.multiply(df))
    same(d.subtract(1, fill_value=0), df.subtract(1, fill_value=0))
    same(d.product(), df.product())
    s, ds = df["a"], d["a"]
    for got, expected in zip(ds.divmod(3), s.divmod(3)):
        same(got, expected)
    for got, expected in zip(ds.rdivmod(7), s.rdivmod(7)):
        same(got, expected)
    for got, expected in zip(divmod(d, 3), divmod(df, 3)):
        same(got, expected)
    for got, expected in zip(divmod(7, ds), divmod(7, s)):
        same(got, expected)
    same(d.keys(), df.keys())
    same(ds.keys(), s.keys())
    for got, expected in zip(d.axes, df.axes, strict=True):
        same(got, expected)
    same(ds.axes[0], s.axes[0])


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_get(chunk_size):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    same(d.get("a"), df.get("a"))
    same(d.get(["c", "a"]), df.get(["c", "a"]))
    assert d.get("zz", 3) == 3
    assert d["a"].get(104) == df["a"].get(104)
    assert d["a"].get(105, -1) == -1


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_dot(chunk_size):
    df = numbers().fillna(0)
    d = lazy_copy(df, chunk_size)
    right = pd.DataFrame([[1, 2], [3, 4]], index=["b", "a"], columns=["x", "y"])
    same(d.dot(md.DataFrame(right)), df.dot(right))
    vector = pd.Series([1.5, 2], index=["a", "b"])
    same(d.dot(vector), df.dot(vector))
    same(d @ vector, df @ vector)
    same(d.dot(np.ones((2, 3))), df.dot(np.ones((2, 3))))
    s = df["a"]
    assert d["a"].dot(d["a"]).execute().fetch() == s.dot(s)
    same(d["a"].dot(d), s.dot(df))
    with pytest.raises(ValueError, match="aligned"):
        d.dot(pd.Series([1, 2], index=["a", "z"]))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_insert_pop_isetitem(chunk_size):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    expected = df.copy()
    assert d.insert(1, "n", 7) is None
    expected.insert(1, "n", 7)
    same(d, expected)
    d.insert(0, "arr", np.arange(10))
    expected.insert(0, "arr", np.arange(10))
    same(d, expected)
    with pytest.raises(ValueError, match="already exists"):
        d.insert(0, "a", 1)
    same(d.pop("b"), expected.pop("b"))
    same(d, expected)
    d.isetitem(1, -1)
    expected.isetitem(1, -1)
    same(d, expected)
    d.insert(2, "lazy", d["a"] * 2)
    expected.insert(2, "lazy", expected["a"] * 2)
    same(d, expected)
    d.isetitem(0, d["lazy"])
    expected.isetitem(0, expected["lazy"])
    same(d, expected)
    with pytest.raises(KeyError):
        d.pop("zz")
    with pytest.raises(IndexError):
        d.insert(99, "far", 1)
    s = df["a"].copy()
    ds = lazy_copy(s, chunk_size)
    assert ds.pop(104) == s.pop(104)
    same(ds, s)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_select_dtypes_filter_set_axis(chunk_size):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    same(d.select_dtypes("number"), df.select_dtypes("number"))
    same(d.select_dtypes(exclude="float"), df.select_dtypes(exclude="float"))
    with pytest.raises(ValueError, match="at least one of include or exclude"):
        d.select_dtypes()
    same(d.filter(items=["c", "a"]), df.filter(items=["c", "a"]))
    same(d.filter(like="b"), df.filter(like="b"))
    same(d.filter(items=[118, 100, 7], axis=0), df.filter(items=[118, 100, 7], axis=0))
    same(d["a"].filter(regex="^1[01]"), df["a"].filter(regex="^1[01]"))
    with pytest.raises(TypeError, match="mutually exclusive"):
        d.filter(items=["a"], like="a")
    same(d.set_axis(["x", "y", "z"], axis=1), df.set_axis(["x", "y", "z"], axis=1))
    labels = list("abcdefghij")
    same(d.set_axis(labels), df.set_axis(labels))
    with pytest.raises(ValueError, match="Length mismatch"):
        d.set_axis(["x"], axis=1)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_levels(chunk_size):
    df = labelled_frame().reset_index().set_index(["a", "c"])
    d = lazy_copy(df, chunk_size)
    same(d.rename_axis("idx", axis=1), df.rename_axis("idx", axis=1))
    same(d.rename_axis(["x", "y"]), df.rename_axis(["x", "y"]))
    same(d.droplevel("a"), df.droplevel("a"))
    same(d.reorder_levels(["c", "a"]), df.reorder_levels(["c", "a"]))
    same(d.swaplevel(), df.swaplevel())
    same(d["b"].swaplevel(), df["b"].swaplevel())
    same(d.xs(1, level="a"), df.xs(1, level="a"))
    wide = df.T.T.set_axis(pd.MultiIndex.from_tuples([("p", "x"), ("q", "y")]), axis=1)
    w = lazy_copy(wide, chunk_size)
    same(w.droplevel(0, axis=1), wide.droplevel(0, axis=1))
    same(w.swaplevel(axis=1), wide.swaplevel(axis=1))
    with pytest.raises(KeyError):
        d.droplevel("nope")
    with pytest.raises(KeyError):
        d.xs(99, level="a").to_pandas()


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_rows(chunk_size):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    same(d.take([3, 0, -1]), df.take([3, 0, -1]))
    same(d.take([2, 0], axis=1), df.take([2, 0], axis=1))
    same(d.truncate(103, 112), df.truncate(103, 112))
    falling = df.iloc[::-1]
    same(lazy_copy(falling, chunk_size).truncate(103, 112), falling.truncate(103, 112))
    same(d.truncate(after="b", axis=1), df.truncate(after="b", axis=1))
    with pytest.raises(ValueError, match="Truncate"):
        d.truncate(5, 1)
    with pytest.raises(ValueError, match="sorted index"):
        d.iloc[[1, 0, 2]].truncate(100, 104).to_pandas()
    with pytest.raises(ValueError, match="sorted index"):  # sorted chunks, not as a whole
        lazy_copy(pd.concat([df.iloc[3:], df.iloc[:3]]), chunk_size).truncate(100).to_pandas()
    same(d.xs(104), df.xs(104))
    same(d.xs("a", axis=1), df.xs("a", axis=1))
    same(d[["a"]].squeeze(), df[["a"]].squeeze())
    same(d.squeeze(), df.squeeze())
    assert d.b.first_valid_index() == df.b.first_valid_index()
    assert d.b.last_valid_index() == df.b.last_valid_index()
    empty = df.b.where(df.b > 5)
    assert lazy_copy(empty, chunk_size).first_valid_index() is None


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_explode(chunk_size):
    df = pd.DataFrame({"l": [[1, 2], [], [3], "x"], "k": [1, 2, 3, 4]}, index=[5, 6, 7, 8])
    d = lazy_copy(df, chunk_size)
    same(d.explode("l"), df.explode("l"))
    same(d.explode("l", ignore_index=True), df.explode("l", ignore_index=True))
    same(d["l"].explode(), df["l"].explode())
    with pytest.raises(KeyError):
        d.explode("zz")


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_reindex_and_align(chunk_size):
    df = numbers()
    d = lazy_copy(df, chunk_size)
    same(d.reindex([60, 15, 0]), df.reindex([60, 15, 0]))
    same(d.reindex([60, 0]), df.reindex([60, 0]))  # no gaps: int kept, as pandas
    same(d.reindex(columns=["b", "q"]), df.reindex(columns=["b", "q"]))
    same(d.reindex([60, 15], fill_value=0), df.reindex([60, 15], fill_value=0))
    same(d["a"].reindex([5, 10, 20], method="ffill"), df["a"].reindex([5, 10, 20], method="ffill"))
    other = df.iloc[1:4]
    same(d.reindex_like(md.DataFrame(other)), df.reindex_like(other))
    left, right = d.align(df.iloc[2:, :1].rename(columns={"a": "c"}))
    exp_left, exp_right = df.align(df.iloc[2:, :1].rename(columns={"a": "c"}))
    same(left, exp_left)
    same(right, exp_right)
    for got, expected in zip(
        d["a"].align(df["a"].iloc[3:], join="inner"), df["a"].align(df["a"].iloc[3:], join="inner")
    ):
        same(got, expected)


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_combining(chunk_size):
    df = labelled_frame()
    d = lazy_copy(df, chunk_size)
    update = pd.DataFrame({"b": [100.0, 200.0, np.nan]}, index=[102, 110, 114])
    expected = df.copy()
    assert d.update(update) is None
    expected.update(update)
    same(d, expected)
    same(d.combine_first(md.DataFrame(update)), expected.combine_first(update))
    s = df["b"].copy()
    ds = lazy_copy(s, chunk_size)
    patch = pd.Series([5.0, np.nan], index=[100, 118])
    ds.update(patch)
    s.update(patch)
    same(ds, s)
    same(ds.combine_first(md.Series(patch * 2)), s.combine_first(patch * 2))
    num = numbers()
    n = lazy_copy(num, chunk_size)
    same(n.combine(lazy_copy(num * 2, 3), np.minimum), num.combine(num * 2, np.minimum))
    same(n["a"].combine(0, max), num["a"].combine(0, max))
    same(n.compare(n.fillna(0)), num.compare(num.fillna(0)))
    same(n["b"].compare(n["b"].fillna(0)), num["b"].compare(num["b"].fillna(0)))
    with pytest.raises(ValueError, match="identically-labeled"):
        n.compare(md.DataFrame(num.iloc[1:])).to_pandas()  # row labels: when computed


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_transpose(chunk_size):
    df = labelled_frame(5)
    d = lazy_copy(df, chunk_size)
    t = d.T
    assert t.shape == (3, 5)
    same(t, df.T)
    same(d.transpose(), df.transpose())
    same(lazy_copy(numbers(4), chunk_size).T, numbers(4).T)
    same((lazy_copy(numbers(4), chunk_size).T + 1).iloc[1], (numbers(4).T + 1).iloc[1])
    s = df["a"]
    same(lazy_copy(s, chunk_size).T, s.T)


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(1, 8),
    chunk=st.integers(1, 4),
    labels=st.lists(st.integers(-2, 10), max_size=6),
)
def test_reindex_matches_pandas_on_any_labels(n, chunk, labels):
    df = numbers(n)
    expected = df.reindex(labels)
    same(md.DataFrame(df, chunk_size=chunk).reindex(labels), expected)


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(1, 8),
    chunk=st.integers(1, 4),
    positions=st.lists(st.integers(-8, 7), max_size=5),
    bounds=st.tuples(st.integers(-2, 80) | st.none(), st.integers(-2, 80) | st.none()),
)
def test_take_and_truncate_match_pandas(n, chunk, positions, bounds):
    df = numbers(n)
    d = md.DataFrame(df, chunk_size=chunk)
    positions = [p for p in positions if -n <= p < n]
    same(d.take(positions), df.take(positions))
    before, after = bounds
    if before is not None and after is not None and before > after:
        return
    same(d.truncate(before, after), df.truncate(before, after))

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.filters  # noqa: F401
import jupyter_mars.dataframe.labels  # noqa: F401
from tests.dataframe.helpers import CHUNKS, labelled_frame


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_drop(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d.drop(columns="b").to_pandas(), df.drop(columns="b"))
    pd.testing.assert_frame_equal(
        d.drop(["a", "c"], axis=1).to_pandas(), df.drop(["a", "c"], axis=1)
    )
    pd.testing.assert_frame_equal(d.drop([102, 118]).to_pandas(), df.drop([102, 118]))
    pd.testing.assert_frame_equal(
        d.drop(index=104, columns=["a"]).to_pandas(), df.drop(index=104, columns=["a"])
    )
    pd.testing.assert_frame_equal(
        d.drop(index=[101, 106], errors="ignore").to_pandas(),
        df.drop(index=[101, 106], errors="ignore"),
    )
    pd.testing.assert_series_equal(d["b"].drop(110).to_pandas(), df["b"].drop(110))


def test_drop_missing_labels_raise_key_error():
    d = md.DataFrame(labelled_frame(), chunk_size=3)
    with pytest.raises(KeyError, match="nope"):
        d.drop(columns=["nope"])  # columns: at the call
    with pytest.raises(KeyError, match=r"\[101\] not found in axis"):
        d.drop([100, 101]).to_pandas()  # rows: when executed
    with pytest.raises(ValueError, match="Need to specify"):
        d.drop()


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_rename_and_affixes(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(
        d.rename(columns={"a": "x", "zz": "y"}).to_pandas(),
        df.rename(columns={"a": "x", "zz": "y"}),
    )
    pd.testing.assert_frame_equal(
        d.rename(str.upper, axis="columns").to_pandas(), df.rename(str.upper, axis="columns")
    )
    pd.testing.assert_frame_equal(
        d.rename(index={100: 0, 118: 1}).to_pandas(), df.rename(index={100: 0, 118: 1})
    )
    s = df["b"]
    pd.testing.assert_series_equal(d["b"].rename("B").to_pandas(), s.rename("B"))
    pd.testing.assert_series_equal(
        d["b"].rename(lambda i: i * 10).to_pandas(), s.rename(lambda i: i * 10)
    )
    with pytest.raises(KeyError):
        d.rename(columns={"zz": "y"}, errors="raise")
    pd.testing.assert_frame_equal(d.add_prefix("p_").to_pandas(), df.add_prefix("p_"))
    pd.testing.assert_frame_equal(d.add_suffix("_s").to_pandas(), df.add_suffix("_s"))
    pd.testing.assert_series_equal(d["a"].add_prefix("r").to_pandas(), df["a"].add_prefix("r"))
    pd.testing.assert_frame_equal(
        d.add_suffix("_r", axis=0).to_pandas(), df.add_suffix("_r", axis=0)
    )


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_set_index_and_reset_index(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(d.set_index("c").to_pandas(), df.set_index("c"))
    pd.testing.assert_frame_equal(
        d.set_index(["c", "a"], drop=False).to_pandas(), df.set_index(["c", "a"], drop=False)
    )
    both = df.set_index("c", append=True)
    pd.testing.assert_frame_equal(d.set_index("c", append=True).to_pandas(), both)
    pd.testing.assert_frame_equal(
        d.set_index("c", append=True).reset_index(level="id").to_pandas(),
        both.reset_index(level="id"),
    )
    got = d.reset_index()
    assert got.shape == (10, 4)
    pd.testing.assert_frame_equal(got.to_pandas(), df.reset_index())
    pd.testing.assert_frame_equal(d.reset_index(drop=True).to_pandas(), df.reset_index(drop=True))
    pd.testing.assert_frame_equal(
        d.reset_index(names="key").to_pandas(), df.reset_index(names="key")
    )
    pd.testing.assert_series_equal(
        d["b"].reset_index(drop=True).to_pandas(), df["b"].reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(
        d["b"].reset_index(name="v").to_pandas(), df["b"].reset_index(name="v")
    )
    with pytest.raises(KeyError, match="nope"):
        d.set_index("nope")


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_reset_index_after_a_filter_numbers_the_whole_frame(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    got = d[d["a"] > 1].reset_index(drop=True)
    want = df[df["a"] > 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    pd.testing.assert_frame_equal(got.iloc[2:5].to_pandas(), want.iloc[2:5])


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_assign(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df, chunk_size=chunk_size)
    other = pd.Series([1.5, 2.5], index=[118, 100])  # aligned on labels
    pd.testing.assert_frame_equal(
        d.assign(
            e=1,
            f=lambda x: x["a"] * 2,
            g=np.arange(10) * 3,
            h=d["b"] + 1,
            i=other,
            j=lambda x: x["f"] + x["e"],
            a="text",
        ).to_pandas(),
        df.assign(
            e=1,
            f=lambda x: x["a"] * 2,
            g=np.arange(10) * 3,
            h=df["b"] + 1,
            i=other,
            j=lambda x: x["f"] + x["e"],
            a="text",
        ),
    )
    pd.testing.assert_frame_equal(
        d.assign(o=md.Series(other, chunk_size=1)).to_pandas(), df.assign(o=other)
    )
    f, want = d[d["a"] > 0], df[df["a"] > 0]
    pd.testing.assert_frame_equal(
        f.assign(z=list(range(len(want)))).to_pandas(), want.assign(z=list(range(len(want))))
    )


def test_assign_array_of_the_wrong_length_raises():
    d = md.DataFrame(labelled_frame())
    with pytest.raises(ValueError, match="has length 3"):
        d.assign(z=np.arange(3))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_setitem_and_delitem(chunk_size):
    df = labelled_frame()
    d = md.DataFrame(df.copy(), chunk_size=chunk_size)
    before = d
    first = d.node
    d["z"] = d["a"] * 10
    df["z"] = df["a"] * 10
    d["c"] = 0.5
    df["c"] = 0.5
    d[["p", "q"]] = d[["a", "b"]]
    df[["p", "q"]] = df[["a", "b"]]
    del d["b"]
    del df["b"]
    assert d is before
    assert d.node is not first
    pd.testing.assert_frame_equal(d.to_pandas(), df)
    pd.testing.assert_series_equal(d.z.to_pandas(), df.z)


@given(
    values=st.lists(st.tuples(st.integers(0, 3), st.integers(-5, 5)), max_size=20),
    chunk=st.integers(1, 7),
    keep=st.integers(0, 3),
    drop=st.booleans(),
)
def test_reset_index_after_filters_equal_pandas(values, chunk, keep, drop):
    df = pd.DataFrame(
        {"k": pd.Series([v[0] for v in values], dtype="int64")},
        index=pd.Index([v[1] for v in values], dtype="int64", name="i"),
    )
    d = md.DataFrame(df, chunk_size=chunk)
    got = d[d["k"] >= keep].reset_index(drop=drop)
    want = df[df["k"] >= keep].reset_index(drop=drop)
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    pd.testing.assert_series_equal(
        d["k"][d["k"] < keep].reset_index(drop=True).to_pandas(),
        df["k"][df["k"] < keep].reset_index(drop=True),
    )

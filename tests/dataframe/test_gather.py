"""``parallel_concat``: row chunks gathered on several threads, as ``pd.concat`` gives them."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars import new_session
from jupyter_mars.dataframe import gather
from jupyter_mars.dataframe.gather import parallel_concat
from jupyter_mars.engine import copies


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch):
    """Every gather here is big enough for threads."""
    monkeypatch.setattr(gather, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(copies, "PARALLEL_BYTES", 0)


def split(obj, lengths):
    starts = np.cumsum([0, *lengths])
    return [obj.iloc[a:b] for a, b in zip(starts[:-1], starts[1:])]


def check(obj, lengths, threads=2):
    chunks = split(obj, lengths)
    out = parallel_concat(chunks, threads)
    assert out is not None
    expected = pd.concat(chunks)
    if isinstance(obj, pd.Series):
        pd.testing.assert_series_equal(out, expected)
    else:
        pd.testing.assert_frame_equal(out, expected)
    return out


def frame(n):
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "i": rng.integers(-5, 5, n),
            "f": rng.random(n),
            "b": rng.random(n) > 0.5,
            "t": pd.date_range("2024-01-01", periods=n, freq="min"),
            "u": rng.integers(0, 9, n).astype(np.uint8),
        }
    )


@pytest.mark.parametrize("lengths", [(3, 4, 5), (0, 6, 0, 6), (1,) * 12])
def test_mixed_dtypes_come_back_as_concat_gives_them(lengths):
    out = check(frame(12), lengths)
    assert isinstance(out.index, pd.RangeIndex)


def test_one_dtype_is_one_block_as_concat_makes_it():
    df = pd.DataFrame(np.arange(60.0).reshape(12, 5), columns=list("abcde"))
    out = check(df, (5, 7))
    assert out._mgr.nblocks == 1  # the layout is the point


def test_labels_of_every_kind_are_kept():
    df = frame(8)
    df.index = pd.MultiIndex.from_product([["x", "y"], range(4)], names=["g", "n"])
    df.columns = pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1), ("b", 2), ("c", 1)])
    check(df, (3, 5))
    dup = pd.DataFrame(np.arange(16).reshape(8, 2), columns=["a", "a"], index=list("abcdefgh"))
    check(dup, (2, 6))
    dated = pd.DataFrame({"v": np.arange(6.0)}, index=pd.date_range("2024", periods=6, name="d"))
    check(dated, (4, 2))


def test_a_series_keeps_its_name_and_index():
    s = pd.Series(np.arange(10, dtype=np.int32), index=np.arange(10) * 3, name="s")
    check(s, (4, 6))


def test_attrs_are_kept_where_every_chunk_has_them():
    df = frame(6)
    df.attrs["unit"] = "m"
    assert check(df, (3, 3)).attrs == {"unit": "m"}


@pytest.mark.parametrize(
    "obj",
    [
        pd.DataFrame({"o": list("abcdef")}),
        pd.DataFrame({"s": pd.array(list("abcdef"), dtype="string")}),
        pd.DataFrame({"n": pd.array([1, None, 3, 4, 5, 6], dtype="Int64")}),
        pd.DataFrame({"t": pd.date_range("2024", periods=6, tz="UTC")}),
        pd.Series(list("abcdef")),
    ],
)
def test_columns_numpy_cannot_copy_alone_are_left_to_concat(obj):
    assert parallel_concat(split(obj, (3, 3)), 2) is None


def test_chunks_that_disagree_are_left_to_concat():
    a = pd.DataFrame({"x": [1, 2]})
    assert parallel_concat([a, pd.DataFrame({"x": [1.5]})], 2) is None
    assert parallel_concat([a, pd.DataFrame({"y": [1]})], 2) is None
    assert parallel_concat([a, a["x"]], 2) is None


def test_one_thread_or_many_mixed_columns_are_left_to_concat():
    df = frame(6)
    assert parallel_concat(split(df, (3, 3)), 1) is None
    kinds = [np.int64, np.float64]
    wide = pd.DataFrame({f"c{i}": np.arange(4, dtype=kinds[i % 2]) for i in range(40)})
    assert parallel_concat(split(wide, (2, 2)), 2) is None


@settings(max_examples=40, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 7), min_size=2, max_size=6),
    threads=st.integers(2, 4),
)
def test_any_chunking_gives_concat(lengths, threads):
    check(frame(sum(lengths)), lengths, threads)


def test_a_large_frame_fetched_on_two_cores_is_pandas(small_threshold):
    df = frame(50_000)
    with new_session(n_cpu=2) as session:
        out = md.DataFrame(df, chunk_size=7_000).to_pandas(session=session)
    pd.testing.assert_frame_equal(out, df)

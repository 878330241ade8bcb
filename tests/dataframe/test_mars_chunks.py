"""Mars's rebalance and cartesian_chunk against the pandas result of the same work."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from jupyter_mars.session import new_session
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _lengths(lazy, session=None) -> tuple[int, ...]:
    """The row count of each chunk, in order, as the chunks themselves report them."""
    counts = lazy.map_chunk(lambda c: pd.DataFrame({"n": [len(c)]}))
    return tuple(int(n) for n in counts.to_pandas(session=session)["n"])


def _frame(n: int = 23) -> pd.DataFrame:
    return pd.DataFrame(
        {"a": np.arange(n), "b": np.arange(n) * 0.5, "c": [f"s{i}" for i in range(n)]}
    )


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("parts", [1, 3, 5, 40])
def test_rebalance_to_a_number_of_partitions_keeps_the_rows(chunk, parts):
    pdf = _frame()
    lazy = lazy_copy(pdf, chunk)
    kept = lazy[lazy["a"] % 3 > 0]  # lengths unknown until computed
    got = kept.rebalance(num_partitions=parts).execute()
    pd.testing.assert_frame_equal(got.fetch(), pdf[pdf["a"] % 3 > 0])
    rows = len(pdf[pdf["a"] % 3 > 0])
    size = -(-rows // parts)
    assert _lengths(got) == tuple([size] * (rows // size) + ([rows % size] if rows % size else []))


@pytest.mark.parametrize(
    ("factor", "n_cpu", "chunks"), [(None, 2, 2), (3, 2, 6), (1, 3, 3), (2.5, 1, 2)]
)
def test_rebalance_by_the_runtime_cores(factor, n_cpu, chunks):
    pdf = _frame(24)
    with new_session(n_cpu=n_cpu) as session:
        lazy = md.DataFrame(pdf, chunk_size=5)
        got = lazy.rebalance(factor=factor)
        got.execute(session=session)
        assert len(_lengths(got, session)) == chunks
        pd.testing.assert_frame_equal(got.fetch(session=session), pdf)
        series = lazy["b"].rebalance(factor=factor)
        pd.testing.assert_series_equal(series.to_pandas(session=session), pdf["b"])


def test_an_index_rechunks_and_rebalances():
    index = pd.Index(np.arange(10) * 3, name="n")
    lazy = md.Index(index, chunk_size=3)
    again = lazy.rechunk(4).execute()
    assert again._layout() == ((4, 4, 2),)
    pd.testing.assert_index_equal(again.fetch(), index)
    even = lazy[lazy > 3].rebalance(num_partitions=3).execute()
    pd.testing.assert_index_equal(even.fetch(), index[index > 3])
    with pytest.raises(ValueError, match="No axis named 1"):
        lazy.rebalance(axis=1)
    levels = pd.MultiIndex.from_tuples([(1, "a"), (2, "b"), (3, "c")], names=["x", "y"])
    pd.testing.assert_index_equal(md.Index(levels, chunk_size=1).rechunk(2).to_pandas(), levels)


def test_rebalance_of_a_frame_split_by_columns():
    pdf = pd.DataFrame(np.arange(60).reshape(12, 5))
    got = md.DataFrame(pdf, chunk_size=(5, 2)).rebalance(num_partitions=4).execute()
    pd.testing.assert_frame_equal(got.fetch(), pdf)
    assert _lengths(got) == (3, 3, 3, 3)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"num_partitions": 0}, ValueError),
        ({"num_partitions": 2.5}, TypeError),
        ({"factor": -1}, ValueError),
        ({"axis": 1}, NotImplementedError),
        ({"axis": 2}, ValueError),
    ],
)
def test_rebalance_checks_its_arguments(kwargs, error):
    with pytest.raises(error):
        lazy_copy(_frame(), 4).rebalance(**kwargs)


def _pairs_of(left: pd.DataFrame, right: pd.DataFrame, lc: int, rc: int, func) -> pd.DataFrame:
    """What cartesian_chunk gives: func of each pair of row chunks, left then right."""
    lefts = [left.iloc[i : i + lc] for i in range(0, len(left), lc)]
    rights = [right.iloc[j : j + rc] for j in range(0, len(right), rc)]
    return pd.concat([func(a, b) for a in lefts for b in rights])


@pytest.mark.parametrize(("lc", "rc"), [(1, 1), (2, 3), (10, 10)])
def test_cartesian_chunk_calls_func_on_every_pair(lc, rc):
    left = pd.DataFrame({"x": np.arange(5), "k": list("ababa")})
    right = pd.DataFrame({"y": np.arange(4) * 10.0})

    def cross(a, b):
        return a.merge(b, how="cross")

    got = md.DataFrame(left, chunk_size=lc).cartesian_chunk(
        md.DataFrame(right, chunk_size=rc), cross
    )
    pd.testing.assert_frame_equal(got.to_pandas(), _pairs_of(left, right, lc, rc, cross))
    # the whole cross product, in some order
    whole = got.to_pandas().sort_values(["x", "y"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(
        whole, left.merge(right, how="cross").sort_values(["x", "y"]).reset_index(drop=True)
    )


def test_cartesian_chunk_with_args_kwargs_and_a_series_result():
    left = pd.DataFrame({"x": np.arange(6.0)})
    right = pd.Series(np.arange(3.0), name="y")

    def nearest(a, b, scale, shift=0):
        gaps = np.abs(a["x"].to_numpy()[:, None] - b.to_numpy()[None, :] * scale) + shift
        return pd.Series(gaps.min(axis=1), index=a.index, name="gap")

    got = md.DataFrame(left, chunk_size=4).cartesian_chunk(
        md.Series(right, chunk_size=2), nearest, args=(2,), shift=1
    )
    want = _pairs_of(left, right.to_frame(), 4, 2, lambda a, b: nearest(a, b["y"], 2, shift=1))
    pd.testing.assert_series_equal(got.to_pandas(), want)
    assert got.meta.name == "gap"


def test_cartesian_chunk_takes_the_result_types_when_told():
    left = md.DataFrame(pd.DataFrame({"x": [1, 2, 3]}), chunk_size=2)
    right = md.DataFrame(pd.DataFrame({"y": [4, 5]}), chunk_size=1)

    def summed(a, b):
        return pd.DataFrame({"s": [float(a["x"].sum() + b["y"].sum())]})

    got = left.cartesian_chunk(
        right,
        summed,
        output_type="dataframe",
        dtypes=pd.Series({"s": np.dtype(float)}),
        skip_infer=True,
    )
    assert list(got.to_pandas()["s"]) == [7.0, 8.0, 7.0, 8.0]
    with pytest.raises(TypeError, match="skip_infer"):
        left.cartesian_chunk(right, summed, skip_infer=True)
    with pytest.raises(TypeError, match="right must be a DataFrame or Series"):
        left.cartesian_chunk(pd.DataFrame({"y": [1]}), summed)
    with pytest.raises(NotImplementedError, match="func must be a callable"):
        left.cartesian_chunk(right, "sum")

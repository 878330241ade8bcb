"""What only a MultiIndex has: md.MultiIndex, levels and codes, their edits, lookups."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.index.helpers import CHUNKS, assert_index, lazy_index


def two_levels() -> pd.MultiIndex:
    """Named levels, an unsorted first level, NaN in the second."""
    return pd.MultiIndex.from_arrays(
        [list("babcacb"), [1.5, np.nan, 2.5, 1.5, 0.5, np.nan, 2.5]], names=["k", "f"]
    )


def three_levels() -> pd.MultiIndex:
    """Unnamed levels of ints, strings and dates; one label repeated."""
    dates = pd.to_datetime(["2024-01-02", "2024-01-01", "2024-01-02", "2024-01-03", "2024-01-02"])
    return pd.MultiIndex.from_arrays([[3, 1, 3, 2, 1], list("xyxzy"), dates])


def filtered() -> tuple[pd.DataFrame, pd.MultiIndex]:
    """A frame's index after a filter: its levels keep values no label uses."""
    frame = pd.DataFrame({"v": range(7)}, index=two_levels())
    return frame, frame[frame["v"] % 3 != 0].index


INDEXES = [two_levels, three_levels]


def lazy_filtered(chunk: int | None) -> tuple[Any, pd.MultiIndex]:
    frame, expected = filtered()
    mdf = md.DataFrame(frame, chunk_size=chunk or len(frame))
    return mdf[mdf["v"] % 3 != 0].index, expected


def assert_levels(got: Any, expected: Any) -> None:
    assert type(got) is type(expected)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        pd.testing.assert_index_equal(g, e, exact=True)


def assert_codes(got: Any, expected: Any) -> None:
    assert type(got) is type(expected)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)
        assert g.dtype == e.dtype


@pytest.mark.parametrize("make", INDEXES)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_levels_codes_and_levshape_match_pandas(make: Any, chunk: int | None) -> None:
    p = make()
    idx = lazy_index(p, chunk)
    assert isinstance(idx, md.MultiIndex)
    assert_levels(idx.levels, p.levels)
    assert_codes(idx.codes, p.codes)
    assert idx.levshape == p.levshape
    pd.testing.assert_series_equal(idx.dtypes, p.dtypes)
    assert idx.names == p.names
    assert idx.nlevels == p.nlevels
    values = idx.values
    assert values.dtype == p.values.dtype
    as_index = pd.MultiIndex.from_tuples
    pd.testing.assert_index_equal(as_index(list(values.to_numpy())), as_index(list(p.values)))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_levels_keep_unused_values_after_a_filter(chunk: int | None) -> None:
    idx, p = lazy_filtered(chunk)
    assert isinstance(idx, md.MultiIndex)
    assert_levels(idx.levels, p.levels)
    assert_codes(idx.codes, p.codes)
    trimmed = idx.remove_unused_levels()
    assert isinstance(trimmed, md.MultiIndex)
    assert_index(trimmed, p.remove_unused_levels())
    assert_levels(trimmed.levels, p.remove_unused_levels().levels)
    assert_levels(trimmed.to_pandas().levels, p.remove_unused_levels().levels)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_levels_of_an_index_built_per_chunk_are_the_whole_ones(chunk: int | None) -> None:
    frame = pd.DataFrame({"k": list("cabcab"), "n": [2, 1, 1, 3, 2, 1], "v": range(6)})
    mdf = md.DataFrame(frame, chunk_size=chunk or len(frame))
    idx, p = mdf.set_index(["k", "n"]).index, frame.set_index(["k", "n"]).index
    assert_levels(idx.levels, p.levels)
    assert_codes(idx.codes, p.codes)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_set_levels_and_set_codes_match_pandas(chunk: int | None) -> None:
    p = two_levels()
    idx = lazy_index(p, chunk)
    for args, kwargs in [
        ((["B", "A", "C"],), {"level": 0}),
        (([["q", "r", "s"], [10.0, 20.0, 30.0]],), {}),
        (([[-1.0, -2.0, -3.0]],), {"level": ["f"]}),
    ]:
        assert_index(idx.set_levels(*args, **kwargs), p.set_levels(*args, **kwargs))
    codes = [0, 0, 1, 1, 2, 2, -1]
    assert_index(idx.set_codes(codes, level=1), p.set_codes(codes, level=1))
    both = [[2, 1, 0, 0, 1, 2, 0], codes]
    assert_index(idx.set_codes(both), p.set_codes(both))
    fp, filtered_p = filtered()
    lazy_f, _ = lazy_filtered(chunk)
    # positions in the whole index's levels, unused values included
    assert_index(
        lazy_f.set_levels(["X", "Y", "Z"], level=0), filtered_p.set_levels(["X", "Y", "Z"], level=0)
    )


def test_set_levels_checks_its_arguments_at_the_call() -> None:
    idx = lazy_index(two_levels(), 3)
    with pytest.raises(ValueError, match="Length of levels"):
        idx.set_levels([["a"]])
    with pytest.raises(TypeError):
        idx.set_levels("abc", level=0)
    with pytest.raises(ValueError, match="Length of codes"):
        idx.set_codes([[0, 1]])
    with pytest.raises(KeyError):
        idx.set_codes([0] * 7, level="nope")
    with pytest.raises(ValueError, match="after < before"):
        idx.truncate(after="a", before="c")
    with pytest.raises(AttributeError, match="levels"):
        _ = lazy_index(pd.Index([1, 2]), 1).levels


@pytest.mark.parametrize("chunk", CHUNKS)
def test_lookups_match_pandas(chunk: int | None) -> None:
    p = two_levels().sort_values()
    idx = lazy_index(p, chunk)
    np.testing.assert_array_equal(idx.get_locs(["b"]), p.get_locs(["b"]))
    np.testing.assert_array_equal(idx.get_locs([["a", "c"], 1.5]), p.get_locs([["a", "c"], 1.5]))
    loc, rest = idx.get_loc_level("b")
    ploc, prest = p.get_loc_level("b")
    assert loc == ploc
    pd.testing.assert_index_equal(rest, prest)
    loc, rest = idx.get_loc_level(1.5, level="f")
    ploc, prest = p.get_loc_level(1.5, level="f")
    np.testing.assert_array_equal(loc, ploc)
    pd.testing.assert_index_equal(rest, prest)
    assert idx.equal_levels(p) is p.equal_levels(p)
    assert idx.equal_levels(p.droplevel(0)) is False
    assert_index(idx.truncate("a", "b"), p.truncate("a", "b"))
    assert idx.is_monotonic_increasing == p.is_monotonic_increasing
    assert lazy_index(two_levels(), chunk).is_monotonic_increasing is False
    with pytest.raises(KeyError):
        idx.get_locs(["z"])


@pytest.mark.parametrize("make", INDEXES)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_level_methods_match_pandas(make: Any, chunk: int | None) -> None:
    p = make()
    idx = lazy_index(p, chunk)
    assert_index(idx.droplevel(0), p.droplevel(0))
    assert_index(idx.get_level_values(1), p.get_level_values(1))
    assert_index(idx.swaplevel(0, 1), p.swaplevel(0, 1))
    order = list(range(p.nlevels))[::-1]
    assert_index(idx.reorder_levels(order), p.reorder_levels(order))
    got, indexer = idx.sortlevel(1)
    want, pindexer = p.sortlevel(1)
    pd.testing.assert_index_equal(got, want)
    np.testing.assert_array_equal(indexer, pindexer)
    names = [f"n{i}" for i in range(p.nlevels)]
    pd.testing.assert_frame_equal(idx.to_frame(name=names).to_pandas(), p.to_frame(name=names))
    pd.testing.assert_frame_equal(idx.to_frame(index=False).to_pandas(), p.to_frame(index=False))
    assert_index(idx.set_names(names), p.set_names(names))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_constructors_give_lazy_multiindexes(chunk: int | None) -> None:
    size = chunk or 6
    arrays = [["a", "a", "b", "b", "c", "c"], [1, 2, 1, 2, 1, 2]]
    tuples = list(zip(*arrays, strict=True))
    cases = [
        (
            md.MultiIndex.from_arrays(arrays, names=["l", "n"], chunk_size=size),
            pd.MultiIndex.from_arrays(arrays, names=["l", "n"]),
        ),
        (md.MultiIndex.from_tuples(tuples, chunk_size=size), pd.MultiIndex.from_tuples(tuples)),
        (
            md.MultiIndex.from_product(
                [["a", "b", "c"], [1, 2]], names=["l", None], chunk_size=size
            ),
            pd.MultiIndex.from_product([["a", "b", "c"], [1, 2]], names=["l", None]),
        ),
        (
            md.MultiIndex(
                levels=[["c", "a"], [2, 1]],
                codes=[[0, 1, 1, 0, 0, 1], [0, 1, 0, 1, 0, 0]],
                chunk_size=size,
            ),
            pd.MultiIndex(
                levels=[["c", "a"], [2, 1]], codes=[[0, 1, 1, 0, 0, 1], [0, 1, 0, 1, 0, 0]]
            ),
        ),
    ]
    frame = pd.DataFrame({"l": arrays[0], "n": arrays[1]})
    cases.append(
        (md.MultiIndex.from_frame(frame, chunk_size=size), pd.MultiIndex.from_frame(frame))
    )
    lazy_frame = md.DataFrame(frame, chunk_size=size)
    cases.append(
        (
            md.MultiIndex.from_frame(lazy_frame, names=["x", "y"]),
            pd.MultiIndex.from_frame(frame, names=["x", "y"]),
        )
    )
    for got, expected in cases:
        assert isinstance(got, md.MultiIndex)
        assert_index(got, expected)
        assert_levels(got.levels, expected.levels)
        assert_codes(got.codes, expected.codes)
    data = md.DataFrame({"v": range(6)}, index=cases[0][0], chunk_size=size)
    pd.testing.assert_frame_equal(
        data.to_pandas(), pd.DataFrame({"v": range(6)}, index=cases[0][1])
    )
    series = md.Series(range(6), index=cases[0][0])
    pd.testing.assert_series_equal(series.to_pandas(), pd.Series(range(6), index=cases[0][1]))
    with pytest.raises(ValueError, match="codes"):
        md.MultiIndex(levels=[["a"]], codes=[[0], [0]])


@settings(max_examples=15, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(["x", "y", "z", None]), st.integers(-2, 2)),
        min_size=1,
        max_size=12,
    ),
    chunk=st.integers(1, 5),
)
def test_levels_and_codes_of_random_tuples(rows: list[tuple[Any, int]], chunk: int) -> None:
    p = pd.MultiIndex.from_tuples(rows, names=["s", "i"])
    idx = md.Index(p, chunk_size=chunk)
    assert_levels(idx.levels, p.levels)
    assert_codes(idx.codes, p.codes)
    frame = pd.DataFrame({"i": p.get_level_values("i")}, index=p)
    mdf = md.DataFrame(frame, chunk_size=chunk)
    kept, lazy_kept = frame[frame["i"] > 0].index, mdf[mdf["i"] > 0].index
    assert_levels(lazy_kept.levels, kept.levels)
    assert_codes(lazy_kept.codes, kept.codes)
    assert_levels(lazy_kept.remove_unused_levels().levels, kept.remove_unused_levels().levels)

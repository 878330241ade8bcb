"""Index methods that give plain values (fetched) and the lazy reductions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.dataframe.index.helpers import CHUNKS, floats, ints, lazy_index, strings


@pytest.mark.parametrize("chunk", CHUNKS)
def test_lookups_match_pandas(chunk: int | None) -> None:
    p = pd.Index([1, 3, 3, 5, 8, 13], name="k")
    idx = lazy_index(p, chunk)
    assert idx.get_loc(5) == p.get_loc(5)
    assert idx.get_loc(3) == p.get_loc(3)
    np.testing.assert_array_equal(idx.get_indexer_for([8, 1, 2]), p.get_indexer_for([8, 1, 2]))
    u = lazy_index(p.unique(), chunk)
    np.testing.assert_array_equal(u.get_indexer([8, 1, 2]), p.unique().get_indexer([8, 1, 2]))
    np.testing.assert_array_equal(
        u.get_indexer([4, 9], method="pad"), p.unique().get_indexer([4, 9], method="pad")
    )
    got, missing = idx.get_indexer_non_unique([3, 7])
    expected, expected_missing = p.get_indexer_non_unique([3, 7])
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(missing, expected_missing)
    assert idx.slice_locs(3, 8) == p.slice_locs(3, 8)
    assert idx.slice_indexer(3, 8) == p.slice_indexer(3, 8)
    assert idx.get_slice_bound(5, "left") == p.get_slice_bound(5, "left")
    assert idx.searchsorted(4) == p.searchsorted(4)
    np.testing.assert_array_equal(
        idx.searchsorted([0, 9], side="right"), p.searchsorted([0, 9], side="right")
    )
    assert u.asof(7) == p.unique().asof(7)
    with pytest.raises(KeyError):
        idx.get_loc(99)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_properties_of_the_whole_index(chunk: int | None) -> None:
    for p in (ints(), floats(), strings(), pd.Index([1, 2, 4])):
        idx = lazy_index(p, chunk)
        for name in (
            "is_unique",
            "has_duplicates",
            "hasnans",
            "is_monotonic_increasing",
            "is_monotonic_decreasing",
            "inferred_type",
            "size",
            "empty",
        ):
            assert getattr(idx, name) == getattr(p, name), name
        if isinstance(p.dtype, np.dtype):  # Arrow-backed strings count their buffers
            assert idx.nbytes == p.nbytes
            # pandas counts its lookup table once a lookup built it: compare a fresh copy
            assert idx.memory_usage() == p.copy(deep=True).memory_usage()
        assert idx.to_list() == p.to_list() or p.hasnans
        assert idx.ndim == 1
        assert idx.shape == p.shape


@pytest.mark.parametrize("chunk", CHUNKS)
def test_reductions_and_positions(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert idx.min().execute().fetch() == p.min()
    assert idx.max().execute().fetch() == p.max()
    assert idx.any().execute().fetch() == p.any()
    assert idx.all().execute().fetch() == p.all()
    assert idx.nunique().execute().fetch() == p.nunique()
    assert idx.argmin() == p.argmin()
    assert idx.argmax() == p.argmax()
    f = floats()
    assert lazy_index(f, chunk).max().execute().fetch() == f.max()


@pytest.mark.parametrize("chunk", CHUNKS)
def test_comparisons_and_conversions(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert idx.equals(p)
    assert idx.equals(lazy_index(p, 2))
    assert not idx.equals(p.rename("other").astype("float64").insert(0, 1.5))
    assert not idx.equals([5, 1])
    assert idx.identical(p)
    assert not idx.identical(p.rename("other"))
    assert idx.is_(idx)
    assert not idx.is_(lazy_index(p, chunk))
    codes, uniques = idx.factorize()
    expected_codes, expected_uniques = p.factorize()
    np.testing.assert_array_equal(codes, expected_codes)
    pd.testing.assert_index_equal(uniques, expected_uniques)
    target, indexer = lazy_index(p.unique(), chunk).reindex([9, 4])
    expected_target, expected_indexer = p.unique().reindex([9, 4])
    pd.testing.assert_index_equal(target, expected_target)
    np.testing.assert_array_equal(indexer, expected_indexer)
    groups = idx.groupby(np.array(list("xyxyxyx")))
    assert {k: list(v) for k, v in groups.items()} == {
        k: list(v) for k, v in p.groupby(np.array(list("xyxyxyx"))).items()
    }
    pd.testing.assert_extension_array_equal(idx.array, p.array)
    assert lazy_index(pd.Index([7]), chunk).item() == 7


def test_bad_arguments_raise_pandas_errors() -> None:
    idx = lazy_index(ints(), 2)
    with pytest.raises(ValueError, match="side"):
        idx.searchsorted(3, side="middle")
    with pytest.raises(TypeError):
        idx.min(axis=1, bad=True)

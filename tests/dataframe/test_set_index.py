"""set_index with column labels, arrays and lazy objects, against pandas over chunkings."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame(n: int = 7) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": np.arange(n) % 3,
            "b": [f"s{i}" for i in range(n)],
            "c": np.linspace(0, 1, n),
        },
        index=pd.Index(np.arange(n) * 10, name="r"),
    )


N = 7


def _pandas(keys: Any) -> Any:
    """The keys as pandas takes them: lazy objects computed."""
    if isinstance(keys, list):
        return [_pandas(k) for k in keys]
    return keys.to_pandas() if hasattr(keys, "to_pandas") else keys


KEYS: list[tuple[str, Callable[[Any], Any]]] = [
    ("label", lambda m: "a"),
    ("labels", lambda m: ["a", "b"]),
    ("array", lambda m: np.arange(N)[::-1] * 2),
    ("series", lambda m: pd.Series(np.arange(N) + 0.5, index=np.arange(N)[::-1], name="s")),
    ("index", lambda m: pd.Index(list("abcdefg"), name="i")),
    ("datetimes", lambda m: pd.date_range("2026-01-01", periods=N, tz="UTC")),
    ("categories", lambda m: pd.Index(pd.Categorical(list("xyzxyzx")), name="cat")),
    ("label and array", lambda m: ["b", np.arange(N)]),
    ("list inside a list", lambda m: [list("abcdefg"), "c"]),
    ("iterator", lambda m: iter(range(N))),
    ("lazy column", lambda m: m["c"] * 2),
    ("lazy column and label", lambda m: [m["b"], "a"]),
    ("lazy series, own chunks", lambda m: md.Series(np.arange(N) * 3, name="z", chunk_size=4)),
    ("lazy index", lambda m: md.Index(np.arange(N) - 3, name="k", chunk_size=2)),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(("name", "make"), KEYS, ids=[k for k, _ in KEYS])
@pytest.mark.parametrize(("drop", "append"), [(True, False), (False, True)])
def test_set_index_matches_pandas(chunk, name, make, drop, append):
    pdf = _frame(N)
    lazy = lazy_copy(pdf, chunk)
    got = lazy.set_index(make(lazy), drop=drop, append=append)
    keys = _pandas(make(pdf))
    want = pdf.set_index(keys, drop=drop, append=append)
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    pd.testing.assert_frame_equal(got.meta, want.iloc[:0])


@pytest.mark.parametrize("chunk", CHUNKS)
def test_arrays_after_a_filter_are_cut_at_the_computed_lengths(chunk):
    pdf = _frame(N)
    lazy = lazy_copy(pdf, chunk)
    keep = pdf["a"] > 0
    n = int(keep.sum())
    got = lazy[lazy["a"] > 0].set_index(["a", np.arange(n) * 7])
    pd.testing.assert_frame_equal(got.to_pandas(), pdf[keep].set_index(["a", np.arange(n) * 7]))
    with pytest.raises(ValueError, match=f"Expected {n} rows, received array of length {n + 1}"):
        lazy[lazy["a"] > 0].set_index(np.arange(n + 1)).execute()


@pytest.mark.parametrize(
    "keys",
    [np.arange(N + 1), ["a", np.arange(N - 1)], md.Series(np.arange(N + 2))],
    ids=["array", "in a list", "lazy"],
)
def test_a_length_that_differs_raises_pandas_error_at_the_call(keys):
    pdf, lazy = _frame(N), lazy_copy(_frame(N), 3)
    with pytest.raises(ValueError, match="Length mismatch: Expected 7 rows"):
        pdf.set_index(keys.to_pandas() if isinstance(keys, md.Series) else keys)
    with pytest.raises(ValueError, match="Length mismatch: Expected 7 rows"):
        lazy.set_index(keys)


@pytest.mark.parametrize(
    "keys",
    [["a", "zz"], "zz", pd.Categorical([1] * N), [["a"]], {"a": 1}],
    ids=["missing in a list", "missing", "categorical", "nested", "dict"],
)
def test_bad_keys_raise_pandas_error(keys):
    pdf, lazy = _frame(N), lazy_copy(_frame(N), 3)
    try:
        pdf.set_index(keys)
    except (KeyError, TypeError, ValueError) as error:
        want: type[Exception] = type(error)
    with pytest.raises(want):
        lazy.set_index(keys)


def test_a_lazy_frame_as_key_raises_pandas_type_error():
    pdf, lazy = _frame(N), lazy_copy(_frame(N), 3)
    with pytest.raises(TypeError, match="Received column of type"):
        pdf.set_index(pdf[["a"]])
    with pytest.raises(TypeError, match="Received column of type"):
        lazy.set_index(lazy[["a"]])


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("keys", ["a", ["a", "b"], ["a", "c"], "c"])
def test_verify_integrity_raises_pandas_error_when_run(chunk, keys):
    pdf = _frame(N)
    lazy = lazy_copy(pdf, chunk)
    with pytest.warns(pd.errors.Pandas4Warning, match="verify_integrity") as record:
        got = lazy.set_index(keys, verify_integrity=True)
    assert record[0].filename == __file__  # at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pd.errors.Pandas4Warning)
        unique = pdf.set_index(keys).index.is_unique
        if not unique:
            with pytest.raises(ValueError, match="duplicate keys") as pandas_error:
                pdf.set_index(keys, verify_integrity=True)
            with pytest.raises(ValueError, match="duplicate keys") as raised:
                got.execute()
            assert str(raised.value) == str(pandas_error.value)
            return
        want = pdf.set_index(keys, verify_integrity=True)
    pd.testing.assert_frame_equal(got.to_pandas(), want)


def test_set_index_with_an_array_in_place():
    pdf = _frame(N)
    lazy = lazy_copy(pdf, 3)
    with pytest.warns(pd.errors.Pandas4Warning, match="inplace"):
        assert lazy.set_index(np.arange(N) * 5, inplace=True) is None
    pd.testing.assert_frame_equal(lazy.to_pandas(), pdf.set_index(np.arange(N) * 5))


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 30),
    chunk=st.integers(1, 12),
    data=st.data(),
)
def test_array_keys_over_any_chunking(n, chunk, data):
    pdf = _frame(n)
    values = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    append = data.draw(st.booleans())
    got = lazy_copy(pdf, chunk).set_index([np.array(values), "a"], append=append)
    pd.testing.assert_frame_equal(
        got.to_pandas(), pdf.set_index([np.array(values), "a"], append=append)
    )

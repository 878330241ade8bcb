"""The constructors given lazy data, Mars's num_partitions, gpu and sparse, and
fetch(batch_size=), against pandas on the same data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt

PDF = pd.DataFrame({"a": np.arange(6), "b": list("uvwxyz"), "c": np.linspace(0, 1, 6)})


def _lazy(chunk: int) -> Any:
    return md.DataFrame(PDF, chunk_size=chunk)


def _same(got: Any, want: Any, lazy_dtypes: bool = True) -> None:
    value = got.to_pandas() if hasattr(got, "to_pandas") else got
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(value, want)
    elif isinstance(want, pd.Series):
        pd.testing.assert_series_equal(value, want)
    else:
        pd.testing.assert_index_equal(value, want)
    if lazy_dtypes and isinstance(want, pd.DataFrame):
        assert got.dtypes.equals(want.dtypes)


CASES: list[tuple[str, Callable[[Any, Any], Any], Callable[[Any], Any]]] = [
    ("frame of a frame", lambda m, d: m.DataFrame(d), lambda p: pd.DataFrame(p)),
    (
        "frame of a frame, columns",
        lambda m, d: m.DataFrame(d, columns=["c", "zz", "a"]),
        lambda p: pd.DataFrame(p, columns=["c", "zz", "a"]),
    ),
    ("frame of a Series", lambda m, d: m.DataFrame(d["c"]), lambda p: pd.DataFrame(p["c"])),
    (
        "frame of an unnamed Series",
        lambda m, d: m.DataFrame(d["a"].rename(None)),
        lambda p: pd.DataFrame(p["a"].rename(None)),
    ),
    (
        "Series of a Series, renamed and cast",
        lambda m, d: m.Series(d["a"], name="z", dtype="float32"),
        lambda p: pd.Series(p["a"], name="z", dtype="float32"),
    ),
    (
        "frame of a dict of columns and a scalar",
        lambda m, d: m.DataFrame({"x": d["c"], "y": d["a"] * 2, "k": 7}),
        lambda p: pd.DataFrame({"x": p["c"], "y": p["a"] * 2, "k": 7}),
    ),
    (
        "frame of a dict of columns, dtype",
        lambda m, d: m.DataFrame({"x": d["a"], "y": d["a"]}, dtype="float64"),
        lambda p: pd.DataFrame({"x": p["a"], "y": p["a"]}, dtype="float64"),
    ),
]


@pytest.mark.parametrize("chunk", [1, 4])
@pytest.mark.parametrize(("name", "lazy", "eager"), CASES, ids=[c[0] for c in CASES])
def test_lazy_data_gives_pandas_result(chunk, name, lazy, eager):
    _same(lazy(md, _lazy(chunk)), eager(PDF))


def test_an_index_as_data():
    index = pd.Index([3, 1, 2], name="i")
    lazy = md.Index(index, chunk_size=2)
    _same(md.DataFrame(lazy), pd.DataFrame(index))
    _same(md.Series(lazy), pd.Series(index))
    _same(md.Series(lazy, name="n"), pd.Series(index, name="n"))


def test_a_dict_of_series_on_other_labels_aligns_as_pandas():
    left = pd.Series([1.0, 2.0, 3.0], index=[2, 1, 0])
    right = pd.Series([7, 8], index=[0, 5])
    got = md.DataFrame({"p": md.Series(left, chunk_size=2), "q": md.Series(right, chunk_size=1)})
    # the int column turns float where a label misses: known once computed, as for
    # concat and merge
    _same(got, pd.DataFrame({"p": left, "q": right}), lazy_dtypes=False)


@pytest.mark.parametrize("chunk", [2, 5])
def test_dicts_and_lists_of_tensors_stay_lazy(chunk):
    a, b = np.arange(5), np.linspace(0, 1, 5)
    columns = md.DataFrame({"a": mt.tensor(a, chunk_size=chunk), "b": mt.tensor(b, chunk_size=3)})
    assert columns.op.label() != "from_pandas"  # not computed to build it
    _same(columns, pd.DataFrame({"a": a, "b": b}))
    labelled = md.DataFrame({"a": mt.tensor(a, chunk_size=chunk)}, index=list("vwxyz"))
    _same(labelled, pd.DataFrame({"a": a}, index=list("vwxyz")))
    rows = md.DataFrame([mt.tensor(a, chunk_size=chunk), mt.tensor(b)], columns=list("pqrst"))
    _same(rows, pd.DataFrame([a, b], columns=list("pqrst")))


INDEXES: list[tuple[str, Callable[[], Any], pd.Index]] = [
    ("list", lambda: list("abcdef"), pd.Index(list("abcdef"))),
    (
        "pandas Index",
        lambda: pd.Index(np.arange(6) * 2, name="n"),
        pd.Index(np.arange(6) * 2, name="n"),
    ),
    (
        "lazy Index",
        lambda: md.Index(np.arange(6) + 10, name="k", chunk_size=4),
        pd.Index(np.arange(6) + 10, name="k"),
    ),
    (
        "lazy Series",
        lambda: md.Series(np.arange(6) - 3, name="s", chunk_size=5),
        pd.Index(np.arange(6) - 3, name="s"),
    ),
]


@pytest.mark.parametrize(("name", "index", "labels"), INDEXES, ids=[c[0] for c in INDEXES])
@pytest.mark.parametrize("chunk", [2, 6])
def test_a_tensor_takes_index_by_position(name, index, labels, chunk):
    values = np.arange(12.0).reshape(6, 2)
    got = md.DataFrame(mt.tensor(values, chunk_size=chunk), index=index(), columns=["x", "y"])
    _same(got, pd.DataFrame(values, index=labels, columns=["x", "y"]))
    series = md.Series(mt.tensor(values[:, 0], chunk_size=chunk), index=index(), name="v")
    _same(series, pd.Series(values[:, 0], index=labels, name="v"))


def test_a_tensor_with_an_index_of_another_length_raises_pandas_error_type():
    with pytest.raises(ValueError, match="Shape of passed values"):
        pd.DataFrame(np.ones((4, 2)), index=[1, 2, 3])
    with pytest.raises(ValueError, match="Length mismatch"):
        md.DataFrame(mt.ones((4, 2)), index=[1, 2, 3])


def _lengths(obj: Any) -> list[int]:
    frame = obj.to_frame() if isinstance(obj, md.Series) else obj
    counts = frame.map_chunk(lambda c: pd.DataFrame({"n": [len(c)]}))
    return counts.to_pandas()["n"].tolist()


@pytest.mark.parametrize(
    ("build", "want", "lengths"),
    [
        (lambda: md.DataFrame(PDF, num_partitions=4), PDF, [2, 2, 2]),
        (lambda: md.DataFrame(PDF, chunk_size=1, num_partitions=2), PDF, [3, 3]),
        (lambda: md.Series(np.arange(10), num_partitions=3), pd.Series(np.arange(10)), [4, 4, 2]),
        (lambda: md.Series(mt.arange(10), num_partitions=5), pd.Series(np.arange(10)), [2] * 5),
        (
            lambda: md.DataFrame(_lazy(1).query("a > 0"), num_partitions=2),
            PDF.query("a > 0"),
            [3, 2],
        ),
    ],
)
def test_num_partitions_cuts_at_most_that_many_even_chunks(build, want, lengths):
    got = build()
    _same(got, want)
    assert _lengths(got) == lengths


def test_an_index_takes_num_partitions_and_mars_keywords():
    got = md.Index([1, 2, 3], name="q", num_partitions=2, store_data=True)
    _same(got, pd.Index([1, 2, 3], name="q"))
    assert len(got.execute()._layout()[0]) == 2


@pytest.mark.parametrize("value", [0, -1])
def test_num_partitions_must_be_positive(value):
    with pytest.raises(ValueError, match="num_partitions"):
        md.DataFrame(PDF, num_partitions=value)
    with pytest.raises(TypeError, match="num_partitions"):
        md.Series([1, 2], num_partitions=1.5)


def test_frames_live_in_host_memory_and_dense():
    _same(md.DataFrame(PDF, gpu=False, sparse=False), PDF)
    with pytest.raises(NotImplementedError, match="gpu=True"):
        md.DataFrame(PDF, gpu=True)
    with pytest.raises(NotImplementedError, match="sparse=True"):
        md.Series([1, 2], sparse=True)


def test_fetch_takes_mars_batch_size():
    lazy = _lazy(2).execute()
    pd.testing.assert_frame_equal(lazy.fetch(batch_size=2), PDF)
    with pytest.raises(ValueError, match="batch_size"):
        lazy.fetch(batch_size=0)

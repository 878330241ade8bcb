"""``from_zarr`` / ``to_zarr`` against zarr on the same data: round trips over chunkings
and dtypes, nested groups, atomic writes, and errors raised at the call."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import zarr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.tensor.datastore.zarr_store import ZarrTarget
from tests.conftest import assert_same, chunkings
from tests.tensor.datastore_helpers import fail_on_negative, layout, listing, sample

DTYPES = ["f8", "f4", "i8", "u1", "?", "c16"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk_size", chunkings((5, 7)))
def test_round_trip(tmp_path: Path, dtype: str, chunk_size: object) -> None:
    data = sample((5, 7), dtype)
    path = tmp_path / "t.zarr"
    written = mt.to_zarr(str(path), mt.tensor(data, chunk_size=chunk_size))
    assert written.shape == (0, 0)
    assert not path.exists()  # lazy: executing writes
    assert_same(written, np.empty((0, 0), dtype=dtype))
    stored = zarr.open_array(str(path), mode="r")
    assert stored.dtype == data.dtype
    np.testing.assert_array_equal(stored[...], data)
    t = mt.from_zarr(str(path), chunk_size=chunk_size)
    assert (t.shape, t.dtype) == (data.shape, data.dtype)
    assert_same(t, data)
    assert listing(tmp_path) == ["t.zarr"]


@settings(max_examples=10)
@given(
    hnp.arrays(np.int32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)),
    st.data(),
)
def test_round_trip_any_shape(tmp_path_factory: pytest.TempPathFactory, data, draw) -> None:
    path = str(tmp_path_factory.mktemp("zarr") / "t.zarr")
    write_chunks = tuple(draw.draw(st.integers(1, max(n, 1))) for n in data.shape)
    read_chunks = tuple(draw.draw(st.integers(1, max(n, 1))) for n in data.shape)
    mt.tozarr(path, mt.tensor(data, chunk_size=write_chunks), group="g", dataset="d").execute()
    assert_same(mt.fromzarr(path, group="g", dataset="d", chunk_size=read_chunks), data)


def test_uneven_chunks_are_aligned_to_the_array_chunks(tmp_path: Path) -> None:
    path = str(tmp_path / "t.zarr")
    data = sample((10, 9), "f8")
    x = mt.tensor(data, chunk_size=((3, 5, 2), (4, 4, 1)))
    mt.to_zarr(path, x).execute()
    assert zarr.open_array(path, mode="r").chunks == (5, 4)
    mt.to_zarr(path, x, chunks=(3, 3), shards=(6, 9)).execute()  # the old array replaced
    stored = zarr.open_array(path, mode="r")
    assert (stored.chunks, stored.shards) == ((3, 3), (6, 9))
    assert_same(mt.from_zarr(path), data)
    assert layout(mt.from_zarr(path, chunk_size=None))[1] == (9,)


def test_nested_groups_keep_the_other_arrays(tmp_path: Path) -> None:
    path = str(tmp_path / "t.zarr")
    root = zarr.open_group(path, mode="w")
    root.create_array("keep", data=np.arange(3))
    root.attrs["note"] = "kept"
    first = sample((4, 6), "f8")
    mt.to_zarr(path, mt.tensor(first, chunk_size=3), group="/a/b", dataset="c/d").execute()
    second = sample((3,), "i4")
    mt.to_zarr(path, mt.tensor(second), group="a", dataset="b/c/d").execute()  # replaced
    root = zarr.open_group(path, mode="r")
    np.testing.assert_array_equal(root["keep"][...], np.arange(3))
    assert root.attrs["note"] == "kept"
    assert root["a/b/c/d"].dtype == np.dtype("i4")
    assert_same(mt.from_zarr(path, group="a/b", dataset="c/d"), second)
    assert_same(mt.from_zarr(path, dataset="a/b/c/d", chunk_size=1), second)
    assert_same(mt.from_zarr(root["a/b/c/d"]), second)
    assert listing(tmp_path) == ["t.zarr"]
    assert sorted(os.listdir(tmp_path / "t.zarr" / "a" / "b" / "c")) == ["d", "zarr.json"]


def test_new_store_in_version_2_format(tmp_path: Path) -> None:
    path = str(tmp_path / "v2.zarr")
    data = sample((6, 5), "u2")
    mt.to_zarr(path, mt.tensor(data, chunk_size=2), group="g", dataset="d", zarr_format=2).execute()
    assert zarr.open_group(path, mode="r").metadata.zarr_format == 2
    assert_same(mt.from_zarr(path, group="g", dataset="d"), data)


def test_data_dependent_shapes_and_scalars(tmp_path: Path) -> None:
    data = np.arange(20.0) - 5
    masked = mt.tensor(data, chunk_size=6)
    mt.to_zarr(str(tmp_path / "m.zarr"), masked[masked > 3]).execute()
    assert_same(mt.from_zarr(str(tmp_path / "m.zarr"), chunk_size=4), data[data > 3])
    mt.to_zarr(str(tmp_path / "s.zarr"), mt.tensor(np.float32(2.5))).execute()
    assert_same(mt.from_zarr(str(tmp_path / "s.zarr")), np.array(2.5, dtype="f4"))
    empty = np.zeros((0, 3))
    mt.to_zarr(str(tmp_path / "e.zarr"), mt.tensor(empty)).execute()
    assert_same(mt.from_zarr(str(tmp_path / "e.zarr")), empty)


def test_default_chunks_are_multiples_of_the_array_chunks(tmp_path: Path) -> None:
    path = str(tmp_path / "t.zarr")
    data = sample((40, 18), "f8")
    zarr.create_array(path, shape=data.shape, dtype="f8", chunks=(4, 3))[...] = data
    with mars.option_context({"chunk_store_limit": 8 * 12}):
        assert layout(mt.from_zarr(path)) == ((4,) * 10, (3,) * 6)
    with mars.option_context({"chunk_store_limit": 8 * 300}):
        t = mt.from_zarr(path)
        nsplits = layout(t)
        assert all(n % 4 == 0 for n in nsplits[0][:-1])
        assert all(n % 3 == 0 for n in nsplits[1][:-1])
        assert len(nsplits[0]) * len(nsplits[1]) < 60
        assert_same(t, data)


@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("chunk_size", [1, 4, 12])
def test_failed_write_leaves_the_store_as_it_was(tmp_path: Path, chunk_size: int) -> None:
    path = tmp_path / "t.zarr"
    data = np.arange(12.0)
    data[-1] = -1  # the last chunk fails
    bad = mt.elemwise(fail_on_negative, mt.tensor(data, chunk_size=chunk_size), dtype="f8")
    with pytest.raises(ValueError, match="a negative value"):
        mt.to_zarr(str(path), bad, group="g", dataset="d").execute()
    assert listing(tmp_path) == []
    zarr.create_array(str(path), name="g/d", data=np.arange(4.0))
    with pytest.raises(ValueError, match="a negative value"):
        mt.to_zarr(str(path), bad, group="g", dataset="d").execute()
    np.testing.assert_array_equal(zarr.open_array(str(path), path="g/d")[...], np.arange(4.0))
    assert listing(tmp_path) == ["t.zarr"]
    assert listing(path / "g") == ["d", "zarr.json"]


def test_read_errors_raise_at_the_call(tmp_path: Path) -> None:
    path = str(tmp_path / "t.zarr")
    zarr.create_array(path, name="g/d", data=np.arange(3))
    with pytest.raises(FileNotFoundError, match="missing.zarr"):
        mt.from_zarr(str(tmp_path / "missing.zarr"))
    with pytest.raises(KeyError, match="nope"):
        mt.from_zarr(path, group="g", dataset="nope")
    with pytest.raises(ValueError, match="is a group"):
        mt.from_zarr(path, dataset="g")
    with pytest.raises(ValueError, match="is a group"):
        mt.from_zarr(path)
    with pytest.raises(ValueError, match="dataset must be given with group"):
        mt.from_zarr(path, group="g")
    with pytest.raises(TypeError, match="path"):
        mt.from_zarr(3)
    with pytest.raises(ValueError, match="chunk_size"):
        mt.from_zarr(path, group="g", dataset="d", chunk_size=0)


def test_write_errors_raise_at_the_call(tmp_path: Path) -> None:
    path = str(tmp_path / "t.zarr")
    x = mt.ones((3, 4))
    with pytest.raises(FileNotFoundError, match="directory"):
        mt.to_zarr(str(tmp_path / "no" / "t.zarr"), x)
    with pytest.raises(TypeError, match="nope"):
        mt.to_zarr(path, x, nope=1)
    with pytest.raises(TypeError, match="path"):
        mt.to_zarr(3, x)
    zarr.open_group(path, mode="w").create_group("g")
    with pytest.raises(FileExistsError, match="not a zarr array"):
        mt.to_zarr(path, x, dataset="g")
    (tmp_path / "file.txt").write_text("text")
    with pytest.raises(FileExistsError, match="not a zarr array"):
        mt.to_zarr(str(tmp_path / "file.txt"), x)
    zarr.create_array(str(tmp_path / "a.zarr"), data=np.arange(3))
    with pytest.raises(FileExistsError, match="cannot hold"):
        mt.to_zarr(str(tmp_path / "a.zarr"), x, dataset="d")
    assert listing(tmp_path) == ["a.zarr", "file.txt", "t.zarr"]


def test_a_repeated_begin_keeps_the_chunks_written(tmp_path: Path) -> None:
    # the scheduler runs the begin task again when a lost worker held its result and a
    # writer after it must be recomputed: what the writers before wrote must stay
    path = str(tmp_path / "t.zarr")
    target = ZarrTarget(path, "g/d", "token", {})
    layout = ((2, 2),)
    target.begin((4,), np.dtype("f8"), layout)
    target.write((slice(0, 2),), np.array([1.0, 2.0]))
    target.begin((4,), np.dtype("f8"), layout)
    target.write((slice(2, 4),), np.array([3.0, 4.0]))
    target.commit()
    assert_same(mt.from_zarr(path, group="g", dataset="d"), np.array([1.0, 2.0, 3.0, 4.0]))
    assert listing(tmp_path) == ["t.zarr"]

"""``from_hdf5`` / ``to_hdf5`` against h5py on the same data: round trips over chunkings
and dtypes, nested groups, atomic writes, and errors raised at the call."""

from __future__ import annotations

from pathlib import Path

import h5py
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.tensor.datastore.hdf5 import HDF5Target
from tests.conftest import assert_same, chunkings
from tests.tensor.datastore_helpers import fail_on_negative, layout, listing, sample

DTYPES = ["f8", "f4", "i8", "u1", "?", "c16", "S3"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk_size", chunkings((5, 7)))
def test_round_trip(tmp_path: Path, dtype: str, chunk_size: object) -> None:
    data = sample((5, 7), dtype)
    path = tmp_path / "t.h5"
    written = mt.to_hdf5(str(path), mt.tensor(data, chunk_size=chunk_size), dataset="x")
    assert written.shape == (0, 0)
    assert not path.exists()  # lazy: executing writes
    assert_same(written, np.empty((0, 0), dtype=dtype))
    with h5py.File(path, "r") as f:
        assert f["x"].dtype == data.dtype
        np.testing.assert_array_equal(f["x"][()], data)
    t = mt.from_hdf5(str(path), dataset="x", chunk_size=chunk_size)
    assert (t.shape, t.dtype) == (data.shape, data.dtype)
    assert_same(t, data)
    assert listing(tmp_path) == ["t.h5"]


@settings(max_examples=10)
@given(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)),
    st.data(),
)
def test_round_trip_any_shape(tmp_path_factory: pytest.TempPathFactory, data, draw) -> None:
    path = str(tmp_path_factory.mktemp("h5") / "t.h5")
    write_chunks = tuple(draw.draw(st.integers(1, max(n, 1))) for n in data.shape)
    read_chunks = tuple(draw.draw(st.integers(1, max(n, 1))) for n in data.shape)
    mt.tohdf5(path, mt.tensor(data, chunk_size=write_chunks), dataset="d").execute()
    assert_same(mt.fromhdf5(path, dataset="d", chunk_size=read_chunks), data)


def test_nested_groups_keep_the_other_datasets(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    with h5py.File(path, "w") as f:
        f["keep"] = np.arange(3)
        f.attrs["note"] = "kept"
    first = sample((4, 6), "f8")
    mt.to_hdf5(path, mt.tensor(first, chunk_size=3), group="/a/b", dataset="c/d").execute()
    second = sample((3,), "i4")
    mt.to_hdf5(path, mt.tensor(second), group="a", dataset="b/c/d").execute()  # replaced
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(f["keep"][()], np.arange(3))
        assert f.attrs["note"] == "kept"
        assert f["a/b/c/d"].dtype == np.dtype("i4")
    assert_same(mt.from_hdf5(path, group="a/b", dataset="c/d"), second)
    assert_same(mt.from_hdf5(path, dataset="/a/b/c/d", chunk_size=1), second)
    assert listing(tmp_path) == ["t.h5"]


def test_data_dependent_shapes_and_scalars(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    data = np.arange(20.0) - 5
    masked = mt.tensor(data, chunk_size=6)
    mt.to_hdf5(path, masked[masked > 3], dataset="m").execute()
    mt.to_hdf5(path, mt.tensor(np.float32(2.5)), dataset="s").execute()
    assert_same(mt.from_hdf5(path, dataset="m", chunk_size=4), data[data > 3])
    assert_same(mt.from_hdf5(path, dataset="s"), np.array(2.5, dtype="f4"))
    empty = np.zeros((0, 3))
    mt.to_hdf5(path, mt.tensor(empty), dataset="e").execute()
    assert_same(mt.from_hdf5(path, dataset="e"), empty)


def test_options_reach_create_dataset(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    data = sample((30, 20), "f8")
    mt.to_hdf5(path, data, dataset="z", compression="gzip", chunks=(10, 5)).execute()
    with h5py.File(path, "r") as f:
        assert (f["z"].compression, f["z"].chunks) == ("gzip", (10, 5))


def test_default_chunks_are_multiples_of_the_dataset_chunks(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    data = sample((40, 18), "f8")
    with h5py.File(path, "w") as f:
        f.create_dataset("d", data=data, chunks=(4, 3))
        f.create_dataset("plain", data=data)
    with mars.option_context({"chunk_store_limit": 8 * 12}):
        t = mt.from_hdf5(path, dataset="d")
        assert layout(t) == ((4,) * 10, (3,) * 6)
    with mars.option_context({"chunk_store_limit": 8 * 300}):
        t = mt.from_hdf5(path, dataset="d")
        nsplits = layout(t)
        assert all(n % 4 == 0 for n in nsplits[0][:-1])
        assert all(n % 3 == 0 for n in nsplits[1][:-1])
        assert len(nsplits[0]) * len(nsplits[1]) < 60
        assert_same(t, data)
        assert_same(mt.from_hdf5(path, dataset="plain"), data)


def test_accepts_h5py_objects(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    data = sample((6, 4), "i2")
    with h5py.File(path, "w") as f:
        f.create_dataset("g/d", data=data)
    with h5py.File(path, "r") as f:
        from_file = mt.from_hdf5(f, group="g", dataset="d", chunk_size=4)
        from_dataset = mt.from_hdf5(f["g/d"], chunk_size=(2, 3))
    assert_same(from_file, data)
    assert_same(from_dataset, data)
    with h5py.File(path, "r") as f:
        written = mt.to_hdf5(f, mt.tensor(data) * 2, dataset="twice")
    written.execute()
    assert_same(mt.from_hdf5(path, dataset="twice"), data * 2)


@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("chunk_size", [1, 4, 12])
def test_failed_write_leaves_no_file_and_the_old_one_intact(
    tmp_path: Path, chunk_size: int
) -> None:
    path = tmp_path / "t.h5"
    data = np.arange(12.0)
    data[-1] = -1  # the last chunk fails
    bad = mt.elemwise(fail_on_negative, mt.tensor(data, chunk_size=chunk_size), dtype="f8")
    with pytest.raises(ValueError, match="a negative value"):
        mt.to_hdf5(str(path), bad, dataset="d").execute()
    assert listing(tmp_path) == []
    with h5py.File(path, "w") as f:
        f["old"] = np.arange(4)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="a negative value"):
        mt.to_hdf5(str(path), bad, dataset="old").execute()
    assert path.read_bytes() == before
    assert listing(tmp_path) == ["t.h5"]


def test_failed_dataset_creation_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "t.h5"
    with h5py.File(path, "w") as f:
        f["a"] = np.arange(4)  # a dataset where the write wants a group
    before = path.read_bytes()
    with pytest.raises((ValueError, TypeError, KeyError, OSError)):
        mt.to_hdf5(str(path), mt.ones(5, chunk_size=2), group="a", dataset="d").execute()
    assert path.read_bytes() == before
    assert listing(tmp_path) == ["t.h5"]


def test_read_errors_raise_at_the_call(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    with h5py.File(path, "w") as f:
        f["g/d"] = np.arange(3)
    with pytest.raises(FileNotFoundError, match="missing.h5"):
        mt.from_hdf5(str(tmp_path / "missing.h5"), dataset="d")
    with pytest.raises(KeyError, match="nope"):
        mt.from_hdf5(path, group="g", dataset="nope")
    with pytest.raises(ValueError, match="is a group"):
        mt.from_hdf5(path, dataset="g")
    with pytest.raises(ValueError, match="dataset must be given"):
        mt.from_hdf5(path)
    with pytest.raises(TypeError, match="hdf5_file"):
        mt.from_hdf5(3, dataset="d")
    with pytest.raises(TypeError, match="group"):
        mt.from_hdf5(path, group=1, dataset="d")
    with pytest.raises(ValueError, match="chunk_size"):
        mt.from_hdf5(path, group="g", dataset="d", chunk_size=0)
    with h5py.File(path, "a") as f:
        f["compound"] = np.zeros(2, dtype=[("a", "i4"), ("b", "f8")])
    with pytest.raises(TypeError, match="compound"):
        mt.from_hdf5(path, dataset="compound")
    (tmp_path / "text.h5").write_text("not hdf5")
    with pytest.raises(OSError, match="text.h5"):
        mt.from_hdf5(str(tmp_path / "text.h5"), dataset="d")


def test_write_errors_raise_at_the_call(tmp_path: Path) -> None:
    path = str(tmp_path / "t.h5")
    x = mt.ones((3, 4))
    with pytest.raises(FileNotFoundError, match="directory"):
        mt.to_hdf5(str(tmp_path / "no" / "t.h5"), x, dataset="d")
    with pytest.raises(ValueError, match="dataset must be given"):
        mt.to_hdf5(path, x)
    with pytest.raises(TypeError, match="dtype <U2"):
        mt.to_hdf5(path, mt.tensor(np.array(["ab", "c"])), dataset="d")
    with pytest.raises(ValueError, match="Compression filter"):
        mt.to_hdf5(path, x, dataset="d", compression="nope")
    with pytest.raises(TypeError, match="nope"):
        mt.to_hdf5(path, x, dataset="d", nope=1)
    (tmp_path / "text.h5").write_text("not hdf5")
    with pytest.raises(OSError, match="not an HDF5 file"):
        mt.to_hdf5(str(tmp_path / "text.h5"), x, dataset="d")
    assert listing(tmp_path) == ["text.h5"]


def test_a_repeated_begin_keeps_the_chunks_written(tmp_path: Path) -> None:
    # the scheduler runs the begin task again when a lost worker held its result and a
    # writer after it must be recomputed: what the writers before wrote must stay
    path = str(tmp_path / "t.h5")
    target = HDF5Target(path, "/d", "token", {})
    layout = ((2, 2),)
    target.begin((4,), np.dtype("f8"), layout)
    target.write((slice(0, 2),), np.array([1.0, 2.0]))
    target.begin((4,), np.dtype("f8"), layout)
    target.write((slice(2, 4),), np.array([3.0, 4.0]))
    target.commit()
    assert_same(mt.from_hdf5(path, dataset="d"), np.array([1.0, 2.0, 3.0, 4.0]))
    assert listing(tmp_path) == ["t.h5"]

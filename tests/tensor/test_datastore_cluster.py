"""HDF5 and Zarr written and read by a cluster of real worker processes: the HDF5 chain
keeps one writer at a time across processes, Zarr chunks are written in parallel, and
failures leave the files as they were."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pytest
import zarr

import jupyter_mars.tensor as mt
from tests.cluster.processes import cli_cluster, remote_session


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with cli_cluster(2, "--n-cpu", "2") as c:
        yield c


@pytest.fixture
def remote(cluster: Any, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def _run(t: mt.Tensor, remote: Any) -> np.ndarray:
    return np.asarray(t.execute(session=remote).fetch(session=remote))


def test_round_trips_on_worker_processes(remote: Any, tmp_path: Path) -> None:
    data = np.arange(40 * 30, dtype="f8").reshape(40, 30)
    x = mt.tensor(data, chunk_size=(7, 11)) * 2
    h5 = str(tmp_path / "t.h5")
    _run(mt.to_hdf5(h5, x, group="g", dataset="d", chunks=(5, 5)), remote)
    with h5py.File(h5, "r") as f:
        np.testing.assert_array_equal(f["g/d"][()], data * 2)
    got = _run(mt.from_hdf5(h5, group="g", dataset="d", chunk_size=6) + 1, remote)
    np.testing.assert_array_equal(got, data * 2 + 1)
    store = str(tmp_path / "t.zarr")
    _run(mt.to_zarr(store, x, group="g", dataset="d"), remote)
    np.testing.assert_array_equal(zarr.open_array(store, path="g/d")[...], data * 2)
    got = _run(mt.from_zarr(store, group="g", dataset="d", chunk_size=9) - 1, remote)
    np.testing.assert_array_equal(got, data * 2 - 1)
    assert sorted(os.listdir(tmp_path)) == ["t.h5", "t.zarr"]


def test_failed_writes_on_worker_processes_leave_no_file(remote: Any, tmp_path: Path) -> None:
    # a data-dependent failure on a worker: a Cholesky factor of a matrix that has none
    bad = mt.linalg.cholesky(mt.tensor(-np.eye(6), chunk_size=3))
    with pytest.raises(np.linalg.LinAlgError):
        _run(mt.to_hdf5(str(tmp_path / "t.h5"), bad, dataset="d"), remote)
    with pytest.raises(np.linalg.LinAlgError):
        _run(mt.to_zarr(str(tmp_path / "t.zarr"), bad), remote)
    assert os.listdir(tmp_path) == []
    path = tmp_path / "t.h5"
    _run(mt.to_hdf5(str(path), mt.ones(4), dataset="d"), remote)
    before = path.read_bytes()
    with pytest.raises(np.linalg.LinAlgError):
        _run(mt.to_hdf5(str(path), bad, dataset="d"), remote)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["t.h5"]

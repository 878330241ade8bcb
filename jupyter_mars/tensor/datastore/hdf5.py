"""HDF5 datasets as tensors: ``from_hdf5`` reads one lazily, ``to_hdf5`` writes one.

Reading: the dataset's shape, dtype and chunks are read at the call (a missing file or
dataset raises there); each chunk task opens the file and reads its slice. By default the
tensor's chunks are whole multiples of the dataset's own chunks.

Writing (see ``atomic.py``): HDF5 allows one writer per file, so the chunks, computed in
parallel, are written one after another in chunk order by a chain of tasks into a
temporary copy of the file (a copy of the existing file, whose other datasets are kept,
or a new file), which is renamed to the file's name once all are written. The order
comes from the tasks' dependencies, so it holds on a cluster of processes or hosts as in
one process. A dataset already at the path is replaced.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from dataclasses import dataclass
from typing import Any

import h5py
import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.datastore.atomic import store_tensor
from jupyter_mars.tensor.datastore.regions import Region, read_tensor, stored_chunks


def dataset_path(group: Any, dataset: Any) -> str:
    """``group/dataset`` inside the file; ``dataset`` is required (it may hold a path)."""
    if dataset is None:
        raise ValueError("dataset must be given: the name of the dataset in the file")
    for what, value in (("group", group), ("dataset", dataset)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    parts = [part.strip("/") for part in (group, dataset) if part and part.strip("/")]
    if not parts or not parts[-1]:
        raise ValueError(f"dataset must name a dataset, got {dataset!r}")
    return "/" + "/".join(parts)


def _file_and_path(hdf5_file: Any, group: Any, dataset: Any) -> tuple[str, str]:
    """The absolute file name and the dataset's path in it, from any accepted form."""
    if isinstance(hdf5_file, h5py.Dataset):
        return os.path.abspath(hdf5_file.file.filename), hdf5_file.name
    if isinstance(hdf5_file, h5py.File):
        return os.path.abspath(hdf5_file.filename), dataset_path(group, dataset)
    if isinstance(hdf5_file, (str, os.PathLike)):
        return os.path.abspath(os.fspath(hdf5_file)), dataset_path(group, dataset)
    raise TypeError(
        "hdf5_file must be a file name, an h5py.File or an h5py.Dataset, "
        f"got {type(hdf5_file).__name__}"
    )


@dataclass(frozen=True)
class HDF5Reader:
    filename: str
    path: str

    def __call__(self, region: Region) -> Any:
        with h5py.File(self.filename, "r") as f:
            return f[self.path][region]


def _open_dataset(filename: str, path: str) -> tuple[tuple[int, ...], np.dtype[Any], Any]:
    """Shape, dtype and chunks of the dataset ``path`` in ``filename``."""
    if not os.path.isfile(filename):
        raise FileNotFoundError(f"hdf5_file: no such file {filename!r}")
    if not h5py.is_hdf5(filename):
        raise OSError(f"hdf5_file: {filename!r} is not an HDF5 file")
    with h5py.File(filename, "r") as f:
        node = f.get(path)
        if node is None:
            raise KeyError(f"dataset: no dataset {path!r} in {filename!r}")
        if not isinstance(node, h5py.Dataset):
            raise ValueError(f"dataset: {path!r} in {filename!r} is a group, not a dataset")
        return tuple(node.shape), node.dtype, node.chunks


def from_hdf5(
    hdf5_file: Any, group: str | None = None, dataset: str | None = None, chunk_size: Any = None
) -> Tensor:
    """The dataset ``group/dataset`` of an HDF5 file as a lazy tensor.

    ``hdf5_file`` is a file name, an open ``h5py.File`` or an ``h5py.Dataset`` (then
    ``group`` and ``dataset`` are taken from it). Shape and dtype are those of the
    dataset; each chunk is read by its own task. ``chunk_size`` defaults to whole
    multiples of the dataset's own chunks (the usual budget otherwise).
    """
    filename, path = _file_and_path(hdf5_file, group, dataset)
    shape, dtype, native = _open_dataset(filename, path)
    if dtype.kind == "O" or dtype.kind == "V":
        raise TypeError(
            f"dataset {path!r} holds {dtype}: compound and variable-length data are not supported"
        )
    nsplits = stored_chunks(shape, dtype, native, chunk_size)
    return read_tensor(HDF5Reader(filename, path), "from_hdf5", shape, dtype, nsplits)


def _hidden_name(filename: str, token: str, suffix: str) -> str:
    folder, name = os.path.split(filename)
    return os.path.join(folder, f".{name}.{token}.{suffix}")


@dataclass(frozen=True)
class HDF5Target:
    """The dataset ``path`` of ``filename``, written through a temporary copy of the file."""

    filename: str
    path: str
    token: str
    options: dict[str, Any]
    """Passed to ``h5py.Group.create_dataset`` (``compression``, ``chunks``...)."""

    serial = True

    @property
    def temp(self) -> str:
        return _hidden_name(self.filename, self.token, "tmp")

    def aligned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], nsplits: NSplits
    ) -> NSplits | None:
        return None

    @property
    def initial(self) -> str:
        return _hidden_name(self.filename, self.token, "init")

    def begin(self, shape: tuple[int, ...], dtype: np.dtype[Any], layout: NSplits) -> None:
        # run again when a worker's loss sends the scheduler back along the lineage: the
        # chunks written so far must stay, so the copy is made under another name and
        # takes the temporary name only once complete
        if os.path.exists(self.temp):
            return
        with contextlib.suppress(FileNotFoundError):  # what an interrupted try left
            os.remove(self.initial)
        if os.path.exists(self.filename):
            shutil.copyfile(self.filename, self.initial)
        with h5py.File(self.initial, "a") as f:
            if self.path in f:
                del f[self.path]
            f.create_dataset(self.path, shape=shape, dtype=dtype, **self.options)
        os.replace(self.initial, self.temp)

    def write(self, region: Region, block: np.ndarray[Any, Any]) -> None:
        with h5py.File(self.temp, "r+") as f:
            f[self.path][region] = block

    def commit(self) -> None:
        os.replace(self.temp, self.filename)

    def abort(self) -> None:
        for name in (self.initial, self.temp):
            with contextlib.suppress(FileNotFoundError):
                os.remove(name)


def _check_writable(x: Tensor, filename: str, options: dict[str, Any]) -> None:
    """Raise now what writing would: a missing folder, a file that is not HDF5, a dtype
    HDF5 cannot hold, options ``create_dataset`` refuses (tried in memory)."""
    folder = os.path.dirname(filename)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"hdf5_file: the directory {folder!r} does not exist")
    if os.path.exists(filename) and not h5py.is_hdf5(filename):
        raise OSError(f"hdf5_file: {filename!r} exists and is not an HDF5 file")
    try:
        h5py.h5t.py_create(x.dtype, logical=True)
    except TypeError as exc:
        raise TypeError(f"x: HDF5 cannot store dtype {x.dtype}") from exc
    # data-dependent (nan) lengths are not known yet: any length checks the options
    probe = tuple(n if n == n else 1 for n in x.shape)
    with h5py.File(uuid.uuid4().hex, "w", driver="core", backing_store=False) as f:
        f.create_dataset("probe", shape=probe, dtype=x.dtype, **options)


def to_hdf5(
    hdf5_file: Any, x: Any, group: str | None = None, dataset: str | None = None, **kwds: Any
) -> Tensor:
    """Write ``x`` as the dataset ``group/dataset`` of an HDF5 file, lazily, as in Mars.

    Returns a tensor of shape ``(0,) * x.ndim``; executing it writes. Other datasets of
    an existing file are kept; one at the same path is replaced. ``kwds`` go to
    ``h5py.Group.create_dataset`` (``compression``, ``chunks``...). The write is atomic:
    the file (a new one, or the old one with the dataset added) takes its name only when
    every chunk is written; a failed write leaves no file, or the old one unchanged.
    """
    filename, path = _file_and_path(hdf5_file, group, dataset)
    x = astensor(x)
    _check_writable(x, filename, kwds)
    target = HDF5Target(filename, path, uuid.uuid4().hex, dict(kwds))
    return store_tensor(x, target, "to_hdf5")


fromhdf5 = from_hdf5
tohdf5 = to_hdf5

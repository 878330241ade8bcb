"""Zarr arrays as tensors: ``from_zarr`` reads one lazily, ``to_zarr`` writes one.

An array is named by a store folder ``path`` and, inside it, an optional ``group`` and
``dataset``: it lives in the folder ``path/group/dataset`` (``path`` itself when neither
is given). Only local (or shared) filesystem stores are read and written.

Reading: shape, dtype and chunks are read at the call; each chunk task opens the array
and reads its slice, by default whole multiples of the array's own chunks (shards).

Writing (see ``atomic.py``): Zarr stores each chunk in its own file, so the tensor is
first rechunked to the array's chunk grid (its chunks are the largest chunk of each axis
unless ``chunks``/``shards`` are given), then every chunk is written by its own task, in
parallel, into a whole array under a hidden temporary folder beside ``path``. The commit
creates the groups above the array if missing and moves the array folder into place (an
array already there is replaced): the array appears whole or not at all.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
import zarr
from zarr.storage import LocalStore, MemoryStore

from jupyter_mars.engine.chunks import NSplits, split_evenly
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.datastore.atomic import store_tensor
from jupyter_mars.tensor.datastore.regions import Region, read_tensor, stored_chunks


def inner_path(group: Any, dataset: Any) -> str:
    """``group/dataset`` inside the store, '' for an array at the store's root."""
    if group is not None and dataset is None:
        raise ValueError("dataset must be given with group: the array's name in the group")
    for what, value in (("group", group), ("dataset", dataset)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return "/".join(part.strip("/") for part in (group, dataset) if part and part.strip("/"))


def _location(path: Any, group: Any, dataset: Any) -> tuple[str, str]:
    """The store's absolute folder and the array's path inside it."""
    if isinstance(path, zarr.Array):
        if not isinstance(path.store, LocalStore):
            raise TypeError(
                f"path: only arrays of local stores are supported, got {type(path.store).__name__}"
            )
        return os.path.abspath(str(path.store.root)), path.path
    if isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if "://" in text:
            raise ValueError(f"path: only local (or shared) folders are supported, got {text!r}")
        return os.path.abspath(text), inner_path(group, dataset)
    raise TypeError(f"path must be a folder name or a zarr.Array, got {type(path).__name__}")


def _folder(root: str, inner: str) -> str:
    return os.path.join(root, *inner.split("/")) if inner else root


def _open(root: str, inner: str) -> Any:
    """The array or group at ``inner`` of the store ``root``, None when there is none."""
    try:
        return zarr.open(store=root, path=inner, mode="r")
    except FileNotFoundError:  # zarr's "no node found" errors derive from it
        return None


@dataclass(frozen=True)
class ZarrReader:
    root: str
    inner: str

    def __call__(self, region: Region) -> Any:
        return zarr.open_array(store=self.root, path=self.inner, mode="r")[region]


def from_zarr(
    path: Any, group: str | None = None, dataset: str | None = None, chunk_size: Any = None
) -> Tensor:
    """The Zarr array at ``path/group/dataset`` (or a ``zarr.Array``) as a lazy tensor.

    Shape and dtype are those of the array; each chunk is read by its own task.
    ``chunk_size`` defaults to whole multiples of the array's own chunks (shards).
    """
    root, inner = _location(path, group, dataset)
    if not os.path.isdir(root):
        raise FileNotFoundError(f"path: no such zarr store {root!r}")
    node = _open(root, inner)
    if node is None:
        raise KeyError(f"dataset: no array {inner or '/'!r} in the zarr store {root!r}")
    if not isinstance(node, zarr.Array):
        raise ValueError(
            f"dataset: {inner or '/'!r} in {root!r} is a group, not an array; name the array"
        )
    dtype = np.dtype(node.dtype)
    if dtype.kind == "O":
        raise TypeError(f"the zarr array {inner or '/'!r} holds objects, not a NumPy dtype")
    native = node.shards or node.chunks
    nsplits = stored_chunks(node.shape, dtype, native, chunk_size)
    return read_tensor(ZarrReader(root, inner), "from_zarr", node.shape, dtype, nsplits)


def _probe(shape: tuple[int, ...], dtype: np.dtype[Any], options: dict[str, Any]) -> Any:
    """An array made in memory with ``options``: zarr's own checks, and its chunk grid."""
    return zarr.create_array(store=MemoryStore(), shape=shape, dtype=dtype, **options)


def _replace_folder(temp: str, final: str, token: str) -> None:
    """Put the folder ``temp`` at ``final``, replacing what is there."""
    folder, name = os.path.split(final)
    old = os.path.join(folder, f".{name}.{token}.old")
    if os.path.exists(final):
        os.rename(final, old)
    try:
        os.rename(temp, final)
    except BaseException:
        if os.path.exists(old):
            os.rename(old, final)
        raise
    shutil.rmtree(old, ignore_errors=True)


@dataclass(frozen=True)
class ZarrTarget:
    """The array ``inner`` of the store ``root``, written as a whole array in a temporary
    folder and moved into place."""

    root: str
    inner: str
    token: str
    options: dict[str, Any]
    """Passed to ``zarr.create_array`` (``chunks``, ``shards``, ``compressors``...)."""

    serial = False

    def _hidden(self, suffix: str) -> str:
        folder, name = os.path.split(self.root)
        return os.path.join(folder, f".{name}.{self.token}.{suffix}")

    @property
    def temp(self) -> str:
        return self._hidden("tmp")

    def _grid(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], nsplits: NSplits
    ) -> tuple[int, ...]:
        """The array's write unit: its shards or chunks, given or the largest chunk."""
        if "chunks" in self.options or "shards" in self.options:
            probe = _probe(shape, dtype, self.options)
            return tuple(probe.shards or probe.chunks)
        return tuple(max(int(max(axis)), 1) for axis in nsplits)

    def aligned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], nsplits: NSplits
    ) -> NSplits | None:
        grid = self._grid(shape, dtype, nsplits)
        layout = tuple(split_evenly(n, size) for n, size in zip(shape, grid))
        return None if layout == tuple(tuple(axis) for axis in nsplits) else layout

    def begin(self, shape: tuple[int, ...], dtype: np.dtype[Any], layout: NSplits) -> None:
        # run again when a worker's loss sends the scheduler back along the lineage: the
        # chunks written so far must stay, so the array is made under another name and
        # takes the temporary name only once complete
        if os.path.exists(self.temp):
            return
        options = dict(self.options)
        if "chunks" not in options and "shards" not in options:
            options["chunks"] = tuple(max(int(axis[0]), 1) for axis in layout)
        initial = self._hidden("init")
        shutil.rmtree(initial, ignore_errors=True)
        zarr.create_array(store=initial, shape=shape, dtype=dtype, **options)
        os.rename(initial, self.temp)

    def write(self, region: Region, block: np.ndarray[Any, Any]) -> None:
        zarr.open_array(store=self.temp, mode="r+")[region] = block

    def commit(self) -> None:
        if self.inner:
            written = zarr.open_array(store=self.temp, mode="r")
            fmt = written.metadata.zarr_format
            exists = os.path.exists(self.root)
            root = zarr.open_group(self.root, mode="a", zarr_format=None if exists else fmt)
            parent = posixpath.dirname(self.inner)
            if parent:
                root.require_group(parent)
        _replace_folder(self.temp, _folder(self.root, self.inner), self.token)

    def abort(self) -> None:
        for name in (self._hidden("init"), self.temp):
            with contextlib.suppress(FileNotFoundError):
                shutil.rmtree(name)


def _check_writable(x: Tensor, root: str, inner: str, options: dict[str, Any]) -> None:
    """Raise now what writing would: a missing folder, something other than an array at
    the target, options or a dtype that zarr refuses (tried in memory)."""
    folder = os.path.dirname(root)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"path: the directory {folder!r} does not exist")
    final = _folder(root, inner)
    if os.path.exists(final) and not isinstance(_open(root, inner), zarr.Array):
        raise FileExistsError(f"path: {final!r} exists and is not a zarr array to replace")
    if inner and os.path.exists(root) and isinstance(_open(root, ""), zarr.Array):
        raise FileExistsError(f"path: {root!r} is a zarr array, it cannot hold {inner!r}")
    # data-dependent (nan) lengths are not known yet: any length checks the options
    probe = tuple(n if n == n else 1 for n in x.shape)
    _probe(probe, x.dtype, options)


def to_zarr(
    path: Any, x: Any, group: str | None = None, dataset: str | None = None, **zarr_options: Any
) -> Tensor:
    """Write ``x`` as the Zarr array at ``path/group/dataset``, lazily, as in Mars.

    Returns a tensor of shape ``(0,) * x.ndim``; executing it writes. ``zarr_options``
    go to ``zarr.create_array`` (``chunks``, ``shards``, ``compressors``,
    ``zarr_format``...). The write is atomic: the array appears whole once every chunk is
    written, replacing an array already there; a failed write leaves the store as it was.
    """
    root, inner = _location(path, group, dataset)
    x = astensor(x)
    _check_writable(x, root, inner, zarr_options)
    target = ZarrTarget(root, inner, uuid.uuid4().hex, dict(zarr_options))
    return store_tensor(x, target, "to_zarr")


fromzarr = from_zarr
tozarr = to_zarr

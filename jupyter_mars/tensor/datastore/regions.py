"""Reading a stored array chunk by chunk: one task per chunk opens the store and reads its
slice, so no chunk passes through the client and chunks are read in parallel.

``ReadRegions`` is the one source operator of every reader in this package. Its ``reader``
is a small picklable object (a frozen dataclass naming a file and a dataset in it) called
with a region, a tuple of slices, on whichever worker runs the chunk task.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import (
    NSplits,
    auto_chunk_sizes,
    chunk_slices,
    normalize_chunk_size,
    split_evenly,
)
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor

Region = tuple[slice, ...]
Reader = Callable[[Region], Any]


@dataclass(frozen=True, eq=False)
class ReadRegions(Op):
    """A source: each chunk is ``reader(region)`` for the chunk's region of the array."""

    reader: Reader
    nsplits: NSplits
    name: str
    """The operator's name in keys and on the dashboard (``from_hdf5``, ``imread``...)."""

    def label(self) -> str:
        return self.name


def read_region(reader: Reader, region: Region, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    block: np.ndarray[Any, Any] = np.asarray(reader(region), dtype=dtype)
    return block


def regions_of(nsplits: NSplits) -> Any:
    """``(chunk index, region)`` of every chunk of the layout ``nsplits``."""
    per_axis = [chunk_slices([int(n) for n in axis]) for axis in nsplits]
    for index in itertools.product(*(range(len(axis)) for axis in nsplits)):
        yield index, tuple(per_axis[a][i] for a, i in enumerate(index))


@tile_rule(ReadRegions)
def _tile_read_regions(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadRegions)
    grid = key_grid(node.key, [len(axis) for axis in op.nsplits])
    for index, region in regions_of(op.nsplits):
        ctx.new_task(grid[index], read_region, op.reader, region, node.dtype)
    return Tiled(op.nsplits, grid)


def stored_chunks(
    shape: Sequence[int], dtype: np.dtype[Any], native: Sequence[int] | None, chunk_size: Any
) -> NSplits:
    """The chunk layout of a reader: ``chunk_size`` when given; else whole multiples of the
    store's own chunks (``native``), so that every read covers whole stored chunks, grown
    towards ``options.chunk_store_limit`` bytes (a store's chunks are often far smaller
    than a task's worth); else the default layout."""
    if chunk_size is not None or native is None or len(native) != len(shape):
        return normalize_chunk_size(shape, chunk_size, dtype.itemsize)
    wanted = auto_chunk_sizes(shape, dtype.itemsize, options.chunk_store_limit)
    sizes = [max(step, (want // step) * step) for want, step in zip(wanted, native)]
    return tuple(split_evenly(n, max(min(size, n), 1)) for n, size in zip(shape, sizes))


def read_tensor(
    reader: Reader, name: str, shape: Sequence[int], dtype: np.dtype[Any], nsplits: NSplits
) -> Tensor:
    """A lazy tensor of ``shape`` and ``dtype`` whose chunks ``reader`` reads."""
    return new_tensor(ReadRegions(reader, nsplits, name), [], tuple(shape), dtype)

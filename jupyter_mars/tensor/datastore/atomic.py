"""Writing a tensor into a store atomically: it appears whole under its name, or not at all.

The tasks a write tiles into, for input chunks ``c0 .. cn``:

1. ``ready_i`` per chunk: nothing but a sign that chunk ``i`` was computed (it carries no
   data, so the barrier below gathers no chunks);
2. ``begin``: waits for every ``ready_i``, then creates the store's temporary copy. Since
   it runs only once every chunk is computed, a chunk that fails stops the job before any
   byte is written;
3. ``write_i`` per chunk: writes chunk ``i`` into its region of the temporary copy. A
   target whose format allows one writer only (HDF5) chains them, ``write_i`` waiting for
   ``write_{i-1}``: one writer at a time in chunk order, whichever process or host each
   runs on. Others (Zarr, whose chunk files are independent) write in parallel, each task
   covering whole stored chunks (the input is rechunked to the store's chunks first);
4. ``commit``: renames the temporary copy to the target's name when every writer
   succeeded; otherwise removes it and raises the first writer's error.

Every step may run twice (after a worker's loss, the scheduler recomputes lost results
along their lineage): writes rewrite the same region, and ``begin`` leaves an existing
temporary copy alone. Writers catch their errors and hand them on rather than raising,
so that the commit, which cleans up, always runs. The temporary copy lies beside the
target (same folder, so the rename is atomic) under a hidden name with the write's
unique token. Several hosts need a shared filesystem, as for any file a job writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from jupyter_mars.engine.chunks import NSplits
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datastore.regions import Region, regions_of


class Target(Protocol):
    """Where a tensor is written, and how (a frozen, picklable dataclass)."""

    @property
    def serial(self) -> bool:
        """True when the format allows a single writer at a time."""
        ...

    def aligned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], nsplits: NSplits
    ) -> NSplits | None:
        """The layout the chunks must have to be written in parallel, or None as they are."""
        ...

    def begin(self, shape: tuple[int, ...], dtype: np.dtype[Any], layout: NSplits) -> None:
        """Create the temporary copy holding an (unwritten) array of ``shape``, whose
        chunks will be written in the chunk layout ``layout``."""
        ...

    def write(self, region: Region, block: np.ndarray[Any, Any]) -> None:
        """Write ``block`` into ``region`` of the temporary copy."""
        ...

    def commit(self) -> None:
        """Move the temporary copy to the target's name."""
        ...

    def abort(self) -> None:
        """Remove the temporary copy, whatever of it exists."""
        ...


@dataclass(frozen=True, eq=False)
class StoreTensor(Op):
    """A sink: write the input into ``target``; the result is an empty array."""

    target: Target
    name: str
    """The operator's name in keys and on the dashboard (``to_hdf5``, ``to_zarr``)."""

    def label(self) -> str:
        return self.name


Status = BaseException | None
"""What a writer hands on: its error, or that of a writer before it, or None."""


def chunk_ready(block: Any) -> None:
    """Nothing: the task's completion is the news."""
    return None


def begin(
    target: Target, shape: tuple[int, ...], dtype: np.dtype[Any], layout: NSplits, *ready: None
) -> Status:
    try:
        target.begin(shape, dtype, layout)
    except Exception as exc:  # handed on to the commit, which cleans up and raises it
        return exc
    return None


def write(target: Target, region: Region, block: Any, before: Status) -> Status:
    if before is not None:
        return before
    block = np.asarray(block)
    if block.size == 0:  # an empty chunk: nothing to write, no file to open
        return None
    try:
        target.write(region, block)
    except Exception as exc:  # handed on to the commit, which cleans up and raises it
        return exc
    return None


def commit(target: Target, statuses: list[Status], ndim: int, dtype: np.dtype[Any]) -> Any:
    errors = [status for status in statuses if status is not None]
    if errors:
        target.abort()
        raise errors[0]
    try:
        target.commit()
    except BaseException:
        target.abort()
        raise
    return np.empty((0,) * ndim, dtype=dtype)


@tile_rule(StoreTensor)
def _tile_store(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, StoreTensor)
    (source,) = inputs
    ctx.require_known(source)
    shape = tuple(int(sum(axis)) for axis in source.nsplits)
    layout = op.target.aligned(shape, node.inputs[0].dtype, source.nsplits)
    suffix = node.key.split("-", 1)[1]
    if layout is not None:
        source = rechunk_tiled(f"store_rechunk-{suffix}", source, layout, node.dtype, ctx)
    chunks = list(regions_of(source.nsplits))
    ready = key_grid(f"store_ready-{suffix}", [len(chunks)])
    for i, (index, _) in enumerate(chunks):
        ctx.new_task(ready[i], chunk_ready, Ref(source.keys[index]))
    begin_key = (f"store_begin-{suffix}", 0)
    ctx.new_task(
        begin_key, begin, op.target, shape, node.dtype, source.nsplits, *(Ref(k) for k in ready)
    )
    writers = key_grid(f"store_write-{suffix}", [len(chunks)])
    before = Ref(begin_key)
    for i, (index, region) in enumerate(chunks):
        ctx.new_task(writers[i], write, op.target, region, Ref(source.keys[index]), before)
        if op.target.serial:
            before = Ref(writers[i])
    grid = key_grid(node.key, [1] * node.ndim)
    statuses = [Ref(k) for k in writers]
    ctx.new_task(grid[(0,) * node.ndim], commit, op.target, statuses, node.ndim, node.dtype)
    return Tiled(((0,),) * node.ndim, grid)


def store_tensor(x: Tensor, target: Target, name: str) -> Tensor:
    """A lazy write of ``x`` into ``target``: executing it writes; shaped ``(0,) * x.ndim``
    as in Mars."""
    return new_tensor(StoreTensor(target, name), [x], (0,) * x.ndim, x.dtype)

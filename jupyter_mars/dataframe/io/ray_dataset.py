"""Frames from and to Ray Datasets: ``md.read_ray_dataset(ds)`` and ``df.to_ray_dataset()``.

A Dataset's blocks already live in Ray's object store. On a session whose runtime keeps
its chunks there too (a Ray session: its runtime offers ``object_ref`` and ``adopt``), no
byte passes through this process: each block's ``ObjectRef`` becomes a chunk of the frame
(adopted by the runtime, held by the engine session like an executed result and released
when the frame is garbage-collected), and ``to_ray_dataset`` hands the frame's chunk refs
to ``ray.data.from_pandas_refs``. Ray converts Arrow blocks to pandas in its own tasks,
without a copy where Arrow's types allow. Any other session (embedded, a cluster) cannot
read Ray's store from its workers, so the blocks are fetched here, one chunk per block,
and ``to_ray_dataset`` puts the fetched chunks into Ray, one block per chunk.

Ray is optional (``pip install 'jupyter_mars[ray]'``): it is imported on the first call,
so ``import jupyter_mars.dataframe`` never loads it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series, new_frame, wrap
from jupyter_mars.dataframe.datasource import FromPandas
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.engine.graph import Key
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import Session, default_session

INSTALL_HINT = "Ray is not installed: pip install 'jupyter_mars[ray]'"


def import_ray() -> Any:
    """The ``ray`` module with Ray Data, or an ImportError that says how to install it."""
    try:
        importlib.import_module("ray.data")
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return importlib.import_module("ray")


@runtime_checkable
class ObjectStoreRuntime(Protocol):
    """A runtime whose chunks are objects in Ray's store (the Ray session's)."""

    def object_ref(self, key: Key) -> Any:
        """The ``ObjectRef`` of held chunk ``key``'s data."""
        ...

    def adopt(self, key: Key, ref: Any, shape: tuple[int, ...]) -> None:
        """Hold the existing ``ref`` as the data of chunk ``key``."""
        ...


def object_store_of(session: Session) -> ObjectStoreRuntime | None:
    """``session``'s runtime when its chunks live in Ray's object store, else None."""
    runtime = getattr(getattr(session, "engine", None), "runtime", None)
    return runtime if isinstance(runtime, ObjectStoreRuntime) else None


@dataclass(frozen=True, eq=False)
class RayBlocks(Op):
    """The pandas blocks of a Ray Dataset, by ``ObjectRef``."""

    refs: tuple[Any, ...]
    rows: tuple[int, ...]
    """Rows per block, from the Dataset's block metadata."""

    def label(self) -> str:
        return "read_ray_dataset"


def fetch_block(ref: Any) -> Any:
    """One block's data (only run where a session that does not hold the block reads a
    frame that a Ray session adopted: this process must be connected to Ray)."""
    return import_ray().get(ref)


@tile_rule(RayBlocks)
def _tile_blocks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RayBlocks)
    grid = key_grid(node.key, [len(op.refs)])
    for i, ref in enumerate(op.refs):
        ctx.new_task(grid[i], fetch_block, ref)
    return Tiled((op.rows,), grid)


def read_ray_dataset(
    ds: Any,
    columns: Sequence[str] | None = None,
    incremental_index: bool = False,
    session: Session | None = None,
) -> DataFrame:
    """A DataFrame whose chunks are the blocks of the Ray Dataset ``ds``.

    ``columns``: read only these. ``incremental_index``: number the rows ``0 .. n-1`` as
    ``ds.to_pandas()`` does; by default each block keeps the labels Ray gave it, so that
    the blocks are read as they are. ``session``: where the frame will be computed (the
    default session if None); on a Ray session nothing is copied.
    """
    ray = import_ray()
    if not isinstance(ds, ray.data.Dataset):
        raise TypeError(f"ds: expected a ray.data.Dataset, got {type(ds).__name__}")
    if not isinstance(incremental_index, bool):
        raise TypeError(f"incremental_index: expected a bool, got {incremental_index!r}")
    ds = ds.materialize()  # the blocks are computed once; their refs stay the same
    meta = _meta(ds)
    if columns is not None:
        columns = _checked_columns(columns, meta)
    session = default_session(session)
    refs = tuple(ds.to_pandas_refs())
    rows = _block_rows(ray, ds, refs)
    runtime = object_store_of(session)
    frame: Any
    if runtime is None:
        frame = _fetched(ray.get(list(refs)), rows, meta)
    else:
        frame = _adopted(session, runtime, refs, rows, meta)
    if columns is not None:
        frame = frame[list(columns)]
    if incremental_index:
        frame = renumber(frame, frame.node.meta.reset_index(drop=True))
    result: DataFrame = frame
    return result


read_raydataset = read_ray_dataset
"""Mars's earlier name of ``read_ray_dataset``."""


def _meta(ds: Any) -> pd.DataFrame:
    """The empty frame that every block is shaped like, from the Dataset's schema."""
    schema = ds.schema()
    if schema is None:
        raise ValueError("ds: the Dataset has no schema (no block and no known columns)")
    base = schema.base_schema
    if hasattr(base, "empty_table"):  # an Arrow schema: Ray converts as pyarrow does
        meta: pd.DataFrame = base.empty_table().to_pandas()
        return meta
    return pd.DataFrame(
        {name: pd.Series([], dtype=dtype) for name, dtype in zip(base.names, base.types)}
    )


def _checked_columns(columns: Any, meta: pd.DataFrame) -> list[str]:
    if isinstance(columns, str) or not isinstance(columns, Sequence):
        raise TypeError(f"columns: expected a list of column names, got {columns!r}")
    missing = [c for c in columns if c not in meta.columns]
    if missing:
        raise ValueError(f"columns: no column {missing[0]!r} in the Dataset's schema")
    return list(columns)


def _block_rows(ray: Any, ds: Any, refs: tuple[Any, ...]) -> tuple[int, ...]:
    """Rows per block from the block metadata; counted by small Ray tasks (no block is
    fetched here) where the metadata does not say."""
    bundles = ds.iter_internal_ref_bundles()
    rows = [entry.metadata.num_rows for bundle in bundles for entry in bundle.blocks]
    if len(rows) == len(refs) and all(isinstance(n, int) for n in rows):
        return tuple(rows)
    count = ray.remote(num_rows)
    return tuple(ray.get([count.remote(ref) for ref in refs]))


def num_rows(block: Any) -> int:
    return len(block)


def _fetched(blocks: list[Any], rows: tuple[int, ...], meta: pd.DataFrame) -> DataFrame:
    """A frame of the fetched blocks, one chunk per block."""
    data = pd.concat(blocks) if blocks else meta
    splits = tuple(rows) if rows else (0,)
    result: DataFrame = new_frame(FromPandas(data, splits), [], len(data), meta)
    return result


def _adopted(
    session: Session,
    runtime: ObjectStoreRuntime,
    refs: tuple[Any, ...],
    rows: tuple[int, ...],
    meta: pd.DataFrame,
) -> DataFrame:
    """A frame whose chunks are the blocks themselves, held by ``session`` as executed."""
    node = FrameNode(RayBlocks(refs, rows), [], sum(rows), meta)
    tiled = Tiled((rows,), key_grid(node.key, [len(refs)]))
    for key, ref, n in zip(tiled.flat_keys(), refs, rows):
        runtime.adopt(key, ref, (n,))
    session.engine.adopt(node, tiled)  # type: ignore[attr-defined]
    frame: DataFrame = wrap(node)
    return frame


def to_ray_dataset(frame: Any, session: Session | None = None) -> Any:
    """``frame`` as a Ray Dataset, one block per row chunk (computed first if needed).

    On a Ray session the blocks are the frame's chunks in Ray's object store, not copies;
    elsewhere the chunks are fetched and put into Ray. A Series becomes a one-column
    frame (``Series.to_frame()``).
    """
    ray = import_ray()
    if isinstance(frame, Series):
        frame = frame.to_frame()  # type: ignore[attr-defined]  # attached by value_methods
    if not isinstance(frame, DataFrame):
        kind = type(frame).__name__
        raise TypeError(f"frame: expected a DataFrame or Series to make a Dataset of, got {kind}")
    session = default_session(session)
    frame.execute(session=session)
    runtime = object_store_of(session)
    engine = getattr(session, "engine", None)
    tiled = None if engine is None else engine.executed.get(frame.key)
    if engine is None or tiled is None or tiled.keys.ndim != 1:
        # a cluster's chunks, or a frame split by columns too: whole row blocks from here
        return ray.data.from_pandas([session.fetch(frame)])
    keys = tiled.flat_keys()
    if runtime is not None:
        return ray.data.from_pandas_refs([runtime.object_ref(k) for k in keys])
    return ray.data.from_pandas([engine.runtime.get(k) for k in keys])

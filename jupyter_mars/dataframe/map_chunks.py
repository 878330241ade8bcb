"""One pandas call per row chunk, over frames whose rows line up chunk for chunk.

Frames that share an ``index_key`` have the same index and chunking, so chunk i of each
holds the same rows: a binary operation between them is one task per chunk. Frames
with different indexes are aligned on their labels as pandas does; here by bringing each
into one chunk first, which is correct for any indexes (a shuffle by index hash, which
keeps the work parallel, is the scalable way and replaces this for large frames).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jupyter_mars.dataframe.core import FrameBase, new_frame
from jupyter_mars.dataframe.node import FrameNode, concat_chunks
from jupyter_mars.dataframe.projection import column_rule
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.blockwise import Slot
from jupyter_mars.tensor.core import Tensor

__all__ = ["Slot", "map_chunks", "one_chunk", "slot_args"]


def slot_args(args: Any, first: int = 0) -> list[Any]:
    """``args`` with each lazy frame replaced by ``Slot(first)``, ``Slot(first + 1)``, ...
    in order (the frames given to ``map_chunks`` in that order); the others as they are."""
    out: list[Any] = []
    for arg in args:
        if isinstance(arg, FrameBase):
            out.append(Slot(first))
            first += 1
        else:
            out.append(arg)
    return out


@dataclass(frozen=True, eq=False)
class MapChunks(Op):
    func: Callable[..., Any]
    args: tuple[Any, ...]
    """``Slot(i)`` (also inside lists and tuples) for the chunk of frame input i; anything
    else passed as is."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    broadcast: frozenset[int] = frozenset()
    """Inputs of one chunk read whole by every task (a Series of per-column values)."""
    keeps_rows: bool = True
    """Each chunk keeps its rows; otherwise the result's chunk lengths are unknown."""
    called: str = ""
    """What an execution of it is called, where ``name`` is a word made for keys
    (``Op.title``): ``groupby(k).transform(sum)``."""

    def label(self) -> str:
        return self.name or getattr(self.func, "__name__", "map_chunks")

    def title(self, inner: str) -> str:
        return self.called or super().title(inner)


def _lazy_scalar(arg: Any) -> bool:
    return isinstance(arg, Tensor) and arg.ndim == 0


def _find_scalars(arg: Any, found: dict[int, Tensor]) -> None:
    """The lazy 0-d tensors in ``arg`` (also inside lists, tuples and dicts), by id."""
    if _lazy_scalar(arg):
        found.setdefault(id(arg), arg)
    elif type(arg) in (list, tuple):
        for a in arg:
            _find_scalars(a, found)
    elif type(arg) is dict:
        for a in arg.values():
            _find_scalars(a, found)


def _slotted(arg: Any, slots: dict[int, Slot]) -> Any:
    """``arg`` with each lazy 0-d tensor replaced by its ``Slot``."""
    if _lazy_scalar(arg):
        return slots[id(arg)]
    if type(arg) in (list, tuple):
        return type(arg)(_slotted(a, slots) for a in arg)
    if type(arg) is dict:
        return {k: _slotted(a, slots) for k, a in arg.items()}
    return arg


def _unwrapped(arg: Any) -> Any:
    """``arg`` with each 0-d NumPy array (a 0-d tensor's chunk) as its scalar."""
    if isinstance(arg, np.ndarray) and arg.ndim == 0:
        return arg[()]  # ``[()]`` keeps a datetime a datetime, where ``item()`` gives an int
    if type(arg) in (list, tuple):
        return type(arg)(_unwrapped(a) for a in arg)
    if type(arg) is dict:
        return {k: _unwrapped(a) for k, a in arg.items()}
    return arg


@dataclass(frozen=True)
class WithScalars:
    """A chunk function whose arguments held lazy scalars (reductions of the data, as in
    ``s.clip(lower=s.quantile(0.01))``): they are inputs of the tasks, read whole by each,
    and handed to the function as scalars."""

    func: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*_unwrapped(args), **_unwrapped(kwargs))


def fill_slots(arg: Any, refs: list[Any]) -> Any:
    """``arg`` with each ``Slot``, also inside lists, tuples and dicts, replaced by its
    chunk."""
    if isinstance(arg, Slot):
        return refs[arg.index]
    if type(arg) in (list, tuple):
        return type(arg)(fill_slots(a, refs) for a in arg)
    if type(arg) is dict:
        return {k: fill_slots(a, refs) for k, a in arg.items()}
    return arg


@tile_rule(MapChunks)
def _tile_map_chunks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, MapChunks)
    first = inputs[0]
    grid = key_grid(node.key, [len(first.nsplits[0])])
    for i in range(len(first.nsplits[0])):
        # a broadcast input has one chunk: a frame's, or a 0-d tensor's (a 0-d key grid)
        refs = [
            Ref(t.flat_keys()[0] if n in op.broadcast else t.keys[i]) for n, t in enumerate(inputs)
        ]
        args = tuple(fill_slots(a, refs) for a in op.args)
        kwargs = {k: fill_slots(v, refs) for k, v in op.kwargs.items()}
        ctx.add_blockwise(grid[i], op.func, args, kwargs)
    if not op.keeps_rows:
        return Tiled(((math.nan,) * len(first.nsplits[0]),), grid)
    return Tiled(first.nsplits, grid)


TAKES_COLUMNS: dict[Any, Callable[[MapChunks, int, Any], list[Any] | None]] = {}
"""Kernel (a function, or the function of a bound method) -> what a map of it takes of
its input at a position: ``rule(op, position, input_meta)``, columns or None for all."""


@column_rule(MapChunks)
def _columns_taken(reader: Node, position: int, ctx: TileContext) -> list[Any] | None:
    op = reader.op
    assert isinstance(op, MapChunks)
    rule = TAKES_COLUMNS.get(getattr(op.func, "__func__", op.func))
    if rule is None:
        return None
    meta = getattr(reader.inputs[position], "meta", None)
    return rule(op, position, meta)


def map_chunks(
    func: Callable[..., Any],
    frames: list[FrameBase],
    args: tuple[Any, ...],
    meta: Any,
    kwargs: dict[str, Any] | None = None,
    name: str = "",
    keeps_rows: bool = True,
    broadcast: frozenset[int] = frozenset(),
    called: str = "",
) -> Any:
    """``func(*args)`` per row chunk, ``Slot(i)`` standing for ``frames[i]``'s chunk.

    The frames must line up (``aligned``). ``keeps_rows``: every chunk keeps its rows (an
    element-wise operation), so the result shares the index of ``frames[0]``. ``called``:
    what executions of it are called, when not its ``name``.
    """
    head = frames[0].node
    assert isinstance(head, FrameNode)
    kwargs = kwargs or {}
    found: dict[int, Tensor] = {}
    _find_scalars((args, kwargs), found)
    if found:  # each a task input of one chunk, read by every task
        slots = {key: Slot(len(frames) + n) for n, key in enumerate(found)}
        broadcast = broadcast | {s.index for s in slots.values()}
        frames = [*frames, *found.values()]  # type: ignore[list-item]
        args = _slotted(args, slots)
        kwargs = _slotted(kwargs, slots)
        func = WithScalars(func)
    op = MapChunks(func, args, kwargs, name, broadcast, keeps_rows, called)
    nrows = head.shape[0] if keeps_rows else float("nan")
    return new_frame(op, list(frames), nrows, meta, head.index_key if keeps_rows else None)


@dataclass(frozen=True, eq=False)
class OneChunk(Op):
    def label(self) -> str:
        return "one_chunk"


def concat_rows(meta: Any, *chunks: Any) -> Any:
    return concat_chunks(list(chunks), meta)


@tile_rule(OneChunk)
def _tile_one_chunk(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    assert isinstance(node, FrameNode)
    key = key_grid(node.key, [1])
    ctx.new_task(key[0], concat_rows, node.meta, *(Ref(k) for k in t.flat_keys()))
    return Tiled(((sum(t.nsplits[0]),),), key)


def one_chunk(frame: FrameBase) -> Any:
    """``frame`` as a single chunk (same rows and index, a new chunking)."""
    node = frame.node
    assert isinstance(node, FrameNode)
    return new_frame(OneChunk(), [frame], node.shape[0], node.meta)


def aligned(frames: list[FrameBase]) -> list[FrameBase]:
    """The frames, made to line up chunk for chunk (see the module docstring)."""
    keys = {f.node.index_key for f in frames}  # type: ignore[attr-defined]
    if len(keys) == 1:
        return frames
    return [one_chunk(f) for f in frames]


def is_frame(obj: Any) -> bool:
    return isinstance(obj, FrameBase)


def meta_of(obj: Any) -> Any:
    """The meta of a lazy frame; a value of a lazy scalar's dtype; pandas objects and
    scalars as they are."""
    if _lazy_scalar(obj) and obj.dtype != np.dtype(object):
        return np.zeros((), dtype=obj.dtype)[()]
    return obj.meta if isinstance(obj, FrameBase) else obj

"""The three ways an Index method runs, which every method of this package uses.

- ``per_chunk``: one pandas call per row chunk, rows kept (``isna``, ``astype``,
  ``rename``): the result lines up with its input chunk for chunk.
- ``whole``: one pandas call on the whole index brought into one chunk, for results
  whose rows depend on all of them (set operations, ``sort_values``, ``insert``),
  as one ``WholeCall`` task. Its length is the method's where it tells it without
  data (a sort keeps it, ``insert`` adds one), else known once it has run.
  ``whole_array`` is the same for the calls pandas answers with a NumPy array
  (``argsort``): a lazy tensor.
- ``value``: the same call on one chunk, for what pandas returns as a plain Python or
  NumPy value (``get_loc``, ``slice_locs``, ``equals``): it runs on the workers and
  only the value comes back.

Each builds its meta by making the same call on the input's meta (or, where pandas
types an empty index otherwise, on a one-row sample), so pandas checks the arguments
and raises its own exception when the method is called, not at execute. Lookups skip
that check: none would succeed on an empty index.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.conversion import to_tensor
from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, meta_of, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def call(obj: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``obj.name(*args, **kwargs)``, or the attribute itself when it is not callable."""
    attr = getattr(obj, name)
    return attr(*args, **kwargs) if callable(attr) else attr


def meta_call(index: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
    """The call on the empty meta (with lazy arguments replaced by their metas)."""
    margs = tuple(meta_of(a) for a in args)
    mkwargs = {k: meta_of(v) for k, v in kwargs.items()}
    return call(index.meta, name, margs, mkwargs)


def per_chunk(index: Any, name: str, /, *args: Any, meta: Any = None, **kwargs: Any) -> Any:
    """``chunk.name(*args, **kwargs)`` for every chunk: rows and chunking kept."""
    if meta is None:
        meta = empty_like(meta_call(index, name, *args, **kwargs))
    return map_chunks(call, [index], (Slot(0), name, args, kwargs), meta, name=name)


def _with_others(index: Any, others: list[Any]) -> tuple[list[Any], list[Any]]:
    """The lazy inputs (``index`` and the lazy ``others``) each in one chunk, and the
    arguments with each lazy one replaced by its ``Slot``."""
    frames = [one_chunk(index)]
    slots: list[Any] = []
    for other in others:
        if hasattr(other, "node") and hasattr(other, "meta"):
            slots.append(Slot(len(frames)))
            frames.append(one_chunk(other))
        else:
            slots.append(other)
    return frames, slots


def _call_whole(obj: Any, name: str, kwargs: dict[str, Any], *args: Any) -> Any:
    return call(obj, name, args, kwargs)


@dataclass(frozen=True, eq=False)
class WholeCall(Op):
    """``kernel(*args)`` in one task, on inputs that are one chunk each."""

    kernel: Callable[..., Any]
    args: tuple[Any, ...]
    """``Slot(i)`` for input i's one chunk; anything else passed as is."""
    name: str

    def label(self) -> str:
        return self.name


@tile_rule(WholeCall)
def _tile_whole_call(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, WholeCall)
    chunks = [Ref(t.keys[0]) for t in inputs]
    args = tuple(chunks[a.index] if isinstance(a, Slot) else a for a in op.args)
    grid = key_grid(node.key, [1])
    ctx.add_blockwise(grid[0], op.kernel, args, {})
    # the node's length: known where the method tells it (``nan`` otherwise)
    return Tiled(((node.shape[0],),), grid)


def one_task(
    kernel: Any, frames: list[Any], args: tuple[Any, ...], meta: Any, name: str, length: Any
) -> Any:
    """``kernel(*args)`` on ``frames`` brought into one chunk each; ``length`` is the
    result's when the method tells it without data (a sort keeps it, ``insert`` adds
    one), None when it depends on the data. The result has an index of its own."""
    nrows = math.nan if length is None else length
    return new_frame(WholeCall(kernel, args, name), frames, nrows, meta)


def whole(
    index: Any, name: str, /, *args: Any, meta: Any = None, length: Any = None, **kwargs: Any
) -> Any:
    """``whole_index.name(*args, **kwargs)`` in one task; ``args`` may be lazy frames."""
    if meta is None:
        meta = empty_like(meta_call(index, name, *args, **kwargs))
    frames, slots = _with_others(index, list(args))
    return one_task(_call_whole, frames, (Slot(0), name, kwargs, *slots), meta, name, length)


def _call_whole_as_array(obj: Any, name: str, kwargs: dict[str, Any], *args: Any) -> Any:
    """The call's NumPy result as an Index, so that it travels as a frame chunk."""
    return pd.Index(np.asarray(call(obj, name, args, kwargs)))


def whole_array(
    index: Any,
    name: str,
    /,
    *args: Any,
    result_dtype: Any = None,
    length: Any = None,
    **kwargs: Any,
) -> Any:
    """A lazy tensor of what ``whole_index.name(...)`` gives as a NumPy array (of
    ``result_dtype`` where the call on the empty meta cannot tell)."""
    if result_dtype is None:
        dtype = np.asarray(meta_call(index, name, *args, **kwargs)).dtype
    else:
        dtype = np.dtype(result_dtype)
    meta = pd.Index(np.array([], dtype=dtype))
    frames, slots = _with_others(index, list(args))
    args_ = (Slot(0), name, kwargs, *slots)
    return to_tensor(one_task(_call_whole_as_array, frames, args_, meta, name, length))


def boxed(obj: Any, name: str, kwargs: dict[str, Any], *args: Any) -> pd.Index:
    """The call's value as the one element of an object Index, so that it travels as a
    chunk; ``value`` unboxes it."""
    box = np.empty(1, dtype=object)
    box[0] = call(obj, name, args, kwargs)
    return pd.Index(box, dtype=object)


BOX_META = pd.Index([], dtype=object)


def value(index: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
    """``whole_index.name(*args, **kwargs)`` computed on the workers, fetched (its
    arguments are checked there: a lookup on the empty meta would always fail)."""
    frames, slots = _with_others(index, list(args))
    out = one_task(boxed, frames, (Slot(0), name, kwargs, *slots), BOX_META, name, 1)
    return out.to_pandas()[0]

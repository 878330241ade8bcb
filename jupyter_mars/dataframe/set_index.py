"""``DataFrame.set_index``: the index made of columns, arrays, or both.

Keys are column labels, or arrays the length of the frame taken by position, as pandas
takes them: NumPy arrays, lists inside a list of keys, pandas Series and Index (their
name names the level), and lazy Series and Index. Each row chunk calls pandas'
``set_index`` with its slice of every array, so the levels keep pandas' dtypes and names.

- Column labels alone need nothing else: each chunk sets its own index.
- A lazy Series sharing the frame's index has the frame's chunks: chunk i reads chunk i.
- Any other array is cut at the frame's row offsets, so the chunks' lengths are computed
  first; a lazy one of another index is read whole by every chunk and cut there.

``verify_integrity=True`` (deprecated by pandas 3.1, which warns) reads every chunk's index
into one task that raises pandas' ``ValueError`` for duplicates; each chunk of the result
waits for it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, new_frame
from jupyter_mars.dataframe.map_chunks import one_chunk
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True)
class Label:
    """A column label among the keys."""

    label: Any


@dataclass(frozen=True)
class Values:
    """An array known at the call, as a pandas Index the frame's length."""

    index: pd.Index


@dataclass(frozen=True)
class Lazy:
    """The lazy input at ``position``; ``whole``: read whole by every chunk and cut there."""

    position: int
    whole: bool


Key = Label | Values | Lazy


@dataclass(frozen=True, eq=False)
class SetIndex(Op):
    keys: tuple[Key, ...]
    drop: bool
    append: bool
    verify: bool

    def label(self) -> str:
        return "set_index"

    @property
    def needs_offsets(self) -> bool:
        return any(isinstance(k, Values) or (isinstance(k, Lazy) and k.whole) for k in self.keys)


def _is_array(key: Any) -> bool:
    """A key pandas takes as an array of values (inside a list of keys, lists too)."""
    return isinstance(key, (FrameBase, pd.Series, pd.Index, np.ndarray, list, Iterator))


def _as_values(key: Any) -> pd.Index:
    """An array key as pandas turns it into a level: a Series' or an Index's name kept."""
    if isinstance(key, pd.Series):
        return pd.Index(key._values, name=key.name)
    if isinstance(key, pd.Index):
        return key
    return pd.Index(list(key) if isinstance(key, Iterator) else key)


def _level(values: Any) -> pd.Index:
    """A lazy key's chunk (a Series or an Index) as the level pandas makes of it."""
    return _as_values(values)


def set_chunk(
    chunk: Any,
    keys: tuple[Key, ...],
    drop: bool,
    append: bool,
    span: tuple[int, int] | None,
    *lazy: Any,
) -> Any:
    """``chunk.set_index(...)`` with each array cut to the chunk's rows (``span``); the
    lazy inputs' chunks follow, then, with ``verify``, the result of the check."""
    given: list[Any] = []
    for key in keys:
        if isinstance(key, Label):
            given.append(key.label)
        elif isinstance(key, Values):
            assert span is not None
            given.append(key.index[span[0] : span[1]])
        else:
            level = _level(lazy[key.position])
            if key.whole:
                assert span is not None
                level = level[span[0] : span[1]]
            given.append(level)
    return chunk.set_index(given, drop=drop, append=append)


def index_of(chunk: Any) -> pd.Index:
    return chunk.index


def check_unique(*indexes: pd.Index) -> None:
    """pandas' error for an index with duplicates."""
    index = indexes[0].append(list(indexes[1:])) if len(indexes) > 1 else indexes[0]
    if not index.is_unique:
        duplicates = index[index.duplicated()].unique()
        raise ValueError(f"Index has duplicate keys: {duplicates}")


def checked(chunk: Any, check: Any) -> Any:
    return chunk


@tile_rule(SetIndex)
def _tile_set_index(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetIndex)
    frame, *lazy = inputs
    if op.needs_offsets:
        ctx.require_known(frame)
    n = len(frame.nsplits[0])
    bounds = offsets(frame.nsplits[0]) if frame.known else None
    if bounds is not None:
        _check_length(op, int(bounds[-1]))
    grid = key_grid(node.key, [n])
    keys = [(node.key, "set", i) for i in range(n)] if op.verify else list(grid.flat)
    for i in range(n):
        span = (int(bounds[i]), int(bounds[i + 1])) if bounds is not None else None
        refs = [Ref(t.flat_keys()[0] if _whole(op, p) else t.keys[i]) for p, t in enumerate(lazy)]
        ctx.add_blockwise(
            keys[i], set_chunk, (Ref(frame.keys[i]), op.keys, op.drop, op.append, span, *refs), {}
        )
    if op.verify:
        for i in range(n):
            ctx.new_task((node.key, "index", i), index_of, Ref(keys[i]))
        check = (node.key, "check")
        ctx.new_task(check, check_unique, *(Ref((node.key, "index", i)) for i in range(n)))
        for i in range(n):
            ctx.add_blockwise(grid[i], checked, (Ref(keys[i]), Ref(check)), {})
    return Tiled(frame.nsplits, grid)


def _whole(op: SetIndex, position: int) -> bool:
    return any(isinstance(k, Lazy) and k.position == position and k.whole for k in op.keys)


def _check_length(op: SetIndex, nrows: int) -> None:
    for key in op.keys:
        if isinstance(key, Values) and len(key.index) != nrows:
            raise ValueError(
                f"Length mismatch: Expected {nrows} rows, received array of length {len(key.index)}"
            )


def _node(obj: FrameBase) -> FrameNode:
    node = obj.node
    assert isinstance(node, FrameNode)
    return node


def _check_lazy_length(frame: DataFrame, key: FrameBase) -> None:
    want, got = _node(frame).shape[0], _node(key).shape[0]
    if not (math.isnan(want) or math.isnan(got)) and want != got:
        raise ValueError(
            f"Length mismatch: Expected {int(want)} rows, received array of length {int(got)}"
        )


def set_index(
    frame: DataFrame,
    keys: Any,
    *,
    drop: bool = True,
    append: bool = False,
    verify_integrity: bool = False,
) -> Any:
    """The index made of columns and/or arrays (pandas ``set_index``)."""
    if verify_integrity:
        warnings.warn(
            "The 'verify_integrity' keyword in DataFrame.set_index is deprecated and will be "
            "removed in a future version. Directly check the result.index.is_unique instead.",
            pd.errors.Pandas4Warning,
            stacklevel=3,  # past the wrapper that takes inplace
        )
    given = keys if isinstance(keys, list) else [keys]
    plan: list[Key] = []
    lazy: list[FrameBase] = []
    probes: list[Any] = []  # the keys as pandas sees them on the empty meta
    for key in given:
        if isinstance(key, FrameBase):
            if isinstance(key, DataFrame):
                raise TypeError(
                    'The parameter "keys" may be a column key, one-dimensional array, or a '
                    "list containing only valid column keys and one-dimensional arrays."
                    f"Received column of type {type(key)}"
                )
            _check_lazy_length(frame, key)
            same = _node(key).index_key == _node(frame).index_key and not isinstance(key, Index)
            plan.append(Lazy(len(lazy), whole=not same))
            lazy.append(key if same else one_chunk(key))
            probes.append(_level(key.meta))
        elif _is_array(key) and (isinstance(keys, list) or not isinstance(key, list)):
            values = _as_values(key)
            nrows = _node(frame).shape[0]
            if not math.isnan(nrows) and len(values) != nrows:
                raise ValueError(
                    f"Length mismatch: Expected {int(nrows)} rows, received array of length "
                    f"{len(values)}"
                )
            plan.append(Values(values))
            probes.append(values[:0])
        else:
            plan.append(Label(key))
            probes.append(key)
    meta = frame.meta.set_index(probes, drop=drop, append=append)  # pandas' KeyError, TypeError
    op = SetIndex(tuple(plan), drop, append, verify_integrity)
    return new_frame(op, [frame, *lazy], _node(frame).shape[0], empty_like(meta))


DataFrame.set_index = set_index  # type: ignore[attr-defined]

"""Rows of tensors and frames by position, and ``shuffle``, as ``sklearn.utils.shuffle``.

``take_rows(data, positions)`` gives the rows of a tensor or frame at ``positions``
(NumPy ints, known when the call is made), in that order; a frame keeps its index labels.
The rows move as in the engine's shuffle (``engine/primitives/shuffle.py``): one task per
input chunk splits it into the parts the output chunks want, and one task per output
chunk concatenates its parts and puts the rows in order. No task holds more than one
input chunk and one output chunk, whatever the order asked for, and each part crosses
the network alone. The output keeps the input's row chunks when every row is taken
(a permutation), else chunks as long as the input's longest.

``shuffle`` permutes the rows of its arrays consistently: ``take_rows`` with the
permutation a NumPy ``RandomState`` draws in the driver, which is scikit-learn's own for
the same ``random_state``, so the rows come out in scikit-learn's order too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe.core import FrameBase, new_frame
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import take_part
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.validation import (
    check_consistent_length,
    check_random_state,
    is_lazy,
    to_tensor,
)
from jupyter_mars.tensor.core import new_tensor

__all__ = ["as_lazy", "shuffle", "take_rows"]


def as_lazy(data: Any) -> Any:
    """``data`` as a tensor or frame: tensors and frames as they are, pandas objects as
    frames (their index kept), anything else array-like as a tensor."""
    if is_lazy(data):
        return data
    if isinstance(data, pd.DataFrame):
        return md.DataFrame(data)
    if isinstance(data, pd.Series):
        return md.Series(data)
    return to_tensor(data)


# ---- the operator -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TakeRows(Op):
    """The input's rows at ``positions``, in that order."""

    positions: np.ndarray[Any, Any]
    """Row numbers, non-negative and in range."""

    def label(self) -> str:
        return "take_rows"


def split_rows(chunk: Any, wanted: list[np.ndarray[Any, Any]]) -> list[Any]:
    """Chunk kernel: the rows of ``chunk`` each output chunk wants, one part per entry."""
    return [rows_of(chunk, local) for local in wanted]


def rows_of(data: Any, local: np.ndarray[Any, Any]) -> Any:
    return data.iloc[local] if hasattr(data, "iloc") else data[local]


def gather_rows(order: np.ndarray[Any, Any] | None, *parts: Any) -> Any:
    """Chunk kernel: the parts one after another, then in ``order`` (None: as they are)."""
    if isinstance(parts[0], pd.DataFrame | pd.Series):
        whole = parts[0] if len(parts) == 1 else pd.concat(parts)
    else:
        whole = parts[0] if len(parts) == 1 else array_module(*parts).concatenate(parts)
    return whole if order is None else rows_of(whole, order)


def _output_lengths(n: int, lengths: np.ndarray[Any, Any]) -> tuple[int, ...]:
    """Row chunks of the output: the input's for a permutation, else even ones as long as
    the input's longest chunk."""
    if n == int(lengths.sum()):
        return tuple(int(v) for v in lengths)
    if n == 0:
        return (0,)
    pieces = math.ceil(n / max(int(lengths.max()), 1))
    return tuple(len(part) for part in np.array_split(np.arange(n), pieces))


@tile_rule(TakeRows)
def _tile_take_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TakeRows)
    (x,) = inputs
    ctx.require_known(x)
    lengths = np.array([int(v) for v in x.nsplits[0]], dtype=np.int64)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    positions = op.positions
    if len(positions) and positions.max() >= bounds[-1]:
        raise IndexError(f"row {int(positions.max())} is out of range for {bounds[-1]} rows")
    source = np.searchsorted(bounds, positions, side="right") - 1  # the chunk of each row
    out_rows = _output_lengths(len(positions), lengths)
    starts = np.concatenate([[0], np.cumsum(out_rows)])
    # what each input chunk sends: (output chunk, its local rows), and each output's order
    sends: dict[int, list[tuple[int, np.ndarray[Any, Any]]]] = {}
    orders: list[tuple[list[int], np.ndarray[Any, Any] | None]] = []
    for j in range(len(out_rows)):
        src = source[starts[j] : starts[j + 1]]
        wanted = positions[starts[j] : starts[j + 1]]
        by_source = np.argsort(src, kind="stable")
        chunks = [int(i) for i in np.unique(src)]
        for i in chunks:
            local = wanted[by_source][src[by_source] == i] - bounds[i]
            sends.setdefault(i, []).append((j, local))
        in_order = bool(np.all(by_source == np.arange(len(by_source))))
        orders.append((chunks, None if in_order else np.argsort(by_source, kind="stable")))
    rest = x.keys.shape[1:]
    grid = key_grid(node.key, (len(out_rows), *rest))
    for other in np.ndindex(*rest):
        part_key: dict[tuple[int, int], Any] = {}
        for i, wants in sends.items():
            split = (f"{node.key}-split", i, *other)
            ctx.new_task(split, split_rows, Ref(x.keys[(i, *other)]), [w for _, w in wants])
            for k, (j, _) in enumerate(wants):
                part_key[i, j] = (f"{node.key}-part", i, j, *other)
                ctx.new_task(part_key[i, j], take_part, Ref(split), k)
        for j, (chunks, order) in enumerate(orders):
            if not chunks:  # an empty output chunk: no rows of the first input chunk
                ctx.new_task(grid[(j, *other)], rows_of, Ref(x.keys[(0, *other)]), positions[:0])
                continue
            parts = [Ref(part_key[i, j]) for i in chunks]
            ctx.new_task(grid[(j, *other)], gather_rows, order, *parts)
    return Tiled((out_rows, *x.nsplits[1:]), grid)


def take_rows(data: Any, positions: Any) -> Any:
    """The rows of a tensor or frame at ``positions`` (ints, negative from the end), in
    that order: a tensor, or a frame of the same kind with the rows' index labels."""
    wanted = np.asarray(positions)
    if wanted.size == 0:
        wanted = wanted.astype(np.int64)
    if wanted.ndim != 1 or wanted.dtype.kind not in "iu":
        raise IndexError(f"row positions must be a 1-d array of ints, got {positions!r}")
    data = as_lazy(data)
    n = data.shape[0]
    wanted = wanted.astype(np.int64)
    if not math.isnan(n) and len(wanted):
        if wanted.max() >= n or wanted.min() < -n:
            raise IndexError(f"row positions are out of range for {int(n)} rows")
        wanted = np.where(wanted < 0, wanted + int(n), wanted)
    elif len(wanted) and wanted.min() < 0:
        raise IndexError("negative row positions need the number of rows; execute it first")
    op = TakeRows(wanted)
    if isinstance(data, FrameBase):
        return new_frame(op, [data], len(wanted), data.meta)
    return new_tensor(op, [data], (len(wanted), *data.shape[1:]), data.dtype)


def shuffle(*arrays: Any, random_state: Any = None, n_samples: int | None = None) -> Any:
    """The rows of ``arrays`` permuted, the same way for all of them, as
    ``sklearn.utils.shuffle``: a list of tensors and frames (one, alone, for one array;
    None for none), the first ``n_samples`` rows of the permutation if given. Arrays
    and lists become tensors, pandas objects frames; None stays None."""
    if not arrays:
        return None
    lazy = [None if a is None else as_lazy(a) for a in arrays]
    check_consistent_length(*lazy)
    first = next((a for a in lazy if a is not None), None)
    if first is None:
        return lazy[0] if len(lazy) == 1 else lazy
    n = int(with_known_rows(first).shape[0])
    taken = n
    if n_samples is not None:
        if isinstance(n_samples, bool) or not isinstance(n_samples, int | np.integer):
            raise ValueError(f"n_samples must be an int of at least 1 or None, got {n_samples!r}")
        if n_samples < 1:
            raise ValueError(f"n_samples must be an int of at least 1 or None, got {n_samples!r}")
        if n_samples > n:
            raise ValueError(
                f"Cannot sample {n_samples} out of arrays with dim {n} when replace is False"
            )
        taken = int(n_samples)
    order = check_random_state(random_state).permutation(n)[:taken]
    out = [None if a is None else take_rows(a, order) for a in lazy]
    return out[0] if len(out) == 1 else out

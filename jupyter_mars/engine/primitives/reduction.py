"""Tree reduction along some axes.

Three kernels describe a reduction:

- ``chunk(block, axis=..., keepdims=True, **kwargs)`` reduces one input chunk to an
  intermediate (any object; arrays keep the reduced axes with length 1);
- ``combine(parts, axis=...)`` merges a list of intermediates into one;
- ``aggregate(part, axis=..., keepdims=...)`` turns the last intermediate into the result.

Partial results are combined ``combine_size`` at a time (the fan-in), level by level,
until one per output chunk remains. With ``with_offsets`` the chunk kernel also receives
``offset`` (the chunk's position in the whole array) and ``shape`` (the whole array's),
which arg-reductions need to report global indices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class Reduction(Op):
    chunk: Callable[..., Any]
    combine: Callable[..., Any]
    aggregate: Callable[..., Any]
    axis: tuple[int, ...]
    """Reduced axes, normalised (non-negative, sorted)."""
    keepdims: bool
    combine_size: int
    """Fan-in of the combine tree."""
    name: str
    chunk_kwargs: dict[str, Any] = field(default_factory=dict)
    with_offsets: bool = False

    def label(self) -> str:
        return self.name


def combine_then_aggregate(
    combine: Callable[..., Any],
    aggregate: Callable[..., Any],
    axis: tuple[int, ...],
    keepdims: bool,
    *parts: Any,
) -> Any:
    part = parts[0] if len(parts) == 1 else combine(list(parts), axis=axis)
    return aggregate(part, axis=axis, keepdims=keepdims)


def combine_parts(combine: Callable[..., Any], axis: tuple[int, ...], *parts: Any) -> Any:
    return combine(list(parts), axis=axis)


def combine_tree(
    ctx: TileContext,
    prefix: str,
    keys: list[Key],
    size: int,
    func: Callable[..., Any],
    leading: tuple[Any, ...] = (),
    index: tuple[int, ...] = (),
) -> list[Key]:
    """Tasks ``func(*leading, *parts)`` merging ``keys`` ``size`` at a time, level by level,
    until at most ``size`` remain; returns those (for the caller's last step). The tasks
    are keyed ``(prefix-combine<level>, *index, group)``."""
    level = 0
    while len(keys) > size:
        next_keys: list[Key] = []
        for g in range(0, len(keys), size):
            group = keys[g : g + size]
            if len(group) == 1:
                next_keys.append(group[0])
                continue
            key = (f"{prefix}-combine{level}", *index, g // size)
            ctx.new_task(key, func, *leading, *(Ref(k) for k in group))
            next_keys.append(key)
        keys = next_keys
        level += 1
    return keys


def call_chunk(
    chunk: Callable[..., Any], block: Any, axis: tuple[int, ...], kwargs: dict[str, Any]
) -> Any:
    return chunk(block, axis=axis, keepdims=True, **kwargs)


@tile_rule(Reduction)
def _tile_reduction(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Reduction)
    source = inputs[0]
    ndim = source.keys.ndim
    reduced = set(op.axis)
    kept_axes = [a for a in range(ndim) if a not in reduced]
    partial_prefix = f"{node.key}-chunk"
    starts = [offsets(axis) for axis in source.nsplits]
    whole_shape = tuple(sum(axis) for axis in source.nsplits)
    # step 1: one partial per input chunk
    partials: dict[tuple[int, ...], list[Key]] = {}
    for index in itertools.product(*(range(n) for n in source.keys.shape)):
        key = (partial_prefix, *index)
        kwargs = dict(op.chunk_kwargs)
        if op.with_offsets:
            kwargs["offset"] = tuple(int(starts[a][i]) for a, i in enumerate(index))
            kwargs["shape"] = whole_shape
        ctx.add_blockwise(key, call_chunk, (op.chunk, Ref(source.keys[index]), op.axis, kwargs), {})
        out_index = tuple(index[a] for a in kept_axes)
        partials.setdefault(out_index, []).append(key)
    # step 2: combine tree per output chunk
    out_numblocks = [source.keys.shape[a] for a in kept_axes]
    out_grid = key_grid(node.key, out_numblocks)
    for out_index, keys in partials.items():
        keys = combine_tree(
            ctx, node.key, keys, op.combine_size, combine_parts, (op.combine, op.axis), out_index
        )
        out_key: Key = out_grid[out_index] if out_numblocks else out_grid.item()
        ctx.new_task(
            out_key,
            combine_then_aggregate,
            op.combine,
            op.aggregate,
            op.axis,
            op.keepdims,
            *(Ref(k) for k in keys),
        )
    nsplits = tuple(
        ((1,) if op.keepdims else None) if a in reduced else source.nsplits[a] for a in range(ndim)
    )
    out_nsplits = tuple(n for n in nsplits if n is not None)
    grid = out_grid
    if op.keepdims:
        grid = out_grid.reshape(
            tuple(1 if a in reduced else source.keys.shape[a] for a in range(ndim))
        )
    return Tiled(out_nsplits, grid)

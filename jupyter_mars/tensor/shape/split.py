"""``split`` and ``array_split``: a list of tensors, one per part along an axis.

Each part reuses the input chunks it covers whole and slices the (at most two) chunks at its
ends. Where the axis length depends on the data, the parts' lengths are ``nan`` and the
bounds are computed once the chunk lengths are known (``ctx.require_known``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape._tiled import slice_axis_tiled
from jupyter_mars.tensor.shape.common import (
    check_axis,
    int_arg,
    int_tuple,
    is_unknown,
    wrap_node,
)


@dataclass(frozen=True, eq=False)
class SliceAxis(Op):
    """One part of ``array_split(x, spec, axis)``: ``sections`` or split ``indices``."""

    axis: int
    sections: int | None
    indices: tuple[int, ...]
    part: int
    equal: bool
    """``split`` (True) requires an equal division."""

    def label(self) -> str:
        return "split"


def _split_bounds(
    length: int, sections: int | None, indices: tuple[int, ...], equal: bool
) -> list[tuple[int, int]]:
    """(start, stop) of every part, as ``numpy.array_split`` computes them."""
    if sections is not None:
        if equal and length % sections:
            raise ValueError(
                f"array split does not result in an equal division: an axis of length "
                f"{length} into {sections} sections"
            )
        each, extra = divmod(length, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = offsets(sizes)
        return [(int(points[i]), int(points[i + 1])) for i in range(sections)]
    bounds = []
    edges = [0, *indices, length]
    for st, end in zip(edges[:-1], edges[1:]):
        r = range(length)[st:end]
        bounds.append((r.start, r.stop) if len(r) else (0, 0))
    return bounds


@tile_rule(SliceAxis)
def _tile_slice_axis(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SliceAxis)
    (x,) = inputs
    if any(is_unknown(n) for n in x.nsplits[op.axis]):
        ctx.require_known(x)
    length = int(sum(x.nsplits[op.axis]))
    start, stop = _split_bounds(length, op.sections, op.indices, op.equal)[op.part]
    return slice_axis_tiled(node.key, x, op.axis, start, stop, ctx)


def split_parts(
    x: Tensor, sections: int | None, indices: tuple[int, ...], axis: int, equal: bool
) -> list[Tensor]:
    n = x.shape[axis]
    count = sections if sections is not None else len(indices) + 1
    bounds = None if is_unknown(n) else _split_bounds(int(n), sections, indices, equal)
    parts = []
    for part in range(count):
        shape = list(x.shape)
        if bounds is None:
            shape[axis] = math.nan
        else:
            start, stop = bounds[part]
            shape[axis] = stop - start
            if start == 0 and stop == n:
                parts.append(wrap_node(x))
                continue
        op = SliceAxis(axis, sections, indices, part, equal)
        parts.append(new_tensor(op, [x], tuple(shape), x.dtype))
    return parts


def _split(ary: Any, indices_or_sections: Any, axis: Any, equal: bool) -> list[Tensor]:
    x = astensor(ary)
    ax = check_axis(axis, x.ndim)
    spec = indices_or_sections
    if isinstance(spec, Tensor):
        spec = np.asarray(spec)
    if isinstance(spec, np.ndarray) and spec.ndim == 0:
        spec = spec.item()
    if isinstance(spec, (list, tuple, np.ndarray)):
        indices = int_tuple(spec, "indices_or_sections")
        return split_parts(x, None, indices, ax, False)
    sections = int_arg(spec, "indices_or_sections")
    if sections <= 0:
        raise ValueError(f"number sections must be larger than 0, got {sections}")
    if equal and not is_unknown(x.shape[ax]) and x.shape[ax] % sections:
        raise ValueError(
            f"array split does not result in an equal division: axis {ax} of length "
            f"{x.shape[ax]} into {sections} sections"
        )
    return split_parts(x, sections, (), ax, equal)


def split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Tensor]:
    """Lazy ``numpy.split``: a list of tensors; ``N`` sections must divide the axis."""
    return _split(ary, indices_or_sections, axis, True)


def array_split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Tensor]:
    """Lazy ``numpy.array_split``: like ``split`` but sections may differ in length by 1."""
    return _split(ary, indices_or_sections, axis, False)

"""``x[index]``: the index is parsed and validated, then built into nodes.

Basic indices alone give one ``BasicIndex``. With advanced indices, the basic part is
applied first (each advanced index keeps its axes, as ``:``), then: integer arrays and
NumPy masks known at build time give a ``FancyIndex``; one boolean tensor mask gives a
``MaskIndex``; anything with integer tensors (or several tensor masks, as their
``nonzero`` columns) gives a ``ShuffleIndex``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jupyter_mars.engine.node import Op
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.indexing.basic import BasicIndex
from jupyter_mars.tensor.indexing.fancy import FancyIndex, numpy_fancy
from jupyter_mars.tensor.indexing.mask import MaskIndex
from jupyter_mars.tensor.indexing.normalize import (
    NAN,
    basic_shape,
    broadcast_index_shapes,
    insert,
    is_full,
    parse,
)
from jupyter_mars.tensor.indexing.tensor_index import ShuffleIndex, index_tensors
from jupyter_mars.tensor.sparse.convert import sparse_like


def _result_shape(y: Tensor, axes: Sequence[int], place: int, dims: Sequence[Any]) -> list[Any]:
    """The shape of ``y`` without ``axes``, with the advanced-index ``dims`` at ``place``."""
    return insert([n for a, n in enumerate(y.shape) if a not in axes], place, dims)


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with NumPy's indexing rules (see the package docstring)."""
    parsed = parse(index, x.shape)
    if not parsed.adv:
        basic = tuple(parsed.entries)
        # slices of a sparse tensor stay sparse (still 2-d); an integer or None makes it dense
        sparse = sparse_like(x) if all(e[0] == "slice" for e in basic) else None
        return new_tensor(
            BasicIndex(basic), [x], basic_shape(basic, x.shape), x.dtype, sparse=sparse
        )
    items: list[tuple[Any, ...]] = []
    axes_of: dict[int, tuple[int, ...]] = {}
    y_axis = 0
    identity = True
    for e in parsed.entries:
        if e[0] == "adv":
            a = parsed.adv[e[1]]
            axes_of[e[1]] = tuple(range(y_axis, y_axis + len(a.x_axes)))
            items.extend(("slice", slice(None), ax) for ax in a.x_axes)
            y_axis += len(a.x_axes)
            continue
        items.append(e)
        y_axis += e[0] != "int"
        identity = identity and e[0] == "slice" and is_full(e[1])
    y = x
    if not identity:
        y = new_tensor(BasicIndex(tuple(items)), [x], basic_shape(items, x.shape), x.dtype)
    p = parsed.place
    kinds = {a.kind for a in parsed.adv}
    if kinds <= {"np", "npmask", "bool"}:
        axes, arrays, b_shape, x_axes = numpy_fancy(parsed, axes_of)
        op: Op = FancyIndex(axes, arrays, b_shape, p, x_axes)
        return new_tensor(op, [y], _result_shape(y, axes, p, b_shape), x.dtype)
    if len(parsed.adv) == 1 and kinds == {"tmask"}:
        a = parsed.adv[0]
        ya = axes_of[0]
        op = MaskIndex(ya[0], len(ya), p, a.x_axes[0])
        return new_tensor(op, [y, a.value], _result_shape(y, ya, p, [NAN]), x.dtype)
    tensors, axes, x_axes = index_tensors(parsed, axes_of)
    b_shape_t = broadcast_index_shapes([t.shape for t in tensors])
    op = ShuffleIndex(axes, p, len(b_shape_t), x_axes)
    return new_tensor(op, [y, *tensors], _result_shape(y, axes, p, b_shape_t), x.dtype)

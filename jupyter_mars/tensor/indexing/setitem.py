"""``x[index] = value``: rebinds ``x`` to a new node (as Mars does).

The index is parsed and validated as for ``x[index]``, and the value is converted to the
tensor's dtype exactly as NumPy's assignment converts it (same errors and warnings, at
build time) and checked against the selection's shape. Then: basic indices and integer
arrays known at build time give a ``SetIndex``; one boolean tensor mask gives a
``SetMask``; anything with integer tensors gives a ``SetShuffle``. The chunks the selection
touches are copied and assigned, the others keep their keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import to_host
from jupyter_mars.engine.node import Op
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.indexing.fancy import numpy_fancy
from jupyter_mars.tensor.indexing.nonzero import MaskRanks
from jupyter_mars.tensor.indexing.normalize import (
    NAN,
    Parsed,
    basic_shape,
    broadcast_index_shapes,
    insert,
    layout,
    parse,
)
from jupyter_mars.tensor.indexing.setitem_array import SetIndex
from jupyter_mars.tensor.indexing.setitem_common import SetLayout, check_value_shape
from jupyter_mars.tensor.indexing.setitem_mask import SetMask
from jupyter_mars.tensor.indexing.setitem_tensor import SetShuffle
from jupyter_mars.tensor.indexing.tensor_index import index_tensors
from jupyter_mars.tensor.views import rebind


def _check_cast(src: np.dtype[Any], dst: np.dtype[Any]) -> None:
    """Raise (or warn) at build time as NumPy's assignment of ``src`` values into ``dst``."""
    if src == dst or src.kind in "USO":
        return
    target = np.empty(1, dtype=dst)
    target[...] = np.zeros(1, dtype=src)


def _prepare_value(
    value: Any, dtype: np.dtype[Any], s_shape: Sequence[Any], parsed: Parsed
) -> tuple[np.ndarray[Any, Any] | None, int, Tensor | None]:
    """The value converted like NumPy's assignment does, its shape checked against the
    selection's; returns (array or None, leading dims to drop, tensor or None)."""
    fancy = bool(parsed.adv)
    value = to_host(value)  # a CuPy value is planned as a host one: kernels copy it over
    ndim = value.ndim if isinstance(value, Tensor) else np.ndim(value)
    if parsed.scalar and ndim > 0:
        raise ValueError("setting an array element with a sequence.")
    if isinstance(value, Tensor):
        _check_cast(value.dtype, dtype)
        check_value_shape(value.shape, tuple(s_shape), fancy)
        return None, max(value.ndim - len(s_shape), 0), value
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.empty(np.shape(value), dtype=dtype)
        arr[...] = value
    else:
        arr = np.array(value, dtype=dtype)
    check_value_shape(arr.shape, tuple(s_shape), fancy)
    drop = max(arr.ndim - len(s_shape), 0)
    if drop:
        arr = arr.reshape(arr.shape[drop:])
    return arr, 0, None


def _varies(vshape: Sequence[Any], n_s: int, dims: Sequence[int]) -> bool:
    """Whether a value of ``vshape`` has a length other than 1 on selection ``dims``."""
    for d in dims:
        v = len(vshape) - (n_s - d)
        if v >= 0 and vshape[v] != 1:
            return True
    return False


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: rebinds ``x`` to a node whose touched chunks are assigned."""
    parsed = parse(index, x.shape)
    items: list[tuple[Any, ...]] = [("slice", slice(None))] * x.ndim
    for e in parsed.entries:
        if e[0] in ("slice", "int"):
            items[e[2]] = (e[0], e[1])
        elif e[0] == "adv":
            for ax in parsed.adv[e[1]].x_axes:
                items[ax] = ("adv",)
    p = parsed.place
    kinds = {a.kind for a in parsed.adv}
    axes_of = {j: a.x_axes for j, a in enumerate(parsed.adv)}
    # the advanced-index dims of the selection, by kind of operator
    b_shape: tuple[int, ...] | None = None
    fancy_axes: tuple[int, ...] = ()
    arrays: tuple[np.ndarray[Any, Any], ...] = ()
    tensors: list[Tensor] = []
    index_axes: tuple[int, ...] = ()
    b_dims: Sequence[Any]
    if kinds <= {"np", "npmask", "bool"}:
        kind = "array"
        if parsed.adv:
            fancy_axes, arrays, b_shape, _ = numpy_fancy(parsed, axes_of)
        b_dims = b_shape or ()
    elif len(parsed.adv) == 1 and kinds == {"tmask"}:
        kind = "mask"
        b_dims = [NAN]
    else:
        kind = "tensor"
        tensors, index_axes, _ = index_tensors(parsed, axes_of)
        b_dims = broadcast_index_shapes([t.shape for t in tensors])
    s_shape = insert(basic_shape(parsed.entries, x.shape), p, b_dims)
    arr, drop, vt = _prepare_value(value, x.dtype, s_shape, parsed)
    lay = SetLayout(tuple(items), layout(parsed), p, drop)
    vshape = arr.shape if arr is not None else vt.shape[drop:]  # type: ignore[union-attr]
    per_element = _varies(vshape, len(s_shape), range(p, p + len(b_dims)))
    inputs: list[Tensor] = [x]
    extra: list[Tensor] = []
    op: Op
    if kind == "array":
        op = SetIndex(lay, fancy_axes, arrays, b_shape, arr)
    elif kind == "mask":
        a = parsed.adv[0]
        op = SetMask(lay, a.x_axes, arr, per_element)
        inputs.append(a.value)
        if per_element:
            ranks = new_tensor(MaskRanks(a.x_axes, a.x_axes[0]), [x, a.value], (NAN,), np.intp)
            extra.append(ranks)
    else:
        op = SetShuffle(lay, index_axes, tuple(b_dims), arr, per_element)
        inputs.extend(tensors)
    if vt is not None:
        inputs.append(vt)
    inputs.extend(extra)
    new = new_tensor(op, inputs, x._node.shape, x.dtype)
    # through ``rebind``, so the assignment shows in the views of ``x`` and, when ``x`` is
    # a view, in its base
    rebind(x, new._node)

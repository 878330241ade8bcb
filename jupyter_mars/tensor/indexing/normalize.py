"""Index parsing and validation, with NumPy's rules and errors, when an index is applied.

``parse`` classifies every entry of an index (integers, slices, ``None``, ``...``, integer
and boolean arrays or tensors), checks it against the tensor's shape (too many indices,
out-of-bounds integers and arrays, boolean masks of the wrong length) and lays it out per
axis, with the place NumPy gives the dims of the advanced indices. The helpers on lengths
that may be unknown (``nan``) and the errors the other modules raise live here too.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import broadcast_shapes

INDEX_TYPE_ERROR = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices"
)
NAN = math.nan


def isnan(n: Any) -> bool:
    return isinstance(n, float) and math.isnan(n)


def known(lengths: Sequence[float]) -> bool:
    return not any(isnan(n) for n in lengths)


def prod(values: Sequence[int]) -> int:
    return int(math.prod(values))


def insert(rest: Sequence[Any], place: int, dims: Sequence[Any]) -> list[Any]:
    """``rest`` with ``dims`` inserted at ``place``."""
    return [*rest[:place], *dims, *rest[place:]]


# ---- errors ----------------------------------------------------------------------------------


def out_of_bounds(value: Any, axis: int, size: int) -> IndexError:
    return IndexError(f"index {value} is out of bounds for axis {axis} with size {size}")


def mask_mismatch(axis: int, size: Any, got: Any) -> IndexError:
    return IndexError(
        f"boolean index did not match indexed array along axis {axis}; size of axis is "
        f"{size} but size of corresponding boolean axis is {got}"
    )


def shape_mismatch(shapes: Sequence[tuple[Any, ...]]) -> IndexError:
    shown = " ".join(str(tuple(s)) for s in shapes)
    return IndexError(
        f"shape mismatch: indexing arrays could not be broadcast together with shapes {shown} "
    )


# ---- integers and integer arrays -------------------------------------------------------------


def check_array_bounds(arr: np.ndarray[Any, Any], size: int, axis: int) -> None:
    if arr.size == 0:
        return
    bad = (arr < -size) | (arr >= size)
    if bad.any():
        raise out_of_bounds(arr[bad].ravel()[0], axis, size)


def nonnegative(arr: Any, size: int, axis: int) -> Any:
    """``arr`` as non-negative ``intp`` indices (same shape, a NumPy or CuPy array as
    ``arr`` is); IndexError for one out of bounds of an axis of ``size``."""
    xp = array_module(arr)
    check_array_bounds(xp.asarray(arr), size, axis)
    out = xp.asarray(arr).astype(np.intp)
    return xp.where(out < 0, out + size, out)


def normalize_array(arr: np.ndarray[Any, Any], size: int, axis: int) -> np.ndarray[Any, Any]:
    """Non-negative ``intp`` indices (flattened); IndexError for one out of bounds."""
    flat: np.ndarray[Any, Any] = nonnegative(arr, size, axis).ravel()
    return flat


def normalize_int(i: int, size: float, axis: int) -> int:
    n = int(size)
    if not -n <= i < n:
        raise out_of_bounds(i, axis, n)
    return i + n if i < 0 else i


def broadcast_index_shapes(shapes: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The broadcast shape of index arrays (``nan`` allowed); NumPy's IndexError if none."""
    try:
        return broadcast_shapes(*shapes)
    except ValueError:
        raise shape_mismatch(shapes) from None


# ---- parsing ---------------------------------------------------------------------------------


@dataclass
class Adv:
    """One advanced index: ``kind`` is np (int array), npmask, tint (int tensor), tmask
    (bool tensor) or bool (a boolean scalar, which only adds a length-1 or -0 axis)."""

    kind: str
    value: Any
    x_axes: tuple[int, ...]


@dataclass
class Parsed:
    entries: list[tuple[Any, ...]]
    """("new",) | ("slice", slice, x_axis) | ("int", i, x_axis) | ("adv", j), in order."""
    adv: list[Adv]
    place: int
    """Where the broadcast index dims go among the output dims (with advanced indices)."""
    scalar: bool = False
    """One integer per axis and nothing else: NumPy assigns a single element then."""


def check_slice(sl: slice) -> slice:
    parts: list[int | None] = []
    for v in (sl.start, sl.stop, sl.step):
        if v is None:
            parts.append(None)
            continue
        try:
            parts.append(operator.index(v))
        except TypeError:
            raise TypeError(
                "slice indices must be integers or None or have an __index__ method"
            ) from None
    if parts[2] == 0:
        raise ValueError("slice step cannot be zero")
    return slice(*parts)


def classify(obj: Any) -> tuple[Any, ...]:
    """One index entry as (kind, value): new, ellipsis, slice, bool, int, np, npmask,
    tint or tmask; IndexError for a type NumPy does not accept."""
    if obj is None:
        return ("new",)
    if obj is Ellipsis:
        return ("ellipsis",)
    if isinstance(obj, slice):
        return ("slice", check_slice(obj))
    if isinstance(obj, (bool, np.bool_)):
        return ("bool", bool(obj))
    if isinstance(obj, Tensor):
        kind = obj.dtype.kind
        if kind == "b":
            if obj.ndim == 0:
                raise NotImplementedError(
                    "indexing with a 0-d boolean tensor is not supported; use a Python bool"
                )
            return ("tmask", obj)
        if kind in "iu":
            return ("tint", obj)
        raise IndexError(INDEX_TYPE_ERROR)
    if isinstance(obj, (np.ndarray, list, tuple)):
        try:
            arr = np.asarray(obj)
        except ValueError:
            raise IndexError(INDEX_TYPE_ERROR) from None
        if not isinstance(obj, np.ndarray) and arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.intp)
        if arr.dtype.kind == "b":
            return ("bool", bool(arr)) if arr.ndim == 0 else ("npmask", arr)
        if arr.dtype.kind in "iu":
            return ("int", int(arr)) if arr.ndim == 0 else ("np", arr)
        raise IndexError(INDEX_TYPE_ERROR)
    if isinstance(obj, (int, np.integer)):
        return ("int", int(obj))
    if isinstance(obj, (float, complex, str, bytes, np.generic)):
        raise IndexError(INDEX_TYPE_ERROR)
    if hasattr(obj, "__index__"):
        return ("int", operator.index(obj))
    raise IndexError(INDEX_TYPE_ERROR)


def parse(index: Any, shape: tuple[Any, ...]) -> Parsed:
    """Validate ``index`` against ``shape`` (NumPy's errors) and lay it out per axis."""
    items = index if isinstance(index, tuple) else (index,)
    classified = [classify(obj) for obj in items]
    if sum(1 for c in classified if c[0] == "ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    consumed = 0
    for c in classified:
        if c[0] in ("slice", "int", "np", "tint"):
            consumed += 1
        elif c[0] in ("npmask", "tmask"):
            consumed += c[1].ndim
    if consumed > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )
    scalar = len(classified) == ndim and all(c[0] == "int" for c in classified)
    if not any(c[0] == "ellipsis" for c in classified):
        classified.append(("ellipsis",))
    entries: list[tuple[Any, ...]] = []
    adv: list[Adv] = []
    adv_positions: list[int] = []
    out_dims_before: list[int] = []
    n_out = 0
    x_axis = 0
    for pos, c in enumerate(classified):
        kind = c[0]
        if kind == "ellipsis":
            for _ in range(ndim - consumed):
                entries.append(("slice", slice(None), x_axis))
                x_axis += 1
                n_out += 1
            continue
        if kind == "new":
            entries.append(("new",))
            n_out += 1
            continue
        if kind == "slice":
            entries.append(("slice", c[1], x_axis))
            x_axis += 1
            n_out += 1
            continue
        adv_positions.append(pos)
        out_dims_before.append(n_out)
        if kind == "int":
            n = shape[x_axis]
            if not isnan(n):
                normalize_int(c[1], n, x_axis)
            entries.append(("int", c[1], x_axis))
            x_axis += 1
        elif kind in ("np", "tint"):
            if kind == "np" and not isnan(shape[x_axis]):
                check_array_bounds(c[1], int(shape[x_axis]), x_axis)
            adv.append(Adv(kind, c[1], (x_axis,)))
            entries.append(("adv", len(adv) - 1))
            x_axis += 1
        elif kind in ("npmask", "tmask"):
            mask = c[1]
            axes = tuple(range(x_axis, x_axis + mask.ndim))
            for j, ax in enumerate(axes):
                got, size = mask.shape[j], shape[ax]
                if not isnan(got) and not isnan(size) and got != size:
                    raise mask_mismatch(ax, size, got)
            adv.append(Adv(kind, mask, axes))
            entries.append(("adv", len(adv) - 1))
            x_axis += mask.ndim
        else:  # bool scalar
            adv.append(Adv("bool", c[1], ()))
            entries.append(("adv", len(adv) - 1))
    place = 0
    if adv and adv_positions[-1] - adv_positions[0] + 1 == len(adv_positions):
        place = out_dims_before[0]
    return Parsed(entries, adv, place, scalar)


# ---- the basic part of an index --------------------------------------------------------------


def is_full(sl: slice) -> bool:
    return sl.start is None and sl.stop is None and sl.step in (None, 1)


def slice_length(sl: slice, n: Any) -> Any:
    if isnan(n):
        return NAN
    return len(range(*sl.indices(int(n))))


def basic_shape(items: Sequence[tuple[Any, ...]], shape: tuple[Any, ...]) -> list[Any]:
    """The dims that ("new",) and ("slice", slice, axis) entries give (ints give none)."""
    out: list[Any] = []
    for item in items:
        if item[0] == "new":
            out.append(1)
        elif item[0] == "slice":
            out.append(slice_length(item[1], shape[item[2]]))
    return out


def layout(parsed: Parsed) -> tuple[tuple[Any, ...], ...]:
    """The result dims that do not come from advanced indices: ("x", axis) or ("new",)."""
    out: list[tuple[Any, ...]] = []
    for e in parsed.entries:
        if e[0] == "new":
            out.append(("new",))
        elif e[0] == "slice":
            out.append(("x", e[2]))
    return tuple(out)

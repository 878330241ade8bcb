"""Shape manipulation: reshape, transpose, concatenate, split, tile, repeat, flip, roll, rechunk.

Every function follows NumPy (C order), builds lazy nodes, and validates its arguments when
it is called. One module per family; each module's docstring says how its functions are
tiled:

- ``reshape``: ``reshape``, ``ravel``, ``ndarray.flatten``;
- ``squeeze``: ``squeeze``, ``expand_dims`` (and reshapes that only add or drop length-1 axes);
- ``transpose``: ``transpose``, ``swapaxes``, ``moveaxis``, ``.T``;
- ``join``: ``concatenate``, ``stack``, ``vstack``, ``hstack``, ``dstack``, ``column_stack``,
  ``atleast_1d/2d/3d``;
- ``split``: ``split``, ``array_split``;
- ``repeat``: ``repeat``, ``tile``; ``broadcast``: ``broadcast_to``;
- ``flip``: ``flip``, ``fliplr``, ``flipud``, ``roll``;
- ``rechunk``: the user-facing ``rechunk``;
- ``_common`` (argument checks) and ``_tiled`` (slicing and joining chunk grids) are shared.

Operations that need real chunk lengths (``reshape``, ``split``, ``roll``, ``rechunk``,
``repeat`` with per-element counts, ``concatenate`` of differently chunked inputs) call
``ctx.require_known``, so they work after a data-dependent operation through iterative
tiling; their result shape has ``nan`` where it depends on such lengths.

This module re-exports every function and attaches the ``Tensor`` methods.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.shape.broadcast import BroadcastTo as BroadcastTo
from jupyter_mars.tensor.shape.broadcast import broadcast_to
from jupyter_mars.tensor.shape.common import AxisError as AxisError
from jupyter_mars.tensor.shape.common import check_axis as check_axis
from jupyter_mars.tensor.shape.common import normalize_axis_tuple as normalize_axis_tuple
from jupyter_mars.tensor.shape.flip import Flip as Flip
from jupyter_mars.tensor.shape.flip import Roll as Roll
from jupyter_mars.tensor.shape.flip import flip, fliplr, flipud, roll
from jupyter_mars.tensor.shape.join import Concatenate as Concatenate
from jupyter_mars.tensor.shape.join import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    concatenate,
    dstack,
    hstack,
    stack,
    vstack,
)
from jupyter_mars.tensor.shape.rechunk import RechunkTo as RechunkTo
from jupyter_mars.tensor.shape.rechunk import rechunk
from jupyter_mars.tensor.shape.repeat import Repeat as Repeat
from jupyter_mars.tensor.shape.repeat import TileAxis as TileAxis
from jupyter_mars.tensor.shape.repeat import repeat, tile
from jupyter_mars.tensor.shape.reshape import Reshape as Reshape
from jupyter_mars.tensor.shape.reshape import flatten, ravel, reshape
from jupyter_mars.tensor.shape.reshape import plan_reshape as plan_reshape
from jupyter_mars.tensor.shape.split import SliceAxis as SliceAxis
from jupyter_mars.tensor.shape.split import array_split, split
from jupyter_mars.tensor.shape.squeeze import SqueezeExpand as SqueezeExpand
from jupyter_mars.tensor.shape.squeeze import expand_dims, squeeze
from jupyter_mars.tensor.shape.transpose import Transpose as Transpose
from jupyter_mars.tensor.shape.transpose import moveaxis, swapaxes, transpose

# ---- methods -------------------------------------------------------------------------------------


def _reshape_method(self: Tensor, *shape: Any, order: str = "C") -> Tensor:
    """Lazy ``ndarray.reshape``: ``t.reshape(2, 3)`` or ``t.reshape((2, 3))``."""
    if not shape:
        raise TypeError("reshape() takes at least one argument: the new shape")
    target = shape[0] if len(shape) == 1 else shape
    return reshape(self, target, order=order)


def _transpose_method(self: Tensor, *axes: Any) -> Tensor:
    """Lazy ``ndarray.transpose``: ``t.transpose()``, ``t.transpose(1, 0)`` or with a tuple."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return transpose(self)
    target = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
    return transpose(self, target)


def _squeeze_method(self: Tensor, axis: Any = None) -> Tensor:
    return squeeze(self, axis)


def _swapaxes_method(self: Tensor, axis1: Any, axis2: Any) -> Tensor:
    return swapaxes(self, axis1, axis2)


def _ravel_method(self: Tensor, order: str = "C") -> Tensor:
    return ravel(self, order)


def _repeat_method(self: Tensor, repeats: Any, axis: Any = None) -> Tensor:
    return repeat(self, repeats, axis)


def _rechunk_method(self: Tensor, chunk_size: Any) -> Tensor:
    return rechunk(self, chunk_size)


def _T(self: Tensor) -> Tensor:  # noqa: N802 - the .T property
    return transpose(self)


def _attach() -> None:
    Tensor.reshape = _reshape_method  # type: ignore[attr-defined]
    Tensor.transpose = _transpose_method  # type: ignore[attr-defined]
    Tensor.T = property(_T)  # type: ignore[attr-defined]
    Tensor.squeeze = _squeeze_method  # type: ignore[attr-defined]
    Tensor.swapaxes = _swapaxes_method  # type: ignore[attr-defined]
    Tensor.ravel = _ravel_method  # type: ignore[attr-defined]
    Tensor.flatten = flatten  # type: ignore[attr-defined]
    Tensor.repeat = _repeat_method  # type: ignore[attr-defined]
    Tensor.rechunk = _rechunk_method  # type: ignore[attr-defined]


_attach()

__all__ = [
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_to",
    "column_stack",
    "concatenate",
    "dstack",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "hstack",
    "moveaxis",
    "ravel",
    "rechunk",
    "repeat",
    "reshape",
    "roll",
    "split",
    "squeeze",
    "stack",
    "swapaxes",
    "tile",
    "transpose",
    "vstack",
]

"""Indexing: ``x[index]``, ``x[index] = value``, ``take``, ``compress``, ``nonzero``,
``argwhere``, ``flatnonzero`` and ``extract``, with NumPy's semantics.

An index is parsed and validated when it is applied (bad types, too many indices,
out-of-bounds integers and arrays, mismatched boolean masks raise NumPy's exceptions at
the user's line). Then:

- **basic** indices (ints, slices, ``None``, ``...``) become one ``BasicIndex`` node: each
  output chunk is cut from the one input chunk it lies in (an output chunk that is a whole
  input chunk reuses its key);
- **integer arrays** known at build time (NumPy arrays, lists, NumPy boolean masks turned
  into their ``nonzero`` arrays) become a ``FancyIndex`` node on top of the basic part: the
  broadcast index shape is split into chunks; every output chunk reads only the input
  chunks its indices fall in (one task per output chunk, reading just those chunks);
- a **boolean tensor mask** becomes a ``MaskIndex`` node: one output chunk of unknown
  (``nan``) length per input chunk along the first masked axis;
- **integer tensors** (values unknown when tiling) become a ``ShuffleIndex`` node: each
  index chunk is bucketed by the input chunk its indices fall in, each input chunk serves
  the buckets that ask for it, and each output chunk assembles its pieces.

Where advanced indices go in the result follows NumPy: in place when they are next to each
other in the index (integers count as advanced indices then), first otherwise.

``x[index] = value`` rebinds ``x`` to a new node (as Mars does): the chunks the selection
touches are copied and assigned, the others keep their keys. Values are converted to the
tensor's dtype exactly as NumPy's assignment converts them.

Modules: ``normalize`` (parsing and validating an index), ``locate`` (where an index falls
in a chunk grid), ``basic``, ``fancy``, ``mask`` and ``tensor_index`` (the getitem
operators), ``getitem`` (choosing them), ``setitem`` (choosing the setitem operators:
``setitem_array``, ``setitem_mask``, ``setitem_tensor``, sharing ``setitem_common``),
``nonzero`` (nonzero, argwhere, flatnonzero), ``take`` (take, compress, extract).
This module re-exports them and attaches the ``Tensor`` methods.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.indexing.basic import BasicIndex as BasicIndex
from jupyter_mars.tensor.indexing.basic import getitem_block as getitem_block
from jupyter_mars.tensor.indexing.fancy import FancyIndex as FancyIndex
from jupyter_mars.tensor.indexing.fancy import fancy_gather as fancy_gather
from jupyter_mars.tensor.indexing.fancy import fancy_take_block as fancy_take_block
from jupyter_mars.tensor.indexing.fancy import place_dims as place_dims
from jupyter_mars.tensor.indexing.fancy import take_flat as take_flat
from jupyter_mars.tensor.indexing.getitem import getitem as getitem
from jupyter_mars.tensor.indexing.locate import slice_plan as slice_plan
from jupyter_mars.tensor.indexing.mask import MaskIndex as MaskIndex
from jupyter_mars.tensor.indexing.mask import mask_merge as mask_merge
from jupyter_mars.tensor.indexing.mask import mask_take_block as mask_take_block
from jupyter_mars.tensor.indexing.mask import mask_take_piece as mask_take_piece
from jupyter_mars.tensor.indexing.nonzero import ArgWhere as ArgWhere
from jupyter_mars.tensor.indexing.nonzero import MaskRanks as MaskRanks
from jupyter_mars.tensor.indexing.nonzero import argwhere, flatnonzero, nonzero
from jupyter_mars.tensor.indexing.nonzero import argwhere_block as argwhere_block
from jupyter_mars.tensor.indexing.nonzero import argwhere_merge as argwhere_merge
from jupyter_mars.tensor.indexing.nonzero import mask_flat_block as mask_flat_block
from jupyter_mars.tensor.indexing.nonzero import sorted_concat as sorted_concat
from jupyter_mars.tensor.indexing.normalize import INDEX_TYPE_ERROR as INDEX_TYPE_ERROR
from jupyter_mars.tensor.indexing.normalize import NAN as NAN
from jupyter_mars.tensor.indexing.setitem import setitem as setitem
from jupyter_mars.tensor.indexing.setitem_array import SetIndex as SetIndex
from jupyter_mars.tensor.indexing.setitem_array import set_block as set_block
from jupyter_mars.tensor.indexing.setitem_array import (
    set_block_from_chunk as set_block_from_chunk,
)
from jupyter_mars.tensor.indexing.setitem_common import extract_piece as extract_piece
from jupyter_mars.tensor.indexing.setitem_mask import SetMask as SetMask
from jupyter_mars.tensor.indexing.setitem_mask import set_mask_block as set_mask_block
from jupyter_mars.tensor.indexing.setitem_mask import (
    set_mask_block_from_chunk as set_mask_block_from_chunk,
)
from jupyter_mars.tensor.indexing.setitem_tensor import SetShuffle as SetShuffle
from jupyter_mars.tensor.indexing.setitem_tensor import set_shuffle_block as set_shuffle_block
from jupyter_mars.tensor.indexing.take import compress, extract, take
from jupyter_mars.tensor.indexing.take import unravel_component as unravel_component
from jupyter_mars.tensor.indexing.take import wrap_indices as wrap_indices
from jupyter_mars.tensor.indexing.tensor_index import ShuffleIndex as ShuffleIndex
from jupyter_mars.tensor.indexing.tensor_index import bucket_indices as bucket_indices
from jupyter_mars.tensor.indexing.tensor_index import shuffle_assemble as shuffle_assemble
from jupyter_mars.tensor.indexing.tensor_index import shuffle_gather as shuffle_gather
from jupyter_mars.tensor.indexing.view_links import getitem_view

__all__ = ["argwhere", "compress", "extract", "flatnonzero", "nonzero", "take"]


# ---- Tensor methods --------------------------------------------------------------------------


def _tensor_getitem(self: Tensor, index: Any) -> Tensor:
    # ``x[1:]`` is a view of ``x``, as in NumPy; ``getitem`` itself makes plain tensors
    result: Tensor = getitem_view(self, index)
    return result


def _tensor_setitem(self: Tensor, index: Any, value: Any) -> None:
    setitem(self, index, value)


def _tensor_nonzero(self: Tensor) -> Any:
    return nonzero(self)


def _tensor_take(
    self: Tensor, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise"
) -> Tensor:
    return take(self, indices, axis=axis, out=out, mode=mode)


def _tensor_compress(self: Tensor, condition: Any, axis: Any = None, out: Any = None) -> Tensor:
    return compress(condition, self, axis=axis, out=out)


def _attach() -> None:
    Tensor.__getitem__ = _tensor_getitem  # type: ignore[method-assign]
    Tensor.__setitem__ = _tensor_setitem  # type: ignore[method-assign]
    Tensor.nonzero = _tensor_nonzero  # type: ignore[attr-defined]
    Tensor.take = _tensor_take  # type: ignore[attr-defined]
    Tensor.compress = _tensor_compress  # type: ignore[attr-defined]


_attach()

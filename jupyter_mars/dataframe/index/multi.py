"""What only a MultiIndex has: its levels and codes, the edits of them, and lookups.

pandas' levels are the distinct values of each level over the whole index (codes index
into them): a chunk's own levels are a slice's (a frame sliced from one pandas index keeps
them all, used or not) or its own distinct values (an index built per chunk). Here they
are combined by a tree of per-chunk levels, each level the union of the chunks' (equal
levels stay as they are, different ones are merged sorted, as pandas' ``append`` merges
them), so that both give pandas' answer. Each chunk is then recoded against the combined
levels, one task per chunk reading them (``with_levels``): this is the step
``codes``, ``set_levels``, ``set_codes`` and ``remove_unused_levels`` share.

``levels``, ``codes`` and ``levshape`` are fetched (pandas' FrozenLists of Index objects
and of code arrays), as ``is_unique`` and the other values of a whole index are;
``set_levels``, ``set_codes``, ``remove_unused_levels`` and ``truncate`` give new lazy
indexes, and ``values`` a lazy object tensor of tuples. The lookups ``get_locs``,
``get_loc_level`` and ``equal_levels`` are values, computed on the workers and fetched,
as ``get_loc`` is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.conversion import ToTensor
from jupyter_mars.dataframe.core import FrameBase, MultiIndex
from jupyter_mars.dataframe.datasource import index_node
from jupyter_mars.dataframe.index._calls import BOX_META, value, whole
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort.tree import tree_frame
from jupyter_mars.tensor.core import Tensor, new_tensor


def _union(left: pd.Index, right: pd.Index) -> pd.Index:
    """One level of two chunks: as it is where they agree, else sorted together (an empty
    level, of a chunk whose labels there are all missing, adds nothing)."""
    if len(right) == 0 or left.equals(right):
        return left
    if len(left) == 0:
        return right
    return left.union(right)


def _in_order(left: pd.Index, right: pd.Index) -> pd.Index:
    return left.append(right).unique()


def used_in_order(level: pd.Index, seen: pd.Index) -> pd.Index:
    """The values of ``level`` some label uses, ordered as pandas'
    ``remove_unused_levels`` orders them: by first use, except that where a label is
    missing, the first used value trades places with the first missing one."""
    codes = level.get_indexer(seen)
    has_na = bool((codes == -1).any())
    if len(codes) == len(level) + has_na:
        return level  # all used: pandas keeps the level as it is
    if has_na:
        first_na = int(np.flatnonzero(codes == -1)[0])
        codes[[0, first_na]] = codes[[first_na, 0]]
    return level.take(codes[int(has_na) :])


@dataclass(frozen=True)
class CombinedLevels:
    """Tree kernels: each level's union over the chunks, boxed as one object value;
    ``used_only`` keeps only the values some label uses (the chunks' values in order of
    first appearance, missing ones included, tell which and in what order)."""

    used_only: bool = False

    def chunk(self, block: pd.MultiIndex) -> tuple[list[pd.Index], list[pd.Index]]:
        seen = range(block.nlevels) if self.used_only else ()
        return list(block.levels), [block.get_level_values(i).unique() for i in seen]

    def combine(self, parts: list[Any]) -> tuple[list[pd.Index], list[pd.Index]]:
        levels = [reduce(_union, same) for same in zip(*(p[0] for p in parts), strict=True)]
        seen = [reduce(_in_order, same) for same in zip(*(p[1] for p in parts), strict=True)]
        return levels, seen

    def aggregate(self, part: Any) -> pd.Index:
        levels, seen = part
        if self.used_only:
            levels = [used_in_order(lev, s) for lev, s in zip(levels, seen, strict=True)]
        box = np.empty(1, dtype=object)
        box[0] = levels
        return pd.Index(box, dtype=object)


def combined_levels(index: MultiIndex, used_only: bool = False) -> Any:
    """A lazy one-chunk box of the whole index's levels (a list of pandas Index)."""
    return tree_frame(index, CombinedLevels(used_only), "levels", BOX_META, 1)


def recode(chunk: pd.MultiIndex, box: pd.Index) -> pd.MultiIndex:
    """The chunk's labels over the combined ``levels`` (a missing label keeps code -1)."""
    levels = box[0]
    codes = [level.get_indexer(chunk.get_level_values(i)) for i, level in enumerate(levels)]
    return pd.MultiIndex(levels=levels, codes=codes, names=chunk.names, verify_integrity=False)


def with_levels(index: MultiIndex, used_only: bool = False) -> MultiIndex:
    """``index`` with every chunk coded against the whole index's levels."""
    box = combined_levels(index, used_only)
    args = (Slot(0), Slot(1))
    out: MultiIndex = map_chunks(
        recode, [index, box], args, index.meta, name="recode", broadcast=frozenset({1})
    )
    return out


def levels(self: MultiIndex) -> Any:
    box = combined_levels(self).to_pandas()[0]
    named = [level.rename(name) for level, name in zip(box, self.meta.names, strict=True)]
    return type(self.meta.levels)(named)


def codes(self: MultiIndex) -> Any:
    return with_levels(self).to_pandas().codes


def levshape(self: MultiIndex) -> tuple[int, ...]:
    return tuple(len(level) for level in levels(self))


def remove_unused_levels(self: MultiIndex) -> MultiIndex:
    return with_levels(self, used_only=True)


def _set_levels_chunk(chunk: pd.MultiIndex, box: pd.Index, kwargs: dict[str, Any]) -> Any:
    return recode(chunk, box).set_levels(**kwargs)


def set_levels(
    self: MultiIndex, levels: Any, *, level: Any = None, verify_integrity: bool = True
) -> MultiIndex:
    """New values for levels, position for position: each chunk is coded against the
    whole index's levels first, so a position means the same value in every chunk."""
    kwargs = {"levels": levels, "level": level, "verify_integrity": verify_integrity}
    meta = empty_like(self.meta.set_levels(**kwargs))  # pandas checks the shapes now
    box = combined_levels(self)
    out: MultiIndex = map_chunks(
        _set_levels_chunk,
        [self, box],
        (Slot(0), Slot(1), kwargs),
        meta,
        name="set_levels",
        broadcast=frozenset({1}),
    )
    return out


def set_codes(
    self: MultiIndex, codes: Any, *, level: Any = None, verify_integrity: bool = True
) -> MultiIndex:
    """New codes for all the labels at once (they are positions in the whole index), on
    the index brought into one task."""
    if isinstance(codes, FrameBase):
        codes = codes.to_pandas()
    # pandas checks the levels named and the number of code lists now, on empty codes
    one_level = level is not None and not isinstance(level, (list, tuple))
    empty: list[Any] = [] if one_level else [[] for _ in codes]
    self.meta.set_codes(empty, level=level, verify_integrity=False)
    length = self.node.shape[0]
    return whole(  # type: ignore[no-any-return]
        with_levels(self),
        "set_codes",
        codes,
        meta=empty_like(self.meta),
        length=length,
        level=level,
        verify_integrity=verify_integrity,
    )


def values(self: MultiIndex) -> Tensor:
    """The labels as a lazy object tensor of tuples, as pandas' ``values`` are."""
    out: Tensor = new_tensor(ToTensor(), [self], tuple(self.node.shape), np.dtype(object))  # type: ignore[list-item]
    return out


def truncate(self: MultiIndex, before: Any = None, after: Any = None) -> MultiIndex:
    if before is not None and after is not None and after < before:
        raise ValueError("after < before")
    return whole(self, "truncate", before, after, meta=empty_like(self.meta))  # type: ignore[no-any-return]


def _value_method(name: str) -> Any:
    def method(self: MultiIndex, *args: Any, **kwargs: Any) -> Any:
        return value(self, name, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``pandas.MultiIndex.{name}``, computed and fetched."
    return method


def _lazy(index: pd.MultiIndex, chunk_size: Any) -> MultiIndex:
    return MultiIndex(index_node(index, None, None, chunk_size))


def _plain(obj: Any) -> Any:
    """A lazy argument's data (the constructors take pandas' arguments)."""
    return obj.to_pandas() if isinstance(obj, FrameBase) else obj


def from_arrays(
    cls: type, arrays: Any, sortorder: Any = None, names: Any = None, chunk_size: Any = None
) -> MultiIndex:
    arrays = [_plain(a) for a in arrays] if isinstance(arrays, (list, tuple)) else arrays
    return _lazy(pd.MultiIndex.from_arrays(arrays, sortorder, names), chunk_size)


def from_tuples(
    cls: type, tuples: Any, sortorder: Any = None, names: Any = None, chunk_size: Any = None
) -> MultiIndex:
    return _lazy(pd.MultiIndex.from_tuples(_plain(tuples), sortorder, names), chunk_size)


def from_product(
    cls: type, iterables: Any, sortorder: Any = None, names: Any = None, chunk_size: Any = None
) -> MultiIndex:
    iterables = [_plain(i) for i in iterables]
    return _lazy(pd.MultiIndex.from_product(iterables, sortorder, names), chunk_size)


def _from_frame_chunk(chunk: pd.DataFrame, names: Any) -> pd.MultiIndex:
    return pd.MultiIndex.from_frame(chunk, names=names)


def from_frame(
    cls: type, df: Any, sortorder: Any = None, names: Any = None, chunk_size: Any = None
) -> MultiIndex:
    """A lazy DataFrame's rows become labels chunk for chunk; a pandas one is chunked
    by ``chunk_size``."""
    if not isinstance(df, FrameBase):
        return _lazy(pd.MultiIndex.from_frame(df, sortorder, names), chunk_size)
    meta = pd.MultiIndex.from_frame(df.meta, sortorder, names)
    out: MultiIndex = map_chunks(_from_frame_chunk, [df], (Slot(0), names), meta, name="from_frame")
    return out


LOOKUPS = ["get_locs", "get_loc_level", "equal_levels"]


def _attach() -> None:
    methods: dict[str, Any] = {name: _value_method(name) for name in LOOKUPS}
    methods.update(
        {
            "levels": property(levels),
            "codes": property(codes),
            "levshape": property(levshape),
            "dtypes": property(lambda self: self.meta.dtypes),
            "values": property(values),
            "remove_unused_levels": remove_unused_levels,
            "set_levels": set_levels,
            "set_codes": set_codes,
            "truncate": truncate,
            "from_arrays": classmethod(from_arrays),
            "from_tuples": classmethod(from_tuples),
            "from_product": classmethod(from_product),
            "from_frame": classmethod(from_frame),
        }
    )
    for attr, method in methods.items():
        setattr(MultiIndex, attr, method)


_attach()

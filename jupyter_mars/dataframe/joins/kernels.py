"""The chunk kernels of a merge: pandas' merge of two chunks, a lookup join against a small
side whose key is unique, and the final steps (sorting, renumbering rows).

The lookup join is the broadcast plan's fast path for the common star-schema merge (a
large table against a dimension table keyed uniquely). ``pd.merge`` factorises both sides
in every call, so merging each large chunk with the whole small side would hash the small
side once per chunk. Here the small side is hashed once, into a ``pd.Index`` whose hash
table every task reuses (``get_indexer``), and each chunk costs one lookup of its own keys
and a take of the small side's columns. The result equals ``pd.merge``'s: each row of the
large side meets at most one row of the small side, in the large side's row order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.node import concat_chunks


def merge_pair(left: Any, right: Any, kwargs: dict[str, Any]) -> Any:
    """``pd.merge`` of two chunks."""
    return pd.merge(left, right, **kwargs)


def concat_parts(meta: Any, parts: list[Any]) -> Any:
    """The rows of a shuffle's parts, in order: one side of one merge task."""
    return concat_chunks([p for p in parts if len(p)] or parts[:1], meta)


@dataclass(frozen=True)
class LookupSpec:
    """How a lookup join lays out its result (all labels as pandas' merge gives them)."""

    big_key: Any
    """The large side's key column."""
    small_key: Any
    """The small side's key column."""
    big_columns: tuple[Any, ...]
    """The large side's columns in the result, in order."""
    small_columns: tuple[Any, ...]
    """The small side's columns in the result, in order. When the keys share a name the
    result holds it once, as the left side's column."""
    big_is_left: bool
    key_from_big: bool
    """The left (small) side's key column holds the right (large) side's key values: a
    right merge on keys of one name, where rows without a match keep their key."""
    keep_all: bool
    """Keep every row of the large side (a left merge with the large side on the left, a
    right merge with it on the right); otherwise only rows with a match (inner)."""
    columns: tuple[Any, ...]
    """The result's column labels."""


def gather_small(meta: Any, lookup_key: Any, *chunks: Any) -> tuple[Any, Any]:
    """The small side of a broadcast merge, whole, and an index of its key when the lookup
    join applies (its key is unique), else None. The index's hash table is built here,
    once, and shared by every task that reads it."""
    frame = concat_chunks(list(chunks), meta)
    if lookup_key is None or not len(frame):
        return frame, None
    index = pd.Index(frame[lookup_key].to_numpy())
    return frame, (index if index.is_unique else None)


def _take(column: pd.Series, indexer: np.ndarray[Any, Any], fill: bool) -> Any:
    """``column``'s values at ``indexer``; -1 gives a missing value when ``fill`` (ints
    become floats and bools objects, as in pandas' merge)."""
    is_numpy = isinstance(column.dtype, np.dtype)
    values = column.to_numpy() if is_numpy else column.array
    if fill:
        return pd.api.extensions.take(values, indexer, allow_fill=True)
    return values[indexer] if is_numpy else values.take(indexer)


def lookup_join(big: Any, small: Any, index: Any, spec: LookupSpec) -> Any:
    """The lookup join of one large chunk with the small side (see the module docstring)."""
    indexer = index.get_indexer(big[spec.big_key].to_numpy())
    if not spec.keep_all:
        found = indexer >= 0
        if not found.all():
            big = big[found]
            indexer = indexer[found]
    fill = bool((indexer < 0).any())
    rows = pd.RangeIndex(len(big))
    taken = {i: _take(small[c], indexer, fill) for i, c in enumerate(spec.small_columns)}
    if spec.key_from_big:
        taken[spec.small_columns.index(spec.small_key)] = big[spec.big_key].to_numpy()
    small_part = pd.DataFrame(taken, index=rows, copy=False)
    big_part = big[list(spec.big_columns)] if len(spec.big_columns) < big.shape[1] else big
    big_part = big_part.set_axis(rows, axis=0)
    parts = [big_part, small_part] if spec.big_is_left else [small_part, big_part]
    out = pd.concat(parts, axis=1)
    out.columns = pd.Index(spec.columns)
    return out


def broadcast_merge(
    big: Any, small: tuple[Any, Any], big_is_left: bool, kwargs: dict[str, Any], spec: Any
) -> Any:
    """Merge one chunk of the large side with the whole small side."""
    frame, index = small
    if spec is not None and index is not None:
        return lookup_join(big, frame, index, spec)
    return pd.merge(big, frame, **kwargs) if big_is_left else pd.merge(frame, big, **kwargs)


def sort_merged(meta: Any, by: Any, chunks: list[Any]) -> Any:
    """Merged chunks as one, stably sorted on the join keys (``by``: column labels, or
    None for the index), missing keys last as in pandas' ``sort=True``. Every chunk is
    sorted already and rows with equal keys are in pandas' order across chunks."""
    whole = concat_chunks(chunks, meta)
    if by is None:
        return whole.sort_index(kind="stable", na_position="last")
    return whole.sort_values(list(by), kind="stable", na_position="last")

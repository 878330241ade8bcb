"""What a sort sorts by, and integer codes that order rows against a few boundary rows.

A ``SortSpec`` names the sort keys of a chunk (columns of a DataFrame, the values of a
Series, or the levels of the index), their directions and where missing values go, and
sorts a chunk the way pandas does.

Range partitioning compares every row with a handful of boundary rows. Instead of
comparing tuples of mixed types row by row, each key is mapped to a small integer that
orders it against the boundary values of that key: a value strictly between boundary
values ``u[p-1]`` and ``u[p]`` gets ``2p``, a value equal to ``u[p]`` gets ``2p + 1``
(descending keys are mirrored, missing values go below or above all others). Mixed-radix
sums of these codes order rows against the boundaries exactly as the lexicographic
order of the keys does, so one ``searchsorted`` of int64 codes finds each row's part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

SORT_KINDS = ("quicksort", "mergesort", "heapsort", "stable")
RADIX_LIMIT = 1 << 62
"""Keys after the one whose radix product would pass this are left out of the codes: the
codes of a key prefix still order rows consistently (equal prefixes meet in one part)."""


@dataclass(frozen=True)
class SortSpec:
    """How rows are ordered: by columns, by a Series' values, or by the index levels."""

    target: str
    """``"columns"``, ``"values"`` or ``"index"``."""
    by: tuple[Any, ...]
    """Column labels when ``target`` is ``"columns"``; empty otherwise."""
    ascending: tuple[bool, ...]
    """One direction per key (the index: one per level)."""
    na_position: str
    kind: str

    def keys(self, chunk: Any) -> list[Any]:
        """The sort keys of ``chunk``: Series or Index objects, most significant first."""
        if self.target == "columns":
            return [chunk[c] for c in self.by]
        if self.target == "values":
            return [chunk]
        index = chunk.index
        return [index.get_level_values(level) for level in range(index.nlevels)]

    def sort(self, chunk: Any) -> Any:
        """``chunk`` sorted as pandas sorts it (stable across keys, ``kind`` for one key)."""
        asc: Any = list(self.ascending) if len(self.ascending) > 1 else self.ascending[0]
        if self.target == "columns":
            return chunk.sort_values(
                by=list(self.by), ascending=asc, na_position=self.na_position, kind=self.kind
            )
        if self.target == "values":
            return chunk.sort_values(ascending=asc, na_position=self.na_position, kind=self.kind)
        return chunk.sort_index(ascending=asc, na_position=self.na_position, kind=self.kind)


def comparable(key: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The values of a key as a NumPy array that sorts like pandas sorts the key, and its
    missing-value mask (values under the mask are arbitrary)."""
    mask = np.asarray(pd.isna(key), dtype=bool)
    dtype = key.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        values = np.asarray(key.codes if isinstance(key, pd.Index) else key.cat.codes)
    elif not isinstance(dtype, np.dtype) and hasattr(dtype, "numpy_dtype"):
        fill = np.zeros(1, dtype=dtype.numpy_dtype)[0]
        values = key.to_numpy(dtype=dtype.numpy_dtype, na_value=fill)
    else:
        values = np.asarray(key.to_numpy())
    return values, mask


def _codes_of(
    values: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], bounds: np.ndarray[Any, Any]
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """``2p + (value == bounds[p])`` with ``p`` the insertion point; -1 where missing."""
    codes = np.full(len(values), -1, dtype=np.int64)
    has_na = bool(mask.any())
    present = values[~mask] if has_na else values
    if len(bounds) == 0:
        found = np.zeros(len(present), dtype=np.int64)
    else:
        pos = np.searchsorted(bounds, present, side="left")
        at = bounds[np.minimum(pos, len(bounds) - 1)]
        found = 2 * pos.astype(np.int64) + ((pos < len(bounds)) & (at == present))
    if has_na:
        codes[~mask] = found
    else:
        codes = found
    return codes


def key_codes(
    key: Any, bound_key: Any, ascending: bool, na_last: bool
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]:
    """Codes of a chunk's key and of the boundaries' key, both ordered like the sort, and
    their radix (codes lie in ``[0, radix)``)."""
    values, mask = comparable(key)
    bvalues, bmask = comparable(bound_key)
    uniq = np.unique(bvalues[~bmask])
    top = 2 * len(uniq)
    radix = top + 3
    out = []
    for vals, msk in ((values, mask), (bvalues, bmask)):
        codes = _codes_of(vals, msk, uniq)
        missing = codes < 0
        codes = codes + 1 if ascending else top + 1 - codes
        codes[missing] = radix - 1 if na_last else 0
        out.append(codes)
    return out[0], out[1], radix


def row_codes(
    spec: SortSpec, keys: list[Any], bound_keys: list[Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """One int64 per row and per boundary, ordered like the keys (mixed radix)."""
    total = np.zeros(len(keys[0]), dtype=np.int64)
    btotal = np.zeros(len(bound_keys[0]), dtype=np.int64)
    scale = 1
    na_last = spec.na_position == "last"
    for key, bkey, asc in zip(keys, bound_keys, spec.ascending):
        codes, bcodes, radix = key_codes(key, bkey, asc, na_last)
        if scale * radix >= RADIX_LIMIT:
            break
        total = total * radix + codes
        btotal = btotal * radix + bcodes
        scale *= radix
    return total, btotal

"""Row keys of a MultiIndex for ``loc``: full tuples, and partial keys (a first-level
label, or a tuple of the first levels' labels).

pandas reads ``df.loc[a, b]`` on rows labelled by several levels as the row label
``(a, b)`` first, and as row ``a``, column ``b`` only when that label is missing. A lazy
frame cannot try the data, so it decides on what is known now: a tuple of plain labels,
no longer than the levels, is a row key unless its second label is one of the columns.
A partial key keeps the rows whose first levels match and drops those levels, as
pandas does; a missing one raises KeyError when executed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def _is_plain(label: Any) -> bool:
    return not isinstance(label, (slice, list, np.ndarray, pd.Index, pd.Series))


def is_row_key(frame_meta: Any, key: tuple[Any, ...]) -> bool:
    """Whether ``loc[key]`` with a tuple key means a row of the MultiIndex (see the module
    docstring), not ``[rows, columns]``."""
    index = frame_meta.index
    if not isinstance(index, pd.MultiIndex) or not all(_is_plain(k) for k in key):
        return False
    if len(key) > index.nlevels:
        return False
    columns = getattr(frame_meta, "columns", None)
    if len(key) == 2 and columns is not None:
        try:
            return key[1] not in columns
        except TypeError:  # an unhashable label is no column
            return True
    return True


def is_partial(index: Any, key: Any) -> bool:
    """A key naming fewer levels than the MultiIndex has (a scalar names the first)."""
    if not isinstance(index, pd.MultiIndex):
        return False
    parts = key if isinstance(key, tuple) else (key,)
    return len(parts) < index.nlevels and all(_is_plain(p) for p in parts)


def partial_meta(meta: Any, key: Any) -> Any:
    """The meta of ``loc[key]`` for a partial key: the rows' matched levels dropped."""
    depth = len(key) if isinstance(key, tuple) else 1
    return meta.droplevel(list(range(depth)))


def label_mask(index: pd.MultiIndex, labels: list[Any]) -> np.ndarray[Any, Any]:
    """Rows whose label is one of ``labels``: full tuples, or partial keys matched on
    the first levels."""
    full = [label for label in labels if isinstance(label, tuple) and len(label) == index.nlevels]
    mask = np.asarray(index.isin(full)) if full else np.zeros(len(index), dtype=bool)
    for label in labels:
        if isinstance(label, tuple) and len(label) == index.nlevels:
            continue
        parts = label if isinstance(label, tuple) else (label,)
        hit = np.ones(len(index), dtype=bool)
        for level, part in enumerate(parts):
            hit &= np.asarray(index.get_level_values(level) == part)
        mask |= hit
    return mask

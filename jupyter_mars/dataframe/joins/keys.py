"""Join keys: where each side's keys live (columns or index levels) and how to hash them so
that keys pandas finds equal land in the same part of a shuffle.

pandas matches ``1`` with ``1.0`` and ``-0.0`` with ``0.0``, and a NaN key with a NaN key,
but their hashes differ (an int64 and a float64 hash their bytes). So before hashing, each
pair of key columns is brought to one form: the values as they are when both sides have
the same non-float dtype; float64 when both are numeric (with signed zeros made positive);
Python objects otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype
from pandas.util import hash_pandas_object

from jupyter_mars.dataframe.partition import hash_codes, split_by_codes

AS_IS = "as_is"
FLOAT = "float"
OBJECT = "object"


@dataclass(frozen=True)
class KeySource:
    """One join key of one side: a column label, or an index level (name or position)."""

    label: Any
    in_index: bool


def key_sources(meta: pd.DataFrame, labels: Sequence[Any] | None, use_index: bool) -> list[Any]:
    """The keys of one side: its index levels (``use_index``) or the labels, each a column
    when the frame has it and an index level name otherwise (as pandas looks them up)."""
    if use_index:
        return [KeySource(i, True) for i in range(meta.index.nlevels)]
    assert labels is not None
    names = list(meta.index.names)
    return [KeySource(k, k not in meta.columns and k in names) for k in labels]


def key_values(frame: pd.DataFrame, source: KeySource) -> Any:
    """The key's values in ``frame``'s row order (a Series or an Index)."""
    if source.in_index:
        return frame.index.get_level_values(source.label)
    return frame[source.label]


def key_dtype(meta: pd.DataFrame, source: KeySource) -> Any:
    return key_values(meta, source).dtype


def hash_forms(left: Sequence[Any], right: Sequence[Any]) -> tuple[str, ...]:
    """The form each pair of key dtypes is hashed in (see the module docstring)."""
    forms = []
    for a, b in zip(left, right):
        if all(is_numeric_dtype(t) and not is_bool_dtype(t) for t in (a, b)):
            exact = a == b and getattr(a, "kind", "") in ("i", "u")
            forms.append(AS_IS if exact else FLOAT)
        else:
            forms.append(AS_IS if a == b else OBJECT)
    return tuple(forms)


def _normal(values: Any, form: str) -> Any:
    if form == FLOAT:
        floats = pd.Series(values).to_numpy(dtype=np.float64, na_value=np.nan)
        return floats + 0.0  # -0.0 + 0.0 is 0.0: both signs hash alike
    if form == OBJECT:
        return pd.Series(values).to_numpy(dtype=object)
    return values.to_numpy() if isinstance(values, pd.Index) else values.array


def key_codes(
    frame: pd.DataFrame, sources: Sequence[KeySource], forms: Sequence[str], n_out: int
) -> np.ndarray[Any, Any]:
    """The part of each row of ``frame``: a hash of its keys, in their common forms."""
    columns = {i: _normal(key_values(frame, s), f) for i, (s, f) in enumerate(zip(sources, forms))}
    return hash_codes(pd.DataFrame(columns, copy=False), n_out)


def key_hashes(
    frame: pd.DataFrame, sources: Sequence[KeySource], forms: Sequence[str]
) -> np.ndarray[Any, Any]:
    """A 64-bit hash of each row's keys, in their common forms: equal keys, equal hashes."""
    columns = {i: _normal(key_values(frame, s), f) for i, (s, f) in enumerate(zip(sources, forms))}
    hashed: np.ndarray[Any, Any] = hash_pandas_object(
        pd.DataFrame(columns, copy=False), index=False
    ).to_numpy()
    return hashed


def split_by_keys(
    frame: pd.DataFrame, n_out: int, sources: Sequence[KeySource], forms: Sequence[str]
) -> list[pd.DataFrame]:
    """``frame``'s rows in ``n_out`` parts by key hash (a shuffle's split kernel)."""
    if n_out == 1:
        return [frame]
    return split_by_codes(frame, key_codes(frame, sources, forms, n_out), n_out)

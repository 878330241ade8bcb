"""``replace`` of numbers by numbers in number columns, done with NumPy.

pandas' ``replace`` of a few integers in an int64 column costs several times a NumPy
compare-and-put over the same values (its general path checks every kind of value,
regular expression and block split on the way). Where every replaced column holds plain
NumPy integers or floats and every old and new value is a plain number, this module does
what pandas does, column by column:

- a pair whose old value the column cannot hold (0.5 in an int column) never matches:
  pandas drops it before comparing;
- every pair's rows are found on the *original* values, so ``{1: 2, 2: 1}`` swaps;
- NaN as the old value matches NaN;
- the column is cast to the dtype pandas gives on a match (the meta's) before the new
  values are put, and is left as it is (no copy) where nothing matches.

Anything else (objects, strings, bools, extension dtypes, regular expressions, a chunk
whose dtypes are not the expected ones) is left to pandas by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

Pair = tuple[Any, Any]

_NUMBER_KINDS = "iuf"
"""NumPy kinds handled here: signed and unsigned integers, floats (not bools)."""


def is_number(value: Any) -> bool:
    """A plain int or float (NumPy's too), not a bool: pandas never matches a bool to 1."""
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (int, float, np.integer, np.floating))


def holds(dtype: np.dtype[Any], value: Any) -> bool:
    """pandas' rule for whether a column of ``dtype`` holds the number ``value``: for
    integers, an integral value in range; for floats, one equal to itself cast (as NumPy
    compares them, so a float32 column holds 0.1) or NaN."""
    if dtype.kind == "f":
        with np.errstate(all="ignore"):  # an overflow to inf is an answer, not a warning
            stored = dtype.type(value)
            return bool(np.isnan(stored) or stored == value)
    if isinstance(value, (float, np.floating)) and not float(value).is_integer():
        return False
    info = np.iinfo(dtype)
    return bool(info.min <= value <= info.max)


@dataclass(frozen=True)
class ColumnSwaps:
    """The number swaps of one column."""

    position: int
    """The column's position (0 for a Series)."""
    dtype: np.dtype[Any]
    """The dtype the column must have for this plan to apply."""
    out: np.dtype[Any]
    """The result's dtype: pandas' dtype on a match."""
    pairs: tuple[Pair, ...]
    """(old, new), old values the column can hold only, in the order given."""


def number_plan(
    dtypes: list[Any], out_dtypes: list[Any], pairs: list[list[Pair]]
) -> tuple[ColumnSwaps, ...] | None:
    """The swaps per column, or None when some column needs pandas.

    ``dtypes``, ``out_dtypes``: the input's and the result's dtype of each column;
    ``pairs``: the (old, new) pairs that apply to each column.
    """
    plan = []
    for position, (dtype, out, column_pairs) in enumerate(
        zip(dtypes, out_dtypes, pairs, strict=True)
    ):
        if not column_pairs:
            if dtype != out:
                return None
            continue
        if not (isinstance(dtype, np.dtype) and isinstance(out, np.dtype)):
            return None
        if dtype.kind not in _NUMBER_KINDS or out.kind not in _NUMBER_KINDS:
            return None
        if not all(is_number(old) and is_number(new) for old, new in column_pairs):
            return None
        kept = tuple((old, new) for old, new in column_pairs if holds(dtype, old))
        if not all(holds(out, new) for _, new in kept):
            return None
        if kept or dtype != out:
            plan.append(ColumnSwaps(position, dtype, out, kept))
    return tuple(plan)


BLOCK = 1 << 18
"""Values per pass: a block, its copy and its masks stay in the CPU's cache, so each value
is read from memory once however many pairs there are (a pass per pair over the whole
column reads it again each time)."""


def _found(values: np.ndarray[Any, Any], old: Any) -> np.ndarray[Any, Any]:
    nan = isinstance(old, (float, np.floating)) and np.isnan(old)  # 2**70 is no NaN
    found: np.ndarray[Any, Any] = np.isnan(values) if nan else values == old
    return found


def _swapped(values: np.ndarray[Any, Any], swaps: ColumnSwaps) -> np.ndarray[Any, Any]:
    """The column with its swaps made; ``values`` itself where nothing changes."""
    out: np.ndarray[Any, Any] | None = None
    for start in range(0, len(values), BLOCK):
        block = values[start : start + BLOCK]
        masks = [(_found(block, old), new) for old, new in swaps.pairs]
        masks = [(found, new) for found, new in masks if found.any()]
        if out is None:
            if not masks:
                continue
            out = np.empty(len(values), dtype=swaps.out)
            out[:start] = values[:start]  # the blocks before the first match
        target = out[start : start + BLOCK]
        target[...] = block
        for found, new in masks:
            # copyto with a mask: a third of putmask's time; the plan checked that the
            # column's dtype holds every new value, so the cast loses nothing
            np.copyto(target, swaps.out.type(new), where=found, casting="unsafe")
    if out is None:  # no match: pandas keeps the column, cast to the shared dtype
        return values if swaps.out == values.dtype else values.astype(swaps.out)
    return out


def swap_numbers(chunk: Any, plan: tuple[ColumnSwaps, ...]) -> Any | None:
    """``chunk`` with the plan's swaps made, or None when its dtypes are not the plan's.
    Where it is not None, its dtypes are the plan's results, the columns the plan does not
    name kept as they are."""
    if isinstance(chunk, pd.Series):
        if not plan:
            return chunk.copy(deep=False)
        (swaps,) = plan
        if chunk.dtype != swaps.dtype:
            return None
        values = _swapped(chunk.to_numpy(), swaps)
        out = pd.Series(values, index=chunk.index, name=chunk.name, copy=False)
        return out.__finalize__(chunk)
    columns = [chunk.iloc[:, swaps.position].to_numpy() for swaps in plan]
    if any(values.dtype != swaps.dtype for values, swaps in zip(columns, plan, strict=True)):
        return None
    out = chunk.copy(deep=False)
    for values, swaps in zip(columns, plan, strict=True):
        swapped = _swapped(values, swaps)
        if swapped is not values:
            # as a Series on the same index, so that pandas keeps the array, uncopied
            column = pd.Series(swapped, index=chunk.index, copy=False)
            out.isetitem(swaps.position, column)
    return out

"""Mars's ``check_monotonic`` of a Series or Index, and its ``is_monotonic``: a lazy
boolean scalar, where pandas' ``is_monotonic_increasing`` is a Python bool computed at once.

Each chunk reports whether it holds values, whether it is in order (with ``strict``,
without repeats) and its first and last values; one task reads those summaries and
checks that each chunk's last value is in order with the next chunk's first. Missing
values make the answer False, as in pandas.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import FrameBase, Index, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.sort.selection import scalar_of
from jupyter_mars.dataframe.summaries import SUMMARY_META, one_row, order_facts

_RESULT_META = pd.Series([], dtype=bool)


def chunk_facts(decreasing: bool, strict: bool, chunk: Any) -> tuple[Any, ...]:
    """``order_facts`` of the chunk, its order also broken by a repeat when ``strict``."""
    held, inside, first, last = order_facts(not decreasing, chunk)
    if strict and held and inside:
        values = chunk if isinstance(chunk, pd.Index) else pd.Index(chunk.array)
        inside = bool(values.is_unique)
    return (held, inside, first, last)


def in_order(decreasing: bool, strict: bool, parts: list[Any]) -> pd.Series:
    """Whether the chunks, summed up in order, hold values in order."""
    facts = [f for f in parts[0]["summary"] if f[0]]
    compare = {
        (False, False): operator.le,
        (False, True): operator.lt,
        (True, False): operator.ge,
        (True, True): operator.gt,
    }[(decreasing, strict)]
    ok = all(f[1] for f in facts)
    try:
        ok = ok and all(compare(a[3], b[2]) for a, b in zip(facts, facts[1:], strict=False))
    except TypeError:  # values that do not compare are not in order, as in pandas
        ok = False
    return pd.Series([bool(ok)], dtype=bool)


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def check_monotonic(obj: FrameBase, decreasing: bool = False, strict: bool = False) -> Any:
    """A lazy bool: whether the values increase (``decreasing``: decrease) from each to
    the next; ``strict``: with no value repeated."""
    down, unique = _flag(decreasing, "decreasing"), _flag(strict, "strict")
    kernel = functools.partial(one_row, functools.partial(chunk_facts, down, unique))
    facts = map_chunks(kernel, [obj], (Slot(0),), SUMMARY_META, keeps_rows=False)
    build = functools.partial(in_order, down, unique)
    answer = collect(build, [facts], _RESULT_META, 1, "check_monotonic")
    return scalar_of(answer, np.dtype(bool), "check_monotonic")


def is_monotonic(obj: FrameBase) -> Any:
    """Mars's ``is_monotonic``: ``check_monotonic()``, a lazy bool."""
    return check_monotonic(obj)


def _attach() -> None:
    for cls in (Series, Index):
        cls.check_monotonic = check_monotonic  # type: ignore[union-attr]
        cls.is_monotonic = property(is_monotonic)  # type: ignore[union-attr]


_attach()

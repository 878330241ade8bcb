"""The rows a time-span rolling window (``rolling("2D")``) needs from other chunks.

A row's window reaches back (and forward, with ``center``) at most ``span`` in time, so
chunk ``i`` needs exactly the earlier rows whose times lie within ``span`` of its first
row, however many chunks they come from. The carry from the front keeps the rows within
``span`` of the latest time seen so far: it holds every row a later chunk can need
(times only grow along the rows), and pandas, run on those rows with the chunk
attached, counts in each window only the rows it covers. The carry from the back is the
mirror image, for ``center``.

pandas requires the times to be monotonic and free of NaT. Within a chunk pandas itself
checks that; the forward carry also records whether everything before a chunk was
increasing or decreasing, so a change of direction across chunks raises pandas'
``ValueError`` too, when the data is computed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.neighbours import Carry, finish_window


@dataclass(frozen=True)
class Seen:
    """Rows near one end of what a scan has passed, and the direction of all its times."""

    rows: Any
    """The rows within ``span`` of the time at that end (a pandas object, maybe empty)."""
    first: Any
    """The time of the first row, None when there are no rows."""
    increasing: bool
    decreasing: bool


def times(obj: Any, on: Any) -> pd.Index:
    """The times a window runs on: the ``on`` column, else the index."""
    keys = pd.Index(obj[on]) if on is not None else obj.index
    return keys.to_timestamp() if isinstance(keys, pd.PeriodIndex) else keys


def _near(obj: Any, keys: pd.Index, at: Any, span: pd.Timedelta) -> Any:
    """The rows of ``obj`` whose time is within ``span`` of ``at``."""
    return obj.iloc[abs(keys - at) <= span]


def _last(seen: Seen, on: Any) -> Any:
    return times(seen.rows, on)[-1] if len(seen.rows) else None


def _joined(on: Any, before: Seen | None, after: Seen) -> Seen:
    """The direction of ``before``'s times followed by ``after``'s: pandas' error when
    they are neither increasing nor decreasing. Rows and first time: ``after``'s."""
    increasing, decreasing = after.increasing, after.decreasing
    if before is not None:
        increasing &= before.increasing
        decreasing &= before.decreasing
        last = _last(before, on)
        if last is not None and after.first is not None:
            increasing &= bool(last <= after.first)
            decreasing &= bool(last >= after.first)
    if not (increasing or decreasing):
        raise ValueError(f"{on or 'index'} values must be monotonic")
    first = after.first if before is None or before.first is None else before.first
    return Seen(after.rows, first, increasing, decreasing)


def _seen(on: Any, span: pd.Timedelta, chunk: Any, tail: bool) -> Seen:
    keys = times(chunk, on)
    if keys.hasnans:
        raise ValueError(f"{on or 'index'} values must not have NaT")
    if not len(keys):
        return Seen(chunk, None, True, True)
    rows = _near(chunk, keys, keys[-1] if tail else keys[0], span)
    return Seen(rows, keys[0], keys.is_monotonic_increasing, keys.is_monotonic_decreasing)


def summarize_tail(on: Any, span: pd.Timedelta, chunk: Any) -> Seen:
    return _seen(on, span, chunk, tail=True)


def fold_tail(on: Any, span: pd.Timedelta, carry: Seen | None, part: Seen) -> Seen:
    joined = _joined(on, carry, part)
    if carry is None or not len(carry.rows) or not len(part.rows):
        rows = part.rows if carry is None or not len(carry.rows) else carry.rows
        return Seen(rows, joined.first, joined.increasing, joined.decreasing)
    both = pd.concat([carry.rows, part.rows])
    keys = times(both, on)
    rows = _near(both, keys, keys[-1], span)
    return Seen(rows, joined.first, joined.increasing, joined.decreasing)


def summarize_head(on: Any, span: pd.Timedelta, chunk: Any) -> Seen:
    return _seen(on, span, chunk, tail=False)


def fold_head(on: Any, span: pd.Timedelta, carry: Seen | None, part: Seen) -> Seen:
    # the forward carry checks every seam's direction; this one only gathers rows
    if carry is None or not len(carry.rows):
        return part
    if not len(part.rows):
        return carry
    both = pd.concat([part.rows, carry.rows])
    keys = times(both, on)
    return Seen(_near(both, keys, keys[0], span), keys[0], True, True)


def tail_times(on: Any, span: pd.Timedelta) -> Carry:
    """The rows before a chunk within ``span`` of its first time (and more, never fewer)."""
    return Carry(
        functools.partial(summarize_tail, on, span), functools.partial(fold_tail, on, span)
    )


def head_times(on: Any, span: pd.Timedelta) -> Carry:
    """The rows after a chunk within ``span`` of its last time (and more, never fewer)."""
    return Carry(
        functools.partial(summarize_head, on, span), functools.partial(fold_head, on, span)
    )


def finish_times(
    kernel: Any, on: Any, span: pd.Timedelta, chunk: Any, before: Seen | None, after: Seen | None
) -> Any:
    """``kernel`` over the carried rows and the chunk, cut back to the chunk's rows, once
    the direction of the times across the seam before the chunk is checked."""
    _joined(on, before, _seen(on, span, chunk, tail=True))
    return finish_window(
        kernel,
        chunk,
        None if before is None else before.rows,
        None if after is None else after.rows,
    )

"""``resample(rule)``: rows grouped into time bins, chunk by chunk, bins merged.

pandas' bins for a fixed-length rule (``5min``, ``2D``) start from an *origin* that
depends on the whole frame (its first time, by default), so a chunk alone cannot place
them. The plan is:

1. every chunk gives the first and last time it holds (``time_bounds``);
2. one task resamples a two-row stand-in spanning those times with the user's arguments:
   its labels are exactly pandas' labels for the whole frame, empty bins included, and
   any of them is an edge of the bin grid (``bin_grid``);
3. every chunk is resampled with that edge as ``origin`` (so all chunks cut the same
   bins) into a partial result (``partial``): sums, counts, minima, firsts, ...; where
   its times are sorted, by NumPy on the grid's edges (``sorted_bins``);
4. one task concatenates the partials in row order and merges each bin's partials
   (sum of sums, min of minima, first of firsts, ...), then reindexes on the labels of
   step 2, so bins no row falls in appear as pandas shows them (``merge``).

Calendar rules (``W-MON``, ``ME``, ``QE``) are anchored on the calendar: the origin plays
no part and step 3 needs no grid, but the labels of step 2 are still what fills empty
bins. Functions that do not merge this way (``median``, ``std``, ``apply`` of a user
function, ``asfreq``...) resample the frame as one chunk.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like, side_by_side
from jupyter_mars.dataframe.timeseries.sorted_bins import SORTED_HOWS, sorted_partial
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

MERGE: dict[str, Callable[[Any], Any]] = {
    "sum": lambda g: g.sum(),
    "count": lambda g: g.sum(),
    "size": lambda g: g.sum(),
    "min": lambda g: g.min(),
    "max": lambda g: g.max(),
}
"""How each function's per-chunk results for one bin merge (``g``: grouped by bin)."""
ZERO_WHEN_EMPTY = {"sum", "count", "size"}
"""Functions pandas gives 0, not NaN, for a bin no row falls in."""
ORDERED = {"first", "last", "ohlc"}
"""Functions whose result depends on the order of times, merged by time (``_pick``)."""
MERGED = {*MERGE, *ORDERED, "mean"}


@dataclass(frozen=True)
class ResampleParams:
    """What ``resample`` was called with: passed to pandas as is."""

    kwargs: dict[str, Any]
    """``rule``, ``closed``, ``label``, ``origin``, ``offset``, ``on`` and the others."""
    selection: Any = None
    """The column(s) chosen with ``resampler[...]``, or None for all."""

    def resampler(self, obj: Any, **changes: Any) -> Any:
        r = obj.resample(**{**self.kwargs, **changes})
        return r if self.selection is None else r[self.selection]

    def times(self, chunk: Any) -> Any:
        on = self.kwargs.get("on")
        return chunk.index if on is None else chunk[on]


def time_bounds(params: ResampleParams, chunk: Any) -> tuple[Any, Any] | None:
    times = params.times(chunk)
    if not len(times):
        return None
    if isinstance(times, pd.DatetimeIndex) and not times.hasnans and times.is_monotonic_increasing:
        return times[0], times[-1]  # pandas keeps both flags with the index: no pass
    first, last = times.min(), times.max()  # NaT skipped
    return None if pd.isna(first) else (first, last)


def bin_grid(params: ResampleParams, *bounds: tuple[Any, Any] | None) -> pd.Index | None:
    """pandas' bin labels for the whole frame (None when it holds no time)."""
    known = [b for b in bounds if b is not None]
    if not known:
        return None
    first = min(b[0] for b in known)
    last = max(b[1] for b in known)
    kwargs = {k: v for k, v in params.kwargs.items() if k != "on"}
    stand_in = pd.Series(0, index=pd.DatetimeIndex([first, last]))
    return _quiet(lambda: stand_in.resample(**kwargs).sum().index)


def _origin_matters(rule: Any, times: Any) -> bool:
    """Whether bins start from the origin: fixed-length rules, but days only on naive
    times (on aware times a day follows the calendar, its length changing with DST)."""
    offset = pd.tseries.frequencies.to_offset(rule)
    if isinstance(offset, pd.offsets.Day):
        return getattr(times.dtype, "tz", None) is None
    return isinstance(offset, pd.offsets.Tick)


def _quiet(call: Callable[[], Any]) -> Any:
    """``call()`` without the warnings pandas gives about the user's arguments: the
    user saw them once, when ``resample`` was called on the meta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return call()


def partial(params: ResampleParams, how: str, chunk: Any, grid: pd.Index | None) -> Any:
    """``how`` per bin of one chunk, on the bins of the whole frame."""
    changes: dict[str, Any] = {}
    if grid is not None and len(grid) and _origin_matters(params.kwargs["rule"], grid):
        # an edge of the bins as the origin; the sides pandas takes by default for an
        # origin at the end stay as they were
        side = "right" if params.kwargs["origin"] in ("end", "end_day") else "left"
        changes = {"origin": grid[0], "offset": None}
        changes.update(closed=params.kwargs["closed"] or side, label=params.kwargs["label"] or side)
        if params.kwargs.get("on") is None and how in SORTED_HOWS:
            obj = chunk if params.selection is None else chunk[params.selection]
            step = pd.Timedelta(pd.tseries.frequencies.to_offset(params.kwargs["rule"]))
            fast = sorted_partial(obj, how, grid, step, changes["closed"], changes["label"])
            if fast is not None:
                return fast
    r = _quiet(lambda: params.resampler(chunk, **changes))
    if how == "mean":
        return r.sum(), r.count()
    if how in ORDERED:
        return (getattr(r, how)(), *_value_times(params, chunk, changes))
    return getattr(r, how)()


def _value_times(params: ResampleParams, chunk: Any, changes: dict[str, Any]) -> tuple[Any, Any]:
    """Per bin and column, the earliest and latest time of a value that is not NaN: which
    chunk's first (last) value is the bin's first (last) when times are not sorted."""
    times = pd.Series(pd.DatetimeIndex(params.times(chunk)), index=chunk.index)
    if isinstance(chunk, pd.Series):
        stamped = times.where(chunk.notna()).rename(chunk.name)
    else:
        stamped = chunk.copy()
        for i, column in enumerate(chunk.columns):
            if column != params.kwargs.get("on"):
                stamped.isetitem(i, times.where(chunk.iloc[:, i].notna()))
    r = _quiet(lambda: params.resampler(stamped, **changes))
    return r.min(), r.max()


def _pick(values: pd.Series, times: pd.Series, last: bool) -> pd.Series:
    """Per bin (the index), the value with the earliest (latest) time; ties to the
    earlier (later) chunk, as a stable sort by time would order them."""
    keep = times.notna().to_numpy()
    rows = pd.DataFrame(
        {"bin": values.index[keep], "time": times.array[keep], "value": values.array[keep]}
    ).sort_values(["bin", "time"], kind="stable")
    g = rows.groupby("bin", sort=True)["value"]
    out = g.last() if last else g.first()
    return out.rename(values.name)


def _merge_ordered(how: str, partials: tuple[Any, ...]) -> Any:
    values = pd.concat([p[0] for p in partials])
    firsts = pd.concat([p[1] for p in partials])
    lasts = pd.concat([p[2] for p in partials])
    if isinstance(values, pd.Series):
        return _pick(values, lasts if how == "last" else firsts, how == "last")
    columns = []
    for i, column in enumerate(values.columns):
        if how == "ohlc":
            # (column, side) under a DataFrame, the side alone under a Series
            side = column[-1] if isinstance(column, tuple) else column
            if side in ("open", "close"):
                times = firsts if side == "open" else lasts
                if isinstance(times, pd.DataFrame):
                    times = times[column[0] if len(column) == 2 else column[:-1]]
                columns.append(_pick(values.iloc[:, i], times, side == "close"))
            else:
                g = values.iloc[:, i].groupby(level=0, sort=True)
                columns.append(g.max() if side == "high" else g.min())
        else:
            times = (firsts if how == "first" else lasts).iloc[:, i]
            columns.append(_pick(values.iloc[:, i], times, how == "last"))
    return pd.concat(columns, axis=1, sort=True).set_axis(values.columns, axis=1)


def merge(params: ResampleParams, how: str, meta: Any, grid: Any, *partials: Any) -> Any:
    """The partials of every chunk merged per bin, on pandas' labels."""
    if grid is None:
        return meta
    if how == "mean":
        sums = pd.concat([p[0] for p in partials]).groupby(level=0, sort=True).sum()
        counts = pd.concat([p[1] for p in partials]).groupby(level=0, sort=True).sum()
        out = sums / counts
    elif how in ORDERED:
        out = _merge_ordered(how, partials)
    else:
        out = MERGE[how](pd.concat(partials).groupby(level=0, sort=True))
    out = out.reindex(grid)
    if how in ZERO_WHEN_EMPTY:
        out = out.fillna(0).astype(meta.dtypes if isinstance(meta, pd.DataFrame) else meta.dtype)
    if how == "mean" and isinstance(out, pd.Series):
        out.name = meta.name
    return out.rename_axis(meta.index.name)


class Part(NamedTuple):
    """One function of an aggregation, on a column (or the resampler's own selection)."""

    params: ResampleParams
    how: str
    meta: Any


def partials_of(parts: tuple[Part, ...], chunk: Any, grid: pd.Index | None) -> list[Any]:
    return [partial(p.params, p.how, chunk, grid) for p in parts]


def merge_parts(parts: tuple[Part, ...], meta: Any, grid: Any, *partials: Any) -> Any:
    """Every part merged; several side by side under ``meta``'s columns."""
    if grid is None:
        return meta
    merged = [
        merge(p.params, p.how, p.meta, grid, *(chunk[i] for chunk in partials))
        for i, p in enumerate(parts)
    ]
    if len(merged) == 1 and type(merged[0]) is type(meta):
        return merged[0]
    return side_by_side(meta.columns, *merged)


@dataclass(frozen=True, eq=False)
class ResampleMerge(Op):
    params: ResampleParams
    parts: tuple[Part, ...]
    meta: Any = field(repr=False)

    def label(self) -> str:
        return "resample." + ",".join(sorted({p.how for p in self.parts}))


@tile_rule(ResampleMerge)
def _tile_resample(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ResampleMerge)
    keys = inputs[0].flat_keys()
    bounds = [(f"{node.key}-bounds", i) for i in range(len(keys))]
    for bound, key in zip(bounds, keys, strict=True):
        ctx.new_task(bound, time_bounds, op.params, Ref(key))
    grid_key = (f"{node.key}-grid", 0)
    ctx.new_task(grid_key, bin_grid, op.params, *(Ref(b) for b in bounds))
    grid = Ref(grid_key)
    partials = [(f"{node.key}-partial", i) for i in range(len(keys))]
    for part, key in zip(partials, keys, strict=True):
        ctx.new_task(part, partials_of, op.parts, Ref(key), grid)
    out = key_grid(node.key, [1])
    ctx.new_task(out[0], merge_parts, op.parts, op.meta, grid, *(Ref(p) for p in partials))
    return Tiled(((float("nan"),),), out)


def resample_call(params: ResampleParams, how: str, args: Any, kwargs: Any, chunk: Any) -> Any:
    return getattr(_quiet(lambda: params.resampler(chunk)), how)(*args, **kwargs)


class Resampler:
    """What ``frame.resample(rule)`` returns: call an aggregation on it."""

    def __init__(self, frame: FrameBase, params: ResampleParams) -> None:
        self._frame = frame
        self._params = params
        # pandas checks the arguments; it cannot resample an empty frame ``on`` a column
        # unless the index holds times too: made-up rows stand in there
        on = params.kwargs.get("on")
        self._meta = params.resampler(frame.meta if on is None else sample_like(frame.meta))

    def __getitem__(self, key: Any) -> Resampler:
        self._meta[key]  # pandas checks the columns
        return Resampler(self._frame, ResampleParams(self._params.kwargs, key))

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_") and name in self._frame.meta.columns:
            return self[name]
        raise AttributeError(f"'Resampler' object has no attribute {name!r}")

    def _named(self, meta: Any) -> Any:
        """pandas names the result's index after ``on``, which an empty frame does not show."""
        on = self._params.kwargs.get("on")
        return meta if on is None else meta.rename_axis(on)

    def _merged(self, how: str) -> Any:
        meta = self._named(empty_like(getattr(self._meta, how)()))
        op = ResampleMerge(self._params, (Part(self._params, how, meta),), meta)
        return new_frame(op, [self._frame], float("nan"), meta)

    def _parts(self, func: Any) -> list[tuple[Any, str]] | None:
        """(column, function) pairs of a list or dict of mergeable functions, in the
        order of pandas' result columns; None for anything else."""

        def names(f: Any) -> list[Any]:
            return list(f) if isinstance(f, (list, tuple)) else [f]

        if isinstance(func, dict):
            pairs = [(column, f) for column, fs in func.items() for f in names(fs)]
        elif isinstance(func, (list, tuple)):
            sample = empty_like(self._meta.sum())
            if isinstance(sample, pd.Series):
                pairs = [(None, f) for f in func]
            else:
                pairs = [(column, f) for column in sample.columns for f in func]
        else:
            return None
        ok = all(isinstance(f, str) and f in MERGED and f != "ohlc" for _, f in pairs)
        return pairs if ok and pairs else None

    def _merged_many(self, func: Any, pairs: list[tuple[Any, str]]) -> Any:
        meta = self._named(empty_like(self._meta.aggregate(func)))
        parts = []
        for column, how in pairs:
            sub = self if column is None else self[column]
            part_meta = sub._named(empty_like(getattr(sub._meta, how)()))
            parts.append(Part(sub._params, how, part_meta))
        op = ResampleMerge(self._params, tuple(parts), meta)
        return new_frame(op, [self._frame], float("nan"), meta)

    def _whole(self, how: str, *args: Any, **kwargs: Any) -> Any:
        """``how`` on the frame as one chunk (for what does not merge per bin)."""
        meta = self._named(empty_like(getattr(self._meta, how)(*args, **kwargs)))
        return map_chunks(
            resample_call,
            [one_chunk(self._frame)],
            (self._params, how, args, kwargs, Slot(0)),
            meta,
            name=f"resample.{how}",
            keeps_rows=False,
        )

    def _call(self, how: str, *args: Any, **kwargs: Any) -> Any:
        if how in MERGED and not args and not kwargs:
            return self._merged(how)
        return self._whole(how, *args, **kwargs)

    def aggregate(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(func, str) and func in MERGED and not args and not kwargs:
            return self._merged(func)
        pairs = None if args or kwargs else self._parts(func)
        if pairs is not None:
            return self._merged_many(func, pairs)
        return self._whole("aggregate", func, *args, **kwargs)

    agg = aggregate

    def apply(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self._whole("apply", func, *args, **kwargs)

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return self._whole("transform", func, *args, **kwargs)

    def asfreq(self, fill_value: Any = None) -> Any:
        return self._whole("asfreq", fill_value=fill_value)


def _resample_method(how: str) -> Callable[..., Any]:
    def run(self: Resampler, *args: Any, **kwargs: Any) -> Any:
        return self._call(how, *args, **kwargs)

    run.__name__ = how
    run.__doc__ = f"``{how}`` of each time bin, as pandas' ``Resampler.{how}``."
    return run


for _how in (
    *MERGED,
    "median",
    "std",
    "var",
    "sem",
    "prod",
    "nunique",
    "quantile",
    "ffill",
    "bfill",
    "nearest",
    "interpolate",
):
    setattr(Resampler, _how, _resample_method(_how))


def resample(
    frame: FrameBase,
    rule: Any,
    axis: Any = None,
    closed: str | None = None,
    label: str | None = None,
    convention: Any = None,
    on: Any = None,
    level: Any = None,
    origin: Any = "start_day",
    offset: Any = None,
    group_keys: bool = False,
    **kwargs: Any,
) -> Resampler:
    """Rows grouped into bins of ``rule`` on the index (or the column ``on``)."""
    if axis is not None or convention is not None or kwargs:
        raise TypeError(f"resample: unexpected arguments {sorted(kwargs) or ['axis/convention']}")
    if level is not None:
        raise NotImplementedError("resample: level= is not supported; use on= or the index")
    params = {"rule": rule, "closed": closed, "label": label, "on": on, "origin": origin}
    params.update(offset=offset, group_keys=group_keys)
    return Resampler(frame, ResampleParams(params))


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.resample = resample  # type: ignore[union-attr]


_attach()

"""Per-chunk time-index methods: each row's new label, or whether it is kept, depends on
that row's label only, so every chunk is one pandas call.

``tz_localize``, ``tz_convert``, ``to_period`` and ``to_timestamp`` keep the rows but
change their labels: the result gets an index of its own (it must be aligned on labels
with its input, not chunk for chunk). ``at_time`` and ``between_time`` keep some rows.
``asfreq`` makes rows for every step of a range spanning all chunks; it reads the frame
as one chunk.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.neighbours import call
from jupyter_mars.dataframe.node import FrameNode, empty_like


def _relabel(frame: FrameBase, name: str, kwargs: dict[str, Any]) -> Any:
    """Same rows, new labels: ``chunk.name(**kwargs)`` per chunk, under a new index."""
    meta = empty_like(getattr(frame.meta, name)(**kwargs))  # pandas checks the arguments
    node = frame.node
    assert isinstance(node, FrameNode)
    op = MapChunks(call, (name, (), kwargs, Slot(0)), {}, name)
    return new_frame(op, [frame], node.shape[0], meta)


def _axis(frame: FrameBase, axis: Any) -> dict[str, Any]:
    """``axis`` as pandas takes it: Series' period methods have none."""
    return {"axis": axis} if isinstance(frame, DataFrame) else {}


def _filter(frame: FrameBase, name: str, kwargs: dict[str, Any]) -> Any:
    meta = empty_like(getattr(frame.meta, name)(**kwargs))
    return map_chunks(call, [frame], (name, (), kwargs, Slot(0)), meta, name=name, keeps_rows=False)


def tz_localize(
    frame: FrameBase,
    tz: Any,
    axis: Any = 0,
    level: Any = None,
    copy: Any = None,
    ambiguous: Any = "raise",
    nonexistent: Any = "raise",
) -> Any:
    """The index's naive times read as times in ``tz``."""
    if isinstance(ambiguous, str) and ambiguous == "infer":
        frame = one_chunk(frame)  # inferring reads the order of all the times
    kwargs = {"tz": tz, "axis": axis, "level": level}
    kwargs.update(ambiguous=ambiguous, nonexistent=nonexistent)
    return _relabel(frame, "tz_localize", kwargs)


def tz_convert(
    frame: FrameBase, tz: Any, axis: Any = 0, level: Any = None, copy: Any = None
) -> Any:
    """The index's aware times shown in ``tz``."""
    return _relabel(frame, "tz_convert", {"tz": tz, "axis": axis, "level": level})


def to_period(frame: FrameBase, freq: Any = None, axis: Any = 0, copy: Any = None) -> Any:
    """The index's times as periods of ``freq`` (the index's own frequency if None)."""
    return _relabel(frame, "to_period", {"freq": freq, **_axis(frame, axis)})


def to_timestamp(
    frame: FrameBase, freq: Any = None, how: str = "start", axis: Any = 0, copy: Any = None
) -> Any:
    """The index's periods as times, at their ``how`` end."""
    return _relabel(frame, "to_timestamp", {"freq": freq, "how": how, **_axis(frame, axis)})


def at_time(frame: FrameBase, time: Any, asof: bool = False, axis: Any = None) -> Any:
    """The rows at the time of day ``time``."""
    return _filter(frame, "at_time", {"time": time, "asof": asof, "axis": axis})


def between_time(
    frame: FrameBase, start_time: Any, end_time: Any, inclusive: str = "both", axis: Any = None
) -> Any:
    """The rows whose time of day lies between ``start_time`` and ``end_time``."""
    kwargs = {"start_time": start_time, "end_time": end_time, "inclusive": inclusive}
    return _filter(frame, "between_time", {**kwargs, "axis": axis})


def asfreq(
    frame: FrameBase,
    freq: Any,
    method: Any = None,
    how: Any = None,
    normalize: bool = False,
    fill_value: Any = None,
) -> Any:
    """The frame at every step of ``freq`` from its first to its last time."""
    kwargs = {"freq": freq, "method": method, "how": how}
    kwargs.update(normalize=normalize, fill_value=fill_value)
    meta = empty_like(frame.meta.asfreq(**kwargs))
    whole = one_chunk(frame)
    return map_chunks(
        call, [whole], ("asfreq", (), kwargs, Slot(0)), meta, name="asfreq", keeps_rows=False
    )


def _attach() -> None:
    methods: dict[str, Any] = {
        "tz_localize": tz_localize,
        "tz_convert": tz_convert,
        "to_period": to_period,
        "to_timestamp": to_timestamp,
        "at_time": at_time,
        "between_time": between_time,
        "asfreq": asfreq,
    }
    for cls in (DataFrame, Series):
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()

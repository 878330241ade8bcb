"""HTML that a finished execution's widget shows: a preview of the result, or the error.

Plain functions of the result (or exception) to an HTML string, with no widget in them,
so that they can run off the kernel's event loop: fetching a result may wait on a cluster.

>>> print(error_html(ValueError("bad <input>")).splitlines()[0])
<pre class="mars-error"><b>ValueError</b>: bad &lt;input&gt;</pre>
"""

from __future__ import annotations

import html
import sys
import traceback
from typing import TYPE_CHECKING, Any

import numpy as np

from jupyter_mars.engine.tracebacks import user_frames

if TYPE_CHECKING:
    from jupyter_mars.dataframe.core import DataFrame, Index, Series
    from jupyter_mars.tensor.core import Tensor

TRACEBACK_FRAMES = 5
"""Frames of an error's traceback shown: the innermost ones, where the error was raised."""

DATA_ELEMENTS = 100
"""A tensor result of at most this many elements is shown with its data."""

HEAD_ROWS = 5
"""Rows of a DataFrame or Series result shown."""

HEAD_COLUMNS = 20
"""Columns of a DataFrame result shown; pandas elides the others."""

TEXT_CHARACTERS = 2000
"""Characters of any other result's repr shown."""


def result_html(result: Any, session: Any = None) -> str:
    """A preview of ``result`` (held by ``session``, None: the default one): tensors by
    shape and dtype (and data when small), frames by their head, tuples one element at a
    time, None by nothing, anything else by its repr."""
    if result is None:
        return ""  # a cell ending in an assignment shows nothing, as in IPython
    if isinstance(result, tuple):
        parts = [
            f"<div><b>[{i}]</b> {result_html(item, session)}</div>" for i, item in enumerate(result)
        ]
        return "".join(parts)
    try:
        kind = _kind(result)
        if kind == "tensor":
            return _tensor_html(result, session)
        if kind == "frame":
            return _frame_html(result, session)
    except Exception as exc:  # noqa: BLE001 - a preview never hides that the work succeeded
        return f"<i>no preview: {html.escape(_one_line(exc))}</i>"
    text = repr(result)
    if len(text) > TEXT_CHARACTERS:
        text = text[:TEXT_CHARACTERS] + "…"
    return _pre(text)


def _kind(result: Any) -> str:
    """``"tensor"``, ``"frame"`` or ``""``. An API package is looked at only once loaded:
    a result of it means it was, and this module, loaded with the first notebook future,
    must not load pandas (the frames' package) for a notebook that uses only tensors."""
    if "jupyter_mars.tensor.core" in sys.modules:
        from jupyter_mars.tensor.core import Tensor

        if isinstance(result, Tensor):
            return "tensor"
    if "jupyter_mars.dataframe.core" in sys.modules:
        from jupyter_mars.dataframe.core import DataFrame, Index, Series

        if isinstance(result, DataFrame | Series | Index):
            return "frame"
    return ""


def _tensor_html(tensor: Tensor, session: Any) -> str:
    shape = tuple(int(n) if n == n else "?" for n in tensor.shape)  # NaN: unknown length
    head = f"Tensor shape={html.escape(str(shape))} dtype={html.escape(str(tensor.dtype))}"
    size = tensor.size
    if size != size or size > DATA_ELEMENTS:  # unknown, or too many to show
        return _pre(head)
    return _pre(f"{head}\n{np.asarray(tensor.fetch(session=session))!r}")


def _frame_html(frame: DataFrame | Series | Index, session: Any) -> str:
    """The summary and the first rows; only those rows are fetched (from the first
    chunks), not the whole result."""
    from jupyter_mars.dataframe.core import DataFrame, Series  # loaded: it made the frame

    kind = type(frame).__name__
    rows = int(frame.shape[0])  # known once executed
    if isinstance(frame, DataFrame):
        head = frame.head(HEAD_ROWS).execute(session=session).fetch(session=session)
        summary = f"{kind}: {rows} rows × {head.shape[1]} columns"
    elif isinstance(frame, Series):
        data = frame.head(HEAD_ROWS).execute(session=session).fetch(session=session)  # type: ignore[attr-defined]
        head = data.to_frame()
        summary = f"{kind} {data.name!r}: {rows} rows, dtype {data.dtype}"
    else:
        data = frame.fetch(session=session)
        head = data[:HEAD_ROWS].to_frame(index=False)
        summary = f"{kind}: {len(data)} entries, dtype {data.dtype}"
    table: str = head.to_html(max_cols=HEAD_COLUMNS)
    return f"<div>{html.escape(summary)}</div>{table}"


def error_html(error: BaseException) -> str:
    """The error's type and message, then its innermost frames in a collapsed block."""
    name = type(error).__name__
    message = html.escape(str(error))
    notes = "".join(f"\n{html.escape(str(n))}" for n in getattr(error, "__notes__", ()))
    # the innermost frames that are not the library's plumbing (``engine/tracebacks.py``)
    frames = traceback.StackSummary.from_list(user_frames(error.__traceback__)[-TRACEBACK_FRAMES:])
    lines = [
        "Traceback (most recent call last):\n",
        *frames.format(),
        *traceback.format_exception_only(type(error), error),
    ]
    return (
        f'<pre class="mars-error"><b>{name}</b>: {message}{notes}</pre>\n'
        f"<details><summary>traceback (last {TRACEBACK_FRAMES} frames at most)</summary>"
        f"{_pre(''.join(lines))}</details>"
    )


def _pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]

"""A worker's frames of the user's code, made real frames of an error raised here.

A traceback cannot cross processes, but one that reads the same can be made where it is
shown, as Jinja2 does for template lines: for each remote frame, a code object compiled
under the frame's file name, whose only statement (``raise``) sits on the frame's line
and which is named after the frame's function, is run once; the traceback entries so
made are linked in the worker's order. Raised with this traceback, the error reads in
IPython as a local one: the cell's ``execute()`` line, the library's frames hidden, then
the user's function at its line, with the source and context IPython takes from the
kernel's ``linecache`` (the cell's code lives there, not on the worker). ``traceback``,
pytest and the future widget's preview read it the same way.

Nothing but ``raise`` runs: file and function names are labels, never code.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

from jupyter_mars.engine.remote_traceback import Frame

MAX_LINE = 1_000_000
"""A line number past this is not made (its code would be this many empty lines)."""


class _Unwind(Exception):
    """Raised by a made frame to take its traceback entry; never seen outside."""


def _entry(filename: str, lineno: int, name: str) -> TracebackType | None:
    """A traceback entry whose frame is at ``filename:lineno`` in function ``name``."""
    code = compile("\n" * (lineno - 1) + "raise _Unwind", filename, "exec")
    code = code.replace(co_name=name, co_qualname=name)
    try:
        exec(code, {"_Unwind": _Unwind})  # noqa: S102 - a fixed 'raise', under a label
    except _Unwind as unwound:
        tb = unwound.__traceback__
        return tb.tb_next if tb is not None else None  # past this function's own frame
    return None


def user_traceback(frames: Sequence[Frame]) -> TracebackType | None:
    """A traceback of ``frames`` (outermost first), or None when none can be made."""
    entries = []
    for filename, lineno, name, _line in frames:
        if not 0 < lineno <= MAX_LINE:
            continue
        entry = _entry(filename, lineno, name)
        if entry is not None:
            entry.tb_next = None
            entries.append(entry)
    for outer, inner in zip(entries, entries[1:], strict=False):
        outer.tb_next = inner
    return entries[0] if entries else None

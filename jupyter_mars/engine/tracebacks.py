"""Tracebacks that show the user's code, not the library's plumbing.

The frames of the execution path (``execute``, the session, the runtime's task loop and
``execute_task``) set ``__tracebackhide__ = HIDE``: IPython and Jupyter then print
"[... skipping hidden N frame]" in their place, so an error in a chunk function reads as
the cell's line, then the function's own line. pytest honours the same name.

``JUPYTER_MARS_FULL_TRACEBACKS=1`` shows every frame again (read when a traceback is
printed, so it can be set at any time); the project's own test suite sets it.
"""

from __future__ import annotations

import os
import traceback
from types import TracebackType
from typing import Any

FULL_TRACEBACKS_ENV = "JUPYTER_MARS_FULL_TRACEBACKS"


class _Hide:
    """True unless full tracebacks are asked for; pytest calls it, IPython tests it."""

    def __bool__(self) -> bool:
        return os.environ.get(FULL_TRACEBACKS_ENV, "") != "1"

    def __call__(self, excinfo: Any = None) -> bool:
        return bool(self)

    def __repr__(self) -> str:
        return f"<hide library frames: {bool(self)}>"


HIDE = _Hide()


def user_frames(tb: TracebackType | None) -> traceback.StackSummary:
    """The frames of ``tb`` that are not hidden; the innermost one is always kept."""
    kept = []
    frames = list(traceback.walk_tb(tb))
    for i, (frame, lineno) in enumerate(frames):
        if i < len(frames) - 1 and frame.f_locals.get("__tracebackhide__"):
            continue
        kept.append((frame, lineno))
    return traceback.StackSummary.extract(kept)

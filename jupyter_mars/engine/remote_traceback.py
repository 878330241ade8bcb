"""The user's frames of an error raised in another process, carried as plain data.

A traceback object cannot cross processes, so a worker keeps, from a failed task's
traceback, the frames of the user's code: from the first frame that is neither this
package nor the standard library nor an installed package (the function given to
``elemwise``, ``map_chunks``, ``apply``..., defined in a notebook cell or a user's file) to
where the error was raised, libraries it called included, as a local traceback shows
them. Each frame is ``[file, line number, function, source line]``; the source line is
empty where the worker cannot read the file (a notebook cell's code lives only in the
kernel's ``linecache``), and the client, which can, fills it in.

The frames ride on the error as the attribute ``REMOTE_TRACEBACK``, beside it in an RPC
error reply (``cluster/wire/rpc.py``), and in the supervisor's JSON model of it; the
client rebuilds them as frames of the error it raises (``remote/user_traceback.py``).
"""

from __future__ import annotations

import os
import sysconfig
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

REMOTE_TRACEBACK = "remote_traceback"
"""The attribute of a task's error that holds the user's frames, set by the worker."""

Frame = list[Any]
"""``[file, line number, function, source line]``: one frame, JSON as it is."""


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {str(Path(__file__).resolve().parents[1])}  # this package
    dirs |= {paths[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(os.path.join(os.path.realpath(d), "") for d in dirs)


LIBRARY_DIRS = _library_dirs()
"""Folders whose files are not the user's code."""


def is_user_file(filename: str, library_dirs: Sequence[str] = LIBRARY_DIRS) -> bool:
    """True for a file of the user's code: a notebook cell, a script, the user's module."""
    if filename.startswith("<frozen"):  # the interpreter's own bootstrap modules
        return False
    if not os.path.isabs(filename):  # <ipython-input-...>, <string>, <stdin>
        return True
    real = os.path.realpath(filename)
    return not any(real.startswith(d) for d in library_dirs)


def user_frames(
    tb: TracebackType | None, library_dirs: Sequence[str] = LIBRARY_DIRS
) -> list[Frame]:
    """The frames of ``tb`` from the first one in the user's code on; none if it has none."""
    summary = traceback.extract_tb(tb)
    users = [i for i, frame in enumerate(summary) if is_user_file(frame.filename, library_dirs)]
    if not users:
        return []
    return [
        [frame.filename, frame.lineno or 0, frame.name, frame.line or ""]
        for frame in summary[users[0] :]
    ]


def keep_user_frames(error: BaseException) -> None:
    """Set the user's frames of ``error``'s traceback on it, to travel with it."""
    set_frames(error, user_frames(error.__traceback__))


def set_frames(error: BaseException, frames: list[Frame]) -> None:
    """Set ``frames`` (when there are any) on ``error`` as the user's frames."""
    if frames:
        try:
            setattr(error, REMOTE_TRACEBACK, frames)
        except (AttributeError, TypeError):  # an exception class with __slots__
            pass


def frames_of(error: BaseException) -> list[Frame]:
    """The user's frames a worker set on ``error``, checked to be plain frames."""
    return valid_frames(getattr(error, REMOTE_TRACEBACK, None))


def valid_frames(value: Any) -> list[Frame]:
    """``value`` when it is a list of frames as this module makes them, else none."""
    if not isinstance(value, list):
        return []
    frames = []
    for frame in value:
        if not (isinstance(frame, list | tuple) and len(frame) == 4):
            return []
        filename, lineno, name, line = frame
        if not (isinstance(filename, str) and type(lineno) is int):
            return []
        if not (isinstance(name, str) and isinstance(line, str)):
            return []
        frames.append([filename, lineno, name, line])
    return frames

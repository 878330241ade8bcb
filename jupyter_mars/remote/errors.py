"""Errors raised on the cluster, rebuilt here as the same exception types.

A worker's error reaches the client as the type a local NumPy or pandas call would raise
(``pandas.errors.ParserError`` stays a ``ValueError``), with the remote message and notes.
The type is looked up in the libraries computations raise from, which are imported when
needed, and in any module the client has already loaded (a user's own exception class);
the client never imports another module just because the cluster names it, since that
would run its code. Only a type found neither way is a ``RemoteError``.

The frames of the user's code that raised it on a worker (``engine/remote_traceback.py``)
become the error's traceback here (``remote/user_traceback.py``), so the client raises it
as if the user's function had failed in this process.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

from jupyter_mars.engine.remote_traceback import valid_frames
from jupyter_mars.remote.user_traceback import user_traceback

_ERROR_MODULES = (
    "builtins",
    "numpy",
    "pandas",
    "pyarrow",
    "scipy",
    "cupy",
    "jupyter_mars",
    "concurrent",
)


class RemoteError(RuntimeError):
    """An error raised on the cluster whose type is not importable here."""


def _error_class(module: str, name: str) -> type[Exception] | None:
    """The exception class ``module.name`` when the client may load it, else None."""
    owner: ModuleType | None
    if module.split(".")[0] in _ERROR_MODULES:
        try:
            owner = importlib.import_module(module)
        except Exception:  # noqa: BLE001 - not installed here: no such type
            return None
    else:
        owner = sys.modules.get(module)
    cls = getattr(owner, name, None) if owner is not None else None
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls
    return None


def rebuild_error(model: dict[str, Any]) -> BaseException:
    """The cluster's error as the same exception type, with its message and notes."""
    module, name, message = model.get("module", ""), model.get("type", ""), model["message"]
    error: BaseException = RemoteError(f"{name}: {message}")
    cls = _error_class(module, name)
    if cls is not None:
        try:
            error = cls(message)
        except Exception:  # noqa: BLE001 - a constructor that wants more: RemoteError
            pass
    for note in model.get("notes", []):
        if hasattr(error, "add_note"):
            error.add_note(note)
    frames = valid_frames(model.get("traceback"))
    return error.with_traceback(user_traceback(frames)) if frames else error

"""Errors raised on the cluster, rebuilt here as the same exception types."""

from __future__ import annotations

import importlib
from typing import Any

_ERROR_MODULES = ("builtins", "numpy", "scipy", "jupyter_mars", "concurrent")


class RemoteError(RuntimeError):
    """An error raised on the cluster whose type is not importable here."""


def rebuild_error(model: dict[str, Any]) -> BaseException:
    """The cluster's error as the same exception type, with its message and notes."""
    module, name, message = model.get("module", ""), model.get("type", ""), model["message"]
    error: BaseException = RemoteError(f"{name}: {message}")
    if module.split(".")[0] in _ERROR_MODULES:
        try:
            cls = getattr(importlib.import_module(module), name)
            if isinstance(cls, type) and issubclass(cls, Exception):
                error = cls(message)
        except Exception:  # noqa: BLE001 - fall back to RemoteError
            pass
    for note in model.get("notes", []):
        if hasattr(error, "add_note"):
            error.add_note(note)
    return error

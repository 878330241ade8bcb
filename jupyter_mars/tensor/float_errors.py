"""NumPy's floating-point error handling, carried from the line that builds an operation
to the tasks that compute its chunks.

``mt.errstate``, ``mt.seterr`` and ``mt.geterr`` are NumPy's own: they set the error
handling of the calling thread (a context variable). Chunks are computed later, on other
threads or other machines, whose own setting is NumPy's default. So an element-wise
operation records the setting in force when it is *built* and its kernel runs under that
setting: ``with mt.errstate(divide="raise"): y = x / 0`` raises ``FloatingPointError``
when ``y`` is executed (the data are only seen then), even if ``execute`` is called after
the ``with`` block; and an operation built outside the block keeps NumPy's default even
when executed inside one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

NUMPY_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
"""NumPy's setting in a fresh thread: what a chunk task runs under unless told otherwise."""


def build_errstate() -> dict[str, Any] | None:
    """The calling thread's setting, or None when it is NumPy's default."""
    state: dict[str, Any] = dict(np.geterr())
    if state == NUMPY_DEFAULT:
        return None
    if {"call", "log"} & set(state.values()):
        state["call"] = np.geterrcall()
    return state


def call_under_errstate(
    state: dict[str, Any], func: Callable[..., Any], *args: Any, **kwargs: Any
) -> Any:
    """``func(*args, **kwargs)`` with ``state`` as NumPy's error handling."""
    with np.errstate(**state):
        return func(*args, **kwargs)


def with_build_errstate(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, bound to run under the setting in force now (``func`` itself if default)."""
    state = build_errstate()
    if state is None:
        return func
    return functools.partial(call_under_errstate, state, func)


errstate = np.errstate
seterr = np.seterr
geterr = np.geterr

__all__ = ["errstate", "geterr", "seterr"]

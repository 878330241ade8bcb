"""``mars.options``: process-wide settings, with ``option_context`` to change them for a block.

>>> from jupyter_mars.config import options, option_context
>>> with option_context({"combine_size": 8}):
...     options.combine_size
8
>>> options.combine_size
4
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass
class Options:
    chunk_store_limit: int = 128 * 1024**2
    """Bytes per chunk when ``chunk_size`` is not given."""
    combine_size: int = 4
    """Fan-in of tree reductions: how many partial results one combine step reads."""
    eager_mode: bool = False
    """Execute every tensor as soon as it is created."""
    show_progress: bool = False
    """Print a progress bar on the terminal for blocking executions."""
    task_retries: int = 3
    """How many times a task failing for a machine fault (MemoryError, OSError) is retried."""
    n_cpu: int | None = None
    """Threads of the embedded runtime; None means the cores this process may use."""
    verbose: bool = False
    """Print where to watch a cluster (its id, endpoint and logview, the dashboard) when
    one is created or re-attached, and the logview of each ``session.run``, as PyODPS's
    ``options.verbose`` does."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _FIELD_NAMES:
            raise AttributeError(
                f"unknown option {name!r}; valid options are {', '.join(sorted(_FIELD_NAMES))}"
            )
        _validate(name, value)
        object.__setattr__(self, name, value)


_FIELD_NAMES = frozenset(f.name for f in fields(Options))


def _validate(name: str, value: Any) -> None:
    if name in {"chunk_store_limit", "combine_size", "task_retries"}:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"option {name!r} must be an int, got {type(value).__name__}")
        minimum = 0 if name == "task_retries" else 2 if name == "combine_size" else 1
        if value < minimum:
            raise ValueError(f"option {name!r} must be >= {minimum}, got {value}")
    elif name in {"eager_mode", "show_progress", "verbose"}:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} must be True or False, got {value!r}")
    elif name == "n_cpu" and value is not None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"option 'n_cpu' must be a positive int or None, got {value!r}")


options = Options()
_lock = threading.Lock()


@contextlib.contextmanager
def option_context(values: Mapping[str, Any] | None = None, **kwargs: Any) -> Iterator[Options]:
    """Set options for the duration of a ``with`` block, then restore them."""
    changes = {**(values or {}), **kwargs}
    with _lock:
        old = {name: getattr(options, name) for name in changes if name in _FIELD_NAMES}
        for name, value in changes.items():
            setattr(options, name, value)
    try:
        yield options
    finally:
        with _lock:
            for name, value in old.items():
                setattr(options, name, value)

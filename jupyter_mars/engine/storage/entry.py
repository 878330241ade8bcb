"""The store's record of one chunk: where its value lives, and what may move it.

Four states, and who moves a chunk between them (see ``store.py``)::

    MEMORY --(over budget, unpinned)--> SPILLING --(written)--> SPILLED
       ^ |  <--(write failed, or pinned meanwhile)--'               ^  |
       | '----------(over budget, its file kept from a read)--------'  |
       '---------------(read back)----- LOADING <------(get)-----------'

A chunk with a ``recompute`` recipe (``engine/recipes.py``) goes from MEMORY to SPILLED
with no file at all, and LOADING runs the recipe instead of reading one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.graph import Key


class State(enum.Enum):
    MEMORY = "memory"
    """The value is held and may be spilled (unless pinned)."""
    SPILLING = "spilling"
    """The value is still held while some thread writes it to a file."""
    SPILLED = "spilled"
    """Only the spill file holds it."""
    LOADING = "loading"
    """Only the spill file holds it, and some thread is reading it back."""


@dataclass(slots=True, eq=False)
class Entry:
    """One chunk; compared by identity, so a thread can tell whether it was replaced."""

    key: Key
    """The chunk key."""
    value: Any
    """The chunk, while held in memory (None once spilled)."""
    nbytes: int
    """Its size as ``sizeof`` measured it on ``put``."""
    state: State = State.MEMORY
    """Where the value lives now."""
    pins: int = 0
    """Running tasks that need it in memory; never spilled while above zero."""
    path: str | None = None
    """The spill file: while SPILLED or LOADING, and while MEMORY once read back (a clean
    copy, so that spilling it again writes nothing)."""
    dir_index: int = -1
    """Which spill directory holds ``path``."""
    unspillable: bool = False
    """It failed to pickle once, so spilling it again would fail again."""
    recompute: Callable[[], Any] | None = None
    """Computes the value again: the store drops it rather than write it out."""

    @property
    def dropped(self) -> bool:
        """Whether the value is neither in memory nor on disk: its recipe brings it back."""
        return not self.held and self.path is None

    @property
    def held(self) -> bool:
        """Whether the value is in memory (MEMORY or SPILLING)."""
        return self.state is State.MEMORY or self.state is State.SPILLING

"""Decisions returned by the worker core, for the IO shell to carry out in order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.worker.events import Key


@dataclass(frozen=True, slots=True)
class Instruction:
    stimulus_id: str


@dataclass(frozen=True, slots=True)
class Fetch(Instruction):
    """Ask ``peer`` for ``keys``; answer with ``InputsFetched`` or ``FetchFailed``."""

    peer: str
    keys: tuple[Key, ...]


@dataclass(frozen=True, slots=True)
class Admit(Instruction):
    """``key``'s ``attempt`` is admitted under the soft memory limit: hold its local
    inputs from now on (pinned in memory, or copied), as its reservation assumes."""

    key: Key
    attempt: int


@dataclass(frozen=True, slots=True)
class Run(Instruction):
    """Compute ``runs`` (the task of ``key``, or its follower) in the slot the core gave it.

    The local inputs are read by the shell; ``inputs`` are the others: those fetched from
    peers, or the task's result for its follower. Answer with ``TaskFinished`` or
    ``TaskErred`` under ``key`` and ``attempt``.
    """

    key: Key
    attempt: int
    runs: Key
    inputs: Mapping[Key, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Store(Instruction):
    """Keep ``value`` in the chunk store under ``key``."""

    key: Key
    value: Any


@dataclass(frozen=True, slots=True)
class Forget(Instruction):
    """Drop ``key`` from the chunk store: a cancelled task's result is nobody's."""

    key: Key


@dataclass(frozen=True, slots=True)
class Interrupt(Instruction):
    """Stop the computation of ``runs`` (for ``key``'s cancelled ``attempt``); whatever it
    still reports is stale."""

    key: Key
    attempt: int
    runs: Key


@dataclass(frozen=True, slots=True)
class Spill(Instruction):
    """Write about ``nbytes`` of the chunks held in memory to disk, least recently used
    first, and give the memory back to the system; answer with ``SpillDone``."""

    nbytes: int


@dataclass(frozen=True, slots=True)
class Shed(Instruction):
    """Stop the computation of ``runs`` (for ``key``'s ``attempt``): it grew the process
    past the hard memory limit. It is to fail with a ``MemoryError`` saying ``message``."""

    key: Key
    attempt: int
    runs: Key
    message: str


@dataclass(frozen=True, slots=True)
class Collect(Instruction):
    """Collect garbage and give freed memory back to the system: what a stopped task held
    may sit in reference cycles."""


@dataclass(frozen=True, slots=True)
class Log(Instruction):
    """Say ``message`` in the worker's log at ``level`` (``logging``'s levels)."""

    level: int
    message: str


@dataclass(frozen=True, slots=True)
class Done:
    """The task ran and its result is kept (unless a reset came meanwhile)."""

    figures: Mapping[str, Any]
    then: Mapping[str, Any] | None = None
    """The follower's figures; None when it failed (the supervisor runs it again, and
    reports its error) or there was none."""


@dataclass(frozen=True, slots=True)
class Failed:
    """The task raised ``error``."""

    error: BaseException


@dataclass(frozen=True, slots=True)
class InputsLost:
    """Inputs could not be had: retry once the supervisor has them back."""

    keys: tuple[Key, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The attempt was cancelled, or replaced by a later one."""


Outcome = Done | Failed | InputsLost | Cancelled


@dataclass(frozen=True, slots=True)
class Reply(Instruction):
    """Answer ``key``'s ``execute`` call number ``attempt``; the attempt is over here."""

    key: Key
    attempt: int
    outcome: Outcome

"""Helpers for the worker core tests: event builders and a core checked after each call."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping

from jupyter_mars.engine.worker.events import (
    CancelRequested,
    FetchFailed,
    InputsFetched,
    MemorySampled,
    PeerLost,
    SpillDone,
    TaskAssigned,
    TaskErred,
    TaskFinished,
    WorkerEvent,
)
from jupyter_mars.engine.worker.instructions import (
    Admit,
    Cancelled,
    Collect,
    Done,
    Failed,
    Fetch,
    Forget,
    InputsLost,
    Instruction,
    Interrupt,
    Log,
    Reply,
    Run,
    Shed,
    Spill,
    Store,
)
from jupyter_mars.engine.worker.limits import MemoryLimits
from jupyter_mars.engine.worker.state import WorkerState

_sid = itertools.count()
_attempts = itertools.count(1)


class Checked:
    """A WorkerState that validates its invariants after every ``handle`` call."""

    def __init__(self, n_slots: int, limits: MemoryLimits | None = None) -> None:
        self.state = WorkerState(n_slots, limits)
        self.state.validate_state()

    def __call__(self, *events: WorkerEvent) -> list[Instruction]:
        out = self.state.handle(*events)
        self.state.validate_state()
        return out

    def __getattr__(self, name: str) -> object:
        return getattr(self.state, name)


created: list[Checked] = []


def make(n_slots: int = 1, limits: MemoryLimits | None = None) -> Checked:
    core = Checked(n_slots, limits)
    created.append(core)
    return core


def assign(
    key: Hashable,
    deps: Iterable[Hashable] = (),
    local: Iterable[Hashable] = (),
    locations: Mapping[Hashable, str | None] | None = None,
    follower: Hashable | None = None,
    attempt: int | None = None,
    nbytes: int = 0,
    now: float = 0.0,
) -> TaskAssigned:
    return TaskAssigned(
        f"execute-{next(_sid)}",
        key,
        next(_attempts) if attempt is None else attempt,
        tuple(deps),
        frozenset(local),
        dict(locations or {}),
        follower,
        nbytes,
        now,
    )


def sampled(rss: int, now: float, reclaimable: int = 0) -> MemorySampled:
    return MemorySampled(f"memory-{next(_sid)}", rss, reclaimable, now)


def spill_done(nbytes: int = 0) -> SpillDone:
    return SpillDone(f"spilled-{next(_sid)}", nbytes)


def peer_lost(peer: str, reason: str = "connection refused") -> PeerLost:
    return PeerLost(f"peer-lost-{next(_sid)}", peer, reason)


def fetched(peer: str, data: Mapping[Hashable, object]) -> InputsFetched:
    return InputsFetched(f"fetched-{next(_sid)}", peer, dict(data))


def fetch_failed(peer: str, keys: Iterable[Hashable], reason: str = "gone") -> FetchFailed:
    return FetchFailed(f"fetch-failed-{next(_sid)}", peer, tuple(keys), reason)


def finished(key: Hashable, attempt: int, value: object = 1, nbytes: int = 8) -> TaskFinished:
    return TaskFinished(f"finished-{next(_sid)}", key, attempt, value, {"nbytes": nbytes})


def erred(key: Hashable, attempt: int, error: BaseException | None = None) -> TaskErred:
    return TaskErred(f"erred-{next(_sid)}", key, attempt, error or RuntimeError(f"boom {key}"))


def cancel(*keys: Hashable, attempt: int | None = None) -> CancelRequested:
    return CancelRequested(f"cancel-{next(_sid)}", keys, attempt)


def kinds(out: list[Instruction]) -> list[tuple[object, ...]]:
    """Instructions without stimulus ids or values, for compact assertions; ``Admit`` is
    left out (``admitted`` lists those)."""
    result: list[tuple[object, ...]] = []
    for ins in out:
        if isinstance(ins, Admit):
            continue
        if isinstance(ins, Fetch):
            result.append(("fetch", ins.peer, ins.keys))
        elif isinstance(ins, Run):
            result.append(("run", ins.runs))
        elif isinstance(ins, Store):
            result.append(("store", ins.key))
        elif isinstance(ins, Forget):
            result.append(("forget", ins.key))
        elif isinstance(ins, Interrupt):
            result.append(("interrupt", ins.runs))
        elif isinstance(ins, Reply):
            result.append(("reply", ins.key, _outcome_name(ins.outcome)))
        elif isinstance(ins, Spill):
            result.append(("spill", ins.nbytes))
        elif isinstance(ins, Shed):
            result.append(("shed", ins.runs))
        elif isinstance(ins, Collect):
            result.append(("collect",))
        elif isinstance(ins, Log):
            result.append(("log", ins.level))
        else:  # pragma: no cover
            raise AssertionError(ins)
    return result


def admitted(out: list[Instruction]) -> list[Hashable]:
    """The keys ``out`` admits, in order."""
    return [ins.key for ins in out if isinstance(ins, Admit)]


def _outcome_name(outcome: object) -> str:
    names = {Done: "done", Failed: "failed", InputsLost: "lost", Cancelled: "cancelled"}
    return names[type(outcome)]

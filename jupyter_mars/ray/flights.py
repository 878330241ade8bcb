"""The Ray tasks the runtime has in flight, and the interrupted ones that may still run.

A task in flight is known by two refs: its chunk's (``value``, kept when it finishes) and
its metadata's (``meta``, what the driver waits on). An interrupted task is cancelled at
once (``force=False``: a queued task never starts, and Python code gets a
``KeyboardInterrupt``), and kept in ``stopping`` until it ends; one still running
``FORCE_CANCEL_SECONDS`` later (Ray 2.60 does not interrupt a task blocked in
``time.sleep`` or in C code) has its worker process killed (``force=True``). Ray starts
another worker, and the chunks in the object store, owned by the driver, stay.

``Flights`` is not thread-safe: the runtime calls it under its lock. ``wait`` and
``outcome`` only ask Ray, outside the lock.
"""

from __future__ import annotations

import time
from typing import Any

import ray

from jupyter_mars.engine.graph import Key
from jupyter_mars.ray.failures import cancel_task

FORCE_CANCEL_SECONDS = 1.0
"""How long an interrupted task may take to stop before its worker process is killed."""

WAIT_SECONDS = 0.02
"""Longest the driver waits on the tasks in flight before it looks again for tasks
submitted meanwhile (``ray.wait`` cannot be woken)."""


class Flight:
    """A Ray task the scheduler core is running: its key and the refs of its results."""

    __slots__ = ("key", "value", "meta")

    def __init__(self, key: Key, value: ray.ObjectRef[Any], meta: ray.ObjectRef[Any]) -> None:
        self.key = key
        self.value = value
        """The ref of the chunk it computes."""
        self.meta = meta
        """The ref of its metadata: shape, bytes, seconds per operator."""


class Flights:
    def __init__(self) -> None:
        self.running: dict[Key, Flight] = {}
        self.by_meta: dict[ray.ObjectRef[Any], Flight] = {}
        self.stopping: dict[ray.ObjectRef[Any], tuple[ray.ObjectRef[Any], float]] = {}
        """Interrupted tasks that may still run: metadata ref -> value ref, and when to
        kill the worker running it."""

    def busy(self) -> bool:
        """Whether there is anything to wait for."""
        return bool(self.by_meta or self.stopping)

    def start(self, key: Key, value: ray.ObjectRef[Any], meta: ray.ObjectRef[Any]) -> None:
        flight = Flight(key, value, meta)
        self.running[key] = flight
        self.by_meta[meta] = flight

    def interrupt(self, key: Key) -> bool:
        """Stop the task of ``key``; whether one was in flight."""
        flight = self.running.pop(key, None)
        if flight is None:
            return False
        del self.by_meta[flight.meta]
        if cancel_task(flight.value, force=False):
            self.stopping[flight.meta] = (flight.value, time.monotonic() + FORCE_CANCEL_SECONDS)
        return True

    def waiting(self) -> list[ray.ObjectRef[Any]]:
        """The metadata refs to wait on: the tasks in flight and those stopping."""
        return [*self.by_meta, *self.stopping]

    def land(self, meta: ray.ObjectRef[Any]) -> Flight | None:
        """The task that returned ``meta``, no longer in flight; None if it was
        interrupted meanwhile (nobody wants its result)."""
        flight = self.by_meta.pop(meta, None)
        if flight is not None:
            del self.running[flight.key]
        return flight

    def settle_stopping(self, ready: list[ray.ObjectRef[Any]]) -> None:
        """Forget the interrupted tasks that ended; kill the workers of those that still
        run past their time."""
        for meta in ready:
            self.stopping.pop(meta, None)
        now = time.monotonic()
        for meta, (value, deadline) in list(self.stopping.items()):
            if now >= deadline:
                del self.stopping[meta]
                cancel_task(value, force=True)

    def kill_stopping(self) -> None:
        """Kill the workers of every interrupted task at once (the runtime closes)."""
        for value, _ in self.stopping.values():
            cancel_task(value, force=True)
        self.stopping.clear()


def wait(waiting: list[ray.ObjectRef[Any]]) -> list[ray.ObjectRef[Any]]:
    """Those of ``waiting`` that are done, waiting up to ``WAIT_SECONDS`` for one."""
    ready, _ = ray.wait(waiting, num_returns=1, timeout=WAIT_SECONDS)
    if ready and len(waiting) > 1:  # every other one that is done too
        ready, _ = ray.wait(waiting, num_returns=len(waiting), timeout=0)
    return list(ready)


def outcome(meta: ray.ObjectRef[Any]) -> dict[str, Any] | BaseException:
    """The metadata a finished task returned, or why it failed."""
    try:
        result: dict[str, Any] = ray.get(meta)
    except BaseException as exc:  # noqa: BLE001 - the task's failure, reported to its job
        return exc
    return result

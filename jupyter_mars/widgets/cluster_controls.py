"""The controls of a cluster this process owns, under its ``ClusterView``: Scale (a worker
count and a button: ``owner.scale(n)``) and Adapt (minimum, maximum and a toggle:
``owner.adapt(minimum=, maximum=)``, ``owner.stop_adapting()``).

Each call blocks (workers start and join; ending an adaptive loop waits for a resize in
progress), so on a running asyncio loop (a kernel's) it runs in the loop's thread pool
and its outcome is shown back on the loop, where ipykernel sends widget messages from;
without a loop it runs on the calling thread. Whatever a call raises is shown in the
view's message (``say``), never raised into the kernel.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

BOX = {"width": "11em"}
LABEL = {"description_width": "initial"}
"""A number field as wide as its label needs, with room for the number after it."""

Say = Callable[[str, bool], None]
"""Shows a message in the view: the text, and whether it is an error."""


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The asyncio loop running on this thread (a kernel's, while a cell runs), if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _attempt(call: Callable[[], object]) -> BaseException | None:
    try:
        call()
    except Exception as exc:  # any failure is the user's to read, not the kernel's
        return exc
    return None


def run_blocking(
    call: Callable[[], object], finish: Callable[[BaseException | None], None]
) -> asyncio.Task[None] | None:
    """Run ``call``, then ``finish(what it raised or None)``: on a running loop, ``call``
    in its thread pool and ``finish`` back on the loop (the task is returned); without
    one, both at once on this thread."""
    loop = running_loop()
    if loop is None:
        finish(_attempt(call))
        return None

    async def on_loop() -> None:
        finish(await loop.run_in_executor(None, _attempt, call))

    return loop.create_task(on_loop())


def _workers(n: int) -> str:
    return f"{n} worker{'' if n == 1 else 's'}"


def _failure(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


class ScaleControl(widgets.HBox):  # type: ignore[misc]
    """A worker count and a Scale button that runs ``owner.scale(n)``."""

    def __init__(self, owner: Any, say: Say, changed: Callable[[], None]) -> None:
        self.owner = owner
        self._say, self._changed = say, changed
        self.input = widgets.IntText(description="Workers", layout=BOX, style=LABEL)
        self.button = widgets.Button(
            description="Scale", icon="arrows-alt-v", tooltip="Run this many workers"
        )
        self.button.on_click(self._clicked)
        self.task: asyncio.Task[None] | None = None
        """The scale running on the loop, if one is."""
        self._counted = False
        super().__init__([self.input, self.button])

    def show(self, n_workers: int) -> None:
        """The first reading sets the count to the workers there are."""
        if not self._counted:
            self.input.value = n_workers
            self._counted = True

    def gone(self) -> None:
        self.button.disabled = True

    def _clicked(self, _button: Any) -> None:
        n = self.input.value
        self.button.disabled = True
        self._say(f"Scaling to {_workers(n)}…", False)
        self.task = run_blocking(
            functools.partial(self.owner.scale, n), functools.partial(self._done, n)
        )

    def _done(self, n: int, error: BaseException | None) -> None:
        self.button.disabled = False
        if error is None:
            self._say(f"Scaled to {_workers(n)}.", False)
        else:
            self._say(f"Scaling to {n} failed: {_failure(error)}", True)
        self._changed()


class AdaptControl(widgets.HBox):  # type: ignore[misc]
    """Minimum, maximum and an Adapt toggle over ``owner.adapt`` / ``owner.stop_adapting``.

    The toggle shows whether the owner adapts, read again at every reading: adapting
    also starts and ends from code (``cluster.adapt(...)``, ``cluster.scale(n)``, which
    ends it). Bounds edited while it adapts are applied at once."""

    def __init__(self, owner: Any, say: Say, changed: Callable[[], None]) -> None:
        self.owner = owner
        self._say, self._changed = say, changed
        self.minimum = widgets.IntText(value=1, description="Min", layout=BOX, style=LABEL)
        self.maximum = widgets.IntText(value=1, description="Max", layout=BOX, style=LABEL)
        self.toggle = widgets.ToggleButton(
            description="Adapt", icon="sync", tooltip="Grow while work queues, shrink when idle"
        )
        self.status = widgets.Label()
        """The bounds it adapts between, and the adaptive loop's last error."""
        self.task: asyncio.Task[None] | None = None
        """The adapt or stop running on the loop, if one is."""
        self._syncing = False
        self._counted = False
        self.toggle.observe(self._toggled, "value")
        self.minimum.observe(self._bounds_edited, "value")
        self.maximum.observe(self._bounds_edited, "value")
        super().__init__([self.minimum, self.maximum, self.toggle, self.status])

    def adaptive_loop(self) -> Any | None:
        """The owner's adaptive loop while it runs (``owner.adaptive``), else None."""
        adaptive = getattr(self.owner, "adaptive", None)
        return adaptive if adaptive is not None and adaptive.running else None

    def show(self, n_workers: int | None = None) -> None:
        """Show what the owner does now (unless a call of ours is still under way); the
        first count of workers is the maximum offered."""
        if not self._counted and n_workers is not None:
            self.maximum.value = max(n_workers, 1)
            self._counted = True
        if self.task is not None and not self.task.done():
            return
        adaptive = self.adaptive_loop()
        self._syncing = True
        try:
            if adaptive is not None and not self.toggle.value:  # begun from code
                self.minimum.value = adaptive.bounds.minimum
                self.maximum.value = adaptive.bounds.maximum
            self.toggle.value = adaptive is not None
        finally:
            self._syncing = False
        if adaptive is None:
            self.status.value = ""
            return
        bounds = adaptive.bounds
        status = f"adapting between {bounds.minimum} and {_workers(bounds.maximum)}"
        error = getattr(adaptive, "last_error", None)
        self.status.value = status + (f"; last error: {error}" if error else "")

    def gone(self) -> None:
        self.toggle.disabled = True

    def _toggled(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._apply(bool(change["new"]))

    def _bounds_edited(self, _change: dict[str, Any]) -> None:
        if not self._syncing and self.toggle.value:
            self._apply(True)

    def _apply(self, on: bool) -> None:
        self.toggle.disabled = True
        if on:
            low, high = self.minimum.value, self.maximum.value
            call = functools.partial(self.owner.adapt, minimum=low, maximum=high)
            self._say(f"Adapting between {low} and {_workers(high)}…", False)
        else:
            call = self.owner.stop_adapting
            self._say("Ending adaptive scaling…", False)
        self.task = run_blocking(call, functools.partial(self._done, on))

    def _done(self, on: bool, error: BaseException | None) -> None:
        self.toggle.disabled = False
        if error is not None:
            what = "Adapting" if on else "Ending adaptive scaling"
            self._say(f"{what} failed: {_failure(error)}", True)
        else:
            self._say("Adapting." if on else "Adaptive scaling ended.", False)
        self.task = None
        self.show()  # the toggle shows what the owner does, whatever happened
        self._changed()

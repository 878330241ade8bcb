"""``FutureView``: an execution future as a live ipywidget.

It shows the execution's name, its state (pending, running, succeeded, failed,
cancelled), a bar of chunks done over total, the time it has taken and a Cancel button;
once the execution ends, a preview of the result or the error (``preview.py``).

Theory of operation: ipykernel sends a widget's messages only from the kernel's own
thread, so every change to the widgets happens on the kernel's asyncio event loop. The
view finds the loop running the cell that creates it and starts an updater task there,
which every ``INTERVAL`` seconds reads the future (``snapshot``, in a worker thread,
because a remote session's figures come over HTTP) and then sets the widgets
(``_show``, on the loop). The future's done-callback runs on the execution's thread; it
only wakes the updater, through ``loop.call_soon_threadsafe``, for the last update. With
no loop running (plain Python, a terminal) nothing moves by itself: ``refresh()`` reads
and shows the state on the calling thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import html
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from jupyter_mars.widgets.preview import error_html, result_html

INTERVAL = 0.25
"""Seconds between the updater's readings while the execution runs."""

DEFAULT_NAME = "execution"
"""The name shown for a future whose ``name`` is None."""

BAR_STYLES = {"succeeded": "success", "failed": "danger", "cancelled": "warning"}
"""The bar's colour once the execution ended, by state."""


@dataclass(frozen=True)
class Snapshot:
    """What the view shows, as read from the future at one moment."""

    state: str
    """pending, running, succeeded, failed or cancelled."""
    done: float
    """Chunks done, or the fraction done when the future reports no operators."""
    total: float
    """Chunks in all, or 1.0 when the future reports no operators."""
    progress_text: str
    """``"12 / 53 chunks"``, or ``"40%"`` without operators."""
    elapsed: float
    """Seconds the execution has taken so far."""
    detail: str
    """HTML under the bar: the result's preview, the error, or nothing while it runs."""


def snapshot(future: Any) -> Snapshot:
    """Read ``future`` (an ``ExecutionFuture``): state, chunk counts, time and, once it
    ended, the preview of its result or its error. Safe on any thread; may block."""
    ended = future.done()  # read first: if it ended, the figures below are final
    operators = future.operators()["operators"]
    done, total = future.chunks()  # what ``future.progress()`` is the fraction of
    if total:
        text = f"{done} / {total} chunks"
        started = done > 0 or any(op.get("running") for op in operators)
    else:
        done, total = future.progress(), 1.0
        text = f"{done:.0%}"
        started = done > 0
    detail = ""
    if not ended:
        state = "running" if started else "pending"
    elif future.cancelled():
        state, detail = "cancelled", "<i>cancelled</i>"
    elif future.exception() is not None:
        state, detail = "failed", error_html(future.exception())
    else:
        state, detail = "succeeded", result_html(future.result(), future.session)
    return Snapshot(state, done, total, text, future.elapsed(), detail)


def format_seconds(seconds: float) -> str:
    """``"0.4 s"``, ``"12.0 s"``, ``"3 min 05 s"``, ``"1 h 02 min"``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _wake_threadsafe(
    loop: asyncio.AbstractEventLoop, wake: asyncio.Event, _future: concurrent.futures.Future[Any]
) -> None:
    """The future's done-callback, on the execution's thread: wake the updater for its
    last reading, on its loop."""
    try:
        loop.call_soon_threadsafe(wake.set)
    except RuntimeError:
        pass  # the loop is closed: nobody is left to show anything to


class FutureView(widgets.VBox):  # type: ignore[misc]
    """An ``ExecutionFuture`` as widgets: name, state, chunk bar, elapsed time, Cancel,
    and the result's preview or the error once it ends.

    ``name`` overrides the future's own ``name`` (which the view reads at every update).
    """

    def __init__(self, future: Any, name: str | None = None, **kwargs: Any) -> None:
        self.future = future
        self._name = name
        self.name_label = widgets.HTML()
        self.state_label = widgets.Label("pending")
        self.elapsed_label = widgets.Label()
        self.cancel_button = widgets.Button(
            description="Cancel", icon="stop", tooltip="Stop the execution, running tasks too"
        )
        self.bar = widgets.FloatProgress(value=0.0, min=0.0, max=1.0)
        self.progress_label = widgets.Label()
        self.detail = widgets.HTML()
        header = widgets.HBox(
            [self.name_label, self.state_label, self.elapsed_label, self.cancel_button]
        )
        super().__init__(
            [header, widgets.HBox([self.bar, self.progress_label]), self.detail], **kwargs
        )
        self.cancel_button.on_click(self._cancel_clicked)
        self.state = "pending"
        """The state last shown."""
        self._wake: asyncio.Event | None = None
        self._updater: asyncio.Task[None] | None = None
        loop = _running_loop()
        if loop is None:
            self.refresh()
        else:
            self._wake = wake = asyncio.Event()
            self._show_name()
            # the loop keeps only a weak reference to a task: the view holds it
            self._updater = loop.create_task(self._follow(loop, wake))
            future.add_done_callback(functools.partial(_wake_threadsafe, loop, wake))

    @property
    def name(self) -> str:
        """The name shown: the one given to the view, else the future's, else
        ``"execution"``."""
        return self._name or getattr(self.future, "name", None) or DEFAULT_NAME

    @name.setter
    def name(self, value: str | None) -> None:
        self._name = value
        self._show_name()

    @property
    def following(self) -> bool:
        """Whether an updater task on the event loop is keeping the view current."""
        return self._updater is not None and not self._updater.done()

    def refresh(self) -> None:
        """Read the future and show its state now, on the calling thread (the one that
        owns the widgets: the kernel's, or the only one in plain Python)."""
        if self.state in BAR_STYLES:  # ended and shown: its preview is not fetched again
            self._show_name()
            return
        self._show(snapshot(self.future))

    async def settled(self) -> None:
        """Return once the view shows the future's final state."""
        if self._updater is None:
            while not self.future.done():
                await asyncio.sleep(INTERVAL)
            self.refresh()
        else:
            await asyncio.wait({self._updater})
            if not self._updater.cancelled():  # cancelled: the view was closed
                self._updater.result()  # raise what stopped it, if anything did

    def close(self) -> None:
        if self._updater is not None:
            self._updater.cancel()
        super().close()

    # ---- on the event loop ----------------------------------------------------------------

    async def _follow(self, loop: asyncio.AbstractEventLoop, wake: asyncio.Event) -> None:
        while True:
            reading = await loop.run_in_executor(None, snapshot, self.future)
            self._show(reading)
            if reading.state in BAR_STYLES:
                return
            try:
                await asyncio.wait_for(wake.wait(), INTERVAL)
            except asyncio.TimeoutError:
                pass

    def _cancel_clicked(self, _button: Any) -> None:
        self.future.cancel()
        if self._wake is None:
            self.refresh()
        else:
            self._wake.set()

    def _show_name(self) -> None:
        self.name_label.value = f"<b>{html.escape(self.name)}</b>"

    def _show(self, reading: Snapshot) -> None:
        self.state = reading.state
        self._show_name()
        self.state_label.value = reading.state
        self.elapsed_label.value = format_seconds(reading.elapsed)
        self.bar.max = reading.total
        self.bar.value = reading.total if reading.state == "succeeded" else reading.done
        self.bar.bar_style = BAR_STYLES.get(reading.state, "info")
        self.progress_label.value = reading.progress_text
        self.cancel_button.disabled = reading.state in BAR_STYLES
        if self.detail.value != reading.detail:
            self.detail.value = reading.detail

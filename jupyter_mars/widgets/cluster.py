"""``ClusterView``: a cluster as a live ipywidget.

It shows the cluster's endpoint and a link to its dashboard, one row per worker (address,
cores, a CPU bar, a memory bar of its share, its GPUs while some worker has one, running
tasks) and the totals, read from the
supervisor's ``GET /api/v1/cluster`` (``cluster_reading.py``). For a cluster this process
owns (a ``LocalCluster`` or an ``SSHCluster`` object: the ``owner``), the Scale and Adapt
controls (``cluster_controls.py``) call ``owner.scale(n)`` and ``owner.adapt(...)``; what
they raise is shown in the widget, never raised into the kernel.

Theory of operation: ipykernel sends a widget's messages only from the kernel's own
thread, so every change to the widgets happens on the kernel's asyncio event loop. The
view starts an updater task on the loop running the cell that shows it; every
``INTERVAL`` seconds the task reads the cluster (an HTTP call, in a worker thread) and
sets the widgets. The controls' calls run in worker threads too, and a control that
changed the cluster wakes the updater. The updater stops when the view is closed, or once
the cluster no longer answers (``MISSES`` readings in a row: it stopped). With no loop
running (plain Python) nothing moves by itself: ``refresh()`` reads and shows the cluster
on the calling thread, and a control's call runs on it.

A cluster shows as one view per process, whatever the number of displays (``view_of``),
so that evaluating ``cluster`` or ``%mars status`` again does not add readers.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

import ipywidgets as widgets

from jupyter_mars.remote import HttpClient
from jupyter_mars.widgets.cluster_controls import (
    AdaptControl,
    ScaleControl,
    run_blocking,
    running_loop,
)
from jupyter_mars.widgets.cluster_reading import ClusterReading, WorkerRow, read_cluster

INTERVAL = 1.5
"""Seconds between readings while the view is shown."""

READ_TIMEOUT = 5.0
"""Seconds one reading waits for the supervisor."""

MISSES = 3
"""Readings in a row that find no supervisor before the view stops reading: one missed
answer (a busy supervisor, a failover) does not end a live view, a stopped cluster does."""

LINK_STYLE = "color: var(--jp-content-link-color, #1976d2); text-decoration: underline"
"""JupyterLab's widgets draw a link as plain text: this one looks like a link."""

COLUMNS = ("worker", "cores", "CPU", "memory", "tasks")
GRID_COLUMNS = "minmax(10em, max-content) 4em minmax(12em, 1fr) minmax(14em, 1fr) 4em"
GPU_COLUMNS = ("worker", "cores", "CPU", "memory", "GPUs", "tasks")
GPU_GRID_COLUMNS = (
    "minmax(10em, max-content) 4em minmax(12em, 1fr) minmax(14em, 1fr) minmax(14em, 1fr) 4em"
)
"""The columns where some worker has a GPU: its GPUs' use and memory before its tasks."""


def _bar(text: str) -> tuple[widgets.FloatProgress, widgets.Label, widgets.HBox]:
    bar = widgets.FloatProgress(value=0.0, min=0.0, max=100.0, layout={"width": "8em"})
    label = widgets.Label(text)
    return bar, label, widgets.HBox([bar, label])


class WorkerWidgets:
    """The widgets of one worker's row, kept while the worker stays."""

    def __init__(self, address: str) -> None:
        self.address = widgets.Label(address)
        self.cores = widgets.Label()
        self.cpu_bar, self.cpu_label, cpu = _bar("")
        self.memory_bar, self.memory_label, memory = _bar("")
        self.running = widgets.Label()
        self.gpus = widgets.Label()
        self._cells = [self.address, self.cores, cpu, memory, self.running]

    def cells(self, with_gpus: bool) -> list[Any]:
        """Its cells in the grid's order, its GPUs among them where the grid has them."""
        if not with_gpus:
            return self._cells
        return [*self._cells[:-1], self.gpus, self._cells[-1]]

    def show(self, row: WorkerRow) -> None:
        self.cores.value = str(row.cores)
        self.cpu_bar.value = row.cpu_percent
        self.cpu_label.value = row.cpu_text
        self.memory_bar.value = row.memory_percent
        self.memory_label.value = row.memory_text
        self.running.value = str(row.running)
        self.gpus.value = row.gpu_text


class ClusterView(widgets.VBox):  # type: ignore[misc]
    """The cluster at ``endpoint`` as widgets: a header with the dashboard link, a row per
    worker, the totals and, with an ``owner``, the Scale control."""

    def __init__(
        self,
        endpoint: str,
        token: str | None,
        dashboard: str = "",
        owner: Any = None,
        **kwargs: Any,
    ) -> None:
        self.endpoint = endpoint
        self.owner = owner
        """The object that can scale the cluster (``LocalCluster``, ``SSHCluster``), or
        None for a cluster this process only uses."""
        self._http = HttpClient(endpoint, token, READ_TIMEOUT)
        self.dashboard_link = dashboard or endpoint.rstrip("/") + "/"
        """The header's link: ``dashboard``, the dashboard's path on the Jupyter server
        that owns the cluster (its login applies); else a login link the supervisor made
        (one use, a few minutes), minted at the first reading and by the New link button;
        its plain address until then, or where the supervisor makes none."""
        self._login_wanted = not dashboard
        self.header = widgets.HTML()
        self.link_button: widgets.Button | None = None
        header: list[Any] = [self.header]
        if not dashboard:
            self.link_button = widgets.Button(
                description="New link",
                icon="key",
                tooltip="A fresh login link: it opens the dashboard logged in, once",
                layout={"width": "auto"},
            )
            self.link_button.on_click(self._new_link_clicked)
            header.append(self.link_button)
        self._show_link()
        self.message = widgets.HTML()
        """What the view has to say: a scale in progress, its error, a cluster gone."""
        self.grid = widgets.GridBox(layout={"grid_template_columns": GRID_COLUMNS})
        self.totals = widgets.Label()
        self.rows: dict[str, WorkerWidgets] = {}
        """The rows shown, by worker address."""
        self.with_gpus = False
        """Whether the grid has a GPU column: while some worker has a GPU."""
        self.reading: ClusterReading | None = None
        """The reading last shown."""
        self._reads_started = 0
        self._reads_shown = 0
        """The number of the read last shown, counted as they start."""
        children: list[Any] = [widgets.HBox(header), self.grid, self.totals]
        self.scale: ScaleControl | None = None
        """Scale, for a cluster this process owns."""
        self.adapt: AdaptControl | None = None
        """Adapt, for an owned cluster whose launcher adapts."""
        if owner is not None:
            self.scale = ScaleControl(owner, self._say, self._changed)
            children.append(self.scale)
            if callable(getattr(owner, "adapt", None)):
                self.adapt = AdaptControl(owner, self._say, self._changed)
                children.append(self.adapt)
        children.append(self.message)
        super().__init__(children, **kwargs)
        self._show_header_row()
        self._wake: asyncio.Event | None = None
        self._updater: asyncio.Task[None] | None = None
        loop = running_loop()
        if loop is None:
            self.refresh()
        else:
            self._wake = asyncio.Event()
            # the loop keeps only a weak reference to a task: the view holds it
            self._updater = loop.create_task(self._follow(loop, self._wake))

    @property
    def following(self) -> bool:
        """Whether an updater task on the event loop keeps the view current."""
        return self._updater is not None and not self._updater.done()

    @property
    def closed(self) -> bool:
        return self.comm is None

    def refresh(self) -> bool:
        """Read the cluster and show it now, on the calling thread; False (and the reason
        shown) where the cluster does not answer."""
        try:
            model = self._read()
        except (ConnectionError, PermissionError, RuntimeError) as exc:
            self._show_gone(exc)
            return False
        self._show(read_cluster(model))
        return True

    async def updated(self) -> None:
        """Return once the view shows a reading taken after this call began (or the
        updater stopped)."""
        if self._wake is None:
            self.refresh()
            return
        wanted = self._reads_started + 1
        self._wake.set()
        while self._reads_shown < wanted and self.following:
            await asyncio.sleep(0.05)

    def close(self) -> None:
        if self._updater is not None:
            self._updater.cancel()
        super().close()

    # ---- on the event loop ----------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        """The supervisor's cluster model, and a login link at the first reading (any
        thread; ``_show`` shows both)."""
        model: dict[str, Any] = self._http.json("GET", "/api/v1/cluster")
        if self._login_wanted:
            self._login_wanted = False
            self._mint_link()
        return model

    def _mint_link(self) -> None:
        """A fresh login link for the header (any thread); none from a supervisor that
        makes none (an older one): its address stays, with its login form."""
        try:
            made = self._http.json("POST", "/api/v1/login-links")
            self.dashboard_link = str(made["url"])
        except (ConnectionError, PermissionError, RuntimeError, KeyError, TypeError):
            pass

    def _new_link_clicked(self, _button: Any) -> None:
        run_blocking(self._mint_link, lambda _error: self._show_link())

    async def _follow(self, loop: asyncio.AbstractEventLoop, wake: asyncio.Event) -> None:
        misses = 0
        while True:
            wake.clear()
            self._reads_started += 1
            number = self._reads_started
            try:
                model = await loop.run_in_executor(None, self._read)
            except (ConnectionError, PermissionError, RuntimeError) as exc:
                misses += 1
                if misses >= MISSES or isinstance(exc, PermissionError):
                    self._show_gone(exc)
                    return  # stopped, or its token changed: nothing more will come
                self._say(f"The cluster does not answer; trying again: {exc}", True)
            else:
                if misses:
                    self._say("", False)  # it answers again
                misses = 0
                self._show(read_cluster(model))
                self._reads_shown = number
            try:
                await asyncio.wait_for(wake.wait(), INTERVAL)
            except asyncio.TimeoutError:
                pass

    def _changed(self) -> None:
        """A control changed the cluster: read it now, not at the next interval."""
        if self._wake is not None:
            self._wake.set()
        else:
            self.refresh()

    # ---- showing ---------------------------------------------------------------------------

    def _say(self, text: str, error: bool) -> None:
        escaped = html.escape(text)
        self.message.value = f'<span style="color: #c62828">{escaped}</span>' if error else escaped

    def _show_link(self) -> None:
        link = html.escape(self.dashboard_link, quote=True)
        value = (
            f"<b>Mars cluster</b> <code>{html.escape(self.endpoint)}</code> &middot; "
            f'<a href="{link}" target="_blank" rel="noopener" style="{LINK_STYLE}">'
            "Dashboard</a>"
        )
        if self.header.value != value:
            self.header.value = value

    def _show_header_row(self) -> None:
        names = GPU_COLUMNS if self.with_gpus else COLUMNS
        self.grid.layout.grid_template_columns = (
            GPU_GRID_COLUMNS if self.with_gpus else GRID_COLUMNS
        )
        header = [widgets.HTML(f"<b>{name}</b>") for name in names]
        cells = (c for row in self.rows.values() for c in row.cells(self.with_gpus))
        self.grid.children = [*header, *cells]

    def _show(self, reading: ClusterReading) -> None:
        addresses = [row.address for row in reading.workers]
        if addresses != list(self.rows) or reading.with_gpus != self.with_gpus:
            self.rows = {a: self.rows.get(a) or WorkerWidgets(a) for a in addresses}
            self.with_gpus = reading.with_gpus
            self._show_header_row()
        for row in reading.workers:
            self.rows[row.address].show(row)
        self.totals.value = reading.totals_text
        self._show_link()
        for control in (self.scale, self.adapt):
            if control is not None:
                control.show(len(reading.workers))
        self.reading = reading

    def _show_gone(self, error: BaseException) -> None:
        self._say(f"The cluster does not answer, so this view stopped updating: {error}", True)
        for control in (self.scale, self.adapt):
            if control is not None:
                control.gone()


_views: dict[tuple[str, int], ClusterView] = {}
"""The view of each cluster shown, by endpoint and owner."""


def view_of(
    endpoint: str, token: str | None = None, dashboard: str = "", owner: Any = None
) -> ClusterView:
    """The view of the cluster at ``endpoint`` (with ``owner``: with its controls):
    the one shown before while it is open and following, else a new one."""
    key = (endpoint, id(owner))
    view = _views.get(key)
    if view is None or view.closed or view.owner is not owner or not view.following:
        view = _views[key] = ClusterView(endpoint, token, dashboard, owner)
    return view

"""How a cluster displays in a notebook: as the view the widgets package registers.

The launcher never imports a display library: ``jupyter_mars.widgets`` registers its
cluster widget here when it is imported (``import jupyter_mars`` does so in a kernel that
has ipywidgets), as it registers its future view with the engine. Without a kernel, or
without a registered view, a cluster shows as its repr text and ``%mars status`` prints
a table. Both forms write a worker's GPUs the same way (``gpu_text``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jupyter_mars.engine.future import in_kernel

ViewMaker = Callable[..., Any]
"""``make(endpoint, token, dashboard=, owner=)``: the view of the cluster at ``endpoint``;
``dashboard`` its dashboard's path on the Jupyter server that owns it ("": the view links
the supervisor's own); ``owner`` the launcher object that can scale it, None for one this
process only uses."""

_view: ViewMaker | None = None


def register_view(make: ViewMaker | None) -> None:
    """Clusters display as ``make(...)`` in a kernel from now on (None: as text)."""
    global _view
    _view = make


def cluster_view(
    endpoint: str, token: str | None, dashboard: str = "", owner: Any = None
) -> Any | None:
    """The registered view of a cluster, where this process is a kernel and a view is
    registered; None where the cluster shows as text."""
    if _view is None or not in_kernel():
        return None
    return _view(endpoint, token, dashboard=dashboard, owner=owner)


def mimebundle(owner: Any, text: str, running: bool) -> dict[str, Any]:
    """``_repr_mimebundle_`` of a launcher's cluster: its view while ``running`` in a
    kernel, with ``text`` as the plain-text form; only ``text`` otherwise."""
    view = None
    if running:
        view = cluster_view(owner.endpoint, owner.token, owner=owner)
    if view is None:
        return {"text/plain": text}
    bundle: dict[str, Any] = dict(view._repr_mimebundle_())
    bundle["text/plain"] = text
    return bundle


def gpu_text(gpus: list[dict[str, Any]]) -> str:
    """A worker's GPUs as its heartbeat gives them (``resources["gpus"]``), in one line, as
    the widget and ``%mars status`` write them: each one's use and memory, "?" for what it
    does not report; "none" without GPUs.

    >>> h100 = {"index": 0, "utilization": 37.4, "memory_used": 10 * 2**30}
    >>> h100["memory_total"] = 80 * 2**30
    >>> mig = {"index": 1, "utilization": None, "memory_used": None, "memory_total": None}
    >>> gpu_text([h100, mig])
    '0: 37% busy, 10.0 of 80.0 GiB; 1: ? busy, ? of ? GiB'
    >>> gpu_text([])
    'none'
    """

    def gib(value: Any) -> str:
        return "?" if value is None else f"{int(value) / 2**30:.1f}"

    parts = []
    for gpu in gpus:
        busy = gpu.get("utilization")
        busy_text = "?" if busy is None else f"{float(busy):.0f}%"
        memory = f"{gib(gpu.get('memory_used'))} of {gib(gpu.get('memory_total'))} GiB"
        parts.append(f"{gpu.get('index')}: {busy_text} busy, {memory}")
    return "; ".join(parts) or "none"

"""The page a Ray session's progress API serves at its root, where a cluster serves its
dashboard: the Ray address, its live nodes and the session's latest executions, drawn
from the same models the API answers with (pure; every value escaped). It refreshes
itself every few seconds."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

REFRESH_SECONDS = 3


def _rows(rows: Sequence[Sequence[str]]) -> str:
    return "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )


def ray_page(cluster: Mapping[str, Any], executions: Sequence[Mapping[str, Any]]) -> str:
    """The page: ``cluster`` is the ``/api/v1/cluster`` model, ``executions`` the
    session's execution models, oldest first (shown newest first).

    >>> page = ray_page({"ray_address": "127.0.0.1:6379", "workers": []},
    ...     [{"name": "<b>", "state": "running", "progress": 0.5, "elapsed": 1.0}])
    >>> "&lt;b&gt;" in page and "50%" in page and "<b>" not in page
    True
    """
    nodes = [
        [
            str(w.get("address", "")),
            str(w.get("n_cpu", "")),
            f"{w.get('memory_share', 0) / 2**30:.1f} GiB",
        ]
        for w in cluster.get("workers", [])
    ]
    runs = [
        [
            str(e.get("name", "")),
            str(e.get("state", "")),
            f"{float(e.get('progress', 0.0)):.0%}",
            f"{float(e.get('elapsed', 0.0)):.1f} s",
        ]
        for e in reversed(executions)
    ]
    address = html.escape(str(cluster.get("ray_address", "")))
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<meta http-equiv='refresh' content='{REFRESH_SECONDS}'>"
        f"<title>Ray session {address}</title></head><body>"
        f"<h1>Ray session at {address}</h1>"
        "<p>Chunk tasks run as Ray tasks; Ray's own dashboard shows its tasks and objects.</p>"
        "<h2>Nodes</h2><table id='nodes'><tr><th>node</th><th>CPUs</th><th>memory</th></tr>"
        f"{_rows(nodes)}</table>"
        "<h2>Executions</h2><table id='executions'><tr><th>name</th><th>state</th>"
        f"<th>progress</th><th>elapsed</th></tr>{_rows(runs)}</table>"
        "</body></html>"
    )

"""The Jupyter server extension: the server owns a cluster, serves a REST API to start,
scale and stop it (``mars/api/``) and its dashboard through the server
(``mars/dashboard/``); it also lists every other cluster of this machine, their work (to
cancel) and their dashboards (``mars/api/clusters``, ``mars/dashboards/<id>/``).

Enabled on install by ``jupyter-config/jupyter_server_config.d/jupyter_mars.json``;
``jupyter server extension enable jupyter_mars.server`` does the same by hand. Configured
with ``MarsExtension.*`` traitlets (``app.py``).
"""

from __future__ import annotations

from typing import Any


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    """What jupyter_server loads for the module ``jupyter_mars.server``."""
    from jupyter_mars.server.app import MarsExtension

    return [{"module": "jupyter_mars.server", "app": MarsExtension}]

"""The PyODPS-style cluster handle every launcher's cluster offers.

PyODPS's ``create_mars_cluster`` returns a client with ``get_logview_address()``,
``endpoint``, ``session``, ``stop_server()`` and an instance id to re-attach by; here the
logview is the cluster's dashboard and the instance id its id in the registry of this
machine's clusters. With ``options.verbose`` on, creating or re-attaching a cluster prints
one line saying which it is and where to watch it.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.config import options
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.http import token_for


class ClusterHandle:
    """Mixed into a cluster class that has ``endpoint``, ``id``, ``token``, ``session``,
    ``n_workers`` and ``stop()``: ``LocalCluster``, ``SSHCluster``, a re-attached local
    cluster, and any other launcher's cluster (Kubernetes) that offers the same."""

    endpoint: str
    id: Any
    """Its id in the registry (None once stopped, for a local cluster)."""
    session: Any
    token: Any

    @property
    def instance_id(self) -> str | None:
        """Its id, to re-attach from another process (``new_cluster(instance_id=...)``)."""
        return None if self.id is None else str(self.id)

    @property
    def dashboard_url(self) -> str:
        return self.endpoint.rstrip("/") + "/"

    def get_logview_address(self) -> str:
        """Where to watch it run: its dashboard (PyODPS's LogView)."""
        return self.dashboard_url

    def stop_server(self) -> None:
        """Stop the cluster's processes (``stop()``), as PyODPS's ``stop_server``."""
        self.stop()

    def stop(self) -> None:
        raise NotImplementedError

    @property
    def joined_workers(self) -> int:
        """Workers the supervisor counts now (those still starting are not counted)."""
        token = getattr(self, "token", None) or token_for(self.endpoint)
        http = HttpClient(self.endpoint, token, timeout=5)
        return len(http.json("GET", "/api/v1/cluster")["workers"])

    def announce(self, what: str) -> None:
        """With ``options.verbose``: one line with its id, endpoint and logview."""
        if options.verbose:
            print(
                f"Mars cluster {self.id} {what}: endpoint {self.endpoint}, "
                f"logview {self.get_logview_address()}, "
                f"{self.joined_workers} of {self.n_workers} workers joined",
                flush=True,
            )

    @property
    def n_workers(self) -> int:
        raise NotImplementedError

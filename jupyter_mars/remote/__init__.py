"""Remote sessions: tensors executed on a cluster over its supervisor's HTTP API.

``session.py`` is the ``RemoteSession``; ``http.py`` the small HTTP client it sends its
requests with; ``failover.py`` finds the active supervisor when the one in use is gone;
``tokens.py`` stores and finds the cluster's token, shared with the command lines.
"""

from jupyter_mars.remote.errors import RemoteError, rebuild_error
from jupyter_mars.remote.http import HttpClient, SupervisorUnavailable
from jupyter_mars.remote.session import ClusterGone, RemoteSession

__all__ = [
    "ClusterGone",
    "RemoteError",
    "RemoteSession",
    "SupervisorUnavailable",
    "HttpClient",
    "rebuild_error",
]

"""Mars on Kubernetes: the programs a pod runs, and the launcher that creates those pods.

``python -m jupyter_mars.deploy.kubernetes.supervisor`` (``scheduler`` is the same program
under the older name), ``.worker`` and ``.web`` read their settings from the environment
a pod gets (its IP and resource limits from the downward API, the cluster token from a
Secret, the memory tuning variables a MarsJob operator sets) and start the programs of
``jupyter_mars/deploy/``. ``new_cluster`` and ``KubernetesCluster``, the launcher that
creates those pods from outside the cluster, live in ``jupyter_mars/launcher/kubernetes/``
and are named here too, as Mars names them (``from mars.deploy.kubernetes import
new_cluster``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["KubernetesCluster", "new_cluster"]


def __getattr__(name: str) -> Any:
    """The launcher's ``KubernetesCluster`` and ``new_cluster``, imported (with the
    ``kubernetes`` client) on first use: the programs a pod runs never need the client."""
    if name in __all__:
        from jupyter_mars.launcher.kubernetes import cluster

        return getattr(cluster, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

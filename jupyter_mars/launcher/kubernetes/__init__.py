"""Starting a cluster on Kubernetes from Python: ``new_cluster`` with Mars's signature.

``spec`` checks the arguments, ``objects`` builds the Kubernetes objects of one cluster as
plain dicts (pure; ``scripts/k8s_manifests.py`` writes the static manifests from them),
``quantities`` writes sizes and cores as Kubernetes quantities, ``status`` reads the API's
answers, and ``cluster`` is the thin layer that sends the objects with the official
``kubernetes`` client (``KubernetesCluster``). The programs those pods run are in
``jupyter_mars/deploy/kubernetes/``; ``jupyter_mars.deploy.kubernetes.new_cluster`` is this
one, as Mars names it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["KubernetesCluster", "new_cluster"]


def __getattr__(name: str) -> Any:
    """``KubernetesCluster`` and ``new_cluster``, imported with the ``kubernetes`` client
    on first use: the pure builders here never need the client."""
    if name in __all__:
        from jupyter_mars.launcher.kubernetes import cluster

        return getattr(cluster, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Starting clusters: local processes (``new_cluster``), later SSH host lists and Kubernetes."""

from jupyter_mars.launcher.local import LocalCluster, new_cluster

__all__ = ["LocalCluster", "new_cluster"]

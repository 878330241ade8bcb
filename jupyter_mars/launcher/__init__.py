"""Starting clusters: local processes (``new_cluster``) and SSH host lists (``SSHCluster``)."""

from typing import Any

from jupyter_mars.launcher.local import LocalCluster, new_cluster

__all__ = ["LocalCluster", "SSHCluster", "new_cluster"]


def __getattr__(name: str) -> Any:
    # paramiko is imported only by those who use SSH
    if name == "SSHCluster":
        from jupyter_mars.launcher.ssh_cluster import SSHCluster

        return SSHCluster
    raise AttributeError(f"module 'jupyter_mars.launcher' has no attribute {name!r}")

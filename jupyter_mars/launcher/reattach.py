"""Re-attaching to a running cluster by its id, whatever launcher started it.

PyODPS's ``create_mars_cluster(instance_id=...)``: the registry of this machine's clusters
(``registry.py``) says which kind it is; a local one is re-attached by its recorded
processes (``attached.py``), an SSH one by its hosts and PIDs (``SSHCluster.from_id``).
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.launcher import registry
from jupyter_mars.launcher.attached import AttachedLocalCluster


def attach(instance_id: str, connect: bool = True) -> Any:
    """The running cluster recorded under ``instance_id`` on this machine, whatever
    launcher started it: a local cluster's ``AttachedLocalCluster``, an ``SSHCluster``."""
    if not isinstance(instance_id, str) or not instance_id:
        raise TypeError(f"instance_id must be a cluster id (text), got {instance_id!r}")
    entry = registry.find(instance_id)
    if entry is not None and entry.kind == "ssh":
        # paramiko is imported only by those who use SSH
        from jupyter_mars.launcher.ssh_cluster import SSHCluster

        return SSHCluster.from_id(instance_id, connect=connect)
    return AttachedLocalCluster.from_id(instance_id, connect=connect)

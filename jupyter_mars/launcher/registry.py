"""Clusters running on this machine, recorded where other processes of the user find them.

Each cluster that ``new_cluster``, the SSH launcher or the Jupyter server extension starts
is written as one JSON file in ``<Jupyter runtime dir>/jupyter_mars/`` (readable by the
user only): its id, kind, web endpoint, dashboard address and the process that owns it.
``%mars connect`` with no address reads them; a record whose owner process is gone is
stale and removed when read. Tokens are not kept here: a supervisor on this machine
writes its token to its own file (``remote/tokens.py``), found by address.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

KINDS = ("server", "local", "ssh", "ray")
"""What started a cluster; the first is preferred when several are published. A ``ray``
record is a Ray session's HTTP API (``web/ray_front.py``): listed, never connected to."""
CONNECTABLE = ("server", "local", "ssh")
"""The kinds whose endpoint is a supervisor that ``%mars connect`` can use."""


@dataclass(frozen=True)
class ClusterRecord:
    endpoint: str
    """The supervisor's web address, ``http://host:port[/base/]``."""
    kind: str
    """``server`` (the Jupyter server extension), ``local`` (``new_cluster``), ``ssh``, or
    ``ray`` (a Ray session's progress API)."""
    owner_pid: int = field(default_factory=os.getpid)
    """The process whose life is the cluster's (0: none here, such as a supervisor on
    another host: the record stays until removed)."""
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    created: float = field(default_factory=time.time)
    n_workers: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    """What the launcher that started it needs to stop it from another process."""
    jupyter_dashboard: str = ""
    """For a cluster a Jupyter server owns: the dashboard's path on that server
    (``<base_url>mars/dashboard/``), behind the browser's Jupyter login; a notebook links
    to it from its own page. Empty for the others."""

    @property
    def dashboard(self) -> str:
        return self.endpoint.rstrip("/") + "/"


def registry_dir() -> Path:
    """``jupyter_mars/`` in the Jupyter runtime directory (``JUPYTER_RUNTIME_DIR`` or
    jupyter_core's default), where Jupyter keeps its own connection files."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir

        base = Path(jupyter_runtime_dir())
    except ImportError:  # jupyter_core is not installed: its default place
        env = os.environ.get("JUPYTER_RUNTIME_DIR")
        data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        base = Path(env) if env else Path(data) / "jupyter" / "runtime"
    return base / "jupyter_mars"


def _path(cluster_id: str, directory: Path | None = None) -> Path:
    return (directory or registry_dir()) / f"cluster-{cluster_id}.json"


def record(entry: ClusterRecord, directory: Path | None = None) -> Path:
    """Publish ``entry``; the file is the user's only, and appears whole or not at all."""
    if entry.kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {entry.kind!r}")
    folder = directory or registry_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = _path(entry.id, folder)
    partial = path.with_suffix(".tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(asdict(entry), out)
    os.replace(partial, path)
    return path


def remove(cluster_id: str, directory: Path | None = None) -> None:
    _path(cluster_id, directory).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _read(path: Path) -> ClusterRecord | None:
    try:
        raw: Any = json.loads(path.read_text())
        return ClusterRecord(**raw)
    except (OSError, ValueError, TypeError):
        return None


def entries(directory: Path | None = None) -> list[ClusterRecord]:
    """The clusters recorded and still owned by a live process, newest first; the records
    of the others are removed."""
    folder = directory or registry_dir()
    out = []
    for path in sorted(folder.glob("cluster-*.json")) if folder.is_dir() else []:
        entry = _read(path)
        if entry is None or (entry.owner_pid and not _alive(entry.owner_pid)):
            path.unlink(missing_ok=True)
            continue
        out.append(entry)
    return sorted(out, key=lambda e: -e.created)


def find(cluster_id: str, directory: Path | None = None) -> ClusterRecord | None:
    return next((e for e in entries(directory) if e.id == cluster_id), None)


def published(directory: Path | None = None) -> ClusterRecord | None:
    """The cluster ``%mars connect`` picks without an address: the Jupyter server's, else
    the newest one; None when no cluster runs here."""
    found = [e for e in entries(directory) if e.kind in CONNECTABLE]
    if not found:
        return None
    return min(found, key=lambda e: (KINDS.index(e.kind), -e.created))

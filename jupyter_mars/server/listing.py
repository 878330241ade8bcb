"""Which clusters of this machine's registry the panel lists, and who started each: pure
functions over registry records, the server's own endpoint and this server's kernels.

One cluster may have two records (an SSH cluster the server owns has its launcher's
``ssh`` record and the server's ``server`` one): records are grouped by endpoint and
listed once, under the record that says most about who owns it. The server's own cluster
comes first, then the others, newest first.

Who started a cluster (``origin``):

    server    this Jupyter server (the panel may stop it)
    kernel    a kernel of this server: its owner process is the kernel or runs under it;
              named after its notebook when a session says which
    jupyter   another Jupyter server's extension
    ssh       the SSH launcher (``mars-cluster up``)
    process   any other process of this user, named by its pid
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from jupyter_mars.launcher.registry import ClusterRecord

PREFERENCE = ("server", "ssh", "local", "ray")
"""Of several records of one endpoint, the one listed: the owner first, then the launcher."""


@dataclass(frozen=True)
class Listed:
    """A cluster as the panel lists it, before the supervisor is asked about it."""

    id: str
    """The id it is addressed by (``mars/api/clusters/<id>``): its listed record's."""
    endpoint: str
    kind: str
    own: bool
    owner_pid: int
    created: float
    origin: str
    """``server``, ``kernel``, ``jupyter``, ``ssh`` or ``process`` (see the module)."""
    started_by: str
    """Who started it, in words: "this Jupyter server", "notebook work/a.ipynb"..."""
    stop_hint: str | None
    """Where it is stopped, when not from the panel (None: the panel stops it)."""
    record_ids: tuple[str, ...] = ()
    """Every record of its endpoint: any of them addresses it."""


def _same(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def group_by_endpoint(records: Iterable[ClusterRecord]) -> list[list[ClusterRecord]]:
    """The records of each endpoint together, in the order their first one came."""
    groups: dict[str, list[ClusterRecord]] = {}
    for entry in records:
        groups.setdefault(entry.endpoint.rstrip("/"), []).append(entry)
    return list(groups.values())


def describe_origin(
    entry: ClusterRecord, own: bool, kernel_of: Mapping[int, str | None]
) -> tuple[str, str, str | None]:
    """``(origin, started_by, stop_hint)`` of a cluster listed under ``entry``;
    ``kernel_of`` maps this server's kernels' pids (and the processes under them) to
    their notebook's path (None when no session names one)."""
    if own:
        return "server", "this Jupyter server", None
    pid = entry.owner_pid
    if pid in kernel_of:
        notebook = kernel_of[pid]
        who = f"notebook {notebook}" if notebook else f"a notebook kernel, pid {pid}"
        return "kernel", who, f"started by {who}: stop it there with %mars stop"
    if entry.kind == "ssh":
        hint = f"started over SSH: stop it with mars-cluster down {entry.id}"
        return "ssh", "the SSH launcher", hint
    if entry.kind == "server":
        who = f"another Jupyter server, pid {pid}"
        return "jupyter", who, f"started by {who}: stop it from that server's panel"
    who = f"a process, pid {pid}" if pid else "a process on another host"
    return "process", who, f"started by {who}: stop it there"


def listed_clusters(
    records: Iterable[ClusterRecord],
    own_endpoint: str | None,
    kernel_of: Mapping[int, str | None],
    own_pid: int | None = None,
) -> list[Listed]:
    """Every cluster ``records`` describe, once each: the server's own first (at
    ``own_endpoint`` while it runs, or recorded as ``server`` by this server's process
    ``own_pid``, as it is while it starts), then the others newest first."""
    out = []
    for group in group_by_endpoint(records):
        entry = min(group, key=lambda e: (PREFERENCE.index(e.kind), -e.created))
        own = (own_endpoint is not None and _same(entry.endpoint, own_endpoint)) or (
            own_pid is not None and entry.kind == "server" and entry.owner_pid == own_pid
        )
        # the launcher's record of an SSH cluster says who owns it, as its server one does
        owner = next((e for e in group if e.owner_pid in kernel_of), entry)
        origin, started_by, hint = describe_origin(owner, own, kernel_of)
        out.append(
            Listed(
                id=entry.id,
                endpoint=entry.endpoint,
                kind=entry.kind,
                own=own,
                owner_pid=entry.owner_pid,
                created=min(e.created for e in group),
                origin=origin,
                started_by=started_by,
                stop_hint=hint,
                record_ids=tuple(e.id for e in group),
            )
        )
    return sorted(out, key=lambda c: (not c.own, -c.created))


def kernel_owners(
    kernel_pids: Mapping[int, str | None], parents: Mapping[int, Iterable[int]]
) -> dict[int, str | None]:
    """``kernel_pids`` (a kernel's pid -> its notebook), extended to the owner pids in
    ``parents`` (an owner pid -> its ancestors' pids) that run under one of those kernels:
    a cluster started by a subprocess of a notebook belongs to that notebook."""
    out = dict(kernel_pids)
    for pid, ancestors in parents.items():
        for ancestor in ancestors:
            if ancestor in kernel_pids:
                out[pid] = kernel_pids[ancestor]
                break
    return out

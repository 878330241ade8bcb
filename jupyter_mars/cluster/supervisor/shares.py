"""Honest figures of workers that share machines: each worker's share of its machine's
memory, and cluster totals that never count a machine's memory or cores twice.

Every worker reports its machine (``resources["host"]``: id, memory, cpus; see
``worker/host_identity.py``) and its memory limit (``resources["store"]["phy_mem_bytes"]``, and
``memory_limit_given``: whether ``--phy-mem`` set it). A worker's share is its limit when
one was given, else the machine's memory divided by the workers on that machine (or its
limit, a container's, when that is less). A
machine's total is the sum of its workers' shares (cores: of their ``n_cpu``), never more
than it has. Workers of an older kind, without the machine's figures, count as one machine
each, with their limit. Pure functions of the supervisor's worker summaries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _host(worker: Mapping[str, Any]) -> Mapping[str, Any]:
    host = (worker.get("resources") or {}).get("host")
    return host if isinstance(host, Mapping) else {}


def _host_key(worker: Mapping[str, Any]) -> str:
    return str(_host(worker).get("id") or f"worker {worker.get('address')}")


def _limit(worker: Mapping[str, Any]) -> int:
    resources = worker.get("resources") or {}
    store = resources.get("store") or {}
    return int(store.get("phy_mem_bytes") or resources.get("memory_total") or 0)


def _by_host(workers: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for worker in workers:
        groups.setdefault(_host_key(worker), []).append(worker)
    return groups


def memory_shares(workers: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Worker address -> bytes of its machine's memory that are its own."""
    shares: dict[str, int] = {}
    for group in _by_host(workers).values():
        host_memory = int(_host(group[0]).get("memory") or 0)
        for worker in group:
            given = bool((worker.get("resources") or {}).get("memory_limit_given"))
            limit = _limit(worker)
            if not host_memory:
                share = limit
            elif given:
                share = min(limit, host_memory)
            else:  # a container's limit may be below its part of the machine
                share = min(host_memory // len(group), limit or host_memory)
            shares[str(worker.get("address"))] = share
    return shares


def cluster_totals(workers: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Machines, cores and memory bytes of ``workers``, each machine counted once."""
    shares = memory_shares(workers)
    groups = _by_host(workers)
    n_cpu = memory = 0
    for group in groups.values():
        host = _host(group[0])
        cores = sum(int(w.get("n_cpu") or 0) for w in group)
        owned = sum(shares[str(w.get("address"))] for w in group)
        n_cpu += min(cores, int(host["cpus"])) if host.get("cpus") else cores
        memory += min(owned, int(host["memory"])) if host.get("memory") else owned
    return {"hosts": len(groups), "n_cpu": n_cpu, "memory": memory}

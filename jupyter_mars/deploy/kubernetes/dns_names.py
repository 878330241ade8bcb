"""The names a Kubernetes Service is reached by, for the web services' ``--allowed-hosts``.

>>> service_names("mars-test-demo-webservice-0.default.svc")  # doctest: +NORMALIZE_WHITESPACE
['mars-test-demo-webservice-0', 'mars-test-demo-webservice-0.default',
 'mars-test-demo-webservice-0.default.svc',
 'mars-test-demo-webservice-0.default.svc.cluster.local']

A Service ``svc`` in namespace ``ns`` has the DNS record ``svc.ns.svc.cluster.local``; a
pod resolves the shorter ``svc.ns.svc``, ``svc.ns`` (as Mars's document 003 writes the web
service's address) and, in the same namespace, ``svc``, through its search domains. A
browser sends whichever the user typed as ``Host``. ``cluster.local`` is Kubernetes's
default cluster domain; a cluster with another one needs its full names given with
``--allowed-hosts``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

CLUSTER_DOMAIN = "cluster.local"
"""Kubernetes's default cluster domain."""


def service_names(host: str, namespace: str | None = None) -> list[str]:
    """Every DNS form of the Service (or the pod of a headless Service) ``host`` names.

    ``host`` is ``svc.ns.svc`` (KubeDL writes this), ``svc.ns.svc.cluster.local``,
    ``svc.ns``, or a bare ``svc`` in ``namespace`` (the pod's); any other name is only
    itself, and an IP address is nothing (the web services accept addresses anyway).

    >>> service_names("mars-supervisor", "jobs")[1:3]
    ['mars-supervisor.jobs', 'mars-supervisor.jobs.svc']
    >>> service_names("mars-supervisor"), service_names("10.0.0.7"), service_names("a.b.c")
    (['mars-supervisor'], [], ['a.b.c'])
    >>> service_names("web-0.mars.ns.svc.cluster.local")[:2]
    ['web-0.mars', 'web-0.mars.ns']
    """
    name = host.strip().strip("[]").lower().rstrip(".")
    if not name or _is_ip(name):
        return []
    base = name
    for suffix in (f".svc.{CLUSTER_DOMAIN}", ".svc"):
        if name.endswith(suffix):
            base = name.removesuffix(suffix)
            break
    in_namespace, dot, space = base.rpartition(".")
    if dot and (base != name or base.count(".") == 1):  # ...ns.svc[.cluster.local], svc.ns
        return _forms(in_namespace, space)
    if name == base and not dot and namespace:
        return _forms(base, namespace.strip().lower())
    return [name]


def all_service_names(hosts: Iterable[str], namespace: str | None = None) -> list[str]:
    """``service_names`` of each of ``hosts``, in order, without repeats."""
    return list(dict.fromkeys(name for host in hosts for name in service_names(host, namespace)))


def _forms(service: str, namespace: str) -> list[str]:
    full = f"{service}.{namespace}.svc"
    return [service, f"{service}.{namespace}", full, f"{full}.{CLUSTER_DOMAIN}"]


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True

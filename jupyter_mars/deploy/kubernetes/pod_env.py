"""A pod's environment turned into the command line of a Mars program.

>>> env = {"MARS_CONTAINER_IP": "10.0.0.7", "MARS_SUPERVISOR_ADDRESS": "mars-supervisor:7103",
...        "MARS_CPU_TOTAL": "1500m", "MARS_MEMORY_TOTAL": "4294967296",
...        "MARS_CACHE_MEM_SIZE": "50%"}
>>> machine = HostResources(n_cpu=8, total_memory=16 << 30, available_memory=12 << 30)
>>> print(" ".join(worker_command(env, machine).argv))  # doctest: +NORMALIZE_WHITESPACE
-H 0.0.0.0 -a 10.0.0.7 -p 7105 -s mars-supervisor:7103
--n-cpu 2 --phy-mem 4294967296 --cache-mem 2147483648

The variables are those a pod gets from its spec (the downward API, a Secret) and those
KubeDL's MarsJob controller injects into Mars pods:

- ``MARS_CONTAINER_IP``: the pod IP, advertised to the other processes. A supervisor or
  a worker listens on every interface of the pod (``-H 0.0.0.0``), so that
  ``kubectl port-forward``, which connects to the pod's loopback, reaches it too.
- ``MARS_BIND_PORT``: the RPC port (default 7103 for a supervisor, 7105 for a worker);
  ``MARS_WEB_PORT``: the web port (default 7104; a standalone web service falls back to
  ``MARS_BIND_PORT``, the one port KubeDL gives each pod).
- ``MARS_SUPERVISOR_ADDRESS``: ``host:port[,host:port...]`` of the supervisors; when absent,
  the ``scheduler`` list of ``MARS_CLUSTER_DETAIL`` (or ``MARS_TASK_DETAIL``, the name
  KubeDL's controller uses): ``{"cluster": {"scheduler": [...], "webservice": [...]},
  "task": {"type": "worker", "index": 0, "resources": {"cpu_procs": 2, "phy_mem": ...}}}``.
- ``MARS_CPU_TOTAL``, ``MARS_MEMORY_TOTAL``: the container's limits, as ``--n-cpu`` and
  ``--phy-mem``, never more than this machine offers (``HostResources``). A CPU quantity
  rounds up to whole cores, at least one (``1500m`` and ``1.5`` are 2), as the downward
  API rounds ``limits.cpu`` with divisor 1. ``0`` is no limit (KubeDL writes it for a
  container without requests or limits): the worker's own defaults count. Without them,
  the detail's ``resources`` count (``phy_mem`` in bytes in ``MARS_CLUSTER_DETAIL``, in MiB
  in KubeDL's ``MARS_TASK_DETAIL``; ``0`` again no limit).
- ``MARS_CACHE_MEM_SIZE``: the chunk store's size, ``--cache-mem``: bytes, a size
  (``10Gi``) or a share of the memory limit (``80%``).
- ``MARS_SPILL_DIRS``: spill directories separated by commas or colons, ``--spill-dirs``.
- ``MARS_PLASMA_DIRS``: Mars's shared-memory (plasma) store. Accepted and noted: this
  worker keeps its chunk store in its own memory, so nothing is written there.
- ``MARS_LOCK_FREE_FILEIO``: whether spill directories are dedicated to one worker.
  Accepted and noted: every worker already writes only in a locked subdirectory of its own
  in each spill directory, so dedicated and shared directories are handled alike.
- ``MARS_WEB_ALLOWED_HOSTS``: more names the web service (of a supervisor, or standalone)
  answers to, read by the program itself (``--allowed-hosts``); our launcher, manifests
  and chart set it to the supervisor Service's names. With KubeDL's cluster detail, a
  supervisor also answers to every DNS form (``dns_names``) of the ``scheduler`` Services,
  a web service to those of the ``webservice`` ones: ``job-webservice-0``,
  ``job-webservice-0.ns`` (document 003's address), ``...ns.svc``,
  ``...ns.svc.cluster.local``.
- ``MARS_TOKEN`` is never put on the command line (where ``ps`` would show it): the
  programs read it from the environment themselves.

Every value is checked here, and a bad one raises ``UsageError`` naming its variable
(``MARS_CACHE_MEM_SIZE: expected a size such as ..., got 'x'``); the programs' parsers
then check the command line as they check a person's. Arguments given to the entry point
(a pod spec's ``args:``) come last, so they win.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from jupyter_mars.deploy.cli import ALLOWED_HOSTS_ENV
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.kubernetes.cluster_detail import (
    DETAIL_VARIABLES,
    ClusterDetail,
    cluster_detail,
)
from jupyter_mars.deploy.kubernetes.dns_names import all_service_names
from jupyter_mars.deploy.resources import HostResources
from jupyter_mars.deploy.values import to_addresses, to_bool, to_host, to_host_names, to_port
from jupyter_mars.engine.sizes import format_size, parse_size

SUPERVISOR_PORT = 7103
"""The supervisor's RPC port in a pod, so that its Service can name it."""
WEB_PORT = 7104
"""The web port (HTTP API and dashboard) of a supervisor or web service in a pod."""
WORKER_PORT = 7105
"""A worker's RPC port in a pod."""
LISTEN_HOST = "0.0.0.0"
_SUPERVISOR_FLAGS = ("-s", "--supervisors", "-f", "--config-file", "-h", "--help")
"""Arguments of the entry point that give the supervisors, or ask for no worker at all."""
T = TypeVar("T")


@dataclass(frozen=True)
class PodCommand:
    """A program's arguments, and what they were made of, for the log."""

    argv: list[str]
    """The program's command line after its name, the entry point's own arguments last."""
    notes: list[str] = field(default_factory=list)
    """One phrase per variable used, or accepted without effect; never the token."""


def supervisor_command(env: Mapping[str, str], extra: Sequence[str] = ()) -> PodCommand:
    """``mars-supervisor`` arguments: listen on the pod, on its fixed ports.

    The ``-s`` list is passed on only when it names several supervisors: a single entry
    is usually the supervisor's own Service, whose address it could not tell for its own.
    """
    notes: list[str] = []
    argv = _listen(env, notes)
    argv += ["-p", str(_port(env, "MARS_BIND_PORT", SUPERVISOR_PORT, notes))]
    argv += ["-w", str(_port(env, "MARS_WEB_PORT", WEB_PORT, notes))]
    found = supervisor_addresses(env)
    if found is not None and len(found[1]) > 1:
        argv += ["-s", ",".join(found[1])]
        notes.append(f"{found[0]}: supervisors {','.join(found[1])}")
    detail = cluster_detail(env)
    if detail is not None:
        argv += _names_flag(env, detail.schedulers, f"{detail.variable} (cluster.scheduler)", notes)
    _note_allowed_hosts(env, notes)
    return _finish(env, argv, notes, extra)


def worker_command(
    env: Mapping[str, str], machine: HostResources, extra: Sequence[str] = ()
) -> PodCommand:
    """``mars-worker`` arguments: the supervisors, the container's limits as cores and
    memory (at most ``machine``'s), and KubeDL's memory tuning variables."""
    notes: list[str] = []
    argv = _listen(env, notes)
    argv += ["-p", str(_port(env, "MARS_BIND_PORT", WORKER_PORT, notes))]
    argv += _supervisors_flag(env, extra, notes)
    detail = cluster_detail(env)
    cores = _cores(env, detail, machine, notes)
    if cores is not None:
        argv += ["--n-cpu", str(cores)]
    memory = _memory(env, detail, machine, notes)
    if memory is not None:
        argv += ["--phy-mem", str(memory)]
    cache = _cache(env, memory if memory is not None else machine.total_memory, notes)
    if cache is not None:
        argv += ["--cache-mem", str(cache)]
    spill_dirs = _paths(env, "MARS_SPILL_DIRS")
    if spill_dirs:
        argv += ["--spill-dirs", ":".join(spill_dirs)]
        notes.append(f"MARS_SPILL_DIRS: spill to {', '.join(spill_dirs)}")
    notes += _accepted_only(env)
    return _finish(env, argv, notes, extra)


def web_command(env: Mapping[str, str], extra: Sequence[str] = ()) -> PodCommand:
    """``mars-web`` arguments (``-a IP -p PORT -s SUPERVISOR``): a web service of its own
    in front of the supervisors, on ``MARS_WEB_PORT``, else ``MARS_BIND_PORT``."""
    notes: list[str] = []
    # every interface, as the other programs: kubectl port-forward connects on localhost
    argv: list[str] = ["-H", LISTEN_HOST]
    ip = _value(env, "MARS_CONTAINER_IP", to_host)
    if ip is not None:
        argv += ["-a", ip]
        notes.append(f"MARS_CONTAINER_IP: address {ip}")
    variable = "MARS_WEB_PORT" if _get(env, "MARS_WEB_PORT") is not None else "MARS_BIND_PORT"
    argv += ["-p", str(_port(env, variable, WEB_PORT, notes))]
    argv += _supervisors_flag(env, extra, notes)
    detail = cluster_detail(env)
    if detail is not None:
        source = f"{detail.variable} (cluster.webservice)"
        argv += _names_flag(env, detail.webservices, source, notes)
    _note_allowed_hosts(env, notes)
    return _finish(env, argv, notes, extra)


def _note_allowed_hosts(env: Mapping[str, str], notes: list[str]) -> None:
    """A note of ``MARS_WEB_ALLOWED_HOSTS``, which the program reads itself (and checks)."""
    allowed = _get(env, ALLOWED_HOSTS_ENV)
    if allowed is not None:
        notes.append(f"{ALLOWED_HOSTS_ENV}: the web service answers to {allowed}")


def _names_flag(
    env: Mapping[str, str], addresses: Sequence[str], source: str, notes: list[str]
) -> list[str]:
    """``--allowed-hosts`` and every DNS form of the Services in ``addresses`` (``host:port``
    of KubeDL's cluster detail), the short ones in the pod's namespace; nothing when none."""
    hosts = [address.rpartition(":")[0] for address in addresses]
    names = all_service_names(hosts, _get(env, "MARS_K8S_POD_NAMESPACE"))
    if not names:
        return []
    try:
        checked = to_host_names(names)
    except ValueError as error:
        raise UsageError(f"{source}: {error}") from None
    notes.append(f"{source}: the web service answers to {','.join(checked)}")
    return ["--allowed-hosts", ",".join(checked)]


def _supervisors_flag(env: Mapping[str, str], extra: Sequence[str], notes: list[str]) -> list[str]:
    """``-s`` and the supervisors; nothing when the entry point's own arguments give them,
    an error naming the variable when nothing does."""
    found = supervisor_addresses(env)
    if found is not None:
        notes.append(f"{found[0]}: supervisors {','.join(found[1])}")
        return ["-s", ",".join(found[1])]
    if _names_supervisors(extra):
        return []
    raise UsageError(
        "MARS_SUPERVISOR_ADDRESS: expected the supervisors' host:port[,host:port...] "
        f"(or KubeDL's {' or '.join(DETAIL_VARIABLES)}), and none of them is set"
    )


def supervisor_addresses(env: Mapping[str, str]) -> tuple[str, list[str]] | None:
    """The variable naming the supervisors, and their addresses: ``MARS_SUPERVISOR_ADDRESS``,
    else the cluster detail's ``scheduler`` list; None when neither is set."""
    addresses = _value(env, "MARS_SUPERVISOR_ADDRESS", to_addresses)
    if addresses is not None:
        return "MARS_SUPERVISOR_ADDRESS", addresses
    detail = cluster_detail(env)
    if detail is None:
        return None
    if not detail.schedulers:
        raise UsageError(
            f"{detail.variable}: expected a 'scheduler' list of host:port in 'cluster', "
            "found none (or set MARS_SUPERVISOR_ADDRESS)"
        )
    return f"{detail.variable} (cluster.scheduler)", detail.schedulers


def kubernetes_cores(text: str) -> int:
    """Whole cores of a Kubernetes CPU quantity, rounded up as the downward API rounds
    ``limits.cpu`` with divisor 1, and at least one.

    >>> kubernetes_cores("1500m"), kubernetes_cores("2.5"), kubernetes_cores("250m")
    (2, 3, 1)
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(m?)\s*", text)
    if match is None:
        raise ValueError(f"expected a number of cores such as 2, 2.5 or 1500m, got {text!r}")
    number = float(match[1]) / (1000 if match[2] else 1)
    if number <= 0:
        raise ValueError(f"expected more than 0 cores, got {text!r}")
    return max(1, math.ceil(number))


def _listen(env: Mapping[str, str], notes: list[str]) -> list[str]:
    argv = ["-H", LISTEN_HOST]
    ip = _value(env, "MARS_CONTAINER_IP", to_host)
    if ip is not None:
        argv += ["-a", ip]
        notes.append(f"MARS_CONTAINER_IP: advertise {ip}")
    return argv


def _port(env: Mapping[str, str], variable: str, default: int, notes: list[str]) -> int:
    port = _value(env, variable, lambda raw: to_port(raw, allow_zero=True))
    if port is None:
        return default
    notes.append(f"{variable}: port {port}")
    return port


def _cores(
    env: Mapping[str, str], detail: ClusterDetail | None, machine: HostResources, notes: list[str]
) -> int | None:
    """``MARS_CPU_TOTAL`` (else the detail's ``cpu_procs``), at most the usable cores."""
    cores = _value(env, "MARS_CPU_TOTAL", _cores_limit)
    source = "MARS_CPU_TOTAL"
    if cores == 0:
        notes.append("MARS_CPU_TOTAL: 0, no limit")
        cores = None
    if cores is None and detail is not None and detail.cpu is not None:
        cores, source = detail.cpu, f"{detail.variable} (task.resources.cpu_procs)"
    if cores is None:
        return None
    if cores > machine.n_cpu:
        notes.append(f"{source}: {cores} cores, but this container may use {machine.n_cpu}")
        return machine.n_cpu
    notes.append(f"{source}: {cores} cores")
    return cores


def _memory(
    env: Mapping[str, str], detail: ClusterDetail | None, machine: HostResources, notes: list[str]
) -> int | None:
    """``MARS_MEMORY_TOTAL`` (else the detail's ``phy_mem``), at most the machine's."""
    memory = _value(env, "MARS_MEMORY_TOTAL", _bytes)
    source = "MARS_MEMORY_TOTAL"
    if memory == 0:
        notes.append("MARS_MEMORY_TOTAL: 0, no limit")
        memory = None
    if memory is None and detail is not None and detail.memory is not None:
        memory, source = detail.memory, f"{detail.variable} (task.resources.phy_mem)"
    if memory is None:
        return None
    if memory > machine.total_memory:
        notes.append(
            f"{source}: {format_size(memory)}, but this container has "
            f"{format_size(machine.total_memory)}"
        )
        return machine.total_memory
    notes.append(f"{source}: memory {format_size(memory)}")
    return memory


def _cache(env: Mapping[str, str], memory: int, notes: list[str]) -> int | None:
    """``MARS_CACHE_MEM_SIZE`` in bytes; a share is of the worker's memory."""
    cache = _value(env, "MARS_CACHE_MEM_SIZE", lambda raw: _share_or_bytes(raw, memory))
    if cache is None:
        return None
    if cache > memory:
        raise UsageError(
            f"MARS_CACHE_MEM_SIZE: expected at most the worker's memory "
            f"({format_size(memory)}), got {format_size(cache)}"
        )
    notes.append(f"MARS_CACHE_MEM_SIZE: cache {format_size(cache)}")
    return cache


def _accepted_only(env: Mapping[str, str]) -> list[str]:
    """Notes for the two tuning variables that change nothing here, and why."""
    notes = []
    plasma = _paths(env, "MARS_PLASMA_DIRS")
    if plasma:
        notes.append(
            f"MARS_PLASMA_DIRS ({', '.join(plasma)}): accepted; the chunk store is kept in "
            "the worker's own memory (MARS_CACHE_MEM_SIZE), not in a plasma store, so "
            "nothing is written there"
        )
    lock_free = _value(env, "MARS_LOCK_FREE_FILEIO", to_bool)
    if lock_free is not None:
        notes.append(
            f"MARS_LOCK_FREE_FILEIO ({str(lock_free).lower()}): accepted; each worker "
            "writes only in a locked subdirectory of its own in every spill directory, "
            "so dedicated and shared spill directories are handled alike"
        )
    return notes


def _finish(
    env: Mapping[str, str], argv: list[str], notes: list[str], extra: Sequence[str]
) -> PodCommand:
    pod = _get(env, "MARS_K8S_POD_NAME")
    if pod is not None:
        namespace = _get(env, "MARS_K8S_POD_NAMESPACE")
        notes.insert(0, f"pod {namespace}/{pod}" if namespace else f"pod {pod}")
    if _get(env, "MARS_TOKEN") is not None:
        notes.append("MARS_TOKEN: the cluster token")
    if extra:
        notes.append(f"{len(extra)} argument(s) of the entry point after these")
    return PodCommand([*argv, *extra], notes)


def _bytes(raw: str) -> int:
    """A number of bytes or a size with a unit (``10Gi``); no share: of what?"""
    try:
        return parse_size(raw)
    except ValueError:
        raise ValueError(f"expected a size such as 2147483648, 512Mi or 2Gi, got {raw!r}") from None


def _cores_limit(raw: str) -> int:
    """``kubernetes_cores``, or 0 for a limit of zero (no limit)."""
    return 0 if re.fullmatch(r"\s*(0+(\.0*)?|\.0+)m?\s*", raw) else kubernetes_cores(raw)


def _share_or_bytes(raw: str, total: int) -> int:
    size = parse_size(raw, total)
    if size < 1:
        raise ValueError(f"expected at least 1 byte, got {raw!r}")
    return size


def _paths(env: Mapping[str, str], variable: str) -> list[str]:
    """Absolute paths separated by commas or colons (KubeDL joins with commas)."""
    text = _get(env, variable)
    if text is None:
        return []
    paths = [entry.strip() for entry in re.split(r"[,:]", text) if entry.strip()]
    relative = [path for path in paths if not path.startswith("/")]
    if relative:
        raise UsageError(
            f"{variable}: expected absolute paths separated by commas or colons, "
            f"got {relative[0]!r}"
        )
    return list(dict.fromkeys(paths))


def _value(env: Mapping[str, str], variable: str, convert: Callable[[str], T]) -> T | None:
    """``convert`` of the variable's value, None when it is unset or empty; a
    ``ValueError`` becomes a ``UsageError`` naming the variable."""
    text = _get(env, variable)
    if text is None:
        return None
    try:
        return convert(text)
    except ValueError as error:
        raise UsageError(f"{variable}: {error}") from None


def _get(env: Mapping[str, str], variable: str) -> str | None:
    text = env.get(variable)
    return text.strip() if text is not None and text.strip() else None


def _names_supervisors(extra: Sequence[str]) -> bool:
    """Whether the entry point's own arguments give the supervisors (or a config file
    that may), or ask for the help."""
    return any(argument.split("=", 1)[0] in _SUPERVISOR_FLAGS for argument in extra)

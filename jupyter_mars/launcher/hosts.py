"""Host lists for the SSH launcher: a YAML file or a Python list, checked and completed.

A host is an address (``"10.0.0.5"``) or a mapping with any of the ``FIELDS``; a
``defaults`` mapping fills what hosts leave out, ``supervisor`` names the host that runs
the supervisor (``None``, the default: this machine), and ``listen`` the address it
listens on (``None``, the default: the address of its machine that routes to the hosts;
``0.0.0.0`` for every address)::

    defaults: {user: mars, key_file: ~/.ssh/id_ed25519, python: /opt/env/bin/python, n_cpu: 4}
    supervisor: null
    listen: null
    hosts:
      - 10.0.0.5
      - {address: 10.0.0.6, n_cpu: 8, memory: 16g, cuda_devices: [0, 1]}

Every mistake is a ``ValueError`` naming the host (by position and address) and the field.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from jupyter_mars.deploy.values import to_cuda_devices, to_host, to_port
from jupyter_mars.deploy.yaml_errors import describe_yaml_error
from jupyter_mars.engine.sizes import parse_size


@dataclass(frozen=True)
class Host:
    """One machine of the list and how its worker runs."""

    address: str
    port: int = 22
    """Its SSH port."""
    user: str | None = None
    """The SSH user; None: this machine's user name."""
    key_file: str | None = None
    """The private key; None: the usual ones (``~/.ssh/id_*``, and the agent if allowed)."""
    python: str = "python3"
    """The Python that has jupyter_mars there, or a command that activates an environment
    and ends with one (``source /opt/env/bin/activate && python``)."""
    n_cpu: int | None = None
    """Cores for its worker (``--n-cpu``); None: the worker's default."""
    memory: str | None = None
    """Its worker's memory limit (``--phy-mem``), such as ``16g`` or ``80%``."""
    spill_dirs: tuple[str, ...] = ()
    cuda_devices: tuple[int, ...] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    """Extra environment variables of its worker."""
    workers: int = 1
    """Worker processes started on it."""

    @property
    def label(self) -> str:
        return self.address if self.port == 22 else f"{self.address}:{self.port}"


FIELDS = tuple(Host.__dataclass_fields__)


@dataclass(frozen=True)
class HostList:
    hosts: tuple[Host, ...]
    supervisor: Host | None = None
    """The host that runs the supervisor; None: this machine."""
    listen: str | None = None
    """The address the supervisor listens on; None: the one that routes to the hosts."""


def load_hosts(source: str | os.PathLike[str] | Sequence[Any] | Mapping[str, Any]) -> HostList:
    """The host list in ``source``: a YAML file's path, a mapping with ``hosts`` (and
    ``defaults``, ``supervisor``, ``listen``), or a list of hosts."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source).expanduser()
        try:
            raw = yaml.safe_load(path.read_text())
        except OSError as exc:
            raise ValueError(f"cannot read the host list {path}: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            raise ValueError(f"the host list {path} is {describe_yaml_error(exc)}") from None
        return parse_hosts(raw)
    return parse_hosts(source)


def parse_hosts(raw: Any) -> HostList:
    """Check and complete a host list already read (see the module docstring)."""
    if isinstance(raw, (list, tuple)):
        raw = {"hosts": list(raw)}
    if not isinstance(raw, Mapping):
        raise ValueError("a host list must be a list of hosts or a mapping with 'hosts'")
    unknown = set(raw) - {"hosts", "defaults", "supervisor", "listen"}
    if unknown:
        raise ValueError(
            f"unknown key(s) {', '.join(sorted(map(str, unknown)))} in the host list: "
            "expected hosts, defaults, supervisor and listen"
        )
    listen = raw.get("listen")
    if listen is not None:
        try:
            listen = to_host(listen)
        except ValueError as exc:
            raise ValueError(f"listen: {exc}") from None
    defaults = raw.get("defaults") or {}
    if not isinstance(defaults, Mapping):
        raise ValueError("'defaults' must be a mapping of host fields")
    entries = raw.get("hosts")
    if not isinstance(entries, (list, tuple)) or not entries:
        raise ValueError("'hosts' must be a non-empty list of hosts")
    hosts = tuple(_host(entry, defaults, i) for i, entry in enumerate(entries))
    addresses = [h.label for h in hosts]
    if len(set(addresses)) != len(addresses):
        repeated = sorted({a for a in addresses if addresses.count(a) > 1})
        raise ValueError(
            f"host(s) {', '.join(repeated)} listed twice: give one entry 'workers: N' instead"
        )
    supervisor = raw.get("supervisor")
    if supervisor is None:
        return HostList(hosts, listen=listen)
    if isinstance(supervisor, str):
        match = [h for h in hosts if supervisor in (h.address, h.label)]
        chosen = match[0] if match else _host(supervisor, defaults, "supervisor")
    else:
        chosen = _host(supervisor, defaults, "supervisor")
    return HostList(hosts, replace(chosen, workers=0), listen)


def _host(entry: Any, defaults: Mapping[str, Any], where: int | str) -> Host:
    name = f"host {where}" if isinstance(where, int) else where
    if isinstance(entry, str):
        entry = {"address": entry}
    if not isinstance(entry, Mapping):
        raise ValueError(f"{name}: expected an address or a mapping, got {entry!r}")
    merged = {**defaults, **entry}
    unknown = set(merged) - set(FIELDS)
    if unknown:
        raise ValueError(
            f"{name}: unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
            f"expected {', '.join(FIELDS)}"
        )
    if "address" not in entry:
        raise ValueError(f"{name}: 'address' is missing")
    label = f"{name} ({entry['address']})"
    values: dict[str, Any] = {}
    for key, raw in merged.items():
        try:
            values[key] = _convert(key, raw)
        except ValueError as exc:
            raise ValueError(f"{label}: {key}: {exc}") from None
    return Host(**values)


def _positive(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise ValueError(f"expected a whole number, got {raw!r}")
    return raw


def _text(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"expected text, got {raw!r}")
    return raw.strip()


def _convert(key: str, raw: Any) -> Any:
    if key == "address":
        return to_host(raw)
    if key == "port":
        return to_port(raw, allow_zero=False)
    if key in ("user", "python"):
        return _text(raw)
    if key == "key_file":
        return str(Path(_text(raw)).expanduser())
    if key == "n_cpu":
        value = _positive(raw)
        if value < 1:
            raise ValueError("expected at least 1")
        return value
    if key == "workers":
        return _positive(raw)
    if key == "memory":
        text = str(raw)
        parse_size(text, total=1 << 40)  # checked here, measured on the host by the worker
        return text
    if key == "spill_dirs":
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, (list, tuple)) or not all(isinstance(d, str) for d in items):
            raise ValueError(f"expected a directory or a list of them, got {raw!r}")
        return tuple(items)
    if key == "cuda_devices":
        return None if raw is None else tuple(to_cuda_devices(raw))
    if key == "env":
        if not isinstance(raw, Mapping) or not all(isinstance(k, str) for k in raw):
            raise ValueError(f"expected a mapping of names to values, got {raw!r}")
        return {str(k): str(v) for k, v in raw.items()}
    raise ValueError("unknown field")  # pragma: no cover - FIELDS is checked first

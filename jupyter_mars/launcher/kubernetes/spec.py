"""The checked settings of one Mars cluster on Kubernetes: ``ClusterSpec``, built by
``cluster_spec`` from the arguments of Mars's ``new_cluster``.

Every argument is checked here, before any Kubernetes object is built or any API server
contacted, and a bad one raises ``ValueError`` (a wrong value) or ``TypeError`` (a wrong
kind of value) naming it. Sizes read as ``jupyter_mars.engine.sizes`` reads them: a
unitless ``worker_mem=4`` is 4 GiB, ``4 * 1024**3`` is bytes (as Mars scripts write it),
``"4Gi"`` and ``"4GiB"`` are the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jupyter_mars.engine.sizes import EXPECTED, parse_size, parse_worker_memory

DEFAULT_IMAGE = "jupyter-mars:0.1.0"
"""The image the Dockerfile at the repository's root builds."""
SUPERVISOR_PORT = 7103
WEB_PORT = 7104
WORKER_PORT = 7105
"""Fixed ports in pods, so that Services and probes can name them."""
LAUNCHER_ENV = frozenset(
    {
        "MARS_CONTAINER_IP",
        "MARS_K8S_POD_NAME",
        "MARS_K8S_POD_NAMESPACE",
        "MARS_CPU_TOTAL",
        "MARS_MEMORY_TOTAL",
        "MARS_TOKEN",
        "MARS_BIND_PORT",
        "MARS_WEB_PORT",
        "MARS_SUPERVISOR_ADDRESS",
        "MARS_CACHE_MEM_SIZE",
        "MARS_SPILL_DIRS",
    }
)
"""The pod environment the objects set; ``extra_env`` cannot change it."""
SERVICE_TYPES = ("ClusterIP", "NodePort", "LoadBalancer")
SPILL_VOLUME_KINDS = ("emptyDir", "hostPath")

_DNS_LABEL = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LABEL_NAME = re.compile(r"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?")
_LABEL_PREFIX = re.compile(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?")
MAX_NAME = 40
"""Longest cluster name: ``<name>-supervisor`` and the pods' generated suffixes must
still fit Kubernetes' 63-character names."""


@dataclass(frozen=True)
class ExtraVolume:
    """A volume of the user's mounted in every container: the pod's ``volume`` entry
    and where it is mounted."""

    volume: dict[str, Any]
    mount_path: str


@dataclass(frozen=True)
class ClusterSpec:
    """One cluster's settings, checked; ``objects.py`` builds its objects from it."""

    name: str = "jupyter-mars"
    """Prefix of every object's name and the ``app.kubernetes.io/instance`` label."""
    namespace: str | None = None
    """Where the objects go; None: the namespace ``kubectl apply -n`` names (manifests)."""
    create_namespace: bool = False
    image: str = DEFAULT_IMAGE
    image_pull_policy: str | None = None
    supervisor_num: int = 1
    supervisor_cpu: float = 1
    supervisor_mem: int = 2 << 30
    worker_num: int = 1
    worker_cpu: float = 1
    worker_mem: int = 4 << 30
    worker_spill_paths: tuple[str, ...] = ()
    worker_spill_volume: str = "emptyDir"
    worker_cache_mem: str | None = None
    """As the worker's ``--cache-mem`` takes it: bytes, a size or a share (``80%``)."""
    min_worker_num: int = 1
    service_type: str = "NodePort"
    token_secret: str = ""
    """The Secret holding the token (key ``token``); empty: ``<name>-token``."""
    extra_env: tuple[tuple[str, str], ...] = ()
    extra_labels: tuple[tuple[str, str], ...] = ()
    extra_volumes: tuple[ExtraVolume, ...] = field(default=())
    pre_stop_command: tuple[str, ...] = ()

    @property
    def secret_name(self) -> str:
        return self.token_secret or f"{self.name}-token"


def cluster_spec(
    *,
    name: str = "jupyter-mars",
    namespace: str | None = None,
    create_namespace: bool = False,
    image: str | None = None,
    image_pull_policy: str | None = None,
    supervisor_num: int = 1,
    supervisor_cpu: float | None = None,
    supervisor_mem: str | int | float | None = None,
    worker_num: int = 1,
    worker_cpu: float | None = None,
    worker_mem: str | int | float | None = None,
    worker_spill_paths: Sequence[str] | str | None = None,
    worker_spill_volume: str = "emptyDir",
    worker_cache_mem: str | int | float | None = None,
    min_worker_num: int | None = None,
    service_type: str | None = None,
    token_secret: str | None = None,
    extra_env: Mapping[str, str] | None = None,
    extra_labels: Mapping[str, str] | None = None,
    extra_volumes: Sequence[Mapping[str, Any]] | None = None,
    pre_stop_command: Sequence[str] | str | None = None,
) -> ClusterSpec:
    """Check the arguments and return the ``ClusterSpec`` they mean (None: the default)."""
    default = ClusterSpec()
    _check_dns_label("name", name, MAX_NAME)
    if namespace is not None:
        _check_dns_label("namespace", namespace, 63)
    if not isinstance(create_namespace, bool):
        raise TypeError(f"create_namespace must be True or False, got {create_namespace!r}")
    image = default.image if image is None else image
    if not isinstance(image, str) or not image.strip() or any(c.isspace() for c in image):
        raise ValueError(f"image must be an image name such as {DEFAULT_IMAGE}, got {image!r}")
    if image_pull_policy not in (None, "Always", "IfNotPresent", "Never"):
        raise ValueError(
            f"image_pull_policy must be Always, IfNotPresent or Never, got {image_pull_policy!r}"
        )
    _check_count("supervisor_num", supervisor_num, 1)
    if supervisor_num > 1:
        raise ValueError(
            f"supervisor_num={supervisor_num}: a cluster on Kubernetes has one supervisor, "
            "which its Deployment restarts when it fails; several supervisors (one active, "
            "the others standing by) need an address each, which replicas behind one "
            "Service do not have"
        )
    _check_count("worker_num", worker_num, 1)
    if min_worker_num is None:
        min_worker_num = worker_num
    _check_count("min_worker_num", min_worker_num, 1)
    if min_worker_num > worker_num:
        raise ValueError(
            f"min_worker_num ({min_worker_num}) cannot be more than worker_num ({worker_num})"
        )
    w_mem = default.worker_mem if worker_mem is None else parse_worker_memory(worker_mem)
    s_mem = (
        default.supervisor_mem
        if supervisor_mem is None
        else parse_worker_memory(supervisor_mem, "supervisor_mem")
    )
    return ClusterSpec(
        name=name,
        namespace=namespace,
        create_namespace=create_namespace,
        image=image,
        image_pull_policy=image_pull_policy,
        supervisor_num=supervisor_num,
        supervisor_cpu=_cores("supervisor_cpu", supervisor_cpu, default.supervisor_cpu),
        supervisor_mem=s_mem,
        worker_num=worker_num,
        worker_cpu=_cores("worker_cpu", worker_cpu, default.worker_cpu),
        worker_mem=w_mem,
        worker_spill_paths=_spill_paths(worker_spill_paths),
        worker_spill_volume=_choice("worker_spill_volume", worker_spill_volume, SPILL_VOLUME_KINDS),
        worker_cache_mem=_cache_mem(worker_cache_mem, w_mem),
        min_worker_num=min_worker_num,
        service_type=_choice("service_type", service_type or default.service_type, SERVICE_TYPES),
        token_secret=_secret_name(token_secret),
        extra_env=_env(extra_env),
        extra_labels=_labels(extra_labels),
        extra_volumes=_volumes(extra_volumes),
        pre_stop_command=_command(pre_stop_command),
    )


def _check_dns_label(what: str, value: object, longest: int) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {value!r}")
    if not _DNS_LABEL.fullmatch(value) or len(value) > longest:
        raise ValueError(
            f"{what} must be lower-case letters, digits and '-', starting with a letter, "
            f"at most {longest} characters, got {value!r}"
        )


def _check_count(what: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {value!r}")
    if value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")


def _cores(what: str, value: object, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number of cores, got {value!r}")
    if not value >= 0.001 or value == float("inf"):
        raise ValueError(f"{what} must be at least 0.001 cores, got {value!r}")
    return value


def _choice(what: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def _spill_paths(paths: Sequence[str] | str | None) -> tuple[str, ...]:
    if paths is None:
        return ()
    items = [paths] if isinstance(paths, str) else paths
    if not isinstance(items, Sequence):
        raise TypeError(f"worker_spill_paths must be a list of paths, got {paths!r}")
    for path in items:
        if not isinstance(path, str) or not path.startswith("/") or ":" in path or "," in path:
            raise ValueError(
                "worker_spill_paths must be absolute paths in the container, without ':' "
                f"or ',', got {path!r}"
            )
    if len(set(items)) != len(items):
        raise ValueError(f"worker_spill_paths names a path twice: {list(items)!r}")
    return tuple(items)


def _cache_mem(value: str | int | float | None, worker_mem: int) -> str | None:
    if value is None:
        return None
    try:
        size = parse_size(value, total=worker_mem)
    except ValueError:
        raise ValueError(
            f"worker_cache_mem must be {EXPECTED} (a share of worker_mem), got {value!r}"
        ) from None
    if not 0 < size <= worker_mem:
        raise ValueError(
            f"worker_cache_mem ({value!r}) must be more than 0 and at most worker_mem"
            f" ({worker_mem} bytes)"
        )
    return str(value).strip()


def _secret_name(value: str | None) -> str:
    if value is None:
        return ""
    _check_dns_label("token_secret", value, 63)
    return value


def _env(extra: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    if extra is None:
        return ()
    if not isinstance(extra, Mapping):
        raise TypeError(f"extra_env must be a mapping of names to str, got {extra!r}")
    for key, value in extra.items():
        if not isinstance(key, str) or not _ENV_NAME.fullmatch(key):
            raise ValueError(f"extra_env: {key!r} is not an environment variable name")
        if not isinstance(value, str):
            raise TypeError(f"extra_env[{key!r}] must be a str, got {value!r}")
        if key in LAUNCHER_ENV:
            raise ValueError(
                f"extra_env: {key} is set by the launcher (ports, addresses and limits the "
                "Services and probes rely on; the memory tuning from its own arguments)"
            )
    return tuple(extra.items())


def _labels(extra: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    if extra is None:
        return ()
    if not isinstance(extra, Mapping):
        raise TypeError(f"extra_labels must be a mapping of str to str, got {extra!r}")
    for key, value in extra.items():
        if not isinstance(key, str) or not _label_key_ok(key):
            raise ValueError(f"extra_labels: {key!r} is not a Kubernetes label key")
        if key.startswith("app.kubernetes.io/"):
            raise ValueError(f"extra_labels: {key!r} is set by the launcher itself")
        if not isinstance(value, str) or len(value) > 63 or not _LABEL_NAME.fullmatch(value):
            raise ValueError(f"extra_labels[{key!r}]: {value!r} is not a label value")
    return tuple(extra.items())


def _label_key_ok(key: str) -> bool:
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not _LABEL_PREFIX.fullmatch(prefix)):
        return False
    return 0 < len(name) <= 63 and bool(_LABEL_NAME.fullmatch(name))


def _volumes(extra: Sequence[Mapping[str, Any]] | None) -> tuple[ExtraVolume, ...]:
    if extra is None:
        return ()
    if isinstance(extra, Mapping | str) or not isinstance(extra, Sequence):
        raise TypeError(f"extra_volumes must be a list of volumes, got {extra!r}")
    volumes = []
    for item in extra:
        if not isinstance(item, Mapping):
            raise TypeError(f"extra_volumes: each volume must be a mapping, got {item!r}")
        volume = dict(item)
        mount_path = volume.pop("mountPath", None)
        name = volume.get("name")
        if not isinstance(mount_path, str) or not mount_path.startswith("/"):
            raise ValueError(
                f"extra_volumes: {name!r} needs 'mountPath', an absolute path, got {mount_path!r}"
            )
        _check_dns_label("extra_volumes name", name, 63)
        if len(volume) != 2:
            raise ValueError(
                f"extra_volumes: {name!r} needs exactly one volume source besides 'name' and "
                f"'mountPath' (such as 'persistentVolumeClaim'), got {sorted(volume)}"
            )
        volumes.append(ExtraVolume(volume, mount_path))
    names = [v.volume["name"] for v in volumes]
    if len(set(names)) != len(names) or any(n.startswith("spill-") for n in names):
        raise ValueError(f"extra_volumes: names must differ and not start with 'spill-': {names}")
    return tuple(volumes)


def _command(command: Sequence[str] | str | None) -> tuple[str, ...]:
    if command is None:
        return ()
    if isinstance(command, str):
        return ("/bin/sh", "-c", command)
    if not isinstance(command, Sequence) or not all(isinstance(a, str) for a in command):
        raise TypeError(f"pre_stop_command must be a str or a list of str, got {command!r}")
    return tuple(command)

"""What a cluster request asks for, as PyODPS's ``create_mars_cluster`` writes it: checked,
with the launchers' older keyword names accepted, and weighed against a host (pure).

>>> worker_request(5, 4, 16, min_worker_num=3)
WorkerRequest(worker_num=5, worker_cpu=4, worker_mem=17179869184, min_worker_num=3)
>>> worker_request(n_worker=2, memory="512MiB").worker_mem
536870912
>>> overcommitted(worker_request(5, 4, 16), host_cores=2, host_memory=24 << 30)
['a worker of 4 cores runs 4 tasks at once; this machine has 2 cores: they share them', \
'5 workers of 16GiB ask 80GiB; this machine has 24GiB: they share it']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.sizes import format_size, parse_worker_memory

DEFAULT_WORKERS = 2
DEFAULT_CPU = 1

_ALIASES = {"worker_num": "n_worker", "worker_cpu": "n_cpu", "worker_mem": "memory"}
"""The launchers' first keyword names, kept working as aliases of the PyODPS ones."""


@dataclass(frozen=True)
class WorkerRequest:
    worker_num: int
    worker_cpu: int
    worker_mem: int | str | None
    """Bytes per worker; a share of the host's memory (``"80%"``) stays text, measured by
    each worker on its host; None: the worker's default (all the host has)."""
    min_worker_num: int
    """Workers that must have joined before the launcher returns."""


def pick(name: str, value: Any, alias_value: Any) -> tuple[str, Any]:
    """The keyword given, ``name`` or its older alias, and its value (None: neither);
    both given is a ``TypeError``."""
    if value is not None and alias_value is not None:
        raise TypeError(f"give {name} or {_ALIASES[name]}, not both")
    return (name, value) if alias_value is None else (_ALIASES[name], alias_value)


def _count(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def worker_memory(value: Any, name: str = "worker_mem") -> int | str | None:
    """Bytes of one worker's memory (a number without a unit is GiB, see
    ``parse_worker_memory``); a percentage stays text for the worker to measure."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().endswith("%"):
        number = value.strip()[:-1].strip()
        try:
            share = float(number)
        except ValueError:
            raise ValueError(f"{name} must be a share such as 80%, got {value!r}") from None
        if not 0 < share <= 100:
            raise ValueError(f"{name} must be a share in (0%, 100%], got {value!r}")
        return value.strip()
    return parse_worker_memory(value, name)


def worker_request(
    worker_num: int | None = None,
    worker_cpu: int | None = None,
    worker_mem: int | float | str | None = None,
    min_worker_num: int | None = None,
    *,
    n_worker: int | None = None,
    n_cpu: int | None = None,
    memory: int | float | str | None = None,
    default_workers: int = DEFAULT_WORKERS,
) -> WorkerRequest:
    """The checked request; ``n_worker``, ``n_cpu`` and ``memory`` are the older names of
    ``worker_num``, ``worker_cpu`` and ``worker_mem``. ``min_worker_num`` defaults to all."""
    number_name, number = pick("worker_num", worker_num, n_worker)
    cpu_name, cpu = pick("worker_cpu", worker_cpu, n_cpu)
    number = default_workers if number is None else _count(number_name, number, 1)
    cpu = DEFAULT_CPU if cpu is None else _count(cpu_name, cpu, 1)
    mem = worker_memory(*reversed(pick("worker_mem", worker_mem, memory)))
    if min_worker_num is None:
        least = number
    else:
        least = _count("min_worker_num", min_worker_num, 0)
        if least > number:
            raise ValueError(
                f"min_worker_num must be at most {number_name} ({number}), got {min_worker_num}"
            )
    return WorkerRequest(number, cpu, mem, least)


def overcommitted(request: WorkerRequest, host_cores: int, host_memory: int) -> list[str]:
    """One line per resource asked beyond what the host has: as Mars and Dask do, the
    workers are started anyway and share it. Cores count per worker (several one-core
    workers on fewer cores is the ordinary local cluster); memory over all workers.
    Raises ``ValueError`` when one worker alone asks more memory than the host has,
    which it could never use."""
    notes = []
    n, cpu, mem = request.worker_num, request.worker_cpu, request.worker_mem
    if cpu > host_cores:
        notes.append(
            f"a worker of {cpu} cores runs {cpu} tasks at once; this machine has "
            f"{host_cores} core{'' if host_cores == 1 else 's'}: they share them"
        )
    if isinstance(mem, int):
        if mem > host_memory:
            raise ValueError(
                f"worker_mem must be at most this machine's memory "
                f"({format_size(host_memory)}), got {format_size(mem)}"
            )
        if n * mem > host_memory:
            notes.append(
                f"{_workers(n)} of {format_size(mem)} ask {format_size(n * mem)}; "
                f"this machine has {format_size(host_memory)}: they share it"
            )
    return notes


def _workers(n: int) -> str:
    return f"{n} worker{'' if n == 1 else 's'}"

"""Sessions: where tensors are executed and their results kept.

``new_session()`` with no address starts the embedded runtime in this process and makes
it the default session; with a supervisor's address, a cluster's ``RemoteSession``;
``new_ray_session()`` runs on a Ray cluster (``ray/``, Ray imported only then).
``execute``/``fetch`` use the default session unless given one (``executable.py``);
``session.run(t)`` executes and fetches in one call, as Mars's ``Session.run`` did.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from jupyter_mars.executable import (
    EmbeddedSession,
    Executable,
    ExecutableTuple,
    PendingRun,
    Session,
    available_cpus,
    default_cpus,
    execute,
    executed_data,
    fetch,
    get_default_session,
)
from jupyter_mars.ray.session import RaySession, new_ray_session
from jupyter_mars.remote import RemoteSession

__all__ = [
    "EmbeddedSession",
    "Executable",
    "ExecutableTuple",
    "PendingRun",
    "RaySession",
    "RemoteSession",
    "Session",
    "available_cpus",
    "default_cpus",
    "execute",
    "executed_data",
    "fetch",
    "get_default_session",
    "new_ray_session",
    "new_session",
]


def new_session(
    address: str | None = None,
    *,
    n_cpu: int | None = None,
    token: str | None = None,
    default: bool = True,
    memory_limit: int | str | None = None,
    spill_dir: str | os.PathLike[str] | None = None,
    cuda_devices: Iterable[int] | None = None,
) -> Session:
    """A session: with no address, the embedded runtime in this process; with a
    supervisor's web address (``http://host:port``), that cluster.

    ``memory_limit`` and ``spill_dir`` bound the embedded runtime's memory
    (``EmbeddedSession``); a cluster's workers have their own (``--cache-mem``).
    ``cuda_devices`` gives the embedded runtime a GPU slot per CUDA device (None: every
    device there is; ``[]``: none); a cluster's workers have their own
    (``--cuda-devices``)."""
    session: Session
    if address is not None:
        if cuda_devices is not None:
            raise TypeError(
                "cuda_devices applies to the embedded runtime; a cluster's workers have "
                "their own (mars-worker --cuda-devices)"
            )
        for name, value in (("n_cpu", n_cpu), ("memory_limit", memory_limit)):
            if value is not None:
                raise TypeError(f"{name} applies to the embedded runtime; a cluster has its own")
        if spill_dir is not None:
            raise TypeError("spill_dir applies to the embedded runtime; a cluster has its own")
        session = RemoteSession(address, token=token)
    else:
        session = EmbeddedSession(
            n_cpu=n_cpu, memory_limit=memory_limit, spill_dir=spill_dir, cuda_devices=cuda_devices
        )
    if default:
        session.as_default()
    return session

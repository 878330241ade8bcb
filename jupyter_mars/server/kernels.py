"""Which notebook each kernel of this Jupyter server runs, by the kernel's process id: how
the panel names the notebook that started a cluster (its registry record names the owner
process only)."""

from __future__ import annotations

from typing import Any


async def notebooks_by_pid(kernel_manager: Any, session_manager: Any) -> dict[int, str | None]:
    """Each local kernel's pid -> the path of the notebook its session opened (None for a
    kernel no session names). A kernel whose pid is not known here (a remote provisioner)
    is left out."""
    paths: dict[str, str] = {}
    if session_manager is not None:
        for session in await session_manager.list_sessions():
            kernel = session.get("kernel") or {}
            if kernel.get("id") and session.get("path"):
                paths[kernel["id"]] = session["path"]
    out: dict[int, str | None] = {}
    if kernel_manager is None:
        return out
    for kernel_id in kernel_manager.list_kernel_ids():
        try:
            manager = kernel_manager.get_kernel(kernel_id)
        except KeyError:  # it went away while listed
            continue
        pid = getattr(getattr(manager, "provisioner", None), "pid", None)
        if isinstance(pid, int) and pid > 0:
            out[pid] = paths.get(kernel_id)
    return out

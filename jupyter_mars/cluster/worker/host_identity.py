"""What a worker says of the machine it runs on, so that the supervisor can tell which
workers share one: an id, the machine's memory and its cores.

The id is the machine id (``/etc/machine-id``, else the host name) joined to the kernel's
boot id: processes in network namespaces or behind other addresses on one machine share
it (they share its memory too), while a reinstalled or rebooted machine gets a new one.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import psutil

MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")
BOOT_ID_FILE = "/proc/sys/kernel/random/boot_id"


def _first_line(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def host_id() -> str:
    """This machine's id: ``<machine id or host name>/<boot id>`` (no boot id: none)."""
    machine = next((i for i in map(_first_line, MACHINE_ID_FILES) if i), "")
    return f"{machine or socket.gethostname()}/{_first_line(BOOT_ID_FILE)}"


def host_figures() -> dict[str, object]:
    """The id, total memory in bytes and logical cores of this machine."""
    return {
        "id": host_id(),
        "memory": int(psutil.virtual_memory().total),
        "cpus": os.cpu_count() or 1,
    }

"""``python -m jupyter_mars.deploy.kubernetes.worker``: ``mars-worker`` in a pod.

Its command line comes from the pod's environment (``pod_env.worker_command``): the
supervisors from ``MARS_SUPERVISOR_ADDRESS`` or KubeDL's cluster detail, the container's
limits as ``--n-cpu`` and ``--phy-mem`` (at most what this container really has), and
KubeDL's memory tuning variables (``MARS_CACHE_MEM_SIZE``, ``MARS_SPILL_DIRS``, ...).
Arguments given to it come after those, so a pod spec's ``args:`` win.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from jupyter_mars.deploy import worker
from jupyter_mars.deploy.cli import WORKER_PROG
from jupyter_mars.deploy.kubernetes.entry import run_from_environment
from jupyter_mars.deploy.kubernetes.pod_env import PodCommand, worker_command
from jupyter_mars.deploy.resources import probe_host


def command(env: Mapping[str, str], extra: Sequence[str]) -> PodCommand:
    """The worker's arguments, its limits measured against this container."""
    return worker_command(env, probe_host(), extra)


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_environment(WORKER_PROG, command, worker.main, argv)


if __name__ == "__main__":
    sys.exit(main())

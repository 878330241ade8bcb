"""``python -m jupyter_mars.deploy.kubernetes.supervisor``: ``mars-supervisor`` in a pod.

Its command line comes from the pod's environment (``pod_env.supervisor_command``): the
pod IP advertised, RPC port 7103 and web port 7104 unless ``MARS_BIND_PORT`` and
``MARS_WEB_PORT`` say otherwise, the token from ``MARS_TOKEN``. Arguments given to it
come after those, so a pod spec's ``args:`` win.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from jupyter_mars.deploy import supervisor
from jupyter_mars.deploy.cli import SUPERVISOR_PROG
from jupyter_mars.deploy.kubernetes.entry import run_from_environment
from jupyter_mars.deploy.kubernetes.pod_env import supervisor_command


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_environment(SUPERVISOR_PROG, supervisor_command, supervisor.main, argv)


if __name__ == "__main__":
    sys.exit(main())

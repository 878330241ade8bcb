"""``python -m jupyter_mars.deploy.kubernetes.web``: ``mars-web`` in a pod.

The web service in its own process, in front of the supervisors (KubeDL's ``WebService``
replica). Its command line comes from the pod's environment (``pod_env.web_command``):
every interface, the pod IP advertised, port ``MARS_WEB_PORT`` (else ``MARS_BIND_PORT``,
else 7104), the supervisors from ``MARS_SUPERVISOR_ADDRESS`` or KubeDL's cluster detail,
the token from ``MARS_TOKEN``. Arguments given to it come after those.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from jupyter_mars.deploy import web
from jupyter_mars.deploy.cli import WEB_PROG
from jupyter_mars.deploy.kubernetes.entry import run_from_environment
from jupyter_mars.deploy.kubernetes.pod_env import web_command


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_environment(WEB_PROG, web_command, web.main, argv)


if __name__ == "__main__":
    sys.exit(main())

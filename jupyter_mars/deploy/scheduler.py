"""``mars-scheduler`` (also ``python -m jupyter_mars.deploy.scheduler``): a supervisor
under the name Mars's older generation gave it.

It takes the supervisor's flags and the older ones of ``mars-scheduler``
(``deploy/old_flags.py``): ``-a <ip> -p <port> -s <schedulers>`` start it as the older
documents write; ``--nproc`` is noted on stderr and has no effect. Like the supervisor it
serves the web service on ``-w`` (any free port by default); a ``mars-web`` process in
front of it finds that port by asking the supervisor.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from jupyter_mars.deploy.cli import SCHEDULER_PROG, parse_scheduler_args, run_cli
from jupyter_mars.deploy.supervisor import serve


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli(parse_scheduler_args, argv, serve, prog=SCHEDULER_PROG)


if __name__ == "__main__":
    sys.exit(main())

"""Command lines and configuration of ``mars-supervisor`` and ``mars-worker``.

Flags, YAML config files and the environment become a checked ``SupervisorConfig`` or
``WorkerConfig``; sizes such as ``8g`` or ``80%`` become bytes; the cluster token is
resolved, generated, or kept in a file only its user can read. The programs themselves,
``supervisor`` and ``worker`` (``python -m jupyter_mars.deploy.supervisor``), start the
servers of ``jupyter_mars/cluster/`` with that configuration, the supervisor with its web
service (``jupyter_mars/web/``) around it; the other modules here start nothing.

Modules, in the order a command line flows through them: ``arguments`` (flags, argparse),
``config_file`` (``-f`` YAML), ``values`` (converting each value), ``engine/sizes`` (shared with
``new_session(memory_limit=...)``), ``settings``
(precedence and blame), ``checks`` (against this machine), ``resources`` (cores, memory),
``configs`` (the dataclasses), ``cli`` (parse functions and ``run_cli``), ``tokens``,
``logs``; ``nanny`` (the parent process that runs and restarts a worker) with its
``restarts`` policy; ``supervisor`` and ``worker``, the programs. The older commands:
``old_flags`` (the older generation's flags, rewritten as today's), ``scheduler`` (the
supervisor as ``mars-scheduler``) and ``web`` (``mars-web``: the web service in its own
process, in front of the supervisors).
"""

from jupyter_mars.deploy.cli import (
    parse_scheduler_args,
    parse_supervisor_args,
    parse_web_args,
    parse_worker_args,
    run_cli,
)
from jupyter_mars.deploy.configs import ProcessConfig, SupervisorConfig, WebConfig, WorkerConfig
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.logs import configure_logging
from jupyter_mars.deploy.resources import HostResources, probe_host
from jupyter_mars.engine.sizes import format_size, parse_size
from jupyter_mars.remote.tokens import (
    generate_token,
    read_token_file,
    remove_token_file,
    resolve_token,
    write_token_file,
)

__all__ = [
    "HostResources",
    "ProcessConfig",
    "SupervisorConfig",
    "UsageError",
    "WebConfig",
    "WorkerConfig",
    "configure_logging",
    "format_size",
    "generate_token",
    "parse_scheduler_args",
    "parse_size",
    "parse_supervisor_args",
    "parse_web_args",
    "parse_worker_args",
    "probe_host",
    "read_token_file",
    "remove_token_file",
    "resolve_token",
    "run_cli",
    "write_token_file",
]

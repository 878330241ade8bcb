"""Command lines and configuration of ``mars-supervisor`` and ``mars-worker``.

No servers here: flags, YAML config files and the environment become a checked
``SupervisorConfig`` or ``WorkerConfig``; sizes such as ``8g`` or ``80%`` become bytes;
the cluster token is resolved, generated, or kept in a file only its user can read.

Modules, in the order a command line flows through them: ``arguments`` (flags, argparse),
``config_file`` (``-f`` YAML), ``values`` (converting each value), ``engine/sizes`` (shared with
``new_session(memory_limit=...)``), ``settings``
(precedence and blame), ``checks`` (against this machine), ``resources`` (cores, memory),
``configs`` (the dataclasses), ``cli`` (parse functions and ``run_cli``), ``tokens``,
``logs``; ``nanny`` (the parent process that runs and restarts a worker) with its
``restarts`` policy.
"""

from jupyter_mars.deploy.cli import parse_supervisor_args, parse_worker_args, run_cli
from jupyter_mars.deploy.configs import ProcessConfig, SupervisorConfig, WorkerConfig
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
    "WorkerConfig",
    "configure_logging",
    "format_size",
    "generate_token",
    "parse_size",
    "parse_supervisor_args",
    "parse_worker_args",
    "probe_host",
    "read_token_file",
    "remove_token_file",
    "resolve_token",
    "run_cli",
    "write_token_file",
]

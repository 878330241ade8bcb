"""What ``mars-supervisor`` and ``mars-worker`` were asked to do, checked and typed.

``parse_supervisor_args`` and ``parse_worker_args`` (in ``jupyter_mars.deploy.cli``)
build these from the command line, the config file, the environment and the defaults.
Every value is already validated: sizes are bytes, paths are absolute, addresses are
``host:port``. The token is left out of ``repr`` so that logging a config cannot leak it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jupyter_mars.deploy.values import UvloopChoice

MIN_MEM_DEFAULT = 128 * 1024**2
"""``--min-mem`` when not given: 128 MiB, as in Mars."""
NO_WORKERS_TIMEOUT = 60.0
"""``--no-workers-timeout`` when not given."""
SESSION_TIMEOUT_DEFAULT = 300.0
"""``--session-timeout`` when not given: five minutes."""


@dataclass(frozen=True, kw_only=True)
class ProcessConfig:
    """Options both programs take."""

    host: str = "0.0.0.0"
    """Address to listen on (``-H``); ``0.0.0.0`` is every IPv4 interface."""
    port: int = 0
    """Port to listen on (``-p``); 0 lets the OS pick a free one."""
    advertise_address: str | None = None
    """Host other processes should use to reach this one (``-a``), when ``host`` is not
    it (several interfaces, a container, NAT); None: the listening address."""
    supervisors: list[str] = field(default_factory=list)
    """Supervisor addresses, ``host:port`` each (``-s``)."""
    config_file: str | None = None
    """The YAML file the options were read from (``-f``), if any."""
    log_level: str | None = None
    """``debug``, ``info``, ``warning``, ``error`` or ``critical``; None: the conf file's
    level, else ``info``."""
    log_format: str | None = None
    """A ``%``-style logging format; None: the default of ``jupyter_mars.deploy.logs``."""
    log_conf: str | None = None
    """A ``logging.config.fileConfig`` file (``--log-conf``); None: ``logging.conf`` in the
    working directory when there is one (read by ``configure_logging``), else stderr."""
    use_uvloop: UvloopChoice = "auto"
    """Run the event loop on uvloop: ``yes``, ``no``, or ``auto`` (when it is installed)."""
    token: str | None = field(default=None, repr=False)
    """The cluster token from ``--token``, the config file or ``MARS_TOKEN``; None: the
    supervisor generates one, a worker looks for the supervisor's token file."""


@dataclass(frozen=True, kw_only=True)
class SupervisorConfig(ProcessConfig):
    """The options of ``mars-supervisor``."""

    allowed_hosts: list[str] = field(default_factory=list)
    """More host names the web service answers to (``--allowed-hosts``, the config file's
    ``allowed_hosts`` and ``MARS_WEB_ALLOWED_HOSTS`` together), lower-case; a leading dot
    stands for a domain and its subdomains."""

    web_port: int = 0
    """Port of the HTTP API and web UI (``-w``); 0 lets the OS pick a free one."""
    web_base_path: str = "/"
    """URL path the HTTP API and web UI are served under (``--web-base-path``), starting
    and ending with ``/``: a proxy may serve them under ``/mars/``."""
    no_workers_timeout: float = NO_WORKERS_TIMEOUT
    """Seconds jobs wait for a worker while the cluster has none, before they fail with an
    error that says so (``--no-workers-timeout``)."""
    session_timeout: float = SESSION_TIMEOUT_DEFAULT
    """Seconds a session lives without a request or keep-alive from its client
    (``--session-timeout``); then it is closed and its results are freed."""


@dataclass(frozen=True, kw_only=True)
class WebConfig(ProcessConfig):
    """The options of ``mars-web``: the common ones, ``supervisors`` with at least one
    entry (the web service forwards to the active one's)."""

    allowed_hosts: list[str] = field(default_factory=list)
    """More host names it answers to, as ``SupervisorConfig.allowed_hosts``."""


@dataclass(frozen=True, kw_only=True)
class WorkerConfig(ProcessConfig):
    """The options of ``mars-worker``; ``supervisors`` has at least one entry."""

    n_cpu: int
    """Task slots (``--n-cpu``); by default the cores this process may run on."""
    n_io_process: int = 1
    """Processes for network transfers (``--n-io-process``)."""
    cuda_devices: list[int] | None = None
    """CUDA device indices to use (``--cuda-devices``); None: all, ``[]``: none."""
    gpu_mem: int | float | None = None
    """Device memory each device keeps GPU chunks in (``--gpu-mem``): bytes, or a share of
    the device's memory (a float); None: 90 %."""
    phy_mem: int
    """Bytes of memory the worker may use in all (``--phy-mem``); by default the physical
    memory (or the container's limit)."""
    phy_mem_given: bool = False
    """Whether ``--phy-mem`` (or the config file) set ``phy_mem``; if not, the cluster shows
    the worker's share of a machine it shares with other workers."""
    cache_mem: int
    """Bytes of chunk data held in memory before spilling (``--cache-mem``); by default
    half of the free memory, and never more than ``phy_mem``."""
    min_mem: int = MIN_MEM_DEFAULT
    """Bytes that must be free for the worker to start (``--min-mem``)."""
    memory_soft_limit: int | None = None
    """Bytes of memory above which the worker spills and starts no new task
    (``--memory-soft-limit``); None: 75 % of ``phy_mem``."""
    memory_hard_limit: int | None = None
    """Bytes of memory past which the task growing it is stopped (``--memory-hard-limit``);
    None: 90 % of ``phy_mem``."""
    spill_dirs: list[str] = field(default_factory=list)
    """Absolute directories to spill chunks to (``--spill-dir``); they exist once parsed."""
    nanny: bool = True
    """Run the worker as the child of a nanny process that restarts it when it dies and
    sets its environment (``deploy/nanny.py``); False with ``--no-nanny``."""

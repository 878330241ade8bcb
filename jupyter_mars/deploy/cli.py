"""``mars-supervisor`` and ``mars-worker`` command lines: parse, check, and report misuse.

>>> config = parse_supervisor_args(["-p", "0", "-w", "0", "--log-level", "DEBUG"], env={})
>>> config.host, config.port, config.log_level
('0.0.0.0', 0, 'debug')

``parse_supervisor_args`` and ``parse_worker_args`` return a checked config or raise
``UsageError``; ``run_cli`` turns that into one line on stderr and exit status 2:

    mars-worker: error: argument --cache-mem: expected at most --phy-mem (4GiB), got 8GiB

Order of work: collect the flags, read the ``-f`` file, convert every value (command line
over file over environment over default), then check them against the machine (host
resolves, ports free, enough free memory, files exist) and, last, create the spill directories, so
that a rejected command line leaves nothing behind.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TypedDict, TypeVar

from jupyter_mars.deploy.arguments import (
    ALLOWED_HOSTS,
    COMMON_OPTIONS,
    SUPERVISOR_OPTIONS,
    WORKER_OPTIONS,
    ArgumentParser,
    Option,
    build_parser,
    flag_labels,
    parse_command_line,
)
from jupyter_mars.deploy.checks import (
    check_file,
    check_local,
    check_port_free,
    check_resolvable,
    is_local_address,
    prepare_spill_dirs,
)
from jupyter_mars.deploy.config_file import load_config_file
from jupyter_mars.deploy.configs import (
    MIN_MEM_DEFAULT,
    NO_WORKERS_TIMEOUT,
    SESSION_TIMEOUT_DEFAULT,
    SupervisorConfig,
    WebConfig,
    WorkerConfig,
)
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.old_flags import (
    SCHEDULER_OLD_FLAGS,
    WEB_OLD_FLAGS,
    WORKER_OLD_FLAGS,
    OldFlag,
    help_epilog,
    translate,
    value_flags,
)
from jupyter_mars.deploy.resources import HostResources, probe_host
from jupyter_mars.deploy.settings import Settings
from jupyter_mars.deploy.values import (
    UvloopChoice,
    to_addresses,
    to_base_path,
    to_bool,
    to_cuda_devices,
    to_device_size,
    to_host,
    to_host_names,
    to_int,
    to_log_format,
    to_log_level,
    to_path,
    to_paths,
    to_port,
    to_seconds,
    to_token,
    to_uvloop,
)
from jupyter_mars.engine.sizes import EXPECTED, format_size, parse_size
from jupyter_mars.remote.tokens import resolve_token

SUPERVISOR_PROG = "mars-supervisor"
WORKER_PROG = "mars-worker"
SCHEDULER_PROG = "mars-scheduler"
WEB_PROG = "mars-web"
WEB_OPTIONS = COMMON_OPTIONS + (ALLOWED_HOSTS,)
"""``mars-web`` takes the options every program does: where to listen, the supervisors
(``-s``, required), the token, logging; and the names it answers to."""
ALLOWED_HOSTS_ENV = "MARS_WEB_ALLOWED_HOSTS"
"""The environment variable of more host names the web service answers to (as
``--allowed-hosts``; a pod's spec sets it to the names of its Services)."""
C = TypeVar("C")


class CommonValues(TypedDict):
    """The converted options both programs share, ready to pass to a config."""

    host: str
    port: int
    advertise_address: str | None
    supervisors: list[str]
    config_file: str | None
    log_level: str | None
    log_format: str | None
    log_conf: str | None
    use_uvloop: UvloopChoice
    token: str | None


def parse_supervisor_args(
    argv: Sequence[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    prog: str = SUPERVISOR_PROG,
    epilog: str = "",
) -> SupervisorConfig:
    """The checked options of ``mars-supervisor``; ``env`` defaults to ``os.environ``."""
    settings, _ = _gather(
        prog, "Start a jupyter_mars supervisor.", SUPERVISOR_OPTIONS, argv, epilog
    )
    environment = os.environ if env is None else env
    common = _common(settings, environment)
    allowed_hosts = _allowed_hosts(settings, environment)
    web_port = settings.get("web_port", to_port, 0)
    web_base_path = settings.get("web_base_path", to_base_path, "/")
    no_workers_timeout = settings.get("no_workers_timeout", to_seconds, NO_WORKERS_TIMEOUT)
    session_timeout = settings.get("session_timeout", to_seconds, SESSION_TIMEOUT_DEFAULT)
    _check_common(settings, common)
    _check_shared_token(common)
    if web_port != 0 and web_port == common["port"]:
        raise UsageError(f"{settings.label('web_port')}: expected a port other than -p's")
    with settings.blame("web_port"):
        check_port_free(common["host"], web_port)
    return SupervisorConfig(
        **common,
        allowed_hosts=allowed_hosts,
        web_port=web_port,
        web_base_path=web_base_path,
        no_workers_timeout=no_workers_timeout,
        session_timeout=session_timeout,
    )


def parse_worker_args(
    argv: Sequence[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    resources: HostResources | None = None,
) -> WorkerConfig:
    """The checked options of ``mars-worker``; ``resources`` defaults to ``probe_host()``.

    The older flags (``--cpu-procs``) are not read here: ``mars-worker`` rewrites them
    first (``with_old_flags``), so that the nanny hands its worker today's flags."""
    epilog = help_epilog(WORKER_OLD_FLAGS)
    settings, parser = _gather(
        WORKER_PROG, "Start a jupyter_mars worker.", WORKER_OPTIONS, argv, epilog
    )
    common = _common(settings, os.environ if env is None else env)
    if not common["supervisors"]:
        raise UsageError(
            "the following arguments are required: -s/--supervisors "
            "(or 'supervisors' in the config file)",
            prog=WORKER_PROG,
            usage=parser.format_usage(),
        )
    machine = resources or probe_host()
    n_cpu = settings.get("n_cpu", _count("a number of cores >= 1"), machine.n_cpu)
    n_io = settings.get("n_io_process", _count("a number of processes >= 1"), 1)
    cuda_devices = settings.get("cuda_devices", to_cuda_devices, None)
    gpu_mem = settings.get("gpu_mem", to_device_size, None)
    phy_mem = settings.get("phy_mem", _size(machine.total_memory, 1), machine.total_memory)
    default_cache = min(phy_mem, machine.available_memory) // 2
    cache_mem = settings.get("cache_mem", _size(machine.total_memory, 1), default_cache)
    min_mem = settings.get("min_mem", _size(machine.total_memory, 0), MIN_MEM_DEFAULT)
    spill_dirs: list[str] = settings.get("spill_dirs", to_paths, [])
    no_nanny = settings.get("no_nanny", to_bool, False)
    # shares of these two are of the worker's memory, not the machine's
    soft_limit = settings.get("memory_soft_limit", _size(phy_mem, 1), None)
    hard_limit = settings.get("memory_hard_limit", _size(phy_mem, 1), None)
    _check_memory_limits(settings, phy_mem, soft_limit, hard_limit)
    if cache_mem > phy_mem:
        raise UsageError(
            f"{settings.label('cache_mem')}: expected at most --phy-mem "
            f"({format_size(phy_mem)}), got {format_size(cache_mem)}"
        )
    if machine.available_memory < min_mem:
        raise UsageError(
            f"{settings.label('min_mem')}: expected at most the free memory "
            f"({format_size(machine.available_memory)}), got {format_size(min_mem)}"
        )
    _check_common(settings, common)
    with settings.blame("spill_dirs"):
        prepare_spill_dirs(spill_dirs)
    return WorkerConfig(
        **common,
        n_cpu=n_cpu,
        n_io_process=n_io,
        cuda_devices=cuda_devices,
        gpu_mem=gpu_mem,
        phy_mem=phy_mem,
        phy_mem_given=settings.given("phy_mem"),
        cache_mem=cache_mem,
        min_mem=min_mem,
        spill_dirs=spill_dirs,
        nanny=not no_nanny,
        memory_soft_limit=soft_limit,
        memory_hard_limit=hard_limit,
    )


def parse_scheduler_args(
    argv: Sequence[str] | None = None, *, env: Mapping[str, str] | None = None
) -> SupervisorConfig:
    """``mars-scheduler``: a supervisor under Mars's older name, taking the older flags
    (each noted on stderr, or refused) besides today's."""
    arguments = with_old_flags(SCHEDULER_PROG, argv, SCHEDULER_OLD_FLAGS, SUPERVISOR_OPTIONS)
    epilog = help_epilog(SCHEDULER_OLD_FLAGS)
    return parse_supervisor_args(arguments, env=env, prog=SCHEDULER_PROG, epilog=epilog)


def parse_web_args(
    argv: Sequence[str] | None = None, *, env: Mapping[str, str] | None = None
) -> WebConfig:
    """The checked options of ``mars-web``, older flags included."""
    arguments = with_old_flags(WEB_PROG, argv, WEB_OLD_FLAGS, WEB_OPTIONS)
    settings, parser = _gather(
        WEB_PROG,
        "Serve the HTTP API and dashboard of a jupyter_mars cluster in their own process, "
        "in front of the supervisors given by -s.",
        WEB_OPTIONS,
        arguments,
        help_epilog(WEB_OLD_FLAGS),
    )
    environment = os.environ if env is None else env
    common = _common(settings, environment)
    allowed_hosts = _allowed_hosts(settings, environment)
    if not common["supervisors"]:
        raise UsageError(
            "the following arguments are required: -s/--supervisors "
            "(or 'supervisors' in the config file)",
            prog=WEB_PROG,
            usage=parser.format_usage(),
        )
    _check_common(settings, common)
    return WebConfig(**common, allowed_hosts=allowed_hosts)


def with_old_flags(
    prog: str, argv: Sequence[str] | None, table: Sequence[OldFlag], options: Sequence[Option]
) -> list[str]:
    """``argv`` (default: ``sys.argv[1:]``) with the older flags rewritten as today's, one
    note per flag printed on stderr; ``UsageError`` for a refused one."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    try:
        rewritten, notes = translate(arguments, table, value_flags(options))
    except UsageError as error:
        raise UsageError(error.message, prog=prog) from None
    for note in notes:
        print(f"{prog}: {note}", file=sys.stderr, flush=True)
    return rewritten


def run_cli(
    parse: Callable[[Sequence[str]], C],
    argv: Sequence[str] | None,
    runner: Callable[[C], int | None],
    *,
    prog: str | None = None,
) -> int:
    """Parse ``argv`` and run ``runner`` on the config; the process's exit status.

    A ``UsageError`` (from parsing or from the runner) prints ``<prog>: error: <message>``
    on stderr, after the usage line for argparse's own errors, and gives 2. ``--help``
    prints the help and gives 0. No traceback for a usage error.
    """
    name = prog or _PROGS.get(parse) or os.path.basename(sys.argv[0] or "mars")
    arguments = sys.argv[1:] if argv is None else list(argv)
    try:
        result = runner(parse(arguments))
    except UsageError as error:
        if error.usage:
            sys.stderr.write(error.usage)
        print(f"{error.prog or name}: error: {error.message}", file=sys.stderr)
        return 2
    except SystemExit as exit_:  # --help, --version
        return exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
    return 0 if result is None else result


_PROGS: dict[object, str] = {
    parse_supervisor_args: SUPERVISOR_PROG,
    parse_worker_args: WORKER_PROG,
    parse_scheduler_args: SCHEDULER_PROG,
    parse_web_args: WEB_PROG,
}


def _gather(
    prog: str,
    description: str,
    options: Sequence[Option],
    argv: Sequence[str] | None,
    epilog: str = "",
) -> tuple[Settings, ArgumentParser]:
    """Flags and config-file values, not yet converted, and the parser (for its usage)."""
    parser = build_parser(prog, description, options, epilog)
    command_line = parse_command_line(parser, sys.argv[1:] if argv is None else argv)
    labels = flag_labels(options)
    config_path = Settings(command_line, {}, labels).get("config_file", to_path, None)
    keys = [option.name for option in options if option.name != "config_file"]
    aliases = {"spill_dir": "spill_dirs"} if "spill_dirs" in keys else {}
    from_file = load_config_file(config_path, keys, aliases) if config_path else {}
    return Settings(command_line, from_file, labels, config_path), parser


def _common(settings: Settings, env: Mapping[str, str]) -> CommonValues:
    """The options both programs take, converted."""
    cli_token, file_token = settings.get_from_each("token", to_token)
    advertise = settings.get("advertise_address", to_host, None)
    # -a alone, as the older commands were started: listen on that address too when it is
    # one of this machine's; behind NAT or in a container it is not, and every interface is
    default_host = advertise if advertise is not None and is_local_address(advertise) else "0.0.0.0"
    return CommonValues(
        host=settings.get("host", to_host, default_host),
        port=settings.get("port", to_port, 0),
        advertise_address=advertise,
        supervisors=settings.get("supervisors", to_addresses, []),
        config_file=settings.config_path,
        log_level=settings.get("log_level", to_log_level, None),
        log_format=settings.get("log_format", to_log_format, None),
        log_conf=settings.get("log_conf", to_path, None),
        use_uvloop=settings.get("use_uvloop", to_uvloop, "auto"),
        token=resolve_token(cli_token, file_token, env),
    )


def _allowed_hosts(settings: Settings, env: Mapping[str, str]) -> list[str]:
    """The names of ``--allowed-hosts`` (every time it is given), of the config file and
    of ``MARS_WEB_ALLOWED_HOSTS``, together: each source adds names (a pod's spec sets the
    variable to its Services' names, and its ``args:`` add an Ingress host)."""
    from_flags, from_file = settings.get_from_each("allowed_hosts", to_host_names)
    from_env: list[str] = []
    text = env.get(ALLOWED_HOSTS_ENV, "")
    if text.strip():
        try:
            from_env = to_host_names(text)
        except ValueError as error:
            raise UsageError(f"{ALLOWED_HOSTS_ENV}: {error}") from None
    return list(dict.fromkeys([*(from_flags or []), *(from_file or []), *from_env]))


def _check_shared_token(common: CommonValues) -> None:
    """A supervisor listed with others needs the token they share. Without one it would
    generate its own, which no other supervisor could know: none could authenticate to
    another, and each, taking the others for dead, would make itself active."""
    if common["token"] is not None:
        return
    port = str(common["port"])
    others = [
        entry
        for entry in common["supervisors"]
        if not (
            entry.rpartition(":")[2] == port
            and is_local_address(entry.rpartition(":")[0].strip("[]"))
        )
    ]
    if others:
        raise UsageError(
            f"several supervisors (-s {','.join(common['supervisors'])}) need one shared "
            "token: give each the same one with --token, MARS_TOKEN or 'token' in the -f "
            "config file"
        )


def _size(total: int, minimum: int) -> Callable[[object], int]:
    """A converter of sizes (shares of ``total``) of at least ``minimum`` bytes."""

    def convert(raw: object) -> int:
        if not isinstance(raw, str | int | float) or isinstance(raw, bool):
            raise ValueError(f"expected {EXPECTED}, got {raw!r}")
        size = parse_size(raw, total)
        if size < minimum:
            raise ValueError(f"expected a size of at least {format_size(minimum)}, got {raw!r}")
        return size

    return convert


def _check_memory_limits(
    settings: Settings, phy_mem: int, soft: int | None, hard: int | None
) -> None:
    """The soft limit at most the hard one, both within ``--phy-mem``."""
    if hard is not None and hard > phy_mem:
        raise UsageError(
            f"{settings.label('memory_hard_limit')}: expected at most --phy-mem "
            f"({format_size(phy_mem)}), got {format_size(hard)}"
        )
    ceiling = hard if hard is not None else phy_mem
    if soft is not None and soft > ceiling:
        what = "the hard limit" if hard is not None else "--phy-mem"
        raise UsageError(
            f"{settings.label('memory_soft_limit')}: expected at most {what} "
            f"({format_size(ceiling)}), got {format_size(soft)}"
        )


def _count(what: str) -> Callable[[object], int]:
    """A converter of whole numbers >= 1, described as ``what``."""
    return lambda raw: to_int(raw, 1, what)


def _check_common(settings: Settings, common: CommonValues) -> None:
    """The log conf file exists, the host resolves, the port is free to listen on."""
    with settings.blame("log_conf"):
        check_file(common["log_conf"])
    host, port = common["host"], common["port"]
    with settings.blame("host"):
        check_resolvable(host)
        check_local(host)
    with settings.blame("port"):
        check_port_free(host, port)

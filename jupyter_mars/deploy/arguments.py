"""The flags of ``mars-supervisor``, ``mars-worker`` and ``mars-web``, and an argparse
parser for them (the older commands' flags are rewritten first: ``old_flags``).

The parser only collects strings: converting and checking them is done afterwards, for
flags and config-file keys alike (``jupyter_mars.deploy.cli``). It never exits the
process: its errors are raised as ``UsageError`` carrying the usage line, and an unknown
flag is reported without the values after it, which could be a mistyped ``--token``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from jupyter_mars.deploy.errors import UsageError


@dataclass(frozen=True)
class Option:
    """One option: its flags on the command line, and its key in the config file."""

    name: str
    """The config-file key and the config field."""
    flags: tuple[str, ...]
    """Short and long flags; every option has a long one."""
    metavar: str
    """What the value looks like, for ``--help``."""
    help: str
    """One sentence for ``--help`` (``%%`` for a percent sign, as argparse wants)."""
    switch: bool = False
    """A flag without a value (``--no-nanny``): given, it stands for ``true``."""
    repeat: bool = False
    """A flag that may be given several times: its values are kept as a list."""


SIZE = "a size: bytes, 512m, 8g, 1.5GiB, or a share of the total memory: 80%% or 0.8"

COMMON_OPTIONS = (
    Option("host", ("-H", "--host"), "HOST", "address to listen on (default: 0.0.0.0)"),
    Option("port", ("-p", "--port"), "PORT", "port to listen on (default: 0, any free port)"),
    Option(
        "advertise_address",
        ("-a", "--advertise-address"),
        "HOST",
        "address other processes reach this one at, when not the -H address; without -H, "
        "also the address to listen on when it is one of this machine's",
    ),
    Option(
        "supervisors",
        ("-s", "--supervisors"),
        "HOST:PORT,...",
        "supervisor addresses, separated by commas",
    ),
    Option(
        "config_file",
        ("-f", "--config-file"),
        "FILE",
        "YAML file of options: the long flags with underscores as keys",
    ),
    Option("log_level", ("--log-level",), "LEVEL", "debug, info, warning, error or critical"),
    Option("log_format", ("--log-format",), "FORMAT", "Python logging format"),
    Option(
        "log_conf",
        ("--log-conf",),
        "FILE",
        "Python logging configuration file (default: logging.conf in the working "
        "directory, when there is one)",
    ),
    Option("use_uvloop", ("--use-uvloop",), "auto|yes|no", "run on uvloop (default: auto)"),
    Option(
        "token",
        ("--token",),
        "TOKEN",
        "cluster token (default: $MARS_TOKEN; a lone supervisor without one makes one, "
        "several need the same one); "
        "write --token=VALUE when it starts with '-'",
    ),
)
ALLOWED_HOSTS = Option(
    "allowed_hosts",
    ("--allowed-hosts",),
    "NAME,...",
    "more host names the web service answers to (a Kubernetes Service's, an Ingress "
    "host); .example.com: the domain and its subdomains; added to those of the -f file "
    "and $MARS_WEB_ALLOWED_HOSTS; other names in Host are refused (DNS rebinding)",
    repeat=True,
)
SUPERVISOR_OPTIONS = COMMON_OPTIONS + (
    ALLOWED_HOSTS,
    Option("web_port", ("-w", "--web-port"), "PORT", "port of the web UI and HTTP API"),
    Option(
        "web_base_path",
        ("--web-base-path",),
        "PATH",
        "URL path the web UI and HTTP API are served under, behind a proxy (default: /)",
    ),
    Option(
        "no_workers_timeout",
        ("--no-workers-timeout",),
        "SECONDS",
        "how long jobs wait for a worker while the cluster has none, before they fail "
        "(default: 60)",
    ),
    Option(
        "session_timeout",
        ("--session-timeout",),
        "SECONDS",
        "close a session, freeing its results, when its client is silent this long (default: 300)",
    ),
)
WORKER_OPTIONS = COMMON_OPTIONS + (
    Option("n_cpu", ("--n-cpu",), "N", "task slots (default: the cores this process may use)"),
    Option("n_io_process", ("--n-io-process",), "N", "network transfer processes (default: 1)"),
    Option(
        "cuda_devices",
        ("--cuda-devices",),
        "I,J,...",
        "CUDA device indices (default: all; '' for none)",
    ),
    Option(
        "gpu_mem",
        ("--gpu-mem",),
        "SIZE",
        "device memory each CUDA device keeps GPU chunks in before they move to host memory; "
        "bytes (8g) or a share of the device's memory (90%%, the default)",
    ),
    Option("phy_mem", ("--phy-mem",), "SIZE", f"memory limit, {SIZE} (default: all)"),
    Option(
        "cache_mem",
        ("--cache-mem",),
        "SIZE",
        f"memory for chunk data before spilling, {SIZE} (default: half the free memory)",
    ),
    Option("min_mem", ("--min-mem",), "SIZE", f"free memory needed to start, {SIZE} (128m)"),
    Option(
        "memory_soft_limit",
        ("--memory-soft-limit",),
        "SIZE",
        "above it the worker spills and starts no new task; bytes (300m) or a share of "
        "--phy-mem (75%%, the default)",
    ),
    Option(
        "memory_hard_limit",
        ("--memory-hard-limit",),
        "SIZE",
        "past it the task growing the worker's memory fails with MemoryError; bytes or a "
        "share of --phy-mem (90%%, the default)",
    ),
    Option(
        "spill_dirs",
        ("--spill-dir", "--spill-dirs"),
        "DIR:DIR...",
        "directories to spill chunk data to, separated by ':' (created if their parent exists)",
    ),
    Option(
        "no_nanny",
        ("--no-nanny",),
        "",
        "run the worker in this process, without the nanny process that restarts it",
        switch=True,
    ),
)
EPILOG = (
    "Values on the command line win over the -f file, which wins over the environment "
    "(MARS_TOKEN), which wins over the defaults."
)


class ArgumentParser(argparse.ArgumentParser):
    """argparse, raising ``UsageError`` (with the usage line) instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, prog=self.prog, usage=self.format_usage())


def build_parser(
    prog: str, description: str, options: Sequence[Option], epilog: str = ""
) -> ArgumentParser:
    """A parser for ``options``, each stored as a string under its name (None if absent);
    ``epilog`` is added to the end of ``--help``."""
    parser = ArgumentParser(
        prog=prog,
        description=description,
        epilog=f"{EPILOG} {epilog}".strip(),
        allow_abbrev=False,
    )
    for option in options:
        if option.switch:
            parser.add_argument(
                *option.flags, dest=option.name, action="store_const", const=True, help=option.help
            )
        else:
            parser.add_argument(
                *option.flags,
                dest=option.name,
                metavar=option.metavar,
                help=option.help,
                action="append" if option.repeat else "store",
            )
    return parser


def parse_command_line(parser: ArgumentParser, argv: Sequence[str]) -> dict[str, object]:
    """The flags given in ``argv``, by option name; absent ones are left out."""
    namespace, unknown = parser.parse_known_args(list(argv))
    if unknown:
        flags = [argument.split("=", 1)[0] for argument in unknown if argument.startswith("-")]
        hidden = len(unknown) - len(flags)
        shown = " ".join(flags)
        if hidden:
            values = f"{hidden} value{'s' if hidden > 1 else ''} (not shown, it may be secret)"
            shown = f"{shown} and {values}" if flags else values
        parser.error(f"unrecognized arguments: {shown}")
    return {name: value for name, value in vars(namespace).items() if value is not None}


def flag_labels(options: Sequence[Option]) -> dict[str, str]:
    """Option name -> its flags joined as argparse prints them (``-p/--port``)."""
    return {option.name: "/".join(option.flags) for option in options}

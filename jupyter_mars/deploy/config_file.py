"""The YAML file given with ``-f/--config-file``: a mapping of option names to values.

Keys are the long flag names with underscores (a hyphen is accepted too), and a value
given on the command line wins over the file, which wins over the environment
(``MARS_TOKEN``), which wins over the defaults. For example::

    # worker.yaml
    supervisors: 192.168.1.10:7001,192.168.1.11:7002   # or a YAML list
    n_cpu: 8
    phy_mem: 90%            # sizes as on the command line: 8g, 512m, 1.5GiB, 80%, 0.8
    cache_mem: 16g
    spill_dirs: [/mnt/disk2/spill, /mnt/disk3/spill]  # or "/mnt/disk2/spill:/mnt/disk3/spill"
    cuda_devices: [0, 1]    # "" for none; leave out for all
    gpu_mem: 90%            # of each device's memory, or bytes: 12g
    log_level: info

Keys both programs take:

- ``host`` (``-H``), ``port`` (``-p``), ``advertise_address`` (``-a``),
  ``supervisors`` (``-s``), ``log_level``, ``log_format``, ``log_conf``,
  ``use_uvloop`` (``auto``, ``yes``/``true`` or ``no``/``false``), ``token``.

Only ``mars-supervisor``: ``web_port`` (``-w``), ``web_base_path``, ``session_timeout``.

Only ``mars-worker``: ``n_cpu``, ``n_io_process``, ``cuda_devices``, ``gpu_mem``, ``phy_mem``,
``cache_mem``, ``min_mem``, ``memory_soft_limit``, ``memory_hard_limit``, ``spill_dirs``
(or ``spill_dir``).

Any other key, or a key of the other program, is an error: a misspelt option should stop
the process, not be ignored. A token in the file is only safe if the file is readable by
its owner alone (``chmod 600``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import yaml

from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.yaml_errors import describe_yaml_error

FLAG = "argument -f/--config-file"


def load_config_file(
    path: str, keys: Collection[str], aliases: Mapping[str, str] | None = None
) -> dict[str, object]:
    """The options in the YAML file at ``path``, keyed by their underscore names.

    ``aliases`` maps another accepted key to its name in ``keys`` (``spill_dir``).

    Raises ``UsageError`` when the file cannot be read, is not YAML, is not a mapping, or
    has a key outside ``keys``. YAML errors are reported by line and column only: the
    offending line could hold the token.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise UsageError(f"{FLAG}: cannot read {path}: {reason}") from None
    try:
        document: Any = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise UsageError(f"config file {path}: {describe_yaml_error(error)}") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        kind = type(document).__name__
        raise UsageError(f"config file {path}: expected a mapping of option names, got a {kind}")
    options: dict[str, object] = {}
    for key, value in document.items():
        name = key.replace("-", "_") if isinstance(key, str) else key
        name = (aliases or {}).get(name, name)
        if name not in keys:
            valid = ", ".join(sorted(keys))
            raise UsageError(f"config file {path}: unknown key {key!r} (valid keys: {valid})")
        if name in options:
            raise UsageError(f"config file {path}: key {name!r} given twice")
        options[name] = value
    return options

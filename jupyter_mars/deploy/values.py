"""Converters from a raw flag or config-file value to the typed value a config holds.

Each takes what argparse gives (a string) or what YAML gives (a string, number, bool or
list) and returns the typed value, or raises ``ValueError`` whose message says what was
expected (``expected a port number 0-65535, got 'x'``). The caller prefixes the flag or
key the value came from. No converter touches the network or the disk: those checks are
in ``jupyter_mars.deploy.checks``.
"""

from __future__ import annotations

import logging
import math
import os
import re
from typing import Literal

from jupyter_mars.engine.sizes import EXPECTED, parse_size

UvloopChoice = Literal["auto", "yes", "no"]
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
_UVLOOP_CHOICES: dict[str, UvloopChoice] = {
    "auto": "auto",
    "yes": "yes",
    "no": "no",
    "true": "yes",
    "false": "no",
}


_BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def to_int(raw: object, minimum: int, what: str) -> int:
    """A whole number of at least ``minimum``; ``what`` names it in the message."""
    value: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str):
        try:
            value = int(raw.strip())
        except ValueError:
            value = None
    if value is None or value < minimum:
        raise ValueError(f"expected {what}, got {raw!r}")
    return value


def to_bool(raw: object) -> bool:
    """A yes/no value: YAML's booleans, or ``true``/``false``, ``yes``/``no``, ``1``/``0``."""
    if isinstance(raw, bool):
        return raw
    value = _BOOLEANS.get(raw.strip().lower()) if isinstance(raw, str) else None
    if value is None:
        raise ValueError(f"expected true or false, got {raw!r}")
    return value


def to_seconds(raw: object) -> float:
    """A positive, finite number of seconds (``300``, ``"2.5"``).

    >>> to_seconds("2.5"), to_seconds(300)
    (2.5, 300.0)
    """
    value: float | None = None
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        value = float(raw)
    elif isinstance(raw, str):
        try:
            value = float(raw.strip())
        except ValueError:
            value = None
    if value is None or not math.isfinite(value) or value <= 0:
        raise ValueError(f"expected a number of seconds > 0, got {raw!r}")
    return value


def to_port(raw: object, allow_zero: bool = True) -> int:
    """A TCP port; 0 (when allowed) means "any free port"."""
    what = "a port number 0-65535 (0: any free port)" if allow_zero else "a port 1-65535"
    port = to_int(raw, 0 if allow_zero else 1, what)
    if port > 65535:
        raise ValueError(f"expected {what}, got {raw!r}")
    return port


def to_host(raw: object) -> str:
    """A host name or IP address (resolving it is a separate check)."""
    if not isinstance(raw, str) or not raw.strip() or any(c.isspace() for c in raw.strip()):
        raise ValueError(f"expected a host name or IP address, got {raw!r}")
    host = raw.strip()
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def to_address(raw: object) -> str:
    """``host:port`` with a port 1-65535; an IPv6 host goes in brackets (``[::1]:7001``)."""
    if not isinstance(raw, str):
        raise ValueError(f"expected host:port, got {raw!r}")
    entry = raw.strip()
    host, colon, port = entry.rpartition(":")
    if not colon or not host:
        raise ValueError(f"expected host:port, got {entry!r} without a port")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise ValueError(f"expected host:port with an IPv6 host in brackets, got {entry!r}")
    to_host(host)
    try:
        number = to_port(port, allow_zero=False)
    except ValueError:
        raise ValueError(f"expected host:port with a port 1-65535, got {entry!r}") from None
    return f"{host}:{number}"


def to_addresses(raw: object) -> list[str]:
    """Comma-separated ``host:port`` entries (or a YAML list of them), in order, no repeats."""
    entries = _split(raw, ",", "a comma-separated list of host:port")
    addresses = list(dict.fromkeys(to_address(entry) for entry in entries))
    if not addresses:
        raise ValueError(f"expected at least one host:port, got {raw!r}")
    return addresses


_DNS_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def to_host_names(raw: object) -> list[str]:
    """Host names separated by commas (or a YAML list of them, or several flags' values),
    lower-cased, in order, no repeats; a leading dot stands for the domain and all its
    subdomains (``.svc.cluster.local``), as in Django's ``ALLOWED_HOSTS``.

    >>> to_host_names("Mars.Domain.COM,.svc.cluster.local, mars.domain.com.")
    ['mars.domain.com', '.svc.cluster.local']

    ``*`` (or ``*.x``) is refused: names are listed so that the web service's check of
    ``Host`` keeps refusing every other name, which DNS rebinding would send.
    """
    if isinstance(raw, list):
        entries = [part for entry in raw for part in _split(entry, ",", "host names")]
    else:
        entries = _split(raw, ",", "host names separated by commas")
    names = list(dict.fromkeys(to_host_name(entry) for entry in entries))
    if not names:
        raise ValueError(f"expected at least one host name, got {raw!r}")
    return names


def to_host_name(raw: object) -> str:
    """One DNS name (``mars.domain.com``), or a domain with a leading dot
    (``.example.test``); lower-cased, without a trailing dot."""
    if not isinstance(raw, str):
        raise ValueError(f"expected a host name such as mars.domain.com, got {raw!r}")
    text = raw.strip()
    if "*" in text:
        raise ValueError(
            f"expected host names, got {text!r}: a wildcard would let any name through, "
            "which is what the check of Host guards against; list the names, or write "
            ".example.com for a domain and its subdomains"
        )
    name = text.lower()
    domain = name.startswith(".")
    labels = (name[1:] if domain else name).removesuffix(".").split(".")
    if len(name) > 254 or not all(_DNS_LABEL.fullmatch(label) for label in labels):
        raise ValueError(
            "expected host names such as mars.domain.com or .example.com (letters, "
            f"digits and hyphens between dots, no port), got {text!r}"
        )
    return ("." if domain else "") + ".".join(labels)


def to_cuda_devices(raw: object) -> list[int]:
    """Device indices: ``"0,2"``, a YAML list, or ``""`` for no device at all."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = [raw]
    entries = _split(raw, ",", "comma-separated CUDA device indices such as 0,1")
    devices = [
        to_int(entry, 0, "CUDA device indices such as 0,1 (or '' for none)") for entry in entries
    ]
    if len(set(devices)) != len(devices):
        raise ValueError(f"expected distinct CUDA device indices, got {raw!r}")
    return devices


def to_device_size(raw: object) -> int | float:
    """A size on a CUDA device: bytes (``8g``), or a share of its memory (``90%``, ``0.9``)
    as a float, since the device's memory is known only where the worker runs."""
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise ValueError(f"expected {EXPECTED}, got {raw!r}")
    try:
        size = parse_size(raw)
    except ValueError as error:
        if "share of a total" not in str(error):
            raise
        size = None
    if size is None:  # a share: of each device's memory, where the worker runs
        share = round(parse_size(raw, _SHARE_SCALE) / _SHARE_SCALE, 6)
        if not 0 < share <= 1:
            raise ValueError(f"expected a share of the device's memory up to 100%, got {raw!r}")
        return share
    if size <= 0:
        raise ValueError(f"expected more than 0 bytes, got {raw!r}")
    return size


_SHARE_SCALE = 1 << 40
"""A total to read a share against exactly enough (a share of it, in bytes, over it)."""


def to_paths(raw: object) -> list[str]:
    """Directories separated by ``os.pathsep`` (``:``), or a YAML list, made absolute."""
    entries = _split(raw, os.pathsep, f"directories separated by {os.pathsep!r}")
    return list(dict.fromkeys(to_path(entry) for entry in entries))


def to_path(raw: object) -> str:
    """A file or directory path, made absolute (``~`` expanded)."""
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"expected a path, got {raw!r}")
    return os.path.abspath(os.path.expanduser(raw.strip()))


def to_log_level(raw: object) -> str:
    """One of the logging level names, in lower case."""
    if not isinstance(raw, str) or raw.strip().lower() not in LOG_LEVELS:
        raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}, got {raw!r}")
    return raw.strip().lower()


def to_log_format(raw: object) -> str:
    """A ``%``-style logging format such as ``%(asctime)s %(message)s``."""
    if not isinstance(raw, str) or not raw:
        raise ValueError(
            f"expected a logging format such as '%(levelname)s %(message)s', got {raw!r}"
        )
    try:
        logging.Formatter(raw, validate=True)
    except ValueError:
        raise ValueError(
            f"expected a logging format such as '%(levelname)s %(message)s', got {raw!r}"
        ) from None
    return raw


def to_uvloop(raw: object) -> UvloopChoice:
    """``auto``, ``yes`` or ``no``; YAML's ``yes``/``no`` arrive as booleans and count too."""
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    choice = _UVLOOP_CHOICES.get(raw.strip().lower()) if isinstance(raw, str) else None
    if choice is not None:
        return choice
    raise ValueError(f"expected auto, yes or no, got {raw!r}")


_BASE_PATH = re.compile(r"/(?:[A-Za-z0-9._~-]+/)*")


def to_base_path(raw: object) -> str:
    """A URL path prefix, normalised to start and end with ``/``.

    >>> to_base_path("/mars"), to_base_path("/"), to_base_path("/a/b/")
    ('/mars/', '/', '/a/b/')
    """
    text = raw.strip() if isinstance(raw, str) else raw
    if isinstance(text, str) and not text.endswith("/"):
        text += "/"
    if not isinstance(text, str) or not _BASE_PATH.fullmatch(text) or "/." in text:
        raise ValueError(f"expected a URL path such as /mars/, got {raw!r}")
    return text


def to_token(raw: object) -> str:
    """A non-empty token without spaces. The message never repeats the value: it is a secret."""
    if not isinstance(raw, str):
        raise ValueError("expected the token as text")
    token = raw.strip()
    if not token or any(c.isspace() or not c.isprintable() for c in token):
        raise ValueError("expected a non-empty token of printable characters without spaces")
    return token


def _split(raw: object, separator: str, what: str) -> list[object]:
    """Entries of a separated string or of a YAML list; empty entries are dropped."""
    if isinstance(raw, str):
        return [entry for entry in raw.split(separator) if entry.strip()]
    if isinstance(raw, list):
        return [entry for entry in raw if not (isinstance(entry, str) and not entry.strip())]
    raise ValueError(f"expected {what}, got {raw!r}")

"""Checks every HTTP request passes before its token is even looked at: pure functions.

- ``Host``: a browser on the user's machine can be led by a hostile page to a name the
  attacker controls that resolves to the cluster's address (DNS rebinding). Such requests
  carry the attacker's name in ``Host``, so only IP literals, ``localhost``, this machine's
  own names, the names the supervisor was started with and those it was told to answer to
  (``--allowed-hosts``: a Kubernetes Service's or an Ingress's; ``.example.com`` for a
  domain and its subdomains) are accepted.
- ``Origin``: a browser sends it on cross-site requests; a page from another site must not
  drive the API with a cookie or token it got hold of, so the origin's host and port must
  be the ones the request was sent to.
- Body size: JSON routes take small bodies (``MAX_JSON_BYTES``); only the graph upload
  may be large (the server's own limit).
- JSON depth: a few kilobytes of brackets are enough to exhaust the parser's recursion,
  so JSON from a client (bodies, the stream's messages) is read by ``parse_json``, which
  refuses more than ``MAX_JSON_DEPTH`` levels of nesting with a ``ValueError``.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import tornado.web

MAX_JSON_BYTES = 1 << 20
"""Largest body a JSON route reads."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of lists and objects read from a client; the API's own is 3 levels."""


def host_name(host_header: str) -> str:
    """The name or address in a ``Host`` header, without its port or IPv6 brackets.

    >>> host_name("Example.org:8909"), host_name("[::1]:80"), host_name("10.0.0.2")
    ('example.org', '::1', '10.0.0.2')
    """
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    return host.rstrip(".")


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def local_names(extra: Iterable[str] = (), allowed_hosts: Iterable[str] = ()) -> frozenset[str]:
    """The names this machine answers to, ``extra`` (the supervisor's ``-H``) and
    ``allowed_hosts`` (``--allowed-hosts``, already checked: a leading dot is a domain)."""
    names = {"localhost", socket.gethostname(), socket.getfqdn()}
    names.update(extra)
    names.update(allowed_hosts)
    return frozenset(host_name(n) for n in names if n)


def host_allowed(host_header: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this machine (see the module docstring); an
    entry of ``allowed`` with a leading dot matches the domain and its subdomains.

    >>> names = frozenset({"localhost", "node1", ".example.test"})
    >>> [host_allowed(h, names) for h in ("127.0.0.1:80", "node1:8909", "evil.example", None)]
    [True, True, False, False]
    >>> [host_allowed(h, names) for h in ("a.example.test:80", "example.test", "xexample.test")]
    [True, True, False]
    >>> host_allowed("app.localhost", names)
    True
    """
    if not host_header:
        return False
    name = host_name(host_header)
    if is_ip(name) or name in allowed or name.endswith(".localhost"):
        return True
    return any(
        entry.startswith(".") and (name.endswith(entry) or name == entry[1:]) for entry in allowed
    )


def origin_allowed(origin: str | None, host_header: str | None) -> bool:
    """Whether a request's ``Origin`` (absent outside browsers) is the site it was sent to.

    >>> origin_allowed(None, "h:1"), origin_allowed("http://h:1", "h:1")
    (True, True)
    >>> origin_allowed("https://evil.example", "h:1"), origin_allowed("null", "h:1")
    (False, False)
    """
    if origin is None:
        return True
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or not host_header:
        return False
    return parts.netloc.lower() == host_header.strip().lower()


def body_too_large(content_length: str | None, limit: int) -> bool:
    """Whether a declared body is over ``limit`` bytes (a bad length counts as too large).

    >>> body_too_large("10", 100), body_too_large("1000", 100), body_too_large("x", 100)
    (False, True, True)
    """
    if content_length is None:
        return False
    try:
        return int(content_length) > limit
    except ValueError:
        return True


def check_request(handler: tornado.web.RequestHandler, allowed_hosts: frozenset[str]) -> None:
    """The checks made before any other (``guard``): Host, then Origin."""
    headers = handler.request.headers
    host = headers.get("Host")
    if not host_allowed(host, allowed_hosts):
        raise tornado.web.HTTPError(403, reason="the Host header does not name this machine")
    if not origin_allowed(headers.get("Origin"), host):
        raise tornado.web.HTTPError(403, reason="cross-origin requests are refused")


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (without recursion).

    >>> json_depth(1), json_depth([]), json_depth({"a": [1, {"b": []}]})
    (0, 1, 4)
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item)
    return deepest


def parse_json(text: str | bytes, what: str = "the body") -> Any:
    """``text`` as JSON; a ``ValueError`` naming ``what`` when it is not JSON or nests
    deeper than ``MAX_JSON_DEPTH``.

    >>> parse_json(b'{"keys": ["a"]}')
    {'keys': ['a']}
    >>> parse_json("[" * 40 + "]" * 40, "a message")
    Traceback (most recent call last):
    ValueError: a message is JSON nested deeper than 32 levels
    """
    nested = f"{what} is JSON nested deeper than {MAX_JSON_DEPTH} levels"
    try:
        value = json.loads(text)
    except RecursionError:  # the parser's own limit, far below what a body may hold
        raise ValueError(nested) from None
    except ValueError:
        raise ValueError(f"{what} must be JSON") from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise ValueError(nested)
    return value

"""The supervisor's HTTP API refuses foreign hosts and origins, oversized and malformed
bodies, and requests without the token, and never answers a 5xx: checked on a real
supervisor process, with requests generated from its own OpenAPI document."""

from __future__ import annotations

import asyncio
import doctest
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mars.web import guard as web_guard
from jupyter_mars.web.guard import (
    MAX_JSON_BYTES,
    host_allowed,
    local_names,
    origin_allowed,
)
from tests.cluster.processes import CliCluster, cli_cluster
from tests.web.stream_client import open_stream


def test_the_guards_examples_hold() -> None:
    assert doctest.testmod(web_guard).failed == 0


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8909", True),
        ("[::1]:8909", True),
        ("localhost:1", True),
        ("LOCALHOST", True),
        ("evil.example:8909", False),
        ("127.0.0.1.evil.example", False),
        ("", False),
    ],
)
def test_host_names_this_machine_or_is_an_address(host: str, allowed: bool) -> None:
    assert host_allowed(host, local_names()) is allowed


def test_the_supervisors_own_host_name_is_allowed() -> None:
    assert host_allowed("node7.cluster:8909", local_names(["node7.cluster"]))


ALLOWED = local_names(allowed_hosts=["mars-supervisor.default.svc", ".example.test"])


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("mars-supervisor.default.svc:7104", True),
        ("MARS-Supervisor.Default.SVC.", True),
        ("a.example.test", True),
        ("a.b.example.test:80", True),
        ("example.test", True),
        ("mars-supervisor", False),
        ("mars-supervisor.default.svc.evil.example", False),
        ("notexample.test", False),
        ("example.test.evil.example", False),
        ("evil.example", False),
        ("127.0.0.1:7104", True),
        ("localhost", True),
    ],
)
def test_allowed_hosts_add_names_and_domains(host: str, allowed: bool) -> None:
    assert host_allowed(host, ALLOWED) is allowed


def test_without_allowed_hosts_the_names_are_as_before() -> None:
    assert local_names(allowed_hosts=[]) == local_names()
    assert not host_allowed("a.example.test", local_names())


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),
        ("http://127.0.0.1:8909", True),
        ("http://127.0.0.1:9999", False),
        ("https://evil.example", False),
        ("null", False),
        ("file://", False),
    ],
)
def test_origin_must_be_the_site_asked(origin: str | None, allowed: bool) -> None:
    assert origin_allowed(origin, "127.0.0.1:8909") is allowed


@pytest.fixture(scope="module")
def supervisor() -> Iterator[CliCluster]:
    with cli_cluster(0) as cluster:
        yield cluster


def _request(
    cluster: CliCluster,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    token: str | None = "",
) -> tuple[int, bytes]:
    """A raw request, so that any header (``Host`` too) can be set."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"token {token or cluster.token}"
    status, _, answer = cluster.raw(method, path, body, **sent)
    return status, answer


def test_a_rebound_host_name_is_refused_even_with_the_token(supervisor: CliCluster) -> None:
    status, body = _request(supervisor, "GET", "/api/v1/cluster", headers={"Host": "evil.example"})
    assert status == 403
    assert supervisor.token.encode() not in body
    assert _request(supervisor, "GET", "/api/v1/cluster")[0] == 200


def test_cross_origin_requests_are_refused(supervisor: CliCluster) -> None:
    status, _ = _request(
        supervisor, "POST", "/api/v1/sessions", headers={"Origin": "https://evil.example"}
    )
    assert status == 403
    same = f"http://{urlsplit(supervisor.url).netloc}"
    assert _request(supervisor, "GET", "/api/v1/cluster", headers={"Origin": same})[0] == 200


def test_oversized_and_malformed_json_bodies_are_client_errors(supervisor: CliCluster) -> None:
    status, body = _request(supervisor, "POST", "/api/v1/sessions")
    session = json.loads(body)["session_id"]
    release = f"/api/v1/sessions/{session}/release"
    big = b"[" + b"0," * (MAX_JSON_BYTES // 2) + b"0]"
    assert _request(supervisor, "POST", release, big)[0] == 413
    for bad in (b"[1, 2]", b'"keys"', b"{", b'{"keys": [1]}', b"\xff\xfe"):
        status, body = _request(supervisor, "POST", release, bad)
        assert status == 400, bad
        assert "error" in json.loads(body)
    assert _request(supervisor, "POST", release, b'{"keys": []}')[0] == 200


def _routes(cluster: CliCluster) -> list[tuple[str, str, list[str]]]:
    document = cluster.http().json("GET", "/api/openapi.json")
    routes = []
    for path, item in document["paths"].items():
        for method in ("get", "post", "delete", "put", "patch"):
            if method in item and item[method]["security"]:  # the login form is public
                params = [p["name"] for p in item[method].get("parameters", [])]
                params += [p["name"] for p in item.get("parameters", [])]
                routes.append((method.upper(), path, params))
    return routes


SEGMENT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12
)
_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_NEST = st.lists(_LEAF, max_size=3) | st.dictionaries(st.text(max_size=5), _LEAF, max_size=3)
# two levels of nesting spelled out: st.recursive's check of its argument is flaky
_JSON = st.one_of(
    _LEAF,
    _NEST,
    st.lists(_NEST, max_size=2),
    st.dictionaries(st.text(max_size=5), _NEST, max_size=2),
)
BODY = st.one_of(st.binary(max_size=64), _JSON.map(lambda value: json.dumps(value).encode()))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_requests_never_get_a_server_error(supervisor: CliCluster, data: Any) -> None:
    routes = _routes(supervisor)
    method, template, params = data.draw(st.sampled_from(routes))
    path = template
    for name in params:
        if "{" + name + "}" in path:
            value = data.draw(st.one_of(SEGMENT, st.just("x")))
            path = path.replace("{" + name + "}", quote(value, safe=""))
    if data.draw(st.booleans()):
        path += "?" + data.draw(st.sampled_from(["wait=0.01&after=x", "wait=nan", "wait=1e309"]))
    body = data.draw(BODY)
    content_type = data.draw(
        st.sampled_from(["application/json", "application/octet-stream", "text/plain"])
    )
    with_token = data.draw(st.booleans())
    status, answer = _request(
        supervisor,
        method,
        path,
        body,
        headers={"Content-Type": content_type},
        token="" if with_token else None,
    )
    assert status < 500, (method, path, status, answer[:200])
    if not with_token:  # the dashboard page sends browsers to the login form instead
        assert status == 401 or (status == 302 and template == "/"), (method, path, status)
    assert b"Traceback" not in answer
    assert supervisor.token.encode() not in answer


def _nested(depth: int) -> bytes:
    return b'{"keys": ' + b"[" * depth + b"]" * depth + b"}"


def test_deeply_nested_json_is_a_client_error_naming_the_nesting(supervisor: CliCluster) -> None:
    status, body = _request(supervisor, "POST", "/api/v1/sessions")
    release = f"/api/v1/sessions/{json.loads(body)['session_id']}/release"
    for depth in (100, 5000, 100_000):
        status, body = _request(supervisor, "POST", release, _nested(depth))
        assert status == 400, depth
        assert "nested deeper than" in json.loads(body)["error"]
    assert _request(supervisor, "POST", release, _nested(3))[0] == 400  # not a list of keys
    assert _request(supervisor, "POST", release, b'{"keys": ["k"]}')[0] == 200


async def _reply_then_state(cluster: CliCluster, message: str) -> tuple[Any, Any]:
    """The stream's answer to ``message``, then its answer to a valid one after it."""
    async with open_stream(cluster, Authorization=f"token {cluster.token}") as conn:
        await conn.write_message(message)
        while True:
            reply = json.loads(await asyncio.wait_for(conn.read_message(), 10))
            if "error" in reply:
                break
        await conn.write_message(json.dumps({"watch": {}}))
        state = json.loads(await asyncio.wait_for(conn.read_message(), 10))
        return reply, state


def test_deeply_nested_json_on_the_stream_is_answered_and_keeps_it_open(
    supervisor: CliCluster,
) -> None:
    deep = "[" * 1500 + "]" * 1500  # under the stream's message size limit
    reply, state = asyncio.run(_reply_then_state(supervisor, deep))
    assert "nested deeper than" in reply["error"]
    assert "cluster" in state

"""Browsers log in to a real supervisor with the token once and then carry a cookie derived
from it; links with ``?token=`` work once and drop it; the live stream takes the same
credentials and refuses anything else."""

from __future__ import annotations

import asyncio
import doctest
import http.cookiejar
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import tornado.httpclient
import tornado.websocket

import jupyter_mars.tensor as mt
from jupyter_mars.web import auth as web_auth
from jupyter_mars.web.auth import COOKIE, cookie_value
from jupyter_mars.web.logins import FREE_GUESSES, LONGEST_LOCK
from tests.cluster.processes import CliCluster, cli_cluster, remote_session
from tests.web.stream_client import open_stream


def test_the_examples_hold() -> None:
    assert doctest.testmod(web_auth).failed == 0


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(1, "--n-cpu", "1") as c:
        yield c


def _request(
    cluster: CliCluster, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    return cluster.raw(method, path, body, **headers)


def _login(cluster: CliCluster, token: str, next_path: str = "/api/v1/cluster") -> Any:
    form = urlencode({"token": token, "next": next_path}).encode()
    return _request(
        cluster, "POST", "/login", form, **{"Content-Type": "application/x-www-form-urlencoded"}
    )


def test_the_login_page_sets_a_cookie_derived_from_the_token(cluster: CliCluster) -> None:
    status, headers, page = _request(cluster, "GET", "/login")
    assert status == 200
    assert b'name="token"' in page
    assert b"<script" not in page
    status, headers, page = _login(cluster, "wrong")
    assert status == 401
    assert b"not the cluster token" in page
    assert "Set-Cookie" not in headers
    status, headers, _ = _login(cluster, cluster.token)
    assert status == 302
    assert headers["Location"] == "/api/v1/cluster"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={cookie_value(cluster.token)};")
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert cluster.token not in cookie
    jar = f"{COOKIE}={cookie_value(cluster.token)}"
    status, _, body = _request(cluster, "GET", "/api/v1/cluster", Cookie=jar)
    assert status == 200
    assert "workers" in json.loads(body)
    assert _request(cluster, "GET", "/api/v1/cluster", Cookie=f"{COOKIE}=forged")[0] == 401


def test_login_never_redirects_to_another_site(cluster: CliCluster) -> None:
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        status, headers, _ = _login(cluster, cluster.token, target)
        assert status == 302
        assert headers["Location"] == "/"


def test_a_link_with_the_token_works_once_and_drops_it(cluster: CliCluster) -> None:
    link = f"/api/v1/cluster?x=1&token={cluster.token}"
    status, headers, _ = _request(cluster, "GET", link)
    assert status == 302
    assert headers["Location"] == "/api/v1/cluster?x=1"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    for _ in range(2):  # spent: the same link, or another with the token, logs nobody in
        status, headers, body = _request(cluster, "GET", link)
        assert status == 401
        assert "Set-Cookie" not in headers
        assert "used already" in json.loads(body)["error"]
    status, headers, _ = _request(cluster, "GET", f"/?token={cluster.token}")
    assert status == 302
    assert headers["Location"].startswith("/login?")  # the dashboard: to the form
    assert "Set-Cookie" not in headers
    jar = cookie.split(";")[0]
    assert _request(cluster, "GET", "/api/v1/cluster", Cookie=jar)[0] == 200  # still in
    assert _request(cluster, "GET", "/api/v1/cluster?token=wrong")[0] == 401


def _open_in_a_browser(url: str) -> tuple[int, bytes, str]:
    """``url`` opened as a browser would: redirects followed, cookies kept. The final
    status, page and the cookie it got."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        with opener.open(url, timeout=10) as response:
            status, page = response.status, response.read()
    except urllib.error.HTTPError as refused:
        status, page = refused.code, refused.read()
    return status, page, "; ".join(f"{c.name}={c.value}" for c in jar)


def test_a_login_link_opens_the_dashboard_once_and_never_holds_the_token(
    cluster: CliCluster, session: Any
) -> None:
    with remote_session(cluster, session) as remote:
        link = remote.dashboard_link()
        again = remote.dashboard_link()  # each time a fresh one
    assert link.startswith(f"{cluster.url}/?login=")
    assert again != link
    assert cluster.token not in link + again
    status, page, cookie = _open_in_a_browser(link)
    assert status == 200
    assert b"<title>jupyter_mars cluster</title>" in page  # the dashboard, not the form
    assert cookie == f"{COOKIE}={cookie_value(cluster.token)}"
    assert cluster.token.encode() not in page
    status, page, cookie = _open_in_a_browser(link)  # a second use
    assert status == 401
    assert b"used already or has expired" in page
    assert cookie == ""
    assert cluster.token.encode() not in page
    assert _open_in_a_browser(again)[0] == 200  # the other one still works, once
    # only a client that holds the token may ask for one
    assert _request(cluster, "POST", "/api/v1/login-links")[0] == 401


def test_a_cross_site_post_with_the_cookie_is_refused(cluster: CliCluster) -> None:
    jar = f"{COOKIE}={cookie_value(cluster.token)}"
    status, _, _ = _request(
        cluster, "POST", "/api/v1/sessions", Cookie=jar, Origin="https://evil.example"
    )
    assert status == 403


async def _messages(cluster: CliCluster, n: int, **headers: str) -> list[dict[str, Any]]:
    async with open_stream(cluster, **headers) as conn:
        out = []
        for _ in range(n):
            message = await asyncio.wait_for(conn.read_message(), 10)
            assert isinstance(message, str)
            out.append(json.loads(message))
        return out


def test_the_stream_sends_workers_and_progress(cluster: CliCluster, session: Any) -> None:
    with remote_session(cluster, session) as remote:
        (mt.ones((400, 400), chunk_size=100) + 1).sum().execute(session=remote)
        messages = asyncio.run(_messages(cluster, 2, Authorization=f"token {cluster.token}"))
    latest = messages[-1]
    assert len(latest["cluster"]["workers"]) == 1
    executions = [e for s in latest["sessions"] for e in s["executions"]]
    assert any(e["state"] == "succeeded" and e["progress"] == 1.0 for e in executions)
    cookie = f"{COOKIE}={cookie_value(cluster.token)}"
    assert asyncio.run(_messages(cluster, 1, Cookie=cookie))[0]["cluster"]["workers"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "token wrong"}, 401),
        ({"Authorization": "token {t}", "Origin": "https://evil.example"}, 403),
        ({"Authorization": "token {t}", "Host": "evil.example"}, 403),
    ],
)
def test_the_stream_refuses_what_the_routes_refuse(
    cluster: CliCluster, headers: dict[str, str], status: int
) -> None:
    sent = {k: v.replace("{t}", cluster.token) for k, v in headers.items()}
    with pytest.raises(tornado.httpclient.HTTPClientError) as caught:
        asyncio.run(_messages(cluster, 1, **sent))
    assert getattr(caught.value, "code", None) == status


def _guess(cluster: CliCluster, token: str) -> tuple[int, dict[str, str], bytes]:
    return _login(cluster, token)


def test_wrong_guesses_lock_the_guesser_out_for_a_while_only() -> None:
    with cli_cluster(0) as fresh:
        answers = [_guess(fresh, f"guess-{i}") for i in range(200)]
        statuses = [status for status, _, _ in answers]
        checked = statuses.count(401)
        assert FREE_GUESSES <= checked < 20  # most guesses were never compared
        assert statuses.count(429) == 200 - checked
        locked = next(a for a in answers if a[0] == 429)
        assert b"Too many wrong tokens" in locked[2]
        # once the lock ends, one more guess is compared, and it starts a longer lock
        deadline = time.monotonic() + 4 * LONGEST_LOCK
        while _guess(fresh, "one more guess")[0] != 401:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        # the right token waits out the lock like any other, over any route...
        status, headers, _ = _guess(fresh, fresh.token)
        assert status == 429
        auth = {"Authorization": f"token {fresh.token}"}
        status, headers, body = _request(fresh, "GET", "/api/v1/cluster", **auth)
        assert status == 429
        assert "too many wrong tokens" in json.loads(body)["error"]
        # ...and then works: the lock ends after the time it names
        waited = 0.0
        while status == 429:
            assert waited < LONGEST_LOCK * 2
            pause = float(headers["Retry-After"])
            time.sleep(pause)
            waited += pause
            status, headers, _ = _request(fresh, "GET", "/api/v1/cluster", **auth)
        assert status == 200
        assert _guess(fresh, fresh.token)[0] == 302


def test_the_same_wrong_token_sent_again_is_not_a_new_guess() -> None:
    with cli_cluster(0) as fresh:
        stale = {"Authorization": "token stale", "Cookie": f"{COOKIE}=stale"}
        for _ in range(3 * FREE_GUESSES):
            assert _request(fresh, "GET", "/api/v1/cluster", **stale)[0] == 401
        auth = {"Authorization": f"token {fresh.token}"}
        assert _request(fresh, "GET", "/api/v1/cluster", **auth)[0] == 200

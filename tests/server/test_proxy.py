"""How dashboard paths map between the Jupyter server and the supervisor."""

from __future__ import annotations

from jupyter_mars.server.app import supervisor_base_path
from jupyter_mars.server.proxy import local_location, upstream_url

ENDPOINT = "http://127.0.0.1:9000/j/mars/dashboard"


def test_paths_map_one_to_one_when_the_supervisor_shares_the_base_path():
    base = "/j/mars/dashboard/"
    assert upstream_url(ENDPOINT, base, "/") == f"{ENDPOINT}/"
    assert upstream_url(ENDPOINT, base, "/api/v1/cluster") == f"{ENDPOINT}/api/v1/cluster"
    assert local_location("/j/mars/dashboard/login?next=x", base, "/j/mars/dashboard") == (
        "/j/mars/dashboard/login?next=x"
    )


def test_paths_are_moved_when_the_supervisor_serves_elsewhere():
    assert upstream_url("http://10.0.0.2:80", "/", "/static/a.js") == (
        "http://10.0.0.2:80/static/a.js"
    )
    assert local_location("http://10.0.0.2:80/", "/", "/a%40b/mars/dashboard") == (
        "/a%40b/mars/dashboard/"
    )


def test_a_token_in_the_query_never_travels_to_the_supervisor():
    url = upstream_url(ENDPOINT, "/j/mars/dashboard/", "/", "token=jupyter-secret&a=1&b=")
    assert url == f"{ENDPOINT}/?a=1&b="


def test_the_supervisor_takes_the_dashboard_path_when_it_is_a_plain_one():
    assert supervisor_base_path("/user/ann/mars/dashboard/") == "/user/ann/mars/dashboard/"
    assert supervisor_base_path("/a%40b/mars/dashboard/") == "/mars/dashboard/"
    assert supervisor_base_path("/mars/dashboard/") == "/mars/dashboard/"

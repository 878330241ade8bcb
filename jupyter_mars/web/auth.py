"""How a browser proves it holds the cluster token: a cookie derived from it.

Programs send ``Authorization: token <token>``. A browser logs in once (the login page, a
login link ``?login=CODE`` that an authenticated client asked for (``logins.LoginCodes``),
or a link carrying ``?token=``: the supervisor takes one such link, the first, and drops
the token from the address) and gets a cookie holding ``HMAC(token, "dashboard")``: never the
token itself, so neither the page's scripts nor a cookie jar ever see it. The cookie is
``HttpOnly`` and ``SameSite=Strict`` (``Secure`` over HTTPS); the ``Origin`` check of
``guard`` turns away what a cross-site page would still send. Wrong tokens and
cookies slow their sender down (``logins``).
"""

from __future__ import annotations

import hashlib
import hmac
import math
from html import escape
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import tornado.web

from jupyter_mars.web.logins import Logins, LoginThrottle

COOKIE = "mars-dashboard"


def cookie_value(token: str) -> str:
    """What the cookie holds for ``token``.

    >>> cookie_value("t") == cookie_value("t") != cookie_value("u")
    True
    """
    return hmac.new(token.encode(), b"dashboard", hashlib.sha256).hexdigest()


def header_ok(authorization: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``token``."""
    scheme, _, given = (authorization or "").partition(" ")
    return scheme.lower() == "token" and hmac.compare_digest(given.encode(), token.encode())


def cookie_ok(cookie: str | None, token: str) -> bool:
    return cookie is not None and hmac.compare_digest(cookie.encode(), cookie_value(token).encode())


CREDENTIALS = ("token", "login")
"""Query arguments that log a browser in: the token, a login link's code."""


def without_token(uri: str) -> str:
    """``uri`` with its ``token`` and ``login`` query arguments removed.

    >>> without_token("/dash/?a=1&token=s3cret&b=2"), without_token("/?login=x")
    ('/dash/?a=1&b=2', '/')
    """
    parts = urlsplit(uri)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, v) for k, v in pairs if k not in CREDENTIALS]
    return urlunsplit(("", "", parts.path or "/", urlencode(query), ""))


def safe_next(target: str | None, base: str) -> str:
    """Where to go after logging in: a path under ``base`` on this server only, never
    another site; ``base`` itself otherwise.

    >>> safe_next("/api/v1/cluster", "/"), safe_next("//evil.example/x", "/")
    ('/api/v1/cluster', '/')
    >>> safe_next("https://evil.example", "/"), safe_next(None, "/p/"), safe_next("/q", "/p/")
    ('/', '/p/', '/p/')
    """
    if not target or not target.startswith(base) or target.startswith("//") or "\\" in target:
        return base
    return target


def login_page(action: str, next_path: str, error: str = "") -> str:
    """The login form: one field for the token, no scripts, nothing fetched."""
    message = f'<p class="error">{escape(error)}</p>' if error else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>jupyter_mars: log in</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; }}
input {{ width: 100%; padding: .4rem; margin: .4rem 0; }}
.error {{ color: #b00020; }}
</style></head>
<body><h1>jupyter_mars</h1>
<p>Enter the cluster token (printed by <code>mars-supervisor</code>, or in
<code>MARS_TOKEN</code>).</p>{message}
<form method="post" action="{escape(action)}">
<input type="hidden" name="next" value="{escape(next_path)}">
<label>Token <input type="password" name="token" autocomplete="current-password" autofocus>
</label><button type="submit">Log in</button></form></body></html>
"""


def authenticated(handler: tornado.web.RequestHandler, token: str) -> bool:
    """The token in ``Authorization``, or the login cookie (``auth``)."""
    return header_ok(handler.request.headers.get("Authorization"), token) or cookie_ok(
        handler.get_cookie(COOKIE), token
    )


def presented(handler: tornado.web.RequestHandler) -> list[str]:
    """The tokens and login cookies a request offers (none: it did not try), to count
    the wrong ones as guesses (``logins``)."""
    scheme, _, given = (handler.request.headers.get("Authorization") or "").partition(" ")
    offered = [given] if scheme.lower() == "token" and given else []
    cookie = handler.get_cookie(COOKIE)
    return [*offered, f"cookie:{cookie}"] if cookie else offered


def set_login_cookie(handler: tornado.web.RequestHandler, token: str, path: str = "/") -> None:
    """Log the browser in for the pages and routes under ``path`` (the base path)."""
    handler.set_cookie(
        COOKIE,
        cookie_value(token),
        path=path,
        httponly=True,
        samesite="Strict",
        secure=handler.request.protocol == "https",
    )


class LockedOut(tornado.web.HTTPError):
    """429: the client sent too many wrong tokens; ``retry_after`` says for how long."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            429, reason=f"too many wrong tokens from this address: try again in {retry_after} s"
        )
        self.retry_after = retry_after


def refuse_while_locked(handler: tornado.web.RequestHandler, throttle: LoginThrottle) -> None:
    """Raise ``LockedOut`` while the request's client is locked out (``logins``)."""
    wait = throttle.wait(handler.request.remote_ip or "")
    if wait > 0:
        raise LockedOut(math.ceil(wait))


def check_token(handler: tornado.web.RequestHandler, token: str, logins: Logins) -> bool:
    """Whether the request proves ``token`` (``authenticated``). Its client's wrong tokens
    and cookies count as guesses, and a client locked out for them gets ``LockedOut``
    before anything is compared."""
    refuse_while_locked(handler, logins.throttle)
    if authenticated(handler, token):
        return True
    for given in presented(handler):
        logins.throttle.failed(handler.request.remote_ip or "", given)
    return False

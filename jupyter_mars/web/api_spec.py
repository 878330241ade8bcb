"""The OpenAPI description of the supervisor's HTTP API, served at ``/api/openapi.json``."""

from __future__ import annotations

from typing import Any

API_VERSION = "1"


STANDBY = "a standby supervisor: the error names the active one's web address"


def _op(
    summary: str, responses: dict[str, str], body: str | None = None, public: bool = False
) -> dict[str, Any]:
    """One operation; ``public``: it needs no token (the login form)."""
    op: dict[str, Any] = {
        "summary": summary,
        "security": [] if public else [{"clusterToken": []}, {"loginCookie": []}],
        "responses": {
            **{code: {"description": text} for code, text in responses.items()},
            "403": {"description": "a Host not naming this machine, or a foreign Origin"},
        },
    }
    if not public:
        op["responses"]["401"] = {"description": "missing or wrong cluster token"}
        op["responses"]["429"] = {
            "description": "too many wrong tokens from this address (Retry-After: seconds)"
        }
    if body is not None:
        op["requestBody"] = {"required": True, "content": {body: {}}}
        op["responses"]["413"] = {"description": "the body is over the route's size limit"}
    return op


def openapi_document(base_path: str = "/") -> dict[str, Any]:
    """The document; its paths are relative to ``base_path`` (``--web-base-path``)."""
    address = {"name": "address", "in": "path", "required": True, "schema": {"type": "string"}}
    sid = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"}}
    eid = {"name": "execution_id", "in": "path", "required": True, "schema": {"type": "string"}}
    tkey = {"name": "tensor_key", "in": "path", "required": True, "schema": {"type": "string"}}
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {
            "title": "jupyter_mars supervisor",
            "version": API_VERSION,
            "description": "Remote sessions: graphs in, progress and chunked results out.",
        },
        "servers": [{"url": base_path}],
        "components": {
            "securitySchemes": {
                "clusterToken": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "Authorization",
                    "description": "'token <cluster token>'",
                },
                "loginCookie": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "mars-dashboard",
                    "description": "set by /login, or by the first GET link carrying ?token=",
                },
            }
        },
        "paths": {
            "/api/openapi.json": {"get": _op("This document", {"200": "the document"})},
            "/": {
                "get": _op(
                    "The dashboard page (HTML); it draws from /api/v1/stream. A login link's "
                    "?login=CODE (from /api/v1/login-links) logs the browser in, once; a "
                    "used or expired one gets the login form (401)",
                    {
                        "200": "the page",
                        "302": "to /login when not logged in; after a login link, to the "
                        "page without its code, with the login cookie set",
                    },
                )
            },
            "/static/{name}": {
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "get": _op(
                    "The dashboard's script and style sheet", {"200": "the file", "404": "none"}
                ),
            },
            "/login": {
                "get": _op("The login form (HTML)", {"200": "the form"}, public=True),
                "post": _op(
                    "Log in with the token (form fields token, next): sets the login cookie",
                    {
                        "302": "to next, a path on this server",
                        "401": "wrong token",
                        "429": "too many wrong tokens from this address: try again later",
                    },
                    body="application/x-www-form-urlencoded",
                    public=True,
                ),
            },
            "/api/v1/stream": {
                "get": _op(
                    "WebSocket: {cluster, sessions} about once a second (the dashboard's "
                    "feed); send {watch: {execution: [session_id, execution_id]}} or "
                    "{watch: {worker: address}} to get that execution's operator graph or "
                    "that worker's page in each message too",
                    {"101": "switching protocols", "400": "not a WebSocket handshake"},
                )
            },
            "/api/v1/cluster": {
                "get": _op(
                    "Supervisors (which is active, their web addresses), workers, their "
                    "resources, memory shares and stored chunks, totals (hosts, cores, "
                    "memory) that count a machine once, and tasks {ready, running, slots} "
                    "(what adaptive scaling weighs); answered by standby supervisors too",
                    {"200": "cluster"},
                )
            },
            "/api/v1/login-links": {
                "post": _op(
                    "A link that logs a browser in to the dashboard: {url: '<this address>"
                    "/?login=CODE', expires_in: seconds}; CODE is random (never the token), "
                    "works once, and only for a few minutes",
                    {"201": "the link"},
                )
            },
            "/api/v1/workers": {"get": _op("Workers and their resources", {"200": "workers"})},
            "/api/v1/workers/{address}": {
                "parameters": [address],
                "get": _op(
                    "One worker: its resources, the tasks it runs now (op, seconds running) "
                    "and the last lines of its log",
                    {"200": "worker", "404": "unknown"},
                ),
            },
            "/api/v1/workers/{address}/stack": {
                "parameters": [address],
                "post": _op(
                    "Dump the stacks of every thread of the worker process, now",
                    {"200": "{address, threads: [{thread, stack}]}", "404": "unknown"},
                ),
            },
            "/api/v1/sessions": {
                "post": _op("Create a session", {"201": "{session_id, session_timeout}"}),
            },
            "/api/v1/sessions/{session_id}": {
                "parameters": [sid],
                "delete": _op("Close a session, freeing its results", {"200": "closed"}),
            },
            "/api/v1/sessions/{session_id}/keepalive": {
                "parameters": [sid],
                "post": _op(
                    "Renew the session's lease: a session none of whose requests came for "
                    "session_timeout seconds is closed and its results freed",
                    {"200": "{session_id, session_timeout}", "404": "unknown or expired"},
                ),
            },
            "/api/v1/sessions/{session_id}/executions": {
                "parameters": [sid],
                "post": _op(
                    "Submit tensors to execute (pickled {nodes, name}: the expression nodes, "
                    "and what to call the execution on these pages)",
                    {"201": "{execution_id}", "400": "not a graph", "415": "wrong type"},
                    body="application/octet-stream",
                ),
            },
            "/api/v1/sessions/{session_id}/executions/{execution_id}": {
                "parameters": [sid, eid],
                "get": _op(
                    "State, progress (chunks_done / chunks_total), error, and result shapes "
                    "of an execution",
                    {"200": "execution", "404": "unknown"},
                ),
            },
            "/api/v1/sessions/{session_id}/executions/{execution_id}/operators": {
                "parameters": [sid, eid],
                "get": _op(
                    "Per operator of an execution: chunks done / total, tasks running, "
                    "seconds spent and state; edges from each operator to its readers",
                    {"200": "operators", "404": "unknown"},
                ),
            },
            "/api/v1/sessions/{session_id}/executions/{execution_id}/cancel": {
                "parameters": [sid, eid],
                "post": _op(
                    "Cancel an execution, running tasks included; one that already ended "
                    "stays as it ended ({state, cancelled: false, message})",
                    {"200": "state, and whether this cancelled it", "404": "unknown"},
                ),
            },
            "/api/v1/sessions/{session_id}/release": {
                "parameters": [sid],
                "post": _op(
                    "Free the results of tensors the client dropped ({keys: [...]})",
                    {"200": "released", "400": "bad keys"},
                    body="application/json",
                ),
            },
            "/api/v1/sessions/{session_id}/tensors/{tensor_key}/data": {
                "parameters": [sid, tkey],
                "get": _op(
                    "A tensor's data streamed in pieces (an 8-byte frame count, an 8-byte "
                    "length per frame, then the frames: a pickle stream and its out-of-band "
                    "buffers), first the layout ({nsplits, n_chunks}), then each chunk in C "
                    "order of the grid; the body ends where the connection closes",
                    {"200": "pieces", "404": "not executed"},
                ),
            },
        },
    }
    for path, item in document["paths"].items():
        if path.startswith("/api/v1/sessions"):
            for method in ("get", "post", "delete"):
                if method in item:
                    item[method]["responses"]["503"] = {"description": STANDBY}
    return document

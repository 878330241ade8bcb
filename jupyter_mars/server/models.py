"""The JSON the server extension's API sends and reads: one pure function per shape.

Out (``*_model``): the cluster's status, its workers, its tasks (executions), the host
list and errors. In (``parse_*``): the bodies of ``cluster/start``, ``cluster/scale``,
``cluster/adapt`` and ``PUT hostlist``, checked here so that a bad one is a 400 naming the field.
The JupyterLab panel mirrors these shapes field by field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jupyter_mars.server.errors import InvalidRequest
from jupyter_mars.web.guard import parse_json

MAX_WORKERS = 256
"""Most workers one request may ask for: a typo must not fork a thousand processes."""

START_FIELDS = ("n_workers", "n_cpu", "memory")


def error_model(message: str, reason: str = "") -> dict[str, Any]:
    """An error body, in the shape jupyter_server's own API errors have."""
    return {"message": message, "reason": reason or None}


def worker_model(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A worker as the supervisor's cluster model describes it: address, cores, tasks
    running, seconds since its last heartbeat, its resource figures and its share of its
    machine's memory (bytes; its own when no other worker runs there)."""
    return {
        "address": raw.get("address"),
        "n_cpu": raw.get("n_cpu"),
        "memory_share": raw.get("memory_share"),
        "running": raw.get("running", 0),
        "heartbeat_age": raw.get("heartbeat_age"),
        "resources": raw.get("resources") or {},
    }


def workers_model(cluster: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The workers of a supervisor's ``/api/v1/cluster`` answer (none without one)."""
    if not cluster:
        return []
    return [worker_model(w) for w in cluster.get("workers", [])]


def task_models(stream_message: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Every execution one message of the supervisor's state stream lists, flattened:
    the session and execution ids (what cancelling takes), state, progress, elapsed
    seconds, the error of a failed one, and chunks done / total per operator."""
    if not stream_message:
        return []
    tasks = []
    for session in stream_message.get("sessions", []):
        for execution in session.get("executions", []):
            error = execution.get("error")
            tasks.append(
                {
                    "session_id": session.get("session_id"),
                    "execution_id": execution.get("execution_id"),
                    "name": execution.get("name") or execution.get("execution_id"),
                    "state": execution.get("state"),
                    "progress": execution.get("progress", 0.0),
                    "elapsed": execution.get("elapsed", 0.0),
                    "error": error.get("message") if isinstance(error, dict) else None,
                    "operators": execution.get("operators", []),
                }
            )
    return tasks


def running_tasks(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in tasks if t["state"] in ("running", "cancelling")]


def status_model(
    state: Mapping[str, Any],
    dashboard: str,
    cluster: Mapping[str, Any] | None = None,
    tasks: list[dict[str, Any]] | None = None,
    supervisor_error: str | None = None,
) -> dict[str, Any]:
    """The cluster's status: the manager's ``state`` (state, error, kind, endpoint,
    started, options, and ``adaptive``: its bounds and last error while it adapts, else
    None), then what the supervisor says (workers, their machines, cores and
    memory, each machine counted once however many workers share it; running tasks), and
    the dashboard's address through this server."""
    return {
        "state": state["state"],
        "error": state.get("error"),
        "kind": state.get("kind"),
        "endpoint": state.get("endpoint"),
        "dashboard": dashboard if state["state"] == "running" else None,
        "started": state.get("started"),
        "options": dict(state.get("options") or {}),
        **supervisor_model(cluster, tasks),
        "adaptive": state.get("adaptive"),
        "supervisor_error": supervisor_error,
    }


def supervisor_model(
    cluster: Mapping[str, Any] | None, tasks: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """What a supervisor says of its cluster (``GET /api/v1/cluster`` and its running
    tasks), as the status and the cluster list show it: workers, machines, cores and
    memory (each machine counted once), running tasks."""
    workers = workers_model(cluster)
    totals = (cluster or {}).get("totals") or {}
    return {
        "n_workers": len(workers),
        "n_hosts": int(totals.get("hosts") or 0),
        "n_cpu": int(totals.get("n_cpu") or 0),
        "memory": int(totals.get("memory") or 0),
        "workers": workers,
        "tasks": running_tasks(tasks or []),
    }


def host_list_model(path: str, text: str, configured: bool | None = None) -> dict[str, Any]:
    """The host list file: where it is ('' when it has nowhere to go), whether clusters
    use it (``configured``; a file the panel may create is not used until saved) and its
    text."""
    return {
        "path": path,
        "configured": bool(path) if configured is None else configured,
        "text": text,
    }


def _json_object(body: bytes) -> dict[str, Any]:
    if not body.strip():
        return {}
    try:
        value = parse_json(body)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None
    if not isinstance(value, dict):
        raise InvalidRequest("the body must be a JSON object")
    return value


def _whole(value: Any, name: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidRequest(f"'{name}' must be a whole number of at least {low}, got {value!r}")
    if high is not None and value > high:
        raise InvalidRequest(f"'{name}' must be at most {high}, got {value}")
    return value


def parse_start(body: bytes) -> dict[str, Any]:
    """The options of ``POST cluster/start``: any of ``n_workers``, ``n_cpu`` and
    ``memory`` (``null`` or absent: the server's configuration)."""
    given = _json_object(body)
    unknown = sorted(set(given) - set(START_FIELDS))
    if unknown:
        raise InvalidRequest(
            f"unknown field(s) {', '.join(unknown)}; expected {', '.join(START_FIELDS)}"
        )
    options: dict[str, Any] = {}
    if given.get("n_workers") is not None:
        options["n_workers"] = _whole(given["n_workers"], "n_workers", 1, MAX_WORKERS)
    if given.get("n_cpu") is not None:
        options["n_cpu"] = _whole(given["n_cpu"], "n_cpu", 1)
    if given.get("memory") is not None:
        memory = given["memory"]
        if isinstance(memory, bool) or not isinstance(memory, str | int):
            raise InvalidRequest(f"'memory' must be a size such as '4g', got {memory!r}")
        options["memory"] = str(memory)
    return options


def parse_scale(body: bytes) -> int:
    """The worker count of ``POST cluster/scale``: ``{"n": 3}``."""
    given = _json_object(body)
    if set(given) != {"n"}:
        raise InvalidRequest('the body must be {"n": <number of workers>}')
    return _whole(given["n"], "n", 1, MAX_WORKERS)


ADAPT_FIELDS = ("minimum", "maximum", "wait", "enabled")


def parse_adapt(body: bytes) -> dict[str, Any] | None:
    """The bounds of ``POST cluster/adapt``: ``{"minimum": 1, "maximum": 4}`` and
    optionally ``"wait"`` (seconds idle before a worker is stopped); ``{"enabled":
    false}``: stop adapting (None)."""
    given = _json_object(body)
    unknown = sorted(set(given) - set(ADAPT_FIELDS))
    if unknown:
        raise InvalidRequest(
            f"unknown field(s) {', '.join(unknown)}; expected {', '.join(ADAPT_FIELDS)}"
        )
    enabled = given.get("enabled", True)
    if not isinstance(enabled, bool):
        raise InvalidRequest(f"'enabled' must be true or false, got {enabled!r}")
    if not enabled:
        if set(given) != {"enabled"}:
            raise InvalidRequest('to stop adapting, send {"enabled": false} alone')
        return None
    if "minimum" not in given or "maximum" not in given:
        raise InvalidRequest('the body must be {"minimum": <workers>, "maximum": <workers>}')
    bounds: dict[str, Any] = {
        "minimum": _whole(given["minimum"], "minimum", 1, MAX_WORKERS),
        "maximum": _whole(given["maximum"], "maximum", 1, MAX_WORKERS),
    }
    if bounds["maximum"] < bounds["minimum"]:
        raise InvalidRequest(
            f"'maximum' must be at least 'minimum' ({bounds['minimum']}), got {bounds['maximum']}"
        )
    if given.get("wait") is not None:
        wait = given["wait"]
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= 86400:
            raise InvalidRequest(f"'wait' must be seconds from 0 to 86400, got {wait!r}")
        bounds["wait"] = float(wait)
    return bounds


def parse_host_list(body: bytes, content_type: str | None) -> str:
    """The text of ``PUT hostlist``: a JSON ``{"text": ...}``, or the YAML itself."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRequest("the host list must be UTF-8 text") from None
    if (content_type or "").split(";")[0].strip() == "application/json":
        given = _json_object(body)
        if set(given) != {"text"} or not isinstance(given["text"], str):
            raise InvalidRequest('a JSON body must be {"text": <the host list as YAML>}')
        return str(given["text"])
    return text


def listed_cluster_model(
    listed: Mapping[str, Any],
    dashboard: str,
    cluster: Mapping[str, Any] | None = None,
    tasks: list[dict[str, Any]] | None = None,
    supervisor_error: str | None = None,
) -> dict[str, Any]:
    """A cluster of this machine as ``GET clusters`` lists it: who started it and where
    it is stopped (``listed``: a ``listing.Listed``'s fields), the dashboard's address
    through this server, then what its supervisor says (workers, totals and running
    tasks, as ``status_model``), or why it did not answer."""
    return {
        "id": listed["id"],
        "own": listed["own"],
        "kind": listed["kind"],
        "origin": listed["origin"],
        "started_by": listed["started_by"],
        "stop_hint": listed["stop_hint"],
        "owner_pid": listed["owner_pid"] or None,
        "endpoint": listed["endpoint"],
        "created": listed["created"],
        "dashboard": dashboard,
        **supervisor_model(cluster, tasks),
        "supervisor_error": supervisor_error,
    }

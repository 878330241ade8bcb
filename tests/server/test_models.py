"""The wire shapes: request bodies checked field by field, and the models sent back."""

from __future__ import annotations

import json

import pytest

from jupyter_mars.server import models
from jupyter_mars.server.errors import InvalidRequest

STREAM_MESSAGE = {
    "cluster": {"workers": []},
    "sessions": [
        {
            "session_id": "s1",
            "n_executions": 2,
            "executions": [
                {"execution_id": "e1", "state": "succeeded", "progress": 1.0, "elapsed": 0.1},
                {
                    "execution_id": "e2",
                    "state": "failed",
                    "progress": 0.5,
                    "elapsed": 0.2,
                    "error": {"type": "ValueError", "message": "bad chunk"},
                    "operators": [{"id": "op1", "done": 1, "total": 2}],
                },
            ],
        },
        {"session_id": "s2", "executions": [{"execution_id": "e3", "state": "running"}]},
    ],
}


def test_start_body_takes_known_fields_and_defaults_to_the_configuration():
    assert models.parse_start(b"") == {}
    assert models.parse_start(b'{"n_workers": null}') == {}
    body = json.dumps({"n_workers": 2, "n_cpu": 4, "memory": "2g"}).encode()
    assert models.parse_start(body) == {"n_workers": 2, "n_cpu": 4, "memory": "2g"}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"[1]", "must be a JSON object"),
        (b"{nope", "must be JSON"),
        (b'{"n_workers": 1000}', "'n_workers' must be at most 256"),
        (b'{"n_workers": true}', "'n_workers' must be a whole number"),
        (b'{"memory": []}', "'memory' must be a size"),
        (b'{"cpus": 1}', "unknown field(s) cpus"),
        (b'{"memory": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested deeper than"),
    ],
)
def test_bad_start_bodies_name_their_problem(body, problem):
    with pytest.raises(InvalidRequest) as error:
        models.parse_start(body)
    assert problem in str(error.value)


def test_scale_body_is_one_count():
    assert models.parse_scale(b'{"n": 3}') == 3
    with pytest.raises(InvalidRequest, match="must be"):
        models.parse_scale(b'{"n": 3, "m": 1}')


def test_adapt_body_is_bounds_or_enabled_false():
    assert models.parse_adapt(b'{"minimum": 1, "maximum": 4}') == {"minimum": 1, "maximum": 4}
    assert models.parse_adapt(b'{"minimum": 2, "maximum": 2, "wait": 5}') == {
        "minimum": 2,
        "maximum": 2,
        "wait": 5.0,
    }
    assert models.parse_adapt(b'{"enabled": false}') is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"minimum": 1}, "the body must be"),
        ({"minimum": 1.5, "maximum": 2}, "'minimum' must be a whole number of at least 1"),
        ({"minimum": 1, "maximum": 1000}, "'maximum' must be at most 256"),
        ({"minimum": 3, "maximum": 2}, "'maximum' must be at least 'minimum' (3), got 2"),
        ({"minimum": 1, "maximum": 2, "wait": "5"}, "'wait' must be seconds from 0 to 86400"),
        ({"enabled": False, "minimum": 1}, '{"enabled": false} alone'),
        ({"enabled": 0}, "'enabled' must be true or false"),
        ({"interval": 1}, "unknown field(s) interval"),
    ],
)
def test_bad_adapt_bodies_name_their_problem(body, problem):
    with pytest.raises(InvalidRequest) as error:
        models.parse_adapt(json.dumps(body).encode())
    assert problem in str(error.value)


def test_host_list_body_is_yaml_or_json_text():
    assert models.parse_host_list(b"- a\n", "text/plain") == "- a\n"
    assert models.parse_host_list(b"- a\n", None) == "- a\n"
    body = json.dumps({"text": "- b\n"}).encode()
    assert models.parse_host_list(body, "application/json; charset=utf-8") == "- b\n"
    with pytest.raises(InvalidRequest, match='"text"'):
        models.parse_host_list(b'{"hosts": ["a"]}', "application/json")
    with pytest.raises(InvalidRequest, match="UTF-8"):
        models.parse_host_list(b"\xff", None)


def test_tasks_flatten_every_session_with_the_ids_a_cancel_takes():
    tasks = models.task_models(STREAM_MESSAGE)
    assert [(t["session_id"], t["execution_id"], t["state"]) for t in tasks] == [
        ("s1", "e1", "succeeded"),
        ("s1", "e2", "failed"),
        ("s2", "e3", "running"),
    ]
    assert tasks[1]["error"] == "bad chunk"
    assert tasks[1]["operators"] == [{"id": "op1", "done": 1, "total": 2}]
    assert models.running_tasks(tasks) == [tasks[2]]
    assert models.task_models(None) == []


def test_status_model_adds_the_supervisors_workers_and_running_tasks():
    state = {"state": "running", "kind": "local", "endpoint": "http://127.0.0.1:9"}
    cluster = {
        "workers": [{"address": "w:1", "n_cpu": 2, "resources": {"memory": 1}}] * 2,
        "totals": {"hosts": 1, "n_cpu": 2, "memory": 1 << 30},
    }
    tasks = models.task_models(STREAM_MESSAGE)
    status = models.status_model(state, "/mars/dashboard/", cluster, tasks)
    # the supervisor's totals, where a machine two workers share counts once
    assert (status["n_workers"], status["n_hosts"], status["n_cpu"], status["memory"]) == (
        2,
        1,
        2,
        1 << 30,
    )
    assert status["dashboard"] == "/mars/dashboard/"
    assert status["workers"][0] == {
        "address": "w:1",
        "n_cpu": 2,
        "memory_share": None,
        "running": 0,
        "heartbeat_age": None,
        "resources": {"memory": 1},
    }
    assert [t["execution_id"] for t in status["tasks"]] == ["e3"]
    assert status["adaptive"] is None
    adapting = {**state, "adaptive": {"minimum": 1, "maximum": 4, "wait": 10.0, "error": None}}
    assert models.status_model(adapting, "/d/", cluster)["adaptive"]["maximum"] == 4
    stopped = models.status_model({"state": "stopped"}, "/mars/dashboard/")
    assert (stopped["dashboard"], stopped["workers"], stopped["error"]) == (None, [], None)

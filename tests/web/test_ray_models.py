"""The views that let the supervisor API's handlers serve a Ray session (pure): Ray's node
table as the cluster model, the engine session's history as executions."""

from __future__ import annotations

import doctest
import threading

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.future import Progress
from jupyter_mars.engine.history import ExecutionRecord
from jupyter_mars.web import ray_models, ray_page
from jupyter_mars.web.ray_models import ExecutionView, SessionView, ray_cluster_model


def test_the_examples_hold() -> None:
    assert doctest.testmod(ray_models).failed == 0
    assert doctest.testmod(ray_page).failed == 0


def test_dead_nodes_are_not_workers_and_machines_count_once() -> None:
    nodes = [
        {"NodeManagerAddress": "127.0.0.1", "NodeManagerPort": 1, "Alive": True,
         "Resources": {"CPU": 1.0, "memory": 100.0}},
        {"NodeManagerAddress": "127.0.0.1", "NodeManagerPort": 2, "Alive": True,
         "Resources": {"CPU": 2.0, "memory": 50.0}},
        {"NodeManagerAddress": "10.0.0.9", "NodeManagerPort": 3, "Alive": False,
         "Resources": {"CPU": 8.0}},
    ]  # fmt: skip
    model = ray_cluster_model(nodes, "127.0.0.1:6379")
    assert [w["address"] for w in model["workers"]] == ["127.0.0.1:1", "127.0.0.1:2"]
    assert model["totals"] == {"n_cpu": 3, "memory": 150, "hosts": 1}


def test_a_running_record_reads_as_a_running_execution() -> None:
    record = ExecutionRecord(Progress(), None, threading.Event())
    model = ExecutionView(record).model()
    assert model["name"] == record.id  # unnamed: its id, as the cluster's pages show one
    assert (model["state"], model["progress"], model["chunks_total"]) == ("running", 0.0, 0)
    assert "error" not in model
    record.end(ValueError("bad"))
    ended = ExecutionView(record).model()
    assert (ended["state"], ended["error"]) == ("failed", {"message": "ValueError: bad"})


def test_the_session_view_lists_and_cancels_its_engine_s_executions(
    session: mars.Session,
) -> None:
    engine = session.engine  # type: ignore[attr-defined]
    (mt.arange(6, chunk_size=2) * 2).sum().execute()
    view = SessionView("s", engine)
    latest = list(view.executions.values())[-1]
    model = latest.model()
    assert (model["state"], model["progress"]) == ("succeeded", 1.0)
    assert model["chunks_done"] == model["chunks_total"] > 0
    assert latest.operators_model()["operators"]
    assert not view.cancel(latest)  # it ended

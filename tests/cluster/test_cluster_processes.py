"""A cluster of real processes started from the command line, used as a user would."""

from __future__ import annotations

import gc
import http.client as http_client
import json
import os
import subprocess
import sys
import textwrap
import time

import cloudpickle
import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.cluster.processes import FlakyLink, cli_cluster, wait_until

SEED_SCRIPT = textwrap.dedent(
    """
    import jupyter_mars as mars
    import jupyter_mars.tensor as mt
    mars.new_session('{url}')
    a = mt.random.rand(2000, 2000, chunk_size=200)
    b = mt.inner(a, a)
    b.execute()
    data = a.execute().fetch()
    import numpy as np
    print('OK', np.allclose(b.fetch(), np.inner(data, data)))
    """
)


@pytest.fixture(scope="module")
def cluster():
    with cli_cluster(2, "--n-cpu", "1") as c:
        yield c


@pytest.fixture
def remote(cluster, session):
    remote = mars.new_session(cluster.url, token=cluster.token)
    yield remote
    remote.close()
    session.as_default()


def test_seed_script_runs_unchanged_but_for_the_imports(cluster):
    env = {**os.environ, "MARS_TOKEN": cluster.token}
    out = subprocess.run(
        [sys.executable, "-c", SEED_SCRIPT.format(url=cluster.url)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "OK True" in out.stdout


def test_remote_results_equal_numpy(remote):
    data = np.random.default_rng(3).random((300, 40))
    x = mt.tensor(data, chunk_size=(70, 13))
    np.testing.assert_allclose((x @ x.T).execute().fetch(), data @ data.T)
    np.testing.assert_allclose(x.std(axis=0).execute().fetch(), data.std(axis=0))
    top = x[x[:, 0] > 0.5][:3]
    np.testing.assert_array_equal(top.execute().fetch(), data[data[:, 0] > 0.5][:3])
    assert top.shape == (3, 40)


def test_remote_future_with_progress_and_cancel(remote):
    x = mt.random.rand(4000, chunk_size=100)
    future = (x * 2).sum().execute(wait=False)
    assert float(np.asarray(future.result(timeout=60))) > 0
    assert future.progress() == 1.0
    # the supervisor's progress counts the chunks its operators count, fused or not
    operators = future.operators()["operators"]
    done, total = future.chunks()
    assert done == total == sum(op["total"] for op in operators) > 40
    slow = mt.elemwise(
        time_sleep_kernel, mt.tensor(np.arange(40), chunk_size=1), 0.3, dtype=np.int64
    )
    future = slow.execute(wait=False)
    time.sleep(0.3)
    assert future.cancel()
    assert future.cancelled()
    assert (mt.tensor(np.arange(4)) + 1).execute().fetch().tolist() == [1, 2, 3, 4]


def test_a_result_executed_again_can_be_fetched_every_time(remote):
    data = np.arange(60.0).reshape(6, 10)
    x = mt.tensor(data, chunk_size=3) + 1
    for _ in range(4):
        x.execute()
        np.testing.assert_array_equal(x.fetch(), data + 1)


def _finished_execution(http, session_id, tensor):
    body = cloudpickle.dumps({"nodes": [tensor.node]}, protocol=5)
    base = f"/api/v1/sessions/{session_id}/executions"
    response = http.request("POST", base, body, "application/octet-stream")
    execution_id = http.check(response)["execution_id"]
    for _ in range(100):
        model = http.json("GET", f"{base}/{execution_id}?wait=1")
        if model["state"] not in ("running", "cancelling"):
            return f"{base}/{execution_id}", model
    raise TimeoutError("the execution did not end")


def test_a_graph_uploaded_in_chunks_without_a_length_runs(cluster):
    http = cluster.http()
    session_id = http.json("POST", "/api/v1/sessions")["session_id"]
    data = np.arange(300_000.0)
    tensor = mt.tensor(data, chunk_size=70_000).sum()
    body = cloudpickle.dumps({"nodes": [tensor.node]}, protocol=5)
    base = f"/api/v1/sessions/{session_id}/executions"
    netloc = cluster.url.split("//", 1)[1]
    conn = http_client.HTTPConnection(netloc, timeout=30)
    try:
        headers = {"Authorization": f"token {cluster.token}"}
        headers["Content-Type"] = "application/octet-stream"
        pieces = (body[i : i + 50_000] for i in range(0, len(body), 50_000))
        conn.request("POST", base, body=pieces, headers=headers, encode_chunked=True)
        response = conn.getresponse()
        assert response.status == 201, response.read()
        execution_id = json.loads(response.read())["execution_id"]
    finally:
        conn.close()
    for _ in range(100):
        model = http.json("GET", f"{base}/{execution_id}?wait=1")
        if model["state"] not in ("running", "cancelling"):
            break
    assert model["state"] == "succeeded"


def test_cancelling_a_finished_execution_leaves_it_as_it_ended(cluster):
    http = cluster.http()
    session_id = http.json("POST", "/api/v1/sessions")["session_id"]
    try:
        path, model = _finished_execution(http, session_id, mt.tensor(np.arange(6)) + 1)
        assert model["state"] == "succeeded"
        answer = http.json("POST", f"{path}/cancel")
        assert answer["state"] == "succeeded"
        assert answer["cancelled"] is False
        assert "already ended" in answer["message"]
        after = http.json("GET", path)
        assert after["state"] == "succeeded"
        assert after["results"] == model["results"]
        failing = mt.elemwise(failing_kernel, mt.tensor(np.arange(3)), dtype=np.int64)
        path, model = _finished_execution(http, session_id, failing)
        assert model["state"] == "failed"
        assert http.json("POST", f"{path}/cancel")["state"] == "failed"
        assert http.json("GET", path)["state"] == "failed"
    finally:
        http.json("DELETE", f"/api/v1/sessions/{session_id}")


def time_sleep_kernel(block, seconds):
    time.sleep(seconds)
    return block


def failing_kernel(block):
    raise ValueError("bad chunk on the cluster")


def test_remote_errors_keep_their_type_and_name_the_operator(remote):
    with pytest.raises(ValueError, match="bad chunk on the cluster") as info:
        mt.elemwise(failing_kernel, mt.tensor(np.arange(3)), dtype=np.int64).execute()
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "failing_kernel" in notes or sys.version_info < (3, 11)


def _stored_chunks(cluster):
    return sum(
        w["resources"].get("store", {}).get("n_memory", 0)
        for w in cluster.http().json("GET", "/api/v1/workers")
    )


def _settled(cluster):
    """The stored chunk count once no task runs and two heartbeats agree."""
    last = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        workers = cluster.http().json("GET", "/api/v1/workers")
        busy = any(w["running"] or w["resources"].get("running") for w in workers)
        count = _stored_chunks(cluster)
        if not busy and count == last:
            return count
        last = count
        time.sleep(1.1)
    raise TimeoutError("the cluster did not settle")


def test_results_are_freed_on_the_workers_when_the_tensor_is_collected(cluster, remote):
    baseline = _settled(cluster)
    x = mt.tensor(np.ones((1000, 100)), chunk_size=100) + 1
    x.execute()
    assert wait_until(lambda: _stored_chunks(cluster) >= baseline + 10, 10.0)
    before = _stored_chunks(cluster)
    del x
    gc.collect()
    assert wait_until(lambda: _stored_chunks(cluster) <= before - 10, 10.0)


def test_a_release_lost_on_the_network_is_sent_again(cluster, session):
    baseline = _settled(cluster)
    link = FlakyLink(cluster.web)
    remote = mars.new_session(link.url, token=cluster.token, default=False)
    try:
        y = mt.tensor(np.ones((400, 100)), chunk_size=40) * 3
        remote.execute(y)
        assert wait_until(lambda: _stored_chunks(cluster) >= baseline + 10, 10.0)
        link.cut.set()
        del y
        gc.collect()
        time.sleep(2.5)  # the release fails to get through, at least once
        link.cut.clear()
        assert wait_until(lambda: _stored_chunks(cluster) <= baseline, 10.0), "the chunks stayed"
    finally:
        remote.close()
        link.close()


def test_a_result_executed_again_stays_fetchable(remote):
    y = mt.tensor(np.arange(100.0), chunk_size=10) * 2
    y.execute()
    y.execute()  # the supervisor receives a second copy of the node
    z = (y + 1).execute()
    gc.collect()
    np.testing.assert_array_equal(y.fetch(), np.arange(100.0) * 2)
    np.testing.assert_array_equal(z.fetch(), np.arange(100.0) * 2 + 1)


def test_closing_a_session_frees_its_chunks(cluster):
    baseline = _settled(cluster)
    s = mars.new_session(cluster.url, token=cluster.token, default=False)
    y = mt.tensor(np.ones((500, 10)), chunk_size=50) * 3
    s.execute(y)
    assert wait_until(lambda: _stored_chunks(cluster) >= baseline + 10, 10.0)
    s.close()
    assert wait_until(lambda: _stored_chunks(cluster) <= baseline, 10.0)


def test_every_route_refuses_a_missing_or_wrong_token(cluster):
    document = cluster.http().json("GET", "/api/openapi.json")
    routes = []
    for path, item in document["paths"].items():
        for method in ("get", "post", "delete"):
            if method in item and item[method]["security"]:  # the login form is public
                concrete = (
                    path.replace("{session_id}", "s")
                    .replace("{execution_id}", "e")
                    .replace("{tensor_key}", "t")
                    .replace("{name}", "dashboard.js")
                )
                routes.append((method.upper(), concrete))
    assert len(routes) >= 9
    for token in ("", "wrong-token"):
        http = cluster.http(token=token)
        for method, path in routes:
            with http.request(method, path, b"{}", "application/json") as response:
                body = response.read()
            expected = 302 if path == "/" else 401  # the page sends browsers to log in
            assert response.status == expected, (method, path, response.status)
            assert b"Traceback" not in body
            assert cluster.token.encode() not in body


def test_wrong_token_is_refused_by_new_session(cluster):
    with pytest.raises(PermissionError, match="refused the cluster token"):
        mars.new_session(cluster.url, token="wrong", default=False)


def test_nothing_listening_fails_fast_with_a_clear_message():
    started = time.monotonic()
    with pytest.raises(ConnectionError, match="no jupyter_mars supervisor answers"):
        mars.new_session("http://127.0.0.1:9", token="x", default=False)
    assert time.monotonic() - started < 5


def test_cluster_reports_true_worker_figures(cluster):
    workers = cluster.http().json("GET", "/api/v1/workers")
    assert len(workers) == 2
    for worker in workers:
        resources = worker["resources"]
        assert worker["n_cpu"] == 1
        assert 0 <= resources["cpu_used"] <= 1.15
        assert resources["memory_rss"] > 0


def test_cancel_frees_every_chunk_of_the_execution(cluster, remote):
    baseline = _settled(cluster)
    x = mt.tensor(np.ones((40, 100)), chunk_size=(1, 100))
    slow = mt.elemwise(time_sleep_kernel, x, 0.05, dtype=np.float64) + 1
    future = slow.sum().execute(wait=False)
    time.sleep(0.4)
    assert future.cancel()
    assert _settled(cluster) <= baseline


def test_errors_inside_a_subgraph_name_the_operator_that_raised(remote):
    x = mt.tensor(np.arange(400), chunk_size=10)
    with pytest.raises(ValueError, match="bad chunk on the cluster") as info:
        mt.elemwise(failing_kernel, x, dtype=np.int64).sum().execute()
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "failing_kernel" in notes or sys.version_info < (3, 11)


def _replicas(cluster):
    return sum(
        w["resources"].get("replicas", {}).get("count", 0)
        for w in cluster.http().json("GET", "/api/v1/workers")
    )


def test_copies_of_peer_chunks_are_reused_and_deleted_with_the_chunk(cluster, remote):
    data = np.random.default_rng(0).random((400, 400))
    a = mt.tensor(data, chunk_size=100).execute()
    b = (a @ a.T).execute()  # every panel reads chunks held by both workers
    np.testing.assert_allclose(b.fetch(), data @ data.T)
    # copies of a's chunks stay while a is held (intermediates' copies go with them)
    assert wait_until(lambda: _replicas(cluster) > 0, 10.0)
    del a, b
    gc.collect()
    assert wait_until(lambda: _replicas(cluster) == 0, 10.0)


def test_dataframes_run_on_the_cluster(remote):
    import pandas as pd

    import jupyter_mars.dataframe as md

    df = pd.DataFrame({"a": np.arange(50), "b": np.linspace(0, 1, 50)})
    d = md.DataFrame(df, chunk_size=7)
    result = ((d * 2 - d["a"].to_pandas().mean()).iloc[5:40:3]).execute()
    pd.testing.assert_frame_equal(result.fetch(), (df * 2 - df["a"].mean()).iloc[5:40:3])
    data = mt.random.rand(30, 4, chunk_size=8)
    pd.testing.assert_frame_equal(md.DataFrame(data).to_pandas(), pd.DataFrame(data.to_numpy()))

"""``%mars`` and ``%%mars`` on a real IPython shell: connecting (to a published cluster, to
an address, to nothing), starting and stopping a kernel's own cluster, status, going back
to the embedded runtime, running cells in the background or blocking, and usage errors."""

from __future__ import annotations

import doctest
import http.cookiejar
import os
import re
import socket
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import psutil
import pytest
from IPython.core.interactiveshell import InteractiveShell

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars import magics
from jupyter_mars.cluster.worker.nvml import gpu_figures
from jupyter_mars.engine.future import ExecutionFuture
from jupyter_mars.launcher import new_cluster, registry
from jupyter_mars.widgets import snapshot
from tests.cluster.processes import cli_cluster


def test_the_examples_hold() -> None:
    assert doctest.testmod(magics).failed == 0


def _listed(address: str, gpus: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A worker as ``GET /api/v1/cluster`` lists it; ``gpus`` None: a worker of an older
    version, which sent no GPU field."""
    resources: dict[str, Any] = {"cpu_used": 0.5, "memory_rss": 2**30}
    if gpus is not None:
        resources["gpus"] = gpus
    return {
        "address": address,
        "n_cpu": 2,
        "memory_share": 8 * 2**30,
        "running": 1,
        "resources": resources,
    }


def test_status_has_a_gpu_column_only_where_a_worker_has_gpus() -> None:
    h100 = {"index": 0, "utilization": 12.0, "memory_used": 2**30, "memory_total": 80 * 2**30}
    without = {"workers": [_listed("a:1", []), _listed("b:2", None)]}
    assert magics.status_header(without) == ["worker", "cores", "CPU used", "memory", "tasks"]
    assert [len(row) for row in magics.status_rows(without)] == [5, 5]
    mixed = {"workers": [_listed("a:1", [h100]), _listed("b:2", [])]}
    assert magics.status_header(mixed)[4] == "GPUs"
    rows = magics.status_rows(mixed)
    assert [row[4] for row in rows] == ["0: 12% busy, 1.0 of 80.0 GiB", "none"]
    assert [row[-1] for row in rows] == ["1", "1"]  # the tasks still last


@pytest.fixture(scope="module")
def shell() -> Iterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "jupyter_mars")
    yield ip
    owned = ip.magics_manager.registry["MarsMagics"].cluster
    if owned is not None:
        owned.stop()
    InteractiveShell.clear_instance()


@pytest.fixture
def mars_magic(shell: InteractiveShell, session: mars.Session) -> Iterator[Any]:
    def run(line: str) -> Any:
        return shell.run_line_magic("mars", line)

    yield run
    session.as_default()


@pytest.mark.parametrize(
    "line",
    ["", "launch", "start --workers zero", "start --workers 0", "connect a b", "status --x", "'"],
)
def test_mistakes_print_the_usage_not_a_traceback(mars_magic: Any, capsys: Any, line: str) -> None:
    assert mars_magic(line) is None
    out = capsys.readouterr().out
    assert "usage:" in out or "cannot read the arguments" in out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("start --workers lots", "%mars start: error: argument --workers: expected a positive"),
        ("start --n-cpu 0", "argument --n-cpu: expected a positive integer, got '0'"),
        (
            "start --n-worker lots",
            "unrecognized arguments: --n-worker lots (did you mean --workers?)",
        ),
        ("stop --now", "%mars stop: error: unrecognized arguments: --now"),
    ],
)
def test_a_mistake_is_told_by_the_subcommand_that_met_it(
    mars_magic: Any, capsys: Any, line: str, said: str
) -> None:
    """The subcommand's usage and what was wrong with the value, never argparse's
    internals (``invalid _positive_int value``) nor the top-level usage."""
    assert mars_magic(line) is None
    out = capsys.readouterr().out
    assert said in out
    assert "_positive_int" not in out
    assert out.startswith(f"usage: %mars {line.split()[0]}")


def test_connect_without_an_address_says_when_none_is_published(
    mars_magic: Any, capsys: Any
) -> None:
    mars_magic("connect")
    assert "No jupyter_mars cluster is published on this machine" in capsys.readouterr().out


def test_connect_to_nothing_fails_clearly_within_five_seconds(mars_magic: Any, capsys: Any) -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        started = time.monotonic()
        mars_magic(f"connect http://127.0.0.1:{port}")
        waited = time.monotonic() - started
    assert waited < 6.5
    assert f"Cannot connect to http://127.0.0.1:{port}" in capsys.readouterr().out
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    mars_magic(f"connect http://127.0.0.1:{port}")
    assert "Cannot connect" in capsys.readouterr().out


def test_connect_uses_the_published_cluster_or_the_address_given(
    mars_magic: Any, capsys: Any, session: mars.Session
) -> None:
    with new_cluster(n_worker=2, n_cpu=1) as cluster:
        session.as_default()
        mars_magic("connect")
        line = capsys.readouterr().out.strip()
        assert line.startswith(f"Connected to {cluster.endpoint}: 2 workers, 2 cores, ")
        # a link that logs this browser in, not the address of a login form
        link = re.search(r"dashboard (\S+) \(logs one browser in, once\)$", line)
        assert link is not None, line
        assert link.group(1).startswith(f"{cluster.endpoint}/?login=")
        assert cluster.token not in line
        browser = urllib.request.build_opener(  # follows the redirect, keeps the cookie
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with browser.open(link.group(1), timeout=10) as opened:
            assert b"<title>jupyter_mars cluster</title>" in opened.read()
        remote = mars.get_default_session()
        assert remote is not session
        assert (mt.arange(10) * 3).sum().execute().fetch() == 135
        remote.close()
        mars_magic(f"connect {cluster.endpoint} --token {cluster.token}")
        assert "2 workers" in capsys.readouterr().out
        mars_magic(f"connect {cluster.endpoint} --token wrong")
        assert "refused the cluster token" in capsys.readouterr().out
        mars.get_default_session().close()


def test_connect_names_the_dashboard_of_the_jupyter_server_that_owns_the_cluster(
    mars_magic: Any, capsys: Any, session: mars.Session
) -> None:
    with new_cluster(n_worker=1, n_cpu=1) as cluster:
        owned = registry.ClusterRecord(
            cluster.endpoint, "server", jupyter_dashboard="/lab/mars/dashboard/"
        )
        registry.record(owned)
        try:
            session.as_default()
            mars_magic("connect")  # the server's cluster is the one published first
            line = capsys.readouterr().out.strip()
            assert line.startswith(f"Connected to {cluster.endpoint}: 1 worker, 1 core, ")
            assert line.endswith("dashboard /lab/mars/dashboard/ on this Jupyter server")
            mars.get_default_session().close()
        finally:
            registry.remove(owned.id)


def test_workers_sharing_this_machine_never_add_up_to_more_than_it_has(
    mars_magic: Any, capsys: Any
) -> None:
    cores, memory = os.cpu_count() or 1, psutil.virtual_memory().total
    mars_magic(f"start --workers 2 --n-cpu {cores}")  # no --memory: each may use it all
    try:
        line = capsys.readouterr().out
        found = re.search(r"2 workers, (\d+) cores?, ([\d.]+) GiB memory", line)
        assert found, line
        assert int(found[1]) == cores
        assert float(found[2]) == round(memory / 2**30, 1)
        mars_magic("status")
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].endswith(
            f"2 workers on 1 host: {cores} cores, {memory / 2**30:.1f} GiB memory"
        )
        half = f"of {memory / 2 / 2**30:.1f} GiB"
        assert all(half in row for row in lines[2:4]), lines  # each worker's own half
    finally:
        mars_magic("stop")


def test_start_status_stop_and_embedded(mars_magic: Any, capsys: Any) -> None:
    mars_magic("start --workers 2 --n-cpu 1 --memory 1g")
    out = capsys.readouterr().out
    assert "2 workers, 2 cores, 2.0 GiB memory" in out
    mars_magic("start")
    assert "%mars stop it first" in capsys.readouterr().out
    a = mt.random.rand(300, 300, chunk_size=100).execute()
    data = a.fetch()
    np.testing.assert_allclose(mt.inner(a, a).execute().fetch(), np.inner(data, data))
    mars_magic("status")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Cluster at http://127.0.0.1:")
    # a GPU column only where the workers have GPUs (without --cuda-devices: every one)
    gpus = ["GPUs"] if gpu_figures(None) else []
    assert lines[1].split() == ["worker", "cores", "CPU", "used", "memory", *gpus, "tasks"]
    assert len(lines) == 4  # one row per worker
    mars_magic("stop")
    said = capsys.readouterr().out
    assert "Stopped the cluster" in said
    assert "now runs in this process (the embedded runtime)" in said  # said, not silent
    assert isinstance(mars.get_default_session(), mars.EmbeddedSession)
    mars_magic("stop")
    assert "started no cluster" in capsys.readouterr().out
    mars_magic("embedded")
    assert "Embedded runtime" in capsys.readouterr().out
    mars_magic("status")
    assert "Embedded runtime" in capsys.readouterr().out


def test_stop_keeps_a_session_on_another_cluster(mars_magic: Any, capsys: Any) -> None:
    """Connected elsewhere after %mars start, the kernel keeps that session when its own
    cluster stops, and is told so."""
    with cli_cluster(1) as other:
        mars_magic("start --workers 1 --n-cpu 1")
        mars_magic(f"connect {other.url} --token {other.token}")
        capsys.readouterr()
        mars_magic("stop")
        said = capsys.readouterr().out
        assert f"This kernel still uses {other.url}" in said
        kept = mars.get_default_session()
        assert getattr(kept, "address", "").rstrip("/") == other.url.rstrip("/")
        assert kept.execute(mt.ones(3).sum()).fetch(session=kept) == 3
        kept.close()


def _cell(shell: InteractiveShell, line: str, cell: str) -> Any:
    return shell.run_cell_magic("mars", line, cell)


def test_a_cell_submits_its_lazy_results_as_one_future(
    shell: InteractiveShell, session: mars.Session
) -> None:
    shell.user_ns.update(mt=mt, md=md, np=np, pd=pd)
    future = _cell(
        shell,
        "--name totals",
        "x = mt.arange(12, chunk_size=5)\ny, z = x * 2, x + 1\nplain = 7\n(y + z).sum()",
    )
    assert isinstance(future, ExecutionFuture)
    assert future.name == "totals"
    total = future.result(timeout=60)
    assert total.fetch() == (np.arange(12) * 3 + 1).sum()
    for name, expected in (("y", np.arange(12) * 2), ("z", np.arange(12) + 1)):
        assert session.is_executed(shell.user_ns[name])  # filled in when the work ended
        np.testing.assert_array_equal(shell.user_ns[name].fetch(), expected)
    assert shell.user_ns["plain"] == 7


def test_a_blocking_cell_waits_and_returns_its_last_value(
    shell: InteractiveShell, session: mars.Session, capsys: Any
) -> None:
    shell.user_ns.update(md=md, pd=pd)
    frame = pd.DataFrame({"k": [1, 2, 1, 2], "v": [1.0, 2.0, 3.0, 4.0]})
    shell.user_ns["frame"] = frame
    result = _cell(
        shell,
        "--block --progress-after 0",
        "df = md.DataFrame(frame, chunk_size=2)\ndf.groupby('k').sum()",
    )
    pd.testing.assert_frame_equal(result.fetch(), frame.groupby("k").sum())
    assert session.is_executed(shell.user_ns["df"])
    assert "100.0%" in capsys.readouterr().out
    assert _cell(shell, "", "3 + 4") == 7  # nothing lazy: just the value
    _cell(shell, "--block --progress-after x", "1")
    assert "usage: %%mars" in capsys.readouterr().out


def test_a_syntax_error_shows_as_ipython_shows_a_cells(
    shell: InteractiveShell, capsys: Any
) -> None:
    """The line, a caret and the message; no frames of the magic or of ``ast``."""
    assert _cell(shell, "", "x = 1\ny = (x +\n") is None
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "SyntaxError" in shown
    assert "<%%mars cell>" in shown
    assert ":2" in shown  # the cell's line with the error
    assert "was never closed" in shown
    assert "magics.py" not in shown
    assert "ast.py" not in shown


def test_a_cell_is_named_after_what_it_computes(
    shell: InteractiveShell, session: mars.Session
) -> None:
    """Without --name, the future says what the cell computes; a cell ending in an
    assignment previews nothing (IPython shows nothing for it), not "None"."""
    shell.user_ns.update(mt=mt)
    future = _cell(shell, "", "x = mt.arange(6, chunk_size=4)\ny = x * 2\n(x + y).sum()")
    assert future.name == "x, y, (x + y).sum()"
    assert future.result(timeout=60).fetch() == 45
    quiet = _cell(shell, "", "z = mt.ones(3)\nw = z + 1")
    assert quiet.name == "z, w"
    assert quiet.result(timeout=60) is None
    assert snapshot(quiet).detail == ""
    assert snapshot(quiet).state == "succeeded"
    long = _cell(shell, "", "q = mt.ones(3)\n" + "q" + " + q" * 40)
    assert len(long.name) == 60
    assert long.name.endswith("…")

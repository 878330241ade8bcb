"""The PyODPS Mars guide's calls, with ``o`` an ``ODPS`` over an SQLite file: a local
cluster (the guide's own ``5, 4, 16`` too), an SSH one through a real sshd, re-attached
from another process, and tables read and written."""

from __future__ import annotations

import getpass
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.launcher import registry
from jupyter_mars.launcher.kubernetes.cluster import KubernetesClusterError
from jupyter_mars.launcher.odps import ODPS
from jupyter_mars.session import PendingRun, new_session
from tests.launcher.sshd import SshServer

TEST_MARS = pd.DataFrame({"col1": [0, 0, 0, 1, 1, 1, 2, 2], "col2": [0, 1, 2, 0, 1, 2, 0, 1]})
"""The guide's table ``test_mars``: its first six rows are the ones it prints."""


@pytest.fixture
def o(tmp_path: Path) -> ODPS:
    database = tmp_path / "warehouse.db"
    with sqlite3.connect(database) as connection:
        TEST_MARS.to_sql("test_mars", connection, index=False)
    return ODPS(database)


def test_the_guide_on_a_local_cluster(
    o: ODPS, session: mars.Session, capsys: pytest.CaptureFixture[str]
) -> None:
    embedded = session  # the guide's names follow: session is the cluster's
    client = o.create_mars_cluster(2, 1, 1, min_worker_num=1)  # what 2 cores hold
    try:
        assert client.get_logview_address() == client.endpoint + "/"
        with option_context(verbose=True):
            session = client.session
            t = mt.random.rand(100, 100)
            data = session.run(t)
            assert f"logview {client.endpoint}/" in capsys.readouterr().out
        assert data.shape == (100, 100)
        pending = session.run(t, wait=False)
        assert isinstance(pending, PendingRun)
        np.testing.assert_array_equal(pending.result(timeout=60), data)

        mars_url = client.endpoint
        session = new_session(mars_url)
        df = o.to_mars_dataframe("test_mars")
        pd.testing.assert_frame_equal(df.iloc[:6].execute().fetch(), TEST_MARS.iloc[:6])
        df2 = df + 1
        assert o.persist_mars_dataframe(df2, "test_mars_persist") == 8
        head = o.get_table("test_mars_persist").to_df().head(6).execute().fetch()
        pd.testing.assert_frame_equal(head, TEST_MARS.iloc[:6] + 1)
        # written by the cluster's workers, read back here by pandas
        with sqlite3.connect(o.url.removeprefix("sqlite:///")) as connection:
            written = pd.read_sql("SELECT * FROM test_mars_persist", connection)
        pd.testing.assert_frame_equal(written, TEST_MARS + 1)
        assert o.persist_mars_dataframe(df2, "test_mars_persist", overwrite=False) == 8
        assert len(o.get_table("test_mars_persist").to_df().execute().fetch()) == 16
        session.close()
    finally:
        client.stop_server()
        embedded.as_default()
    assert not client.running


def test_the_guide_literally_five_workers_of_four_cores_and_16_gib(
    o: ODPS, session: mars.Session
) -> None:
    # 5 workers of 1 process each on this 2-core machine: they share its cores and
    # memory, said in one warning line each, and run a short job
    with pytest.warns(UserWarning, match="they share") as said:
        client = o.create_mars_cluster(5, 4, 16, min_worker_num=3)
    try:
        lines = [str(w.message) for w in said]
        assert any(line.startswith("a worker of 4 cores runs 4 tasks at once") for line in lines)
        assert any(line.startswith("5 workers of 16GiB ask 80GiB") for line in lines)
        assert client.n_workers == 5
        assert client.joined_workers >= 3
        t = mt.random.rand(100, 100)
        assert client.session.run(t).shape == (100, 100)
    finally:
        client.stop_server()
        session.as_default()


def test_bad_calls_name_the_argument(o: ODPS) -> None:
    with pytest.raises(ValueError, match="kind must be one of local, ssh, kubernetes"):
        o.create_mars_cluster(1, kind="yarn")
    with pytest.raises(TypeError, match="kind='ssh' needs hosts="):
        o.create_mars_cluster(1, kind="ssh")
    with pytest.raises(TypeError, match="instance_id re-attaches .* worker_num"):
        o.create_mars_cluster(2, instance_id="abc")
    with pytest.raises(LookupError, match="no cluster 'abc' runs on this machine"):
        o.create_mars_cluster(instance_id="abc")
    with pytest.raises(TypeError, match="database must be a SQLAlchemy URL"):
        ODPS(None)
    with pytest.raises(TypeError, match="table must be a table name"):
        o.to_mars_dataframe(3)  # type: ignore[arg-type]
    with pytest.raises(Exception, match="no_such_table"):
        o.get_table("no_such_table")


def test_the_kubernetes_kind_is_the_kubernetes_launcher(
    o: ODPS, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no kubeconfig and not in a pod: the launcher itself says there is no cluster to use
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "missing-kubeconfig"))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with pytest.raises(KubernetesClusterError, match="no Kubernetes cluster to start Mars on"):
        o.create_mars_cluster(2, 1, 1, kind="kubernetes", image="jupyter-mars:0.1.0")
    with pytest.raises(ValueError, match="worker_num"):
        o.create_mars_cluster(0, 1, 1, kind="kubernetes")


SSH_REATTACH = textwrap.dedent(
    """
    import sys
    import jupyter_mars.tensor as mt
    from jupyter_mars.launcher.odps import ODPS

    client = ODPS(sys.argv[1]).create_mars_cluster(instance_id=sys.argv[2])
    print(client.session.run(mt.ones((10, 10), chunk_size=5).sum()))
    client.stop_server()
    """
)


@pytest.fixture
def ssh_hosts(ssh_server: SshServer) -> list[dict[str, object]]:
    return [
        {
            "address": ssh_server.host,
            "port": ssh_server.port,
            "user": getpass.getuser(),
            "key_file": str(ssh_server.client_key),
            "python": sys.executable,
        }
    ]


def test_an_ssh_cluster_with_the_keywords_reattached_from_another_process(
    o: ODPS,
    ssh_server: SshServer,
    ssh_hosts: list[dict[str, object]],
    session: mars.Session,
) -> None:
    client = o.create_mars_cluster(
        2,
        1,
        "1GiB",
        min_worker_num=2,
        kind="ssh",
        hosts=ssh_hosts,
        known_hosts=str(ssh_server.known_hosts),
    )
    try:
        assert client.n_workers == 2
        assert client.joined_workers == 2
        assert client.get_logview_address() == client.endpoint + "/"
        assert client.session.run(mt.arange(4) * 2).tolist() == [0, 2, 4, 6]
        pids = [w.pid for w in client.workers] + [client._supervisor_pid]
        done = subprocess.run(
            [sys.executable, "-c", SSH_REATTACH, o.url, client.instance_id],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "100.0"
        assert registry.find(client.id) is None
        for pid in pids:
            assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie"
    finally:
        if registry.find(client.id) is not None:
            client.stop()
        session.as_default()

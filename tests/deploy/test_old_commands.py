"""The older commands as documents 002 and 003 run them: ``mars-scheduler``, ``mars-web``
and ``mars-worker`` with the older flags form a cluster that runs the seed through the
web process; the console scripts exist; refused flags stop with their replacement."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.deploy import scheduler, web, worker
from jupyter_mars.session import new_session
from tests.deploy.old_cluster import old_cluster

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def notes(process, prefix: str) -> list[str]:
    return [line for line in process.lines if line.startswith(prefix)]


def test_standalone_mode_runs_the_seed_through_the_web_process(tmp_path):
    # the processes keep their token files where this test's client looks for them
    with old_cluster(os.environ["JUPYTER_MARS_TOKEN_DIR"], "--nproc", "2") as cluster:
        assert notes(cluster.scheduler, "mars-scheduler: ") == [
            "mars-scheduler: --nproc 2: ignored: a supervisor is one process (its tasks run "
            "on the workers, whose --n-cpu sets how many at once)"
        ]
        assert cluster.scheduler_address.startswith("127.0.0.1:")  # -a: where it listens
        cluster.start_web()
        spill = f"{tmp_path}/a:{tmp_path}/b"
        alone = cluster.add_worker(
            "--cpu-procs", "1", "--net-procs", "1", "--cache-mem", "30%",
            "--spill-dir", spill, "--disable-proc-recover",
        )  # fmt: skip
        nannied = cluster.add_worker(
            "--cpu-procs", "1", "--plasma-dir", str(tmp_path), "--lock-free-fileio",
            "--phy-mem", "90%", "--min-mem", "128m",
        )  # fmt: skip
        cluster.wait_for_workers(2)
        assert notes(alone, "mars-worker: ") == [
            "mars-worker: --cpu-procs 1: taken as --n-cpu 1",
            "mars-worker: --net-procs 1: taken as --n-io-process 1",
            "mars-worker: --disable-proc-recover: taken as --no-nanny",
        ]
        # printed by the nanny only: its worker is handed today's flags
        said = [line.split(": ")[1] for line in notes(nannied, "mars-worker: ")]
        assert said == ["--cpu-procs 1", f"--plasma-dir {tmp_path}", "--lock-free-fileio"]
        assert (tmp_path / "a").is_dir()
        assert (tmp_path / "b").is_dir()

        workers = cluster.http().json("GET", "/api/v1/workers")
        assert sorted(w["n_cpu"] for w in workers) == [1, 1]
        assert {w["address"] for w in workers} == {alone.address, nannied.address}

        # document 003's snippet, with only the imports and the address changed: the
        # token is the one mars-web keeps in a file under its address, as a supervisor does
        session = new_session(cluster.url).as_default()
        try:
            a = mt.ones((2000, 2000), chunk_size=200)
            b = mt.inner(a, a)
            b.execute()
            df = md.DataFrame(a).sum()
            df.execute()
            ones = np.ones((2000, 2000))
            np.testing.assert_array_equal(b.fetch(), np.inner(ones, ones))
            pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(ones).sum())
            future = mt.random.rand(100, 10, chunk_size=30).mean().execute(wait=False)
            assert 0 < future.result() < 1
        finally:
            session.close()


@pytest.mark.parametrize(
    ("main", "argv", "message"),
    [
        (
            worker.main,
            ["-s", "127.0.0.1:1", "--kv-store", "etcd://127.0.0.1:4001"],
            "mars-worker: error: argument --kv-store is no longer taken: there is no etcd "
            "key-value store: list the supervisors with -s/--supervisors",
        ),
        (
            scheduler.main,
            ["-k", "etcd://127.0.0.1:4001"],
            "mars-scheduler: error: argument -k is no longer taken: there is no etcd "
            "key-value store: list the supervisors with -s/--supervisors",
        ),
        (
            web.main,
            ["-s", "127.0.0.1:1", "--ui-port", "8080"],
            "mars-web: error: argument --ui-port is no longer taken: the dashboard is "
            "served on the web service's own port: -p/--port",
        ),
        (
            worker.main,
            ["-s", "127.0.0.1:1", "--cpu-procs", "0"],
            "mars-worker: error: argument --n-cpu: expected a number of cores >= 1, got '0'",
        ),
    ],
)
def test_refused_or_wrong_older_flags_exit_2_in_one_line(capsys, main, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == message


def console_scripts() -> dict[str, str]:
    """``[project.scripts]`` of pyproject.toml, read by hand: tomllib is Python 3.11's."""
    section = PYPROJECT.read_text().split("[project.scripts]\n", 1)[1].split("\n[", 1)[0]
    entries = [line.split("=", 1) for line in section.splitlines() if "=" in line]
    return {name.strip(): target.strip().strip('"') for name, target in entries}


def test_console_scripts_name_functions_that_run(capsys):
    scripts = console_scripts()
    deploy = {name: target for name, target in scripts.items() if ".deploy." in target}
    assert set(deploy) == {"mars-supervisor", "mars-worker", "mars-scheduler", "mars-web"}
    for name, target in deploy.items():
        module, _, function = target.partition(":")
        assert getattr(importlib.import_module(module), function)(["--help"]) == 0
        assert capsys.readouterr().out.startswith(f"usage: {name} ")

"""The Kubernetes entry points as local processes with a pod's environment: a supervisor
and two workers form a real cluster that runs the seed, and the workers have the cores,
memory and cache the environment gave them."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.deploy.kubernetes.pods import Pods, supervisor_pod

MIB = 1 << 20


def run_seed(pods: Pods) -> None:
    """The document's snippet, against the cluster's web address, compared with NumPy."""
    remote = mars.new_session(pods.url, token=pods.token, default=False)
    try:
        a = mt.ones((2000, 2000), chunk_size=200)
        b = mt.inner(a, a).execute(session=remote).fetch(session=remote)
        np.testing.assert_array_equal(b, np.inner(np.ones((2000, 2000)), np.ones((2000, 2000))))
        total = md.DataFrame(a).sum().execute(session=remote).fetch(session=remote)
        pd.testing.assert_series_equal(total, pd.DataFrame(np.ones((2000, 2000))).sum())
    finally:
        remote.close()


def spill_owners(root: str) -> list[str]:
    """The private subdirectories workers made in a spill directory."""
    return os.listdir(root) if os.path.isdir(root) else []


@pytest.mark.parametrize("supervisors_from", ["MARS_SUPERVISOR_ADDRESS", "MARS_CLUSTER_DETAIL"])
def test_pods_form_a_cluster_that_runs_the_seed(tmp_path, supervisors_from):
    module = "supervisor" if supervisors_from == "MARS_SUPERVISOR_ADDRESS" else "scheduler"
    with supervisor_pod(module) as pods:
        spill = [str(tmp_path / f"spill{i}") for i in range(2)]
        tuning = {"MARS_CACHE_MEM_SIZE": "25%", "MARS_SPILL_DIRS": ",".join(spill)}
        if supervisors_from == "MARS_SUPERVISOR_ADDRESS":
            resources = {"MARS_CPU_TOTAL": "1", "MARS_MEMORY_TOTAL": str(1024 * MIB)}
            where = {"MARS_SUPERVISOR_ADDRESS": pods.rpc}
        else:  # KubeDL's detail names the schedulers, and here the worker's resources too
            resources = {}
            detail = {
                "cluster": {"scheduler": [pods.rpc], "webservice": [pods.url[7:]]},
                "task": {
                    "type": "worker",
                    "index": 0,
                    "resources": {"cpu_procs": 1, "phy_mem": 1024 * MIB},
                },
            }
            where = {"MARS_CLUSTER_DETAIL": json.dumps(detail)}
        for _ in range(2):
            pods.start_worker({**where, **resources, **tuning})
        workers = pods.workers_model(2)
        for worker in workers:
            store = worker["resources"]["store"]
            assert worker["n_cpu"] == 1
            assert store["phy_mem_bytes"] == 1024 * MIB
            assert store["cache_bytes"] == 256 * MIB  # 25% of the memory limit
        # each worker claimed its own corner of both spill directories
        assert all(len(spill_owners(root)) == 2 for root in spill)
        run_seed(pods)
        said = "\n".join(pods.workers[0].lines)
        assert supervisors_from in said
        assert pods.token not in said

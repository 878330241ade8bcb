"""Bad settings are refused before anything is built, naming the argument."""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mars.launcher.kubernetes.spec import cluster_spec

GIB = 1024**3

BAD: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"worker_num": 0}, ValueError, "worker_num"),
    ({"worker_num": "3"}, TypeError, "worker_num"),
    ({"worker_num": True}, TypeError, "worker_num"),
    ({"supervisor_num": 0}, ValueError, "supervisor_num"),
    ({"supervisor_num": 2}, ValueError, "supervisor_num=2: a cluster on Kubernetes has one"),
    ({"worker_num": 2, "min_worker_num": 3}, ValueError, "min_worker_num"),
    ({"min_worker_num": 0}, ValueError, "min_worker_num"),
    ({"worker_mem": "lots"}, ValueError, "worker_mem"),
    ({"worker_mem": 0}, ValueError, "worker_mem"),
    ({"worker_mem": -1}, ValueError, "worker_mem"),
    ({"supervisor_mem": "lots"}, ValueError, "supervisor_mem"),
    ({"worker_cpu": "2"}, TypeError, "worker_cpu"),
    ({"worker_cpu": 0}, ValueError, "worker_cpu"),
    ({"supervisor_cpu": float("nan")}, ValueError, "supervisor_cpu"),
    ({"worker_cache_mem": "lots"}, ValueError, "worker_cache_mem"),
    ({"worker_mem": 4, "worker_cache_mem": "10Gi"}, ValueError, "worker_cache_mem"),
    ({"worker_spill_paths": ["relative/dir"]}, ValueError, "worker_spill_paths"),
    ({"worker_spill_paths": ["/a", "/a"]}, ValueError, "worker_spill_paths"),
    ({"worker_spill_paths": 3}, TypeError, "worker_spill_paths"),
    ({"worker_spill_volume": "nfs"}, ValueError, "worker_spill_volume"),
    ({"service_type": "ExternalName"}, ValueError, "service_type"),
    ({"name": "Has_Caps"}, ValueError, "name"),
    ({"name": "x" * 41}, ValueError, "name"),
    ({"namespace": 7}, TypeError, "namespace"),
    ({"create_namespace": "yes"}, TypeError, "create_namespace"),
    ({"image": "two words"}, ValueError, "image"),
    ({"image_pull_policy": "Sometimes"}, ValueError, "image_pull_policy"),
    ({"extra_env": {"1BAD": "x"}}, ValueError, "extra_env"),
    ({"extra_env": {"N": 1}}, TypeError, "extra_env"),
    ({"extra_env": ["N=1"]}, TypeError, "extra_env"),
    ({"extra_env": {"MARS_BIND_PORT": "1"}}, ValueError, "extra_env: MARS_BIND_PORT"),
    ({"extra_labels": {"bad key!": "x"}}, ValueError, "extra_labels"),
    ({"extra_labels": {"app.kubernetes.io/name": "x"}}, ValueError, "extra_labels"),
    ({"extra_labels": {"k": "no spaces"}}, ValueError, "extra_labels"),
    ({"extra_volumes": [{"name": "d", "emptyDir": {}}]}, ValueError, "mountPath"),
    ({"extra_volumes": [{"name": "d", "mountPath": "/d"}]}, ValueError, "volume source"),
    ({"extra_volumes": {"name": "d"}}, TypeError, "extra_volumes"),
    ({"pre_stop_command": ["sleep", 5]}, TypeError, "pre_stop_command"),
    ({"token_secret": "Bad Name"}, ValueError, "token_secret"),
]


@pytest.mark.parametrize(("kwargs", "error", "named"), BAD)
def test_a_bad_argument_is_named(
    kwargs: dict[str, Any], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        cluster_spec(**kwargs)


def test_sizes_read_as_mars_and_pyodps_write_them() -> None:
    assert cluster_spec(worker_mem=16).worker_mem == 16 * GIB
    assert cluster_spec(worker_mem=4 * GIB).worker_mem == 4 * GIB
    assert cluster_spec(worker_mem="512Mi").worker_mem == 512 * 1024**2
    assert cluster_spec(worker_mem="10Gi").worker_mem == 10 * GIB
    assert cluster_spec(worker_mem=16, worker_cache_mem="10Gi").worker_cache_mem == "10Gi"
    assert cluster_spec(worker_cache_mem=0.5).worker_cache_mem == "0.5"


def test_defaults() -> None:
    spec = cluster_spec(worker_num=3)
    assert spec.min_worker_num == 3
    assert spec.service_type == "NodePort"
    assert spec.image == "jupyter-mars:0.1.0"
    assert spec.secret_name == "jupyter-mars-token"
    assert cluster_spec(worker_num=3, min_worker_num=1).min_worker_num == 1

"""GPU slots on a cluster of real supervisor and worker processes: GPU tasks go only to
workers with a GPU slot, and a job with one fails at once where no worker has any."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.tensor.core import moved
from tests.cluster.processes import cli_cluster
from tests.conftest import needs_gpu, to_numpy


def _on_gpu(t: mt.Tensor) -> mt.Tensor:
    """``t`` on a GPU whether or not this process can use one (``to_gpu()`` checks first):
    what reaches the cluster is the same graph, with its GPU tasks."""
    return moved(t, True)


@pytest.mark.parametrize("devices", [(), ("--cuda-devices", "")], ids=["default", "none"])
def test_a_gpu_job_on_workers_without_a_gpu_fails_at_once_and_cpu_jobs_run(devices):
    # without a GPU here, the default is no device too
    with cli_cluster(1, "--n-cpu", "1", *devices) as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            total = _on_gpu(mt.ones(8, chunk_size=4)).sum()
            with pytest.raises(Exception, match="mars-worker --cuda-devices 0") as raised:
                remote.execute(total)
            assert type(raised.value).__name__ == "GPUUnavailable"
            cpu = remote.execute(mt.ones(8, chunk_size=4).sum())
            assert remote.fetch(cpu) == 8
        finally:
            remote.close()


# ---------------------------------------------------------------------- on a GPU


@needs_gpu
def test_two_gpu_workers_sum_a_gpu_tensor_and_exchange_its_chunks():
    with cli_cluster(2, "--n-cpu", "1", "--cuda-devices", "0") as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            ones = mt.ones((4000, 4000), chunk_size=1000).to_gpu()
            assert float(to_numpy(remote.fetch(remote.execute(ones.sum())))) == 4000 * 4000
            # each chunk of x + x.T reads one of x's chunks that may be on the other worker
            x = mt.arange(16, chunk_size=4).reshape(4, 4).to_gpu()
            both = remote.fetch(remote.execute(x + x.T))
            expected = np.arange(16).reshape(4, 4)
            np.testing.assert_array_equal(to_numpy(both), expected + expected.T)
        finally:
            remote.close()


@needs_gpu
def test_a_gpu_worker_moves_chunks_beyond_gpu_mem_to_host_and_reads_them_back():
    # 16 chunks of 8 MB on a device store of 32 MB: most of them move to host memory
    with cli_cluster(1, "--n-cpu", "1", "--cuda-devices", "0", "--gpu-mem", "32m") as cluster:
        remote = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            ones = remote.execute(mt.ones((4000, 4000), chunk_size=1000).to_gpu())
            total = remote.fetch(remote.execute((ones * 2).sum()))  # GPU tasks read them
            assert float(to_numpy(total)) == 2 * 4000 * 4000
        finally:
            remote.close()
